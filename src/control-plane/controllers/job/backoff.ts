// pkg/controller/job/backoff_utils.go: after pod failures the Job controller waits before creating replacements,
// 10 s after the first consecutive failure, doubling with each further one (20 s, 40 s, …), at most
// MaxJobPodFailureBackOff. The count restarts at the first success. Failures are dated by when the pod finished.
//
//   failures after last success 3, last one finished at 12:00:00 → next pod not before 12:00:40
import type { Pod } from 'kubernetes-types/core/v1';
import { parseTime } from '../shared/controller-utils';

/** DefaultJobPodFailureBackOff. */
export const DefaultJobPodFailureBackOffMs = 10_000;
/**
 * MaxJobPodFailureBackOff: 10 minutes in the v1.32 controller (the docs speak of "capped at six minutes", which is
 * what a default backoffLimit of 6 reaches: 10 s · 2⁵ = 320 s).
 */
export const MaxJobPodFailureBackOffMs = 10 * 60_000;

export interface BackoffRecord {
  key: string;
  failuresAfterLastSuccess: number;
  /** ms since the epoch. */
  lastFailureTime?: number;
}

/** backoffStore: one record per Job key, in memory (a controller restart forgets it, as in Kubernetes). */
export class BackoffStore {
  private readonly records = new Map<string, BackoffRecord>();

  get(key: string): BackoffRecord | undefined {
    const r = this.records.get(key);
    return r && { ...r };
  }

  updateBackoffRecord(record: BackoffRecord): void {
    this.records.set(record.key, { ...record });
  }

  removeBackoffRecord(key: string): void {
    this.records.delete(key);
  }

  /**
   * newBackoffRecord: the record as it will be once the newly finished pods are counted. Failures after the
   * latest success count; a success among them resets the count.
   */
  newBackoffRecord(key: string, newSucceededPods: readonly Pod[], newFailedPods: readonly Pod[]): BackoffRecord {
    const backoff: BackoffRecord = this.get(key) ?? { key, failuresAfterLastSuccess: 0 };
    const succeeded = sortByFinishedTime(newSucceededPods);
    const failed = sortByFinishedTime(newFailedPods);
    if (succeeded.length === 0) {
      if (failed.length === 0) return backoff;
      backoff.failuresAfterLastSuccess += failed.length;
      backoff.lastFailureTime = getFinishedTime(failed[failed.length - 1]);
      return backoff;
    }
    backoff.failuresAfterLastSuccess = 0;
    backoff.lastFailureTime = undefined;
    if (failed.length === 0) return backoff;
    const lastSuccessTime = getFinishedTime(succeeded[succeeded.length - 1]);
    for (let i = failed.length - 1; i >= 0; i--) {
      const failedTime = getFinishedTime(failed[i]);
      if (!(failedTime > lastSuccessTime)) break;
      if (backoff.lastFailureTime === undefined) backoff.lastFailureTime = failedTime;
      backoff.failuresAfterLastSuccess++;
    }
    return backoff;
  }
}

function sortByFinishedTime<T extends Pod>(pods: readonly T[]): T[] {
  return [...pods].sort((a, b) => getFinishedTime(a) - getFinishedTime(b));
}

/**
 * getFinishedTime: when the pod finished — the latest container finishedAt when every container terminated,
 * else when Ready turned False, else deletionTimestamp − grace period, else its creation.
 */
export function getFinishedTime(p: Pod): number {
  const fromContainers = finishTimeFromContainers(p);
  if (fromContainers !== undefined) return fromContainers;
  const ready = (p.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const readyFalse = ready?.status === 'False' ? parseTime(ready.lastTransitionTime) : undefined;
  if (readyFalse !== undefined) return readyFalse;
  const deletion = parseTime(p.metadata?.deletionTimestamp);
  if (deletion !== undefined) return deletion - (p.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
  return parseTime(p.metadata?.creationTimestamp) ?? 0;
}

function finishTimeFromContainers(p: Pod): number | undefined {
  let finish: number | undefined;
  for (const cs of p.status?.containerStatuses ?? []) {
    const t = parseTime(cs.state?.terminated?.finishedAt);
    if (t === undefined) return undefined;
    if (finish === undefined || finish < t) finish = t;
  }
  return finish;
}

/** getRemainingTimeForFailuresCount: how long to wait before creating pods again (0: now). */
export function getRemainingTimeForFailuresCount(
  now: number,
  defaultBackoffMs: number,
  maxBackoffMs: number,
  failuresCount: number,
  lastFailureTime: number | undefined,
): number {
  if (failuresCount === 0 || lastFailureTime === undefined) return 0;
  let backoff = defaultBackoffMs;
  for (let i = 1; i < failuresCount; i++) {
    backoff *= 2;
    if (backoff >= maxBackoffMs) {
      backoff = maxBackoffMs;
      break;
    }
  }
  const elapsed = now - lastFailureTime;
  return backoff < elapsed ? 0 : backoff - elapsed;
}

export function getRemainingTime(record: BackoffRecord, now: number): number {
  return getRemainingTimeForFailuresCount(now, DefaultJobPodFailureBackOffMs, MaxJobPodFailureBackOffMs, record.failuresAfterLastSuccess, record.lastFailureTime);
}
