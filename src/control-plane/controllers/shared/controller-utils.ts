// Helpers of pkg/controller/controller_utils.go and k8s.io/kubernetes/pkg/api/v1/pod used by the workload
// controllers: owner references, active/ready/available pods, slowStartBatch, the ranking of pods to delete,
// sorting of ReplicaSets and the pod-template-hash (ComputeHash).
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { KubeObject, OwnerReference } from '../../../shared/api/types';

// ---------------------------------------------------------------- owner references

/** metav1.GetControllerOf: the ownerReference with controller: true, if any. */
export function getControllerOf(obj: Pick<KubeObject, 'metadata'>): OwnerReference | undefined {
  // A plain loop: this runs for every pod of a ReplicaSet on every sync.
  const refs = obj.metadata.ownerReferences;
  if (!refs) return undefined;
  for (let i = 0; i < refs.length; i++) if (refs[i].controller === true) return refs[i];
  return undefined;
}

/** metav1.IsControlledBy. */
export function isControlledBy(obj: Pick<KubeObject, 'metadata'>, owner: Pick<KubeObject, 'metadata'>): boolean {
  const ref = getControllerOf(obj);
  return ref !== undefined && ref.uid === owner.metadata.uid;
}

/** metav1.NewControllerRef: controller and blockOwnerDeletion true, as every workload controller sets them. */
export function newControllerRef(owner: Pick<KubeObject, 'metadata'>, gvk: { apiVersion: string; kind: string }): OwnerReference {
  return {
    apiVersion: gvk.apiVersion,
    kind: gvk.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** controller.PodKey / KeyFunc: "namespace/name". */
export function objectKey(obj: Pick<KubeObject, 'metadata'>): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

// ---------------------------------------------------------------- time

/** A metav1.Time string as ms since the epoch; undefined when absent or unparsable (Go's zero time). */
export function parseTime(t: string | undefined | null): number | undefined {
  if (!t) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

// ---------------------------------------------------------------- pods

export const PodPhase = {
  Pending: 'Pending',
  Running: 'Running',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
  Unknown: 'Unknown',
} as const;

/** controller.IsPodActive: not terminal and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== PodPhase.Succeeded && phase !== PodPhase.Failed && !pod.metadata?.deletionTimestamp;
}

/** controller.FilterActivePods. */
export function filterActivePods<T extends Pod>(pods: readonly T[]): T[] {
  return pods.filter(isPodActive);
}

/** podutil.GetPodReadyCondition. */
export function getPodReadyCondition(pod: Pod): PodCondition | undefined {
  // A plain loop: this runs for every pod of a ReplicaSet on every sync.
  const conditions = pod.status?.conditions;
  if (!conditions) return undefined;
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === 'Ready') return conditions[i];
  return undefined;
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return getPodReadyCondition(pod)?.status === 'True';
}

/**
 * podutil.IsPodAvailable: ready, and ready for at least minReadySeconds (strictly: lastTransitionTime + minReady
 * must be before now). Example: ready at 10:00:00, minReadySeconds 5 → available from 10:00:05.001.
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = parseTime(getPodReadyCondition(pod)?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 < nowMs;
}

// ---------------------------------------------------------------- slowStartBatch

/** controller.SlowStartInitialBatchSize. */
export const SlowStartInitialBatchSize = 1;

/**
 * slowStartBatch calls fn up to count times in batches of 1, 2, 4, 8, … (starting at initialBatchSize), stopping
 * after the first batch with a failure, so a controller that cannot create pods (quota, admission) makes one
 * failing call instead of hundreds. Returns how many calls succeeded. Kubernetes runs a batch in parallel;
 * here the calls of a batch run in order, and every call of a failing batch is still made (as the goroutines
 * would be). The first error is rethrown after the count is known through onError.
 *
 *   count 10: batches 1, 2, 4, 3 → 10 calls if all succeed
 *   the 2nd call fails: batches 1, 2 → 3 calls made, 2 succeeded, the remaining 7 skipped
 */
export function slowStartBatch(count: number, initialBatchSize: number, fn: () => void): { successes: number; error?: unknown } {
  let remaining = count;
  let successes = 0;
  for (let batchSize = Math.min(remaining, initialBatchSize); batchSize > 0; batchSize = Math.min(2 * batchSize, remaining)) {
    let firstError: unknown;
    let failed = false;
    for (let i = 0; i < batchSize; i++) {
      try {
        fn();
        successes++;
      } catch (err) {
        if (!failed) firstError = err;
        failed = true;
      }
    }
    remaining -= batchSize;
    if (failed) return { successes, error: firstError };
  }
  return { successes };
}

// ---------------------------------------------------------------- ranking pods to delete

/** podPhaseToOrdinal: Pending < Unknown < Running (anything else counts as Pending). */
const podPhaseToOrdinal: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function phaseOrdinal(pod: Pod): number {
  return podPhaseToOrdinal[pod.status?.phase ?? ''] ?? 0;
}

/** The pod's Ready condition's lastTransitionTime when it is ready (podReadyTime), else undefined (zero time). */
function podReadyTime(pod: Pod): number | undefined {
  if (!isPodReady(pod)) return undefined;
  const c = (pod.status?.conditions ?? []).find((x) => x.type === 'Ready' && x.status === 'True');
  return parseTime(c?.lastTransitionTime);
}

/** The highest restart count of regular containers and of sidecars (restartable init containers), separately. */
function maxContainerRestarts(pod: Pod): { regular: number; sidecar: number } {
  let regular = 0;
  let sidecar = 0;
  for (const c of pod.status?.containerStatuses ?? []) regular = Math.max(regular, c.restartCount ?? 0);
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  for (const c of pod.status?.initContainerStatuses ?? []) if (sidecars.has(c.name)) sidecar = Math.max(sidecar, c.restartCount ?? 0);
  return { regular, sidecar };
}

/**
 * afterOrZero: whether t1 is after t2, the zero time (undefined) counting as after any other time, so pods
 * with no timestamp go first.
 */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined;
  return t1 > t2;
}

/**
 * logarithmicRankDiff (LogarithmicScaleDown, on by default since v1.22): timestamps are compared by the base-2
 * logarithm of their age in nanoseconds, so pods of a similar age rank equal and a tie is broken by uid —
 * scale-down then removes a random mix of similarly aged pods instead of always the newest.
 *
 *   now − t1 = 3 s → log2(3e9) = 31.48 → rank 31; now − t2 = 5 s → log2(5e9) = 32.2 → rank 32: t1 sorts first
 *   now − t1 = 3 s, now − t2 = 4 s → both 31 (2^31 ns ≈ 2.1 s, 2^32 ≈ 4.3 s): equal, compare uids
 */
function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  const d1 = (now - t1) * 1e6;
  const d2 = (now - t2) * 1e6;
  const r1 = d1 > 0 ? Math.floor(Math.log2(d1)) : -1;
  const r2 = d2 > 0 ? Math.floor(Math.log2(d2)) : -1;
  return r1 - r2;
}

function compareTimes(
  t1: number | undefined,
  t2: number | undefined,
  now: number | undefined,
  podI: Pod,
  podJ: Pod,
): boolean {
  if (now === undefined || t1 === undefined || t2 === undefined) return afterOrZero(t1, t2);
  const rankDiff = logarithmicRankDiff(t1, t2, now);
  if (rankDiff === 0) return (podI.metadata?.uid ?? '') < (podJ.metadata?.uid ?? '');
  return rankDiff < 0;
}

/**
 * ActivePodsWithRanks.Less: whether pod i should be deleted before pod j. In order:
 *   1. unassigned < assigned (no spec.nodeName first)
 *   2. Pending < Unknown < Running
 *   3. not ready < ready
 *   4. lower controller.kubernetes.io/pod-deletion-cost < higher
 *   5. higher rank (more related active pods on the same node: "doubled up") < lower
 *   6. both ready: ready more recently < ready longer (logarithmic buckets)
 *   7. more container restarts < fewer (regular containers, then sidecars)
 *   8. newer creationTimestamp < older (logarithmic buckets); an empty timestamp first
 */
export function activePodLess(podI: Pod, rankI: number, podJ: Pod, rankJ: number, now: number | undefined): boolean {
  const nodeI = podI.spec?.nodeName ?? '';
  const nodeJ = podJ.spec?.nodeName ?? '';
  // 1. Unassigned < assigned
  if (nodeI !== nodeJ && (nodeI === '' || nodeJ === '')) return nodeI === '';
  // 2. PodPending < PodUnknown < PodRunning
  if (phaseOrdinal(podI) !== phaseOrdinal(podJ)) return phaseOrdinal(podI) < phaseOrdinal(podJ);
  // 3. Not ready < ready
  if (isPodReady(podI) !== isPodReady(podJ)) return !isPodReady(podI);
  // 4. lower pod-deletion-cost < higher pod-deletion cost
  const costI = deletionCost(podI);
  const costJ = deletionCost(podJ);
  if (costI !== costJ) return costI < costJ;
  // 5. Doubled up < not doubled up
  if (rankI !== rankJ) return rankI > rankJ;
  // 6. Been ready for empty time < less time < more time
  if (isPodReady(podI) && isPodReady(podJ)) {
    const readyI = podReadyTime(podI);
    const readyJ = podReadyTime(podJ);
    if (readyI !== readyJ) return compareTimes(readyI, readyJ, now, podI, podJ);
  }
  // 7. Pods with containers with higher restart counts < lower restart counts
  const restartsI = maxContainerRestarts(podI);
  const restartsJ = maxContainerRestarts(podJ);
  if (restartsI.regular !== restartsJ.regular) return restartsI.regular > restartsJ.regular;
  if (restartsI.sidecar !== restartsJ.sidecar) return restartsI.sidecar > restartsJ.sidecar;
  // 8. Empty creation time pods < newer pods < older pods
  const createdI = parseTime(podI.metadata?.creationTimestamp);
  const createdJ = parseTime(podJ.metadata?.creationTimestamp);
  if (createdI !== createdJ) return compareTimes(createdI, createdJ, now, podI, podJ);
  return false;
}

export const PodDeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

/** helper.GetDeletionCostFromPodAnnotations: an int32 annotation, 0 when absent or invalid. */
function deletionCost(pod: Pod): number {
  const v = pod.metadata?.annotations?.[PodDeletionCostAnnotation];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number.parseInt(v, 10);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

/** Sorts pods so those to delete first come first (sort.Sort(ActivePodsWithRanks)); stable. */
export function sortActivePodsWithRanks<T extends Pod>(pods: readonly T[], ranks: readonly number[], now: number | undefined): T[] {
  const idx = pods.map((_, i) => i);
  idx.sort((a, b) => {
    if (activePodLess(pods[a], ranks[a], pods[b], ranks[b], now)) return -1;
    if (activePodLess(pods[b], ranks[b], pods[a], ranks[a], now)) return 1;
    return a - b;
  });
  return idx.map((i) => pods[i]);
}

// ---------------------------------------------------------------- ReplicaSet sorting

interface SizedObject {
  metadata?: { name?: string; creationTimestamp?: string };
  spec?: { replicas?: number };
}

function creationMs(o: SizedObject): number {
  return parseTime(o.metadata?.creationTimestamp) ?? 0;
}

/** ReplicaSetsByCreationTimestamp: older first, ties by name. */
export function compareByCreationTimestamp(a: SizedObject, b: SizedObject): number {
  const d = creationMs(a) - creationMs(b);
  if (d !== 0) return d;
  return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0;
}

/** ReplicaSetsBySizeOlder: larger first; equal sizes older first. */
export function compareBySizeOlder(a: SizedObject, b: SizedObject): number {
  const d = (b.spec?.replicas ?? 0) - (a.spec?.replicas ?? 0);
  return d !== 0 ? d : compareByCreationTimestamp(a, b);
}

/** ReplicaSetsBySizeNewer: larger first; equal sizes newer first. */
export function compareBySizeNewer(a: SizedObject, b: SizedObject): number {
  const d = (b.spec?.replicas ?? 0) - (a.spec?.replicas ?? 0);
  return d !== 0 ? d : compareByCreationTimestamp(b, a);
}

/** controller.FilterActiveReplicaSets: those with spec.replicas > 0. */
export function filterActiveReplicaSets<T extends SizedObject>(rss: readonly (T | undefined)[]): T[] {
  return rss.filter((rs): rs is T => rs !== undefined && (rs.spec?.replicas ?? 0) > 0);
}

// ---------------------------------------------------------------- ComputeHash

/** rand.SafeEncodeString's alphabet: no vowels (no words), no 0/1/3 (no confusion with o, l, e). */
export const SafeEncodeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each byte of s mapped to the alphabet (byte % 27): "3042276217" → "74866cb65c". */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SafeEncodeAlphabet[s.charCodeAt(i) % SafeEncodeAlphabet.length];
  return out;
}

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

/** FNV-1a 32-bit over bytes, continuing from hash (hash/fnv New32a). */
export function fnv32a(bytes: Uint8Array, hash = FNV32_OFFSET): number {
  let h = hash >>> 0;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, FNV32_PRIME) >>> 0;
  }
  return h >>> 0;
}

/**
 * JSON with object keys sorted at every level: the deterministic dump the hash is taken over. A member that is
 * null is left out as an absent one is: both are the Go field's zero value (a template's `creationTimestamp:
 * null`), which the struct dump does not tell apart.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined && obj[k] !== null)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/**
 * controller.ComputeHash: FNV-1a 32 over a deterministic dump of the pod template, then the collisionCount as 8
 * little-endian bytes when set, rendered as the decimal string of the sum passed through SafeEncodeString —
 * "nginx-deployment-" + "77d8468669". Kubernetes dumps the Go struct with spew; here the dump is the template's
 * canonical JSON, so the hash has the same form and properties (stable, changes with the template or the
 * collision count) but not the same value as a real cluster's for the same template.
 */
export function computeHash(template: unknown, collisionCount?: number): string {
  let h = fnv32a(new TextEncoder().encode(canonicalJson(template ?? {})));
  if (collisionCount !== undefined && collisionCount !== null) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncodeString(String(h));
}

// ---------------------------------------------------------------- informer indexes

/**
 * Objects without a controller ownerReference, by namespace: the orphans a controller may adopt. With it and the
 * ownerUid index, a sync looks only at its own dependents and the namespace's orphans instead of every object
 * in the namespace (Kubernetes lists them all and filters).
 */
export const OrphanNamespaceIndex = 'orphanNamespace';

export function indexOrphansByNamespace(obj: KubeObject): string[] {
  if (!obj.metadata?.namespace) return [];
  return getControllerOf(obj) ? [] : [obj.metadata.namespace];
}

/** Adds the orphan index to an informer unless another controller already did. */
export function ensureOrphanIndex(informer: {
  indexer: { indexNames(): string[] };
  addIndexers(indexers: Readonly<Record<string, (obj: KubeObject) => string[]>>): void;
}): void {
  if (!informer.indexer.indexNames().includes(OrphanNamespaceIndex)) {
    informer.addIndexers({ [OrphanNamespaceIndex]: indexOrphansByNamespace });
  }
}
