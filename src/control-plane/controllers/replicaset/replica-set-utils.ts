// pkg/controller/replicaset/replica_set_utils.go: the status a ReplicaSet reports and how it is written, plus
// the choice of pods to delete when scaling down.
import type { ReplicaSetCondition } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { matchesSet } from '../../../shared/lib/labels';
import type { ResourceClient } from '../../client/client';
import { rfc3339 } from '../../sim/clock';
import { isPodActive, isPodAvailable, isPodReady, sortActivePodsWithRanks } from '../shared/controller-utils';
import type { ReplicaSetLike, ReplicaSetStatusLike } from './replica-set-kind';

export const ReplicaSetReplicaFailure = 'ReplicaFailure';

/** Retries of a failed status write (with a fresh GET between) before the key is requeued. */
export const statusUpdateRetries = 1;

export function newReplicaSetCondition(type: string, status: string, reason: string, message: string, nowMs: number): ReplicaSetCondition {
  return { type, status, lastTransitionTime: rfc3339(nowMs), reason, message };
}

export function getCondition(status: ReplicaSetStatusLike | undefined, type: string): ReplicaSetCondition | undefined {
  return (status?.conditions ?? []).find((c) => c.type === type);
}

/** SetCondition: replaces the condition of that type unless status and reason are unchanged. */
export function setCondition(status: ReplicaSetStatusLike, condition: ReplicaSetCondition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), condition];
}

export function removeCondition(status: ReplicaSetStatusLike, type: string): void {
  const rest = (status.conditions ?? []).filter((c) => c.type !== type);
  if (rest.length > 0) status.conditions = rest;
  else delete status.conditions;
}

/**
 * calculateStatus: counts over the claimed active pods. fullyLabeledReplicas counts pods carrying every label of
 * the template (a superset of the selector); availableReplicas those ready for minReadySeconds. A failed
 * manageReplicas adds ReplicaFailure (FailedCreate when short of pods, FailedDelete when over); success removes it.
 */
export function calculateStatus(rs: ReplicaSetLike, filteredPods: readonly Pod[], manageReplicasErr: unknown, nowMs: number): ReplicaSetStatusLike {
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  const minReadySeconds = rs.spec?.minReadySeconds ?? 0;
  for (const pod of filteredPods) {
    if (matchesSet(templateLabels, pod.metadata?.labels)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, nowMs)) available++;
    }
  }
  const counts = { replicas: filteredPods.length, fullyLabeledReplicas: fullyLabeled, readyReplicas: ready, availableReplicas: available };
  return statusFromCounts(rs, counts, manageReplicasErr, nowMs);
}

/** calculateStatus's result from the counts over the claimed active pods (see ReplicaSetPodSummaries). */
export function statusFromCounts(
  rs: ReplicaSetLike,
  counts: { replicas: number; fullyLabeledReplicas: number; readyReplicas: number; availableReplicas: number },
  manageReplicasErr: unknown,
  nowMs: number,
): ReplicaSetStatusLike {
  // A shallow copy is enough: only top-level fields are set or deleted below, and conditions is replaced, never
  // changed in place (setCondition, removeCondition).
  const newStatus: ReplicaSetStatusLike = { ...(rs.status ?? {}) };
  const failureCond = getCondition(rs.status, ReplicaSetReplicaFailure);
  if (manageReplicasErr !== undefined && !failureCond) {
    const diff = counts.replicas - (rs.spec?.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    const message = manageReplicasErr instanceof Error ? manageReplicasErr.message : String(manageReplicasErr);
    setCondition(newStatus, newReplicaSetCondition(ReplicaSetReplicaFailure, 'True', reason, message, nowMs));
  } else if (manageReplicasErr === undefined && failureCond) {
    removeCondition(newStatus, ReplicaSetReplicaFailure);
  }

  newStatus.replicas = counts.replicas;
  setOmitEmpty(newStatus, 'fullyLabeledReplicas', counts.fullyLabeledReplicas);
  setOmitEmpty(newStatus, 'readyReplicas', counts.readyReplicas);
  setOmitEmpty(newStatus, 'availableReplicas', counts.availableReplicas);
  return newStatus;
}

/** Fields with `omitempty` are absent when zero, as the API serialises them. */
function setOmitEmpty<K extends keyof ReplicaSetStatusLike>(status: ReplicaSetStatusLike, key: K, value: number): void {
  if (value === 0) delete status[key];
  else (status as Record<string, unknown>)[key] = value;
}

function sameConditions(a: ReplicaSetCondition[] | undefined, b: ReplicaSetCondition[] | undefined): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

/**
 * updateReplicaSetStatus: writes newStatus through the status subresource unless nothing changed (the steady
 * state). observedGeneration is set to the generation acted on. A conflict is retried once after a fresh GET.
 */
export function updateReplicaSetStatus(rsClient: ResourceClient<ReplicaSetLike>, rs: ReplicaSetLike, newStatus: ReplicaSetStatusLike): ReplicaSetLike {
  const cur = rs.status ?? {};
  if (
    (cur.replicas ?? 0) === (newStatus.replicas ?? 0) &&
    (cur.fullyLabeledReplicas ?? 0) === (newStatus.fullyLabeledReplicas ?? 0) &&
    (cur.readyReplicas ?? 0) === (newStatus.readyReplicas ?? 0) &&
    (cur.availableReplicas ?? 0) === (newStatus.availableReplicas ?? 0) &&
    (rs.metadata.generation ?? 0) === (cur.observedGeneration ?? 0) &&
    sameConditions(cur.conditions, newStatus.conditions)
  ) {
    return rs;
  }
  // Save the generation number we acted on, otherwise we might wrongfully indicate that we've seen a spec
  // update when we retry.
  const status: ReplicaSetStatusLike = { ...newStatus };
  if (rs.metadata.generation) status.observedGeneration = rs.metadata.generation;
  else delete status.observedGeneration;

  let target: ReplicaSetLike = rs;
  for (let i = 0; ; i++) {
    try {
      // No deep copy: the API server decodes the body into an object of its own and never changes it.
      return rsClient.updateStatus({ ...target, status });
    } catch (err) {
      // Stop retrying if we exceed statusUpdateRetries: the ReplicaSet will be requeued with a rate limit.
      if (i >= statusUpdateRetries) throw err;
      // Update the ReplicaSet with the latest resource version for the next try. A failed GET is the more
      // interesting error.
      target = rsClient.get(rs.metadata.name ?? '', { namespace: rs.metadata.namespace });
    }
  }
}

/**
 * getPodsToDelete: the `diff` pods to delete first (ActivePodsWithRanks). Each pod's rank is the number of active
 * pods of the same owner family (the ReplicaSets of one Deployment) on its node, so a node running several of
 * them gives one up first. Deleting them all needs no sort.
 */
export function getPodsToDelete<T extends Pod>(filteredPods: readonly T[], relatedPods: readonly Pod[], diff: number, nowMs: number): T[] {
  if (diff >= filteredPods.length) return filteredPods.slice(0, diff);
  const podsOnNode = new Map<string, number>();
  for (const pod of relatedPods) {
    if (!isPodActive(pod)) continue;
    const node = pod.spec?.nodeName ?? '';
    podsOnNode.set(node, (podsOnNode.get(node) ?? 0) + 1);
  }
  const ranks = filteredPods.map((p) => podsOnNode.get(p.spec?.nodeName ?? '') ?? 0);
  return sortActivePodsWithRanks(filteredPods, ranks, nowMs).slice(0, diff);
}
