// pkg/controller/job/indexed_job_utils.go: Indexed Jobs give each pod a completion index 0…completions-1 (the
// batch.kubernetes.io/job-completion-index annotation and label, JOB_COMPLETION_INDEX, hostname <job>-<index>)
// and track which indexes succeeded as compressed intervals: status.completedIndexes "0-2,5,7-9".
import type { Job } from 'kubernetes-types/batch/v1';
import type { Container, Pod, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { sortActivePodsWithRanks } from '../shared/controller-utils';

export const JobCompletionIndexAnnotation = 'batch.kubernetes.io/job-completion-index';
export const JobIndexFailureCountAnnotation = 'batch.kubernetes.io/job-index-failure-count';
export const JobIndexIgnoredFailureCountAnnotation = 'batch.kubernetes.io/job-index-ignored-failure-count';
export const CompletionIndexEnvName = 'JOB_COMPLETION_INDEX';
export const UnknownCompletionIndex = -1;
/** names.MaxGeneratedNameLength: 63 − the 5 random characters the server appends. */
const MaxGeneratedNameLength = 58;
const MaxInt32 = 2147483647;

export function isIndexedJob(job: Job): boolean {
  return job.spec?.completionMode === 'Indexed';
}

export function hasBackoffLimitPerIndex(job: Job): boolean {
  return job.spec?.backoffLimitPerIndex !== undefined && job.spec.backoffLimitPerIndex !== null;
}

export interface Interval {
  first: number;
  last: number;
}

/** orderedIntervals: sorted, non-overlapping, non-adjacent intervals of indexes. */
export class OrderedIntervals {
  constructor(readonly intervals: readonly Interval[] = []) {}

  /** withOrderedIndexes: a new list that also holds newIndexes (given in increasing order). */
  withOrderedIndexes(newIndexes: readonly number[]): OrderedIntervals {
    return this.merge(new OrderedIntervals(newIndexes.map((i) => ({ first: i, last: i }))));
  }

  merge(other: OrderedIntervals): OrderedIntervals {
    const result: Interval[] = [];
    const push = (iv: Interval): void => {
      const last = result[result.length - 1];
      if (!last || iv.first > last.last + 1) result.push({ ...iv });
      else if (last.last < iv.last) last.last = iv.last;
    };
    const a = this.intervals;
    const b = other.intervals;
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      if (a[i].first < b[j].first) push(a[i++]);
      else push(b[j++]);
    }
    while (i < a.length) push(a[i++]);
    while (j < b.length) push(b[j++]);
    return new OrderedIntervals(result);
  }

  total(): number {
    return this.intervals.reduce((n, iv) => n + iv.last - iv.first + 1, 0);
  }

  has(ix: number): boolean {
    return this.intervals.some((iv) => iv.first <= ix && ix <= iv.last);
  }

  get length(): number {
    return this.intervals.length;
  }

  /** "0-2,5,7,8": two neighbours are written with a comma, longer runs with a dash. */
  toString(): string {
    return this.intervals
      .map((iv) => (iv.last === iv.first ? `${iv.first}` : iv.last === iv.first + 1 ? `${iv.first},${iv.last}` : `${iv.first}-${iv.last}`))
      .join(',');
  }
}

function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number.parseInt(s, 10) : undefined;
}

/** parseIndexesFromString: corrupted intervals are skipped; indexes ≥ completions are dropped. */
export function parseIndexesFromString(indexes: string | undefined, completions: number): OrderedIntervals {
  if (!indexes) return new OrderedIntervals();
  const result: Interval[] = [];
  for (const part of indexes.split(',')) {
    const limits = part.split('-');
    const first = atoi(limits[0]);
    if (first === undefined) continue;
    if (first >= completions) break;
    let last = first;
    if (limits.length > 1) {
      const l = atoi(limits[1]);
      if (l === undefined) continue;
      last = Math.min(l, completions - 1);
    }
    const prev = result[result.length - 1];
    if (prev && prev.last === first - 1) prev.last = last;
    else result.push({ first, last });
  }
  return new OrderedIntervals(result);
}

/** getCompletionIndex: the annotation as a non-negative integer, else UnknownCompletionIndex. */
export function getCompletionIndex(annotations: Record<string, string> | undefined): number {
  const v = annotations?.[JobCompletionIndexAnnotation];
  if (v === undefined) return UnknownCompletionIndex;
  const i = atoi(v);
  if (i === undefined || i < 0 || i > MaxInt32) return UnknownCompletionIndex;
  return i;
}

export function podCompletionIndex(pod: Pod): number {
  return getCompletionIndex(pod.metadata?.annotations);
}

/** The indexes the pods carry. */
export function getIndexes(pods: readonly Pod[]): Set<number> {
  const out = new Set<number>();
  for (const p of pods) {
    const ix = podCompletionIndex(p);
    if (ix !== UnknownCompletionIndex) out.add(ix);
  }
  return out;
}

export function sortedIndexes(s: ReadonlySet<number>): number[] {
  return [...s].sort((a, b) => a - b);
}

/** byCompletionIndex: a stable sort by index (unknown first). */
export function sortByCompletionIndex<T extends Pod>(pods: readonly T[]): T[] {
  return [...pods].sort((a, b) => podCompletionIndex(a) - podCompletionIndex(b));
}

/**
 * firstPendingIndexes: the first `count` indexes below completions that no active pod, succeeded index or failed
 * index covers (nor a terminating pod when only failed pods are replaced).
 */
export function firstPendingIndexes(
  count: number,
  completions: number,
  activePods: readonly Pod[],
  succeeded: OrderedIntervals,
  terminatingPods: readonly Pod[] | undefined,
  failed: OrderedIntervals | undefined,
): number[] {
  if (count === 0) return [];
  let nonPending = succeeded.withOrderedIndexes(sortedIndexes(getIndexes(activePods)));
  if (terminatingPods) nonPending = nonPending.withOrderedIndexes(sortedIndexes(getIndexes(terminatingPods)));
  if (failed) nonPending = nonPending.merge(failed);
  const result: number[] = [];
  let candidate = 0;
  for (const iv of nonPending.intervals) {
    for (; candidate < completions && result.length < count && candidate < iv.first; candidate++) result.push(candidate);
    if (candidate < iv.last + 1) candidate = iv.last + 1;
  }
  for (; candidate < completions && result.length < count; candidate++) result.push(candidate);
  return result;
}

/**
 * appendDuplicatedIndexPodsForRemoval: of the active pods, those without an index or with one out of range go,
 * and of several pods with the same index all but one (the one ActivePods ranks last stays).
 */
export function duplicatedIndexPodsForRemoval<T extends Pod>(pods: readonly T[], completions: number): { rm: T[]; left: T[] } {
  const rm: T[] = [];
  const left: T[] = [];
  const byIndex = new Map<number, T[]>();
  for (const p of sortByCompletionIndex(pods)) {
    const ix = podCompletionIndex(p);
    if (ix === UnknownCompletionIndex || ix >= completions) {
      rm.push(p);
      continue;
    }
    const group = byIndex.get(ix) ?? [];
    group.push(p);
    byIndex.set(ix, group);
  }
  for (const group of byIndex.values()) {
    if (group.length === 1) {
      left.push(group[0]);
      continue;
    }
    const sorted = sortActivePods(group);
    rm.push(...sorted.slice(0, -1));
    left.push(sorted[sorted.length - 1]);
  }
  return { rm, left };
}

/**
 * controller.ActivePods order (unassigned, pending, not ready, ready for less time, more restarts, newer first):
 * the ranked comparison with equal ranks and plain timestamps.
 */
export function sortActivePods<T extends Pod>(pods: readonly T[]): T[] {
  return sortActivePodsWithRanks(pods, pods.map(() => 0), undefined);
}

/** podGenerateNameWithIndex: "<job>-<index>-", the job name cut so the whole fits the generated-name limit. */
export function podGenerateNameWithIndex(jobName: string, index: number): string {
  const appendIndex = `-${index}-`;
  let prefix = jobName + appendIndex;
  if (prefix.length > MaxGeneratedNameLength) prefix = prefix.slice(0, MaxGeneratedNameLength - appendIndex.length) + appendIndex;
  return prefix;
}

/**
 * addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX from the pod's index label (PodIndexLabel is GA in
 * v1.32) through the downward API, unless a container sets it itself.
 */
export function addCompletionIndexEnvVariables(template: PodTemplateSpec): void {
  const add = (c: Container): void => {
    if ((c.env ?? []).some((e) => e.name === CompletionIndexEnvName)) return;
    c.env = [...(c.env ?? []), { name: CompletionIndexEnvName, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${JobCompletionIndexAnnotation}']` } } }];
  };
  for (const c of template.spec?.initContainers ?? []) add(c);
  for (const c of template.spec?.containers ?? []) add(c);
}

/** The index as annotation and label, and the hostname "<job>-<index>". */
export function addCompletionIndex(template: PodTemplateSpec, jobName: string, index: number): void {
  const metadata = (template.metadata ??= {});
  metadata.annotations = { ...(metadata.annotations ?? {}), [JobCompletionIndexAnnotation]: String(index) };
  metadata.labels = { ...(metadata.labels ?? {}), [JobCompletionIndexAnnotation]: String(index) };
  if (template.spec) template.spec.hostname = `${jobName}-${index}`;
}

function parseInt32(v: string | undefined): number {
  if (v === undefined) return 0;
  const n = atoi(v);
  if (n === undefined || n < 0 || n > MaxInt32) return 0;
  return n;
}

/** getIndexFailureCount: the job-index-failure-count annotation, 0 when absent or invalid. */
export function getIndexFailureCount(pod: Pod): number {
  return parseInt32(pod.metadata?.annotations?.[JobIndexFailureCountAnnotation]);
}

export function getIndexIgnoredFailureCount(pod: Pod): number {
  return parseInt32(pod.metadata?.annotations?.[JobIndexIgnoredFailureCountAnnotation]);
}

/** getIndexAbsoluteFailureCount: counted and ignored failures of the index so far. */
export function getIndexAbsoluteFailureCount(pod: Pod): number {
  return getIndexFailureCount(pod) + getIndexIgnoredFailureCount(pod);
}
