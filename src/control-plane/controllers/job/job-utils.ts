// Job helpers shared by the Job, CronJob and TTL-after-finished controllers (pkg/controller/job/util and the
// small functions of job_controller.go / tracking_utils.go): conditions, finished state, the tracking finalizer.
import type { Job, JobCondition } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { rfc3339 } from '../../sim/clock';

/** batch.JobTrackingFinalizer: pods keep it until the Job controller has counted them. */
export const JobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';
/** batch.JobControllerName: the spec.managedBy value that means this controller. */
export const JobControllerName = 'kubernetes.io/job-controller';

export const JobConditionType = {
  Suspended: 'Suspended',
  Complete: 'Complete',
  Failed: 'Failed',
  FailureTarget: 'FailureTarget',
  SuccessCriteriaMet: 'SuccessCriteriaMet',
} as const;

export const JobReason = {
  BackoffLimitExceeded: 'BackoffLimitExceeded',
  DeadlineExceeded: 'DeadlineExceeded',
  PodFailurePolicy: 'PodFailurePolicy',
  MaxFailedIndexesExceeded: 'MaxFailedIndexesExceeded',
  FailedIndexes: 'FailedIndexes',
  SuccessPolicy: 'SuccessPolicy',
  CompletionsReached: 'CompletionsReached',
} as const;

export const JobMessage = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded: 'Job was active longer than specified deadline',
  MaxFailedIndexesExceeded: 'Job has exceeded the specified maximal number of failed indexes',
  FailedIndexes: 'Job has failed indexes',
  CompletionsReached: 'Reached expected number of succeeded pods',
} as const;

/** FinishedCondition: the Complete or Failed condition with status True, if any. */
export function finishedCondition(job: Job): 'Complete' | 'Failed' | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === JobConditionType.Complete || c.type === JobConditionType.Failed) && c.status === 'True') return c.type;
  }
  return undefined;
}

export function isJobFinished(job: Job): boolean {
  return finishedCondition(job) !== undefined;
}

export function isJobSucceeded(job: Job): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === JobConditionType.Complete && c.status === 'True');
}

export function findConditionByType(list: readonly JobCondition[] | undefined, type: string): JobCondition | undefined {
  return (list ?? []).find((c) => c.type === type);
}

export function newCondition(type: string, status: string, reason: string, message: string, now: number): JobCondition {
  const t = rfc3339(now);
  const c: JobCondition = { type, status, lastProbeTime: t, lastTransitionTime: t };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/**
 * ensureJobConditionStatus: sets the condition of that type (replacing it when status, reason or message differ);
 * a False condition is never added where there was none. Returns the list and whether it changed.
 */
export function ensureJobConditionStatus(
  list: JobCondition[],
  type: string,
  status: string,
  reason: string,
  message: string,
  now: number,
): { conditions: JobCondition[]; changed: boolean } {
  const i = list.findIndex((c) => c.type === type);
  if (i >= 0) {
    const c = list[i];
    if (c.status !== status || (c.reason ?? '') !== reason || (c.message ?? '') !== message) {
      const out = [...list];
      out[i] = newCondition(type, status, reason, message, now);
      return { conditions: out, changed: true };
    }
    return { conditions: list, changed: false };
  }
  if (status !== 'False') return { conditions: [...list, newCondition(type, status, reason, message, now)], changed: true };
  return { conditions: list, changed: false };
}

export function hasJobTrackingFinalizer(pod: Pod): boolean {
  return (pod.metadata?.finalizers ?? []).includes(JobTrackingFinalizer);
}

/** removeTrackingFinalizerPatch: a strategic merge patch taking the finalizer out, or undefined when absent. */
export function removeTrackingFinalizerPatch(pod: Pod): unknown {
  if (!hasJobTrackingFinalizer(pod)) return undefined;
  return { metadata: { '$deleteFromPrimitiveList/finalizers': [JobTrackingFinalizer] } };
}

export function jobSuspended(job: Job): boolean {
  return job.spec?.suspend === true;
}

/**
 * onlyReplaceFailedPods: replacements wait until a deleted pod has fully terminated (podReplacementPolicy
 * Failed, which a podFailurePolicy implies).
 */
export function onlyReplaceFailedPods(job: Job): boolean {
  return job.spec?.podReplacementPolicy === 'Failed' || job.spec?.podFailurePolicy !== undefined;
}

/**
 * isPodFailed: Failed phase, or — unless only failed pods are replaced — being deleted without having succeeded
 * (orphans that never reach a terminal phase).
 */
export function isPodFailed(pod: Pod, job: Job): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null && pod.status?.phase !== 'Succeeded';
}

/** controller.CountTerminatingPods: being deleted and not yet terminal. */
export function isPodTerminating(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !!pod.metadata?.deletionTimestamp && phase !== 'Failed' && phase !== 'Succeeded';
}

/** managedByExternalController: spec.managedBy names another controller (JobManagedBy, beta in v1.32). */
export function managedByExternalController(job: Job): string | undefined {
  const m = job.spec?.managedBy;
  return m && m !== JobControllerName ? m : undefined;
}
