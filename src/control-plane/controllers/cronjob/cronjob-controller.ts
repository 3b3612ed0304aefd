// kube-controller-manager's CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go, v1.32). Each sync
// of a CronJob:
//
//   reconciles status.active with its Jobs (finished ones leave: "Saw completed job: hello-29123456, status:
//   Complete"; lastSuccessfulTime follows the latest completion), prunes finished Jobs beyond
//   successfulJobsHistoryLimit / failedJobsHistoryLimit (oldest first),
//   then, unless suspended, finds the most recent unmet schedule time; too late for startingDeadlineSeconds →
//   MissSchedule; Forbid with a Job running → skip; Replace → delete the running Jobs; then creates the Job
//   "<cronjob>-<minutes since epoch>" and records it in status.active and lastScheduleTime,
//   and requeues itself for the next schedule time (+100 ms) on the virtual clock.
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import { DeletedFinalStateUnknown, type Lister, type SharedInformer } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { rfc3339 } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { hasStatusCause, NamespaceTerminatingCause } from '../serviceaccount/serviceaccounts-controller';
import { BaseController } from '../shared/controller';
import { getControllerOf, isControlledBy, parseTime } from '../shared/controller-utils';
import { errorText } from '../shared/pod-control';
import { finishedCondition, isJobFinished, isJobSucceeded } from '../job/job-utils';
import { type CronSchedule, isValidTimeZone, parseStandard } from './cron-schedule';
import {
  compareByJobStartTime,
  deleteFromActiveList,
  getJobFromTemplate,
  getJobName,
  getRef,
  inActiveList,
  inActiveListByName,
  MissedSchedules,
  mostRecentScheduleTime,
  nextScheduleTimeDuration,
} from './cronjob-utils';
import { sameJson } from '../../../shared/lib/same-json';

export const CronJobControllerName = 'cronjob-controller';

type CronJobObj = Typed<CronJob>;
type JobObj = Typed<Job>;

export interface CronJobControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

/** RFC 1123 with numeric zone, as Go's time.RFC1123Z: "Mon, 02 Jan 2006 15:04:05 +0000". */
export function formatRFC1123Z(ms: number): string {
  const d = new Date(ms);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${day}, ${p(d.getUTCDate())} ${mon} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

export class CronJobController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly recorder: EventRecorder;
  private readonly cronJobInformer: SharedInformer<CronJob>;
  private readonly cronJobLister: Lister<CronJobObj>;
  private readonly jobInformer: SharedInformer<Job>;
  private readonly jobLister: Lister<JobObj>;
  private readonly registrations: { remove(): void }[] = [];

  constructor(options: CronJobControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: CronJobControllerName } });
    this.cronJobInformer = options.informers.cronJobs;
    this.cronJobLister = this.cronJobInformer.lister;
    this.jobInformer = options.informers.jobs;
    this.jobLister = this.jobInformer.lister;
    const queue = new RateLimitingQueue<string>({ name: 'cronjob', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: CronJobControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.sync(key),
      maxRetries: Infinity,
      cacheSyncs: [() => this.jobInformer.hasSynced(), () => this.cronJobInformer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
    this.registrations.push(
      this.jobInformer.addEventHandler({
        onAdd: (job) => this.addJob(job),
        onUpdate: (oldJob, curJob) => this.updateJob(oldJob, curJob),
        onDelete: (obj) => this.deleteJob(obj),
      }),
      this.cronJobInformer.addEventHandler({
        onAdd: (cj) => this.enqueueController(cj),
        onUpdate: (oldCJ, curCJ) => this.updateCronJob(oldCJ, curCJ),
        onDelete: (obj) => this.enqueueController(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj),
      }),
    );
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations.splice(0)) r.remove();
  }

  // ---------------------------------------------------------------- event handlers

  private enqueueController(cj: KubeObject): void {
    this.queue.add(metaNamespaceKeyFunc(cj));
  }

  private resolveControllerRef(namespace: string, ref: { kind: string; name: string; uid: string }): CronJobObj | undefined {
    if (ref.kind !== 'CronJob') return undefined;
    const cj = this.cronJobLister.get(namespace, ref.name);
    return cj && cj.metadata.uid === ref.uid ? cj : undefined;
  }

  private addJob(job: JobObj): void {
    if (job.metadata.deletionTimestamp) {
      this.deleteJob(job);
      return;
    }
    const ref = getControllerOf(job);
    if (!ref) return;
    const cj = this.resolveControllerRef(job.metadata.namespace ?? '', ref);
    if (cj) this.enqueueController(cj);
  }

  private updateJob(oldJob: JobObj, curJob: JobObj): void {
    if (curJob.metadata.resourceVersion === oldJob.metadata.resourceVersion) return;
    const curRef = getControllerOf(curJob);
    const oldRef = getControllerOf(oldJob);
    if (!sameJson(curRef ?? null, oldRef ?? null) && oldRef) {
      const cj = this.resolveControllerRef(oldJob.metadata.namespace ?? '', oldRef);
      if (cj) this.enqueueController(cj);
    }
    if (curRef) {
      const cj = this.resolveControllerRef(curJob.metadata.namespace ?? '', curRef);
      if (cj) this.enqueueController(cj);
    }
  }

  private deleteJob(obj: JobObj | DeletedFinalStateUnknown<JobObj>): void {
    const job = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    const ref = getControllerOf(job);
    if (!ref) return;
    const cj = this.resolveControllerRef(job.metadata.namespace ?? '', ref);
    if (cj) this.enqueueController(cj);
  }

  /** updateCronJob: a new schedule or time zone requeues for its next time; any other change syncs now. */
  private updateCronJob(oldCJ: CronJobObj, curCJ: CronJobObj): void {
    if (oldCJ.spec?.schedule !== curCJ.spec?.schedule || (oldCJ.spec?.timeZone ?? undefined) !== (curCJ.spec?.timeZone ?? undefined)) {
      let sched: CronSchedule;
      try {
        sched = parseStandard(formatSchedule(curCJ));
      } catch {
        this.recorder.event(curCJ, 'Warning', 'UnParseableCronJobSchedule', `unparseable schedule for cronjob: ${curCJ.spec?.schedule}`);
        return;
      }
      this.queue.addAfter(metaNamespaceKeyFunc(curCJ), nextScheduleTimeDuration(curCJ, this.clock.now(), sched));
      return;
    }
    this.enqueueController(curCJ);
  }

  // ---------------------------------------------------------------- sync

  /** sync: the key is "namespace/name". Requeues itself for the next schedule time. */
  sync(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cronJob = this.cronJobLister.get(namespace, name);
    if (!cronJob) return;
    const jobs = this.getJobsToBeReconciled(cronJob);
    // One copy collects every status change; one update at the end.
    const cj = structuredClone(cronJob) as CronJobObj;
    const updateAfterCleanup = this.cleanupFinishedJobs(cj, jobs);
    const { requeueAfter, updateStatus, error } = this.syncCronJob(cj, jobs);
    if (updateAfterCleanup || updateStatus) {
      const status = structuredClone(cj.status ?? {});
      if (status.active && status.active.length === 0) delete status.active;
      this.client.cronJobs.updateStatus({ ...cj, status });
    }
    if (requeueAfter !== undefined) {
      this.queue.addAfter(key, requeueAfter);
      return;
    }
    if (error !== undefined) throw error;
  }

  /** getJobsToBeReconciled: the namespace's Jobs whose controller reference names this CronJob. */
  private getJobsToBeReconciled(cj: CronJobObj): JobObj[] {
    // Every Job of the namespace: one whose labels no longer match the template is still ours by its reference.
    return this.jobLister.listNamespace(cj.metadata.namespace ?? '').filter((j) => getControllerOf(j)?.name === cj.metadata.name);
  }

  private syncCronJob(cj: CronJobObj, jobs: readonly JobObj[]): { requeueAfter?: number; updateStatus: boolean; error?: unknown } {
    const now = this.clock.now();
    let updateStatus = false;
    const status = (cj.status ??= {});
    const children = new Set<string>();
    for (const j of jobs) {
      const uid = j.metadata.uid ?? '';
      children.add(uid);
      const found = inActiveList(cj, uid);
      if (!found && !isJobFinished(j)) {
        let fresh: CronJobObj;
        try {
          fresh = this.client.cronJobs.get(cj.metadata.name ?? '', { namespace: cj.metadata.namespace });
        } catch (err) {
          return { updateStatus, error: err };
        }
        if (inActiveList(fresh, uid)) {
          Object.assign(cj, structuredClone(fresh));
          continue;
        }
        // An unfinished Job of ours that we do not list: we crashed between creating it and writing status, or
        // someone made it for us to adopt.
        this.recorder.event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`);
      } else if (found && isJobFinished(j)) {
        deleteFromActiveList(cj, uid);
        this.recorder.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, status: ${finishedCondition(j)}`);
        updateStatus = true;
      } else if (isJobSucceeded(j)) {
        // A successful Job need not be active for its completion to count.
        const done = parseTime(j.status?.completionTime);
        if (done !== undefined) {
          const last = parseTime(cj.status?.lastSuccessfulTime);
          if (last === undefined || done > last) {
            cj.status!.lastSuccessfulTime = j.status!.completionTime;
            updateStatus = true;
          }
        }
      }
    }

    // An active Job that no longer exists must leave the list, or the CronJob stays "active" for ever.
    for (const ref of [...(cj.status?.active ?? [])]) {
      if (children.has(ref.uid ?? '')) continue;
      try {
        // The lister may be behind: ask the API server.
        this.client.jobs.get(ref.name ?? '', { namespace: ref.namespace });
      } catch (err) {
        if (!isStatusError(err, StatusReason.NotFound)) return { updateStatus, error: err };
        this.recorder.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
        deleteFromActiveList(cj, ref.uid);
        updateStatus = true;
      }
    }

    // Being deleted: only status.
    if (cj.metadata.deletionTimestamp) return { updateStatus };

    const timeZone = cj.spec?.timeZone;
    if (timeZone !== undefined && timeZone !== null && !isValidTimeZone(timeZone)) {
      this.recorder.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(timeZone)}: unknown time zone ${timeZone}`);
      return { updateStatus };
    }
    if (cj.spec?.suspend === true) return { updateStatus };

    let sched: CronSchedule;
    try {
      sched = parseStandard(formatSchedule(cj, this.recorder));
    } catch (err) {
      // A user error in the spec: nothing to do until the spec changes.
      this.recorder.event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(cj.spec?.schedule ?? '')} : ${errorText(err)}`);
      return { updateStatus };
    }

    const r = mostRecentScheduleTime(cj, now, sched, true);
    if (r.mostRecent !== undefined && r.missed === MissedSchedules.Many) {
      this.recorder.event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
    }
    if (r.mostRecent === undefined && r.error !== undefined) {
      this.recorder.event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec?.schedule} : ${r.error}`);
      return { updateStatus };
    }
    const scheduledTime = r.mostRecent;
    if (scheduledTime === undefined) {
      // No unmet start time: wait for the next one.
      return { requeueAfter: nextScheduleTimeDuration(cj, now, sched), updateStatus };
    }

    const sds = cj.spec?.startingDeadlineSeconds;
    const tooLate = sds !== undefined && sds !== null && scheduledTime + sds * 1000 < now;
    if (tooLate) {
      this.recorder.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${formatRFC1123Z(scheduledTime)}`);
      return { requeueAfter: nextScheduleTimeDuration(cj, now, sched), updateStatus };
    }
    const jobName = getJobName(cj, scheduledTime);
    if (inActiveListByName(cj, cj.metadata.namespace ?? '', jobName) || parseTime(cj.status?.lastScheduleTime) === scheduledTime) {
      // Already done for this scheduled time.
      return { requeueAfter: nextScheduleTimeDuration(cj, now, sched), updateStatus };
    }
    const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && (cj.status?.active ?? []).length > 0) {
      this.recorder.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return { requeueAfter: nextScheduleTimeDuration(cj, now, sched), updateStatus };
    }
    if (policy === 'Replace') {
      for (const ref of [...(cj.status?.active ?? [])]) {
        let job: JobObj;
        try {
          job = this.client.jobs.get(ref.name ?? '', { namespace: ref.namespace });
        } catch (err) {
          this.recorder.event(cj, 'Warning', 'FailedGet', `Get job: ${errorText(err)}`);
          return { updateStatus, error: err };
        }
        if (!this.deleteJob2(cj, job)) return { updateStatus, error: new Error(`could not replace job ${job.metadata.namespace}/${job.metadata.name}`) };
        updateStatus = true;
      }
    }

    const jobReq = getJobFromTemplate(cj, scheduledTime);
    let jobResp: JobObj;
    let alreadyExists = false;
    try {
      jobResp = this.client.jobs.create(jobReq, { namespace: cj.metadata.namespace });
    } catch (err) {
      if (hasStatusCause(err, NamespaceTerminatingCause)) return { updateStatus, error: err };
      if (!isStatusError(err, StatusReason.AlreadyExists)) {
        this.recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${errorText(err)}`);
        return { updateStatus, error: err };
      }
      // Made earlier (by us, before a status write was lost) or by someone else.
      alreadyExists = true;
      try {
        jobResp = this.client.jobs.get(jobName, { namespace: cj.metadata.namespace });
      } catch (getErr) {
        return { updateStatus, error: getErr };
      }
      // Not ours: someone else keeps the status.
      if (!isControlledBy(jobResp, cj)) return { updateStatus };
      if (inActiveList(cj, jobResp.metadata.uid)) return { updateStatus };
    }
    if (!alreadyExists) this.recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${jobResp.metadata.name}`);

    // The job name is the lock: a restart between the create and this status write finds it AlreadyExists.
    status.active = [...(status.active ?? []), getRef(jobResp)];
    status.lastScheduleTime = rfc3339(scheduledTime);
    updateStatus = true;
    return { requeueAfter: nextScheduleTimeDuration(cj, now, sched), updateStatus };
  }

  /** cleanupFinishedJobs: the oldest finished Jobs beyond the history limits go. */
  private cleanupFinishedJobs(cj: CronJobObj, jobs: readonly JobObj[]): boolean {
    const successfulLimit = cj.spec?.successfulJobsHistoryLimit;
    const failedLimit = cj.spec?.failedJobsHistoryLimit;
    if ((successfulLimit === undefined || successfulLimit === null) && (failedLimit === undefined || failedLimit === null)) return false;
    const successful = jobs.filter((j) => finishedCondition(j) === 'Complete');
    const failed = jobs.filter((j) => finishedCondition(j) === 'Failed');
    let update = false;
    if (successfulLimit !== undefined && successfulLimit !== null && this.removeOldestJobs(cj, successful, successfulLimit)) update = true;
    if (failedLimit !== undefined && failedLimit !== null && this.removeOldestJobs(cj, failed, failedLimit)) update = true;
    return update;
  }

  private removeOldestJobs(cj: CronJobObj, jobs: readonly JobObj[], max: number): boolean {
    const numToDelete = jobs.length - max;
    if (numToDelete <= 0) return false;
    let update = false;
    const sorted = [...jobs].sort(compareByJobStartTime);
    for (let i = 0; i < numToDelete; i++) if (this.deleteJob2(cj, sorted[i])) update = true;
    return update;
  }

  /** deleteJob: deletes the Job (its pods in the background) and its active-list entry. */
  private deleteJob2(cj: CronJobObj, job: JobObj): boolean {
    try {
      this.client.jobs.delete(job.metadata.name ?? '', { namespace: job.metadata.namespace, propagationPolicy: 'Background' });
    } catch (err) {
      this.recorder.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${errorText(err)}`);
      return false;
    }
    deleteFromActiveList(cj, job.metadata.uid);
    this.recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
    return true;
  }
}

/**
 * formatSchedule: the schedule with spec.timeZone as a "TZ=" prefix. A TZ in the schedule itself (kept only on
 * old objects) is used as written, with a warning.
 */
export function formatSchedule(cj: CronJob & KubeObject, recorder?: EventRecorder): string {
  const schedule = cj.spec?.schedule ?? '';
  if (schedule.includes('TZ')) {
    recorder?.event(
      cj,
      'Warning',
      'UnsupportedSchedule',
      `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
    );
    return schedule;
  }
  const tz = cj.spec?.timeZone;
  if (tz !== undefined && tz !== null) {
    if (!isValidTimeZone(tz)) return schedule;
    return `TZ=${tz} ${schedule}`;
  }
  return schedule;
}
