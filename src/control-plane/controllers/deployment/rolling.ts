// pkg/controller/deployment/rolling.go: the RollingUpdate strategy. Each sync takes one step: scale the new RS
// up within maxSurge, or else scale old RSs down within maxUnavailable; a later sync (woken by the RS and pod
// status changes the step causes) takes the next.
//
// Worked example, 10 replicas, maxSurge 3, maxUnavailable 2: never more than 13 pods, never fewer than 8 available.
//   image change: new RS created with 13 − 10 = 3 replicas                        (old 10, new 3: 13 pods)
//   old: maxScaledDown = 13 pods − 8 minAvailable − 3 new unavailable = 2 → old 8  (old 8, new 3: 11)
//   new: room 13 − 11 = 2 → new 5                                                  (old 8, new 5: 13)
//   the 3 first new pods become available: available 8 + 3 = 11 > 8 → old − 3 → 5 … and so on until old 0.
import type { DeploymentContext } from './context';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent } from './sync';
import { syncRolloutStatus } from './progress';
import { compareByCreationTimestamp, filterActiveReplicaSets } from '../shared/controller-utils';
import {
  deploymentComplete,
  getAvailableReplicaCountForReplicaSets,
  getReplicaCountForReplicaSets,
  maxUnavailable,
  newRSNewReplicas,
  replicasOf,
  type DeploymentObj,
  type ReplicaSetObj,
} from './deployment-util';

/** rolloutRolling: one step of a rolling update, then the status. */
export function rolloutRolling(dc: DeploymentContext, d: DeploymentObj, rsList: ReplicaSetObj[]): void {
  const got = getAllReplicaSetsAndSyncRevision(dc, d, rsList, true);
  const newRS = got.newRS!;
  const oldRSs = got.oldRSs;
  const allRSs = [...oldRSs, newRS];

  // Scale up, if we can.
  if (reconcileNewReplicaSet(dc, allRSs, newRS, d)) {
    syncRolloutStatus(dc, allRSs, newRS, d);
    return;
  }
  // Scale down, if we can.
  if (reconcileOldReplicaSets(dc, allRSs, filterActiveReplicaSets(oldRSs), newRS, d)) {
    syncRolloutStatus(dc, allRSs, newRS, d);
    return;
  }
  if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(dc, oldRSs, d);
  syncRolloutStatus(dc, allRSs, newRS, d);
}

/** reconcileNewReplicaSet: the new RS grows within maxSurge (or shrinks to replicas). Whether it scaled. */
export function reconcileNewReplicaSet(dc: DeploymentContext, allRSs: ReplicaSetObj[], newRS: ReplicaSetObj, d: DeploymentObj): boolean {
  if (replicasOf(newRS) === replicasOf(d)) return false;
  if (replicasOf(newRS) > replicasOf(d)) return scaleReplicaSetAndRecordEvent(dc, newRS, replicasOf(d), d).scaled;
  const newReplicasCount = newRSNewReplicas(d, allRSs, newRS);
  return scaleReplicaSetAndRecordEvent(dc, newRS, newReplicasCount, d).scaled;
}

/**
 * reconcileOldReplicaSets: old RSs shrink as far as availability allows. Two cases can scale down:
 *   - old RSs have unhealthy replicas: removing them does not lower availability (cleanupUnhealthyReplicas);
 *   - the new RS's pods became available: old ones can go (scaleDownOldReplicaSetsForRollingUpdate).
 *
 * maxScaledDown = allPodsCount − minAvailable − newRSUnavailablePodCount: the new RS's unavailable pods count
 * against the budget, so a crash-looping new RS cannot drain the old one. With 10 replicas, maxSurge 3,
 * maxUnavailable 2, new RS at 5 and all 5 crash-looping: 13 − 8 − 5 = 0, the old RS stays at 8. After
 * `rollout undo` the old RS is the new one (1 unavailable): 13 − 8 − 1 = 4 crash-looping pods are scaled down.
 */
export function reconcileOldReplicaSets(
  dc: DeploymentContext,
  allRSs: ReplicaSetObj[],
  oldRSs: ReplicaSetObj[],
  newRS: ReplicaSetObj,
  d: DeploymentObj,
): boolean {
  const oldPodsCount = getReplicaCountForReplicaSets(oldRSs);
  // Can't scale down further.
  if (oldPodsCount === 0) return false;
  const allPodsCount = getReplicaCountForReplicaSets(allRSs);
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const newRSUnavailablePodCount = replicasOf(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = allPodsCount - minAvailable - newRSUnavailablePodCount;
  if (maxScaledDown <= 0) return false;

  // Clean up unhealthy replicas first, otherwise they block the rollout until it times out.
  let cleaned: { oldRSs: ReplicaSetObj[]; cleanupCount: number };
  try {
    cleaned = cleanupUnhealthyReplicas(dc, oldRSs, d, maxScaledDown);
  } catch {
    return false;
  }
  // Scale down old replica sets, checking maxUnavailable.
  let scaledDownCount: number;
  try {
    scaledDownCount = scaleDownOldReplicaSetsForRollingUpdate(dc, [...cleaned.oldRSs, newRS], cleaned.oldRSs, d);
  } catch {
    return false;
  }
  return cleaned.cleanupCount + scaledDownCount > 0;
}

/**
 * cleanupUnhealthyReplicas: old RSs (oldest first) lose their unavailable replicas, up to maxCleanupCount in
 * total. The ReplicaSet controller deletes not-ready, unscheduled and pending pods first, so this removes
 * exactly the unhealthy ones.
 */
export function cleanupUnhealthyReplicas(
  dc: DeploymentContext,
  oldRSs: ReplicaSetObj[],
  d: DeploymentObj,
  maxCleanupCount: number,
): { oldRSs: ReplicaSetObj[]; cleanupCount: number } {
  const sorted = [...oldRSs].sort(compareByCreationTimestamp);
  let totalScaledDown = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (totalScaledDown >= maxCleanupCount) break;
    const targetRS = sorted[i];
    // Cannot scale down this replica set.
    if (replicasOf(targetRS) === 0) continue;
    // No unhealthy replicas found, no scaling required.
    const available = targetRS.status?.availableReplicas ?? 0;
    if (replicasOf(targetRS) === available) continue;
    const scaledDownCount = Math.min(maxCleanupCount - totalScaledDown, replicasOf(targetRS) - available);
    const newReplicasCount = replicasOf(targetRS) - scaledDownCount;
    if (newReplicasCount > replicasOf(targetRS)) {
      throw new Error(
        `when cleaning up unhealthy replicas, got invalid request to scale down ${targetRS.metadata.namespace}/${targetRS.metadata.name} ${replicasOf(targetRS)} -> ${newReplicasCount}`,
      );
    }
    const { rs } = scaleReplicaSetAndRecordEvent(dc, targetRS, newReplicasCount, d);
    totalScaledDown += scaledDownCount;
    sorted[i] = rs;
  }
  return { oldRSs: sorted, cleanupCount: totalScaledDown };
}

/**
 * scaleDownOldReplicaSetsForRollingUpdate: old RSs (oldest first) shrink by availablePodCount − minAvailable.
 * Example: 10 replicas, maxUnavailable 2 (minAvailable 8), available old 8 + new 3 = 11 → scale old down by 3.
 */
export function scaleDownOldReplicaSetsForRollingUpdate(
  dc: DeploymentContext,
  allRSs: ReplicaSetObj[],
  oldRSs: ReplicaSetObj[],
  d: DeploymentObj,
): number {
  const minAvailable = replicasOf(d) - maxUnavailable(d);
  const availablePodCount = getAvailableReplicaCountForReplicaSets(allRSs);
  // Cannot scale down.
  if (availablePodCount <= minAvailable) return 0;
  const sorted = [...oldRSs].sort(compareByCreationTimestamp);
  let totalScaledDown = 0;
  const totalScaleDownCount = availablePodCount - minAvailable;
  for (const targetRS of sorted) {
    // No further scaling required.
    if (totalScaledDown >= totalScaleDownCount) break;
    // Cannot scale down this ReplicaSet.
    if (replicasOf(targetRS) === 0) continue;
    const scaleDownCount = Math.min(replicasOf(targetRS), totalScaleDownCount - totalScaledDown);
    const newReplicasCount = replicasOf(targetRS) - scaleDownCount;
    if (newReplicasCount > replicasOf(targetRS)) {
      throw new Error(
        `when scaling down old RS, got invalid request to scale down ${targetRS.metadata.namespace}/${targetRS.metadata.name} ${replicasOf(targetRS)} -> ${newReplicasCount}`,
      );
    }
    scaleReplicaSetAndRecordEvent(dc, targetRS, newReplicasCount, d);
    totalScaledDown += scaleDownCount;
  }
  return totalScaledDown;
}
