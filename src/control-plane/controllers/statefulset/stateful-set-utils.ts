// pkg/controller/statefulset/stateful_set_utils.go: a StatefulSet's pods have a stable identity — the name
// "<set>-<ordinal>", the hostname and subdomain of the governing Service, the labels statefulset.kubernetes.io/
// pod-name and apps.kubernetes.io/pod-index — and stable storage: one PersistentVolumeClaim per claim template,
// "<claim>-<set>-<ordinal>". Revisions of the pod template are ControllerRevisions whose data is a strategic
// merge patch replacing spec.template; each pod carries the name of its revision in controller-revision-hash.
import type { ControllerRevision, StatefulSet, StatefulSetStatus } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, Volume } from 'kubernetes-types/core/v1';
import type { ObjectMeta, OwnerReference } from '../../../shared/api/types';
import type { Typed } from '../../client/client';
import { newControllerRevision, type Revision } from '../history/controller-history';
import { isPodAvailable, isPodReady, newControllerRef, parseTime } from '../shared/controller-utils';
import { getPodFromTemplate } from '../shared/pod-control';

export type StatefulSetObj = Typed<StatefulSet>;
export type PodObj = Typed<Pod>;
export type ClaimObj = Typed<PersistentVolumeClaim>;

/** controllerKind: the apps/v1 StatefulSet GVK of ownerReferences. */
export const controllerKind = { apiVersion: 'apps/v1', kind: 'StatefulSet' } as const;
const podKind = { apiVersion: 'v1', kind: 'Pod' } as const;

/** Anything with (optional) object metadata: pods, claims, sets. */
type Meta = { metadata?: ObjectMeta };

/** apps.StatefulSetPodNameLabel. */
export const StatefulSetPodNameLabel = 'statefulset.kubernetes.io/pod-name';
/** apps.PodIndexLabel (PodIndexLabel, GA in v1.32). */
export const PodIndexLabel = 'apps.kubernetes.io/pod-index';
/** apps.StatefulSetRevisionLabel (= ControllerRevisionHashLabelKey). */
export const StatefulSetRevisionLabel = 'controller-revision-hash';

export const PodManagementPolicy = { OrderedReady: 'OrderedReady', Parallel: 'Parallel' } as const;
export const UpdateStrategyType = { RollingUpdate: 'RollingUpdate', OnDelete: 'OnDelete' } as const;
export const RetentionPolicyType = { Retain: 'Retain', Delete: 'Delete' } as const;

// ---------------------------------------------------------------- ordinals and names

/** statefulPodRegex: "(.*)-([0-9]+)$". */
const statefulPodRegex = /^(.*)-([0-9]+)$/;

/** getParentNameAndOrdinal: the set's name and the ordinal from a pod name; ["", -1] when it has none. */
export function getParentNameAndOrdinal(pod: Pick<Pod, 'metadata'>): { parent: string; ordinal: number } {
  const m = statefulPodRegex.exec(pod.metadata?.name ?? '');
  if (!m) return { parent: '', ordinal: -1 };
  const n = Number(m[2]);
  // strconv.ParseInt(…, 10, 32): out of int32 range is no ordinal.
  return { parent: m[1]!, ordinal: Number.isSafeInteger(n) && n <= 2147483647 ? n : -1 };
}

export function getParentName(pod: Pick<Pod, 'metadata'>): string {
  return getParentNameAndOrdinal(pod).parent;
}

export function getOrdinal(pod: Pick<Pod, 'metadata'>): number {
  return getParentNameAndOrdinal(pod).ordinal;
}

/** getStartOrdinal: spec.ordinals.start, or 0. */
export function getStartOrdinal(set: StatefulSet): number {
  return set.spec?.ordinals?.start ?? 0;
}

/** getEndOrdinal: the last ordinal in range (inclusive). */
export function getEndOrdinal(set: StatefulSet): number {
  return getStartOrdinal(set) + replicasOf(set) - 1;
}

export function replicasOf(set: StatefulSet): number {
  return set.spec?.replicas ?? 1;
}

/** podInOrdinalRange: the pod's ordinal is within [start, end]. */
export function podInOrdinalRange(pod: Pick<Pod, 'metadata'>, set: StatefulSet): boolean {
  const ordinal = getOrdinal(pod);
  return ordinal >= getStartOrdinal(set) && ordinal <= getEndOrdinal(set);
}

/** getPodName: "<set>-<ordinal>". */
export function getPodName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata?.name ?? ''}-${ordinal}`;
}

/** getPersistentVolumeClaimName: "<claim>-<set>-<ordinal>". */
export function getPersistentVolumeClaimName(set: StatefulSet, claim: PersistentVolumeClaim, ordinal: number): string {
  return `${claim.metadata?.name ?? ''}-${set.metadata?.name ?? ''}-${ordinal}`;
}

/** isMemberOf: the pod's name says it belongs to set. */
export function isMemberOf(set: StatefulSet, pod: Pick<Pod, 'metadata'>): boolean {
  return getParentName(pod) === set.metadata?.name;
}

/** identityMatches: the pod has the name, namespace and pod-name label of a member of set. */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const { parent, ordinal } = getParentNameAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    set.metadata?.name === parent &&
    pod.metadata?.name === getPodName(set, ordinal) &&
    pod.metadata?.namespace === set.metadata?.namespace &&
    pod.metadata?.labels?.[StatefulSetPodNameLabel] === pod.metadata?.name
  );
}

/** storageMatches: the pod's volumes include each claim template's claim, by the template's name. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = getOrdinal(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  for (const claim of set.spec?.volumeClaimTemplates ?? []) {
    const volume = volumes.get(claim.metadata?.name ?? '');
    if (!volume?.persistentVolumeClaim || volume.persistentVolumeClaim.claimName !== getPersistentVolumeClaimName(set, claim, ordinal)) return false;
  }
  return true;
}

// ---------------------------------------------------------------- PVC retention policy

export interface RetentionPolicy {
  whenDeleted: string;
  whenScaled: string;
}

/** getPersistentVolumeClaimRetentionPolicy: the set's policy, Retain/Retain when absent. */
export function getPersistentVolumeClaimRetentionPolicy(set: StatefulSet): RetentionPolicy {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted ?? RetentionPolicyType.Retain, whenScaled: p?.whenScaled ?? RetentionPolicyType.Retain };
}

/** matchesRef: the ownerReference names obj (by name and GVK, not uid). */
function matchesRef(ref: OwnerReference, obj: Meta, gvk: { apiVersion: string; kind: string }): boolean {
  return ref.apiVersion === gvk.apiVersion && ref.kind === gvk.kind && ref.name === obj.metadata?.name;
}

/** hasOwnerRef: target has an ownerReference to owner's uid (controller or not). */
export function hasOwnerRef(target: Meta, owner: Meta): boolean {
  const uid = owner.metadata?.uid;
  return (target.metadata?.ownerReferences ?? []).some((r) => r.uid === uid);
}

/** hasStaleOwnerRef: target has a reference naming obj but with another uid (a previous incarnation). */
export function hasStaleOwnerRef(target: Meta, obj: Meta, gvk: { apiVersion: string; kind: string }): boolean {
  for (const ref of target.metadata?.ownerReferences ?? []) {
    if (matchesRef(ref, obj, gvk)) return ref.uid !== obj.metadata?.uid;
  }
  return false;
}

/** hasUnexpectedController: with a Delete policy, the claim is controlled by something other than the set or pod. */
function hasUnexpectedController(claim: PersistentVolumeClaim, set: StatefulSetObj, pod: Meta): boolean {
  const policy = getPersistentVolumeClaimRetentionPolicy(set);
  if (policy.whenScaled === RetentionPolicyType.Retain && policy.whenDeleted === RetentionPolicyType.Retain) return false;
  for (const ref of claim.metadata?.ownerReferences ?? []) {
    if (matchesRef(ref, set, controllerKind)) {
      if (ref.uid !== set.metadata.uid) return true;
      continue;
    }
    if (matchesRef(ref, pod, podKind)) {
      if (ref.uid !== pod.metadata?.uid) return true;
      continue;
    }
    if (ref.controller === true) return true;
  }
  return false;
}

/** hasNonControllerOwner: the set or pod owns the claim without being its controller. */
function hasNonControllerOwner(claim: PersistentVolumeClaim, set: StatefulSetObj, pod: Meta): boolean {
  return (claim.metadata?.ownerReferences ?? []).some(
    (r) => (r.uid === set.metadata.uid || r.uid === pod.metadata?.uid) && r.controller !== true,
  );
}

/**
 * isClaimOwnerUpToDate: whether the claim's ownerReferences follow the retention policy:
 *   Retain on scale-down and set deletion: no reference
 *   Retain on scale-down, Delete on set deletion: the set (as controller)
 *   Delete on scale-down, Retain on set deletion: the pod, once it is scaled down
 *   Delete on both: the set while the pod is in range, the pod once scaled down
 * Claims with stale references or another controller are left alone.
 */
export function isClaimOwnerUpToDate(claim: PersistentVolumeClaim, set: StatefulSetObj, pod: Meta): boolean {
  if (hasStaleOwnerRef(claim, set, controllerKind) || hasStaleOwnerRef(claim, pod, podKind)) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const { whenScaled, whenDeleted } = getPersistentVolumeClaimRetentionPolicy(set);
  const { Retain, Delete } = RetentionPolicyType;
  const podScaledDown = !podInOrdinalRange(pod, set);
  if (whenScaled === Retain && whenDeleted === Delete) return hasOwnerRef(claim, set) && !hasOwnerRef(claim, pod);
  if (whenScaled === Delete && whenDeleted === Retain) return !hasOwnerRef(claim, set) && podScaledDown === hasOwnerRef(claim, pod);
  if (whenScaled === Delete && whenDeleted === Delete) return podScaledDown !== hasOwnerRef(claim, set) && podScaledDown === hasOwnerRef(claim, pod);
  // Retain/Retain (and unknown policies, treated as Retain).
  return !hasOwnerRef(claim, set) && !hasOwnerRef(claim, pod);
}

/** updateClaimOwnerRefForSetAndPod: rewrites the claim's references to the set and pod to follow the policy. */
export function updateClaimOwnerRefForSetAndPod(claim: PersistentVolumeClaim, set: StatefulSetObj, pod: Meta): void {
  const unexpectedController = hasUnexpectedController(claim, set, pod);
  let refs = (claim.metadata?.ownerReferences ?? []).filter((r) => !matchesRef(r, set, controllerKind) && !matchesRef(r, pod, podKind));
  const add = (owner: Meta, gvk: { apiVersion: string; kind: string }) => {
    if (!refs.some((r) => r.uid === owner.metadata?.uid)) refs = [...refs, newControllerRef({ metadata: owner.metadata ?? {} }, gvk)];
  };
  if (!unexpectedController) {
    const { whenScaled, whenDeleted } = getPersistentVolumeClaimRetentionPolicy(set);
    const { Retain, Delete } = RetentionPolicyType;
    const podScaledDown = !podInOrdinalRange(pod, set);
    if (whenScaled === Retain && whenDeleted === Delete) add(set, controllerKind);
    else if (whenScaled === Delete && whenDeleted === Retain) {
      if (podScaledDown) add(pod, podKind);
    } else if (whenScaled === Delete && whenDeleted === Delete) {
      if (podScaledDown) add(pod, podKind);
      else add(set, controllerKind);
    }
  }
  claim.metadata = { ...claim.metadata };
  if (refs.length > 0) claim.metadata.ownerReferences = refs;
  else delete claim.metadata.ownerReferences;
}

// ---------------------------------------------------------------- pods

/**
 * getPersistentVolumeClaims: the claims of the pod's ordinal, by template name: each template renamed
 * "<claim>-<set>-<ordinal>" in the set's namespace, labelled with the selector's matchLabels.
 */
export function getPersistentVolumeClaims(set: StatefulSet, pod: Pick<Pod, 'metadata'>): Map<string, ClaimObj> {
  const ordinal = getOrdinal(pod);
  const claims = new Map<string, ClaimObj>();
  for (const template of set.spec?.volumeClaimTemplates ?? []) {
    const claim = structuredClone(template) as ClaimObj;
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    claim.metadata = {
      ...claim.metadata,
      name: getPersistentVolumeClaimName(set, template, ordinal),
      namespace: set.metadata?.namespace,
      labels: { ...(template.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) },
    };
    claims.set(template.metadata?.name ?? '', claim);
  }
  return claims;
}

/** updateStorage: the pod's volumes with one persistentVolumeClaim volume per template (replacing any namesake). */
export function updateStorage(set: StatefulSet, pod: Pod): void {
  const claims = getPersistentVolumeClaims(set, pod);
  const volumes: Volume[] = [];
  for (const [name, claim] of claims) // ReadOnly false, which the API omits (omitempty).
    volumes.push({ name, persistentVolumeClaim: { claimName: claim.metadata.name! } });
  for (const v of pod.spec?.volumes ?? []) if (!claims.has(v.name)) volumes.push(v);
  pod.spec = { ...(pod.spec ?? { containers: [] }), volumes };
  if (volumes.length === 0) delete pod.spec.volumes;
}

/** updateIdentity: name, namespace, and the pod-name and pod-index labels of the pod's ordinal. */
export function updateIdentity(set: StatefulSet, pod: Pod): void {
  const ordinal = getOrdinal(pod);
  pod.metadata = { ...pod.metadata, name: getPodName(set, ordinal), namespace: set.metadata?.namespace };
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [StatefulSetPodNameLabel]: pod.metadata.name!, [PodIndexLabel]: String(ordinal) };
}

/** initIdentity: updateIdentity plus the immutable hostname (the pod name) and subdomain (the serviceName). */
export function initIdentity(set: StatefulSet, pod: Pod): void {
  updateIdentity(set, pod);
  pod.spec = { ...(pod.spec ?? { containers: [] }), hostname: pod.metadata!.name };
  if (set.spec?.serviceName) pod.spec.subdomain = set.spec.serviceName;
}

export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod);
}

export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, nowMs: number): boolean {
  return isPodAvailable(pod, minReadySeconds, nowMs);
}

/** isCreated: the API server has the pod (it has a phase). */
export function isCreated(pod: Pod): boolean {
  return (pod.status?.phase ?? '') !== '';
}

export function isPending(pod: Pod): boolean {
  return pod.status?.phase === 'Pending';
}

export function isFailed(pod: Pod): boolean {
  return pod.status?.phase === 'Failed';
}

export function isSucceeded(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded';
}

export function isTerminating(pod: Pod): boolean {
  return !!pod.metadata?.deletionTimestamp;
}

/** isHealthy: running, ready and not terminating. */
export function isHealthy(pod: Pod): boolean {
  return isRunningAndReady(pod) && !isTerminating(pod);
}

/** allowsBurst: Parallel pod management. */
export function allowsBurst(set: StatefulSet): boolean {
  return set.spec?.podManagementPolicy === PodManagementPolicy.Parallel;
}

export function setPodRevision(pod: Pod, revision: string): void {
  pod.metadata = { ...pod.metadata, labels: { ...(pod.metadata?.labels ?? {}), [StatefulSetRevisionLabel]: revision } };
}

export function getPodRevision(pod: Pod): string {
  return pod.metadata?.labels?.[StatefulSetRevisionLabel] ?? '';
}

/** newStatefulSetPod: the pod of ordinal from the set's template, with its identity and storage. */
export function newStatefulSetPod(set: StatefulSetObj, ordinal: number): PodObj {
  const pod = getPodFromTemplate(set.spec?.template ?? {}, set, newControllerRef(set, controllerKind)) as PodObj;
  pod.metadata.name = getPodName(set, ordinal);
  initIdentity(set, pod);
  updateStorage(set, pod);
  return pod;
}

/**
 * newVersionedStatefulSetPod: the pod of ordinal at the current revision when it is below the partition (or,
 * without rollingUpdate, among the current replicas), else at the update revision. The condition reproduces
 * Kubernetes' operator precedence: (RollingUpdate && no rollingUpdate && below currentReplicas) || (rollingUpdate
 * && below partition).
 */
export function newVersionedStatefulSetPod(
  currentSet: StatefulSetObj,
  updateSet: StatefulSetObj,
  currentRevision: string,
  updateRevision: string,
  ordinal: number,
): PodObj {
  const strategy = currentSet.spec?.updateStrategy;
  const start = getStartOrdinal(currentSet);
  const atCurrent =
    (strategy?.type === UpdateStrategyType.RollingUpdate && !strategy.rollingUpdate && ordinal < start + (currentSet.status?.currentReplicas ?? 0)) ||
    (!!strategy?.rollingUpdate && ordinal < start + (strategy.rollingUpdate.partition ?? 0));
  const pod = newStatefulSetPod(atCurrent ? currentSet : updateSet, ordinal);
  setPodRevision(pod, atCurrent ? currentRevision : updateRevision);
  return pod;
}

// ---------------------------------------------------------------- revisions

/**
 * getPatch: what a revision stores — {"spec":{"template":{…,"$patch":"replace"}}}, a strategic merge patch that
 * puts this template back on any StatefulSet.
 */
export function getPatch(set: StatefulSet): unknown {
  return { spec: { template: { ...structuredClone(set.spec?.template ?? {}), $patch: 'replace' } } };
}

/** newRevision: a ControllerRevision of the set's template, labelled like the template, with the set's annotations. */
export function newRevision(set: StatefulSetObj, revision: number, collisionCount: number): Revision {
  const cr = newControllerRevision(set, controllerKind, set.spec?.template?.metadata?.labels, getPatch(set), revision, collisionCount);
  cr.metadata.annotations = { ...(cr.metadata.annotations ?? {}), ...(set.metadata.annotations ?? {}) };
  return cr;
}

/**
 * ApplyRevision: the set with the revision's state restored. The revisions this controller writes hold one
 * `$patch: replace` of spec.template, so applying one replaces the template; other fields of a patch's spec
 * are merged in as a strategic merge patch of maps would.
 */
export function applyRevision(set: StatefulSetObj, revision: ControllerRevision): StatefulSetObj {
  const clone = structuredClone(set);
  const spec = (revision.data as { spec?: Record<string, unknown> } | undefined)?.spec;
  if (!spec || typeof spec !== 'object') return clone;
  const target = (clone.spec ?? {}) as unknown as Record<string, unknown>;
  clone.spec = target as unknown as StatefulSetObj['spec'];
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'template' && value && typeof value === 'object') {
      const { $patch: _directive, ...template } = value as Record<string, unknown>;
      target.template = structuredClone(template);
    } else if (value === null) {
      delete target[key];
    } else {
      target[key] = structuredClone(value);
    }
  }
  return clone;
}

/** nextRevision: one more than the highest revision (revisions sorted), 1 for none. */
export function nextRevision(revisions: readonly ControllerRevision[]): number {
  return revisions.length === 0 ? 1 : (revisions[revisions.length - 1]!.revision ?? 0) + 1;
}

/** inconsistentStatus: the computed status differs from the set's (or observes a newer generation). */
export function inconsistentStatus(set: StatefulSet, status: StatefulSetStatus): boolean {
  const s = set.status ?? { replicas: 0 };
  return (
    (status.observedGeneration ?? 0) > (s.observedGeneration ?? 0) ||
    (status.replicas ?? 0) !== (s.replicas ?? 0) ||
    (status.currentReplicas ?? 0) !== (s.currentReplicas ?? 0) ||
    (status.readyReplicas ?? 0) !== (s.readyReplicas ?? 0) ||
    (status.updatedReplicas ?? 0) !== (s.updatedReplicas ?? 0) ||
    (status.currentRevision ?? '') !== (s.currentRevision ?? '') ||
    (status.availableReplicas ?? 0) !== (s.availableReplicas ?? 0) ||
    (status.updateRevision ?? '') !== (s.updateRevision ?? '')
  );
}

/**
 * completeRollingUpdate: once every replica is updated and ready (RollingUpdate only), the update revision
 * becomes the current one.
 */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): void {
  const replicas = replicasOf(set);
  if (
    set.spec?.updateStrategy?.type === UpdateStrategyType.RollingUpdate &&
    (status.updatedReplicas ?? 0) === replicas &&
    (status.readyReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

/** descendingOrdinal. */
export function sortByDescendingOrdinal<T extends Pod>(pods: T[]): T[] {
  return pods.sort((a, b) => getOrdinal(b) - getOrdinal(a));
}

/**
 * getStatefulSetMaxUnavailable: maxUnavailable (default 1) scaled against replicas, percentages rounded down,
 * never below 1.
 */
export function getStatefulSetMaxUnavailable(maxUnavailable: number | string | undefined, replicaCount: number): number {
  let n: number;
  if (maxUnavailable === undefined || maxUnavailable === null) n = 1;
  else if (typeof maxUnavailable === 'number') n = maxUnavailable;
  else {
    const m = /^(\d+)%$/.exec(maxUnavailable);
    if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
    n = Math.floor((Number(m[1]) * replicaCount) / 100);
  }
  return Math.max(n, 1);
}

/** overlappingStatefulSets: older first, then by name. */
export function compareStatefulSets(a: StatefulSet, b: StatefulSet): number {
  const ta = parseTime(a.metadata?.creationTimestamp) ?? 0;
  const tb = parseTime(b.metadata?.creationTimestamp) ?? 0;
  if (ta !== tb) return ta - tb;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
