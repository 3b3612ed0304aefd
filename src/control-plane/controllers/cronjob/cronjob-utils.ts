// pkg/controller/cronjob/utils.go: when a CronJob should have run, the Job it creates for a scheduled time, and
// the active list.
//
//   schedule "*/1 * * * *", lastScheduleTime 12:03:00, now 12:05:30 → missed 12:04 and 12:05; the most recent,
//   12:05, is the one to run (a controller never runs every missed time: only the latest).
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { ObjectReference } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../shared/api/types';
import { newControllerRef, parseTime } from '../shared/controller-utils';
import { type CronSchedule, formatRFC3339InZone } from './cron-schedule';

/** batchv1.CronJobScheduledTimestampAnnotation (CronJobsScheduledAnnotation, beta and on in v1.32). */
export const CronJobScheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** nextScheduleDelta: requeues land 100 ms after the scheduled time, against clock skew. */
export const NextScheduleDeltaMs = 100;

export const MissedSchedules = { None: 'none', Few: 'few', Many: 'many' } as const;
export type MissedSchedules = (typeof MissedSchedules)[keyof typeof MissedSchedules];

const cronJobKind = { apiVersion: 'batch/v1', kind: 'CronJob' };

export function inActiveList(cj: CronJob, uid: string | undefined): boolean {
  return (cj.status?.active ?? []).some((j) => j.uid === uid);
}

export function inActiveListByName(cj: CronJob, namespace: string, name: string): boolean {
  return (cj.status?.active ?? []).some((j) => j.name === name && j.namespace === namespace);
}

export function deleteFromActiveList(cj: CronJob, uid: string | undefined): void {
  const status = (cj.status ??= {});
  status.active = (status.active ?? []).filter((j) => j.uid !== uid);
}

export interface MostRecent {
  /** The last schedule time, or the CronJob's creation. */
  earliest: number;
  /** The most recent time a Job should have been created, at or before now, if any. */
  mostRecent?: number;
  missed: MissedSchedules;
  error?: string;
}

/**
 * mostRecentScheduleTime: the latest activation in (earliest, now], counting (roughly, as Kubernetes does: by the
 * interval between the first two activations) how many were missed; more than 100 is "many". With
 * includeStartingDeadlineSeconds nothing older than now − startingDeadlineSeconds is considered.
 */
export function mostRecentScheduleTime(cj: CronJob & KubeObject, now: number, schedule: CronSchedule, includeStartingDeadlineSeconds: boolean): MostRecent {
  let earliest = parseTime(cj.status?.lastScheduleTime) ?? parseTime(cj.metadata.creationTimestamp) ?? 0;
  const sds = cj.spec?.startingDeadlineSeconds;
  if (includeStartingDeadlineSeconds && sds !== undefined && sds !== null) {
    // The controller will not schedule anything before this point.
    const schedulingDeadline = now - sds * 1000;
    if (schedulingDeadline > earliest) earliest = schedulingDeadline;
  }
  const t1 = schedule.next(earliest);
  const t2 = t1 === undefined ? undefined : schedule.next(t1);
  if (t1 !== undefined && now < t1) return { earliest, missed: MissedSchedules.None };
  if (t1 !== undefined && t2 !== undefined && now < t2) return { earliest, mostRecent: t1, missed: MissedSchedules.None };
  // A schedule that is valid but never happens ("59 23 31 2 *") has no interval.
  const between = t1 !== undefined && t2 !== undefined ? Math.round((t2 - t1) / 1000) : 0;
  if (between < 1) return { earliest, missed: MissedSchedules.None, error: 'time difference between two schedules is less than 1 second' };
  const elapsed = Math.floor((now - t1!) / 1000);
  const numberOfMissed = Math.floor(elapsed / between) + 1;
  // Start from an estimate of the earliest missed time, one interval further back, and walk forward.
  const potentialEarliest = t1! + (numberOfMissed - 2) * between * 1000;
  let mostRecent: number | undefined;
  for (let t = schedule.next(potentialEarliest); t !== undefined && t <= now; t = schedule.next(t)) mostRecent = t;
  const missed = numberOfMissed > 100 ? MissedSchedules.Many : numberOfMissed > 0 ? MissedSchedules.Few : MissedSchedules.None;
  return { earliest, mostRecent, missed };
}

/** nextScheduleTimeDuration: how long until the next activation after the latest one (plus 100 ms). */
export function nextScheduleTimeDuration(cj: CronJob & KubeObject, now: number, schedule: CronSchedule): number {
  const r = mostRecentScheduleTime(cj, now, schedule, false);
  let from: number;
  if (r.error !== undefined) from = now;
  else if (r.mostRecent === undefined) from = r.missed === MissedSchedules.None ? r.earliest : now;
  else from = r.mostRecent;
  const next = schedule.next(from);
  // A schedule that never fires again: look again in a year, as robfig's zero time would effectively do.
  if (next === undefined) return 365 * 86_400_000;
  return next + NextScheduleDeltaMs - now;
}

/** getJobName: "<cronjob>-<scheduled time in minutes since the epoch>". */
export function getJobName(cj: CronJob & KubeObject, scheduledTime: number): string {
  return `${cj.metadata.name}-${Math.floor(scheduledTime / 60_000)}`;
}

/** getJobFromTemplate2: the Job for one scheduled time, named deterministically so it is created once. */
export function getJobFromTemplate(cj: CronJob & KubeObject, scheduledTime: number): Job & KubeObject {
  const template = cj.spec?.jobTemplate;
  const labels = { ...(template?.metadata?.labels ?? {}) };
  const annotations: Record<string, string> = { ...(template?.metadata?.annotations ?? {}) };
  annotations[CronJobScheduledTimestampAnnotation] = formatRFC3339InZone(scheduledTime, cj.spec?.timeZone ?? undefined);
  const job: Job & KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: getJobName(cj, scheduledTime),
      namespace: cj.metadata.namespace,
      labels,
      annotations,
      ownerReferences: [newControllerRef(cj, cronJobKind)],
    },
    spec: structuredClone(template?.spec ?? { template: {} }),
  };
  if (Object.keys(labels).length === 0) delete job.metadata.labels;
  return job;
}

/** ref.GetReference: what status.active lists. */
export function getRef(job: Job & KubeObject): ObjectReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata.name,
    namespace: job.metadata.namespace,
    resourceVersion: job.metadata.resourceVersion,
    uid: job.metadata.uid,
  };
}

/** byJobStartTime: started before not started, earlier start first, ties by name. */
export function compareByJobStartTime(a: Job & KubeObject, b: Job & KubeObject): number {
  const sa = parseTime(a.status?.startTime);
  const sb = parseTime(b.status?.startTime);
  if (sa === undefined && sb !== undefined) return 1;
  if (sa !== undefined && sb === undefined) return -1;
  if (sa === sb) return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
  return sa! - sb!;
}
