// pkg/controller/deployment/recreate.go: the Recreate strategy — every old pod is gone before a new one is
// created: scale old RSs to 0, wait until none of their pods is running, then create/scale the new RS.
import type { Pod } from 'kubernetes-types/core/v1';
import type { DeploymentContext } from './context';
import { syncRolloutStatus } from './progress';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent } from './sync';
import { filterActiveReplicaSets } from '../shared/controller-utils';
import { deploymentComplete, getActualReplicaCountForReplicaSets, replicasOf, type DeploymentObj, type ReplicaSetObj } from './deployment-util';

/** rolloutRecreate: one step of a Recreate rollout. podMap: the pods of each RS, by RS uid. */
export function rolloutRecreate(dc: DeploymentContext, d: DeploymentObj, rsList: ReplicaSetObj[], podMap: Map<string, Pod[]>): void {
  // Don't create a new RS if not already existed, so that we avoid scaling up before scaling down.
  let { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  let allRSs = [...oldRSs, newRS];
  const activeOldRSs = filterActiveReplicaSets(oldRSs);

  // Scale down old replica sets.
  if (scaleDownOldReplicaSetsForRecreate(dc, activeOldRSs, d)) {
    syncRolloutStatus(dc, allRSs, newRS, d);
    return;
  }
  // Do not process a deployment when it has old pods running.
  if (oldPodsRunning(newRS, oldRSs, podMap)) {
    syncRolloutStatus(dc, allRSs, newRS, d);
    return;
  }
  // If we need to create a new RS, create it now.
  if (!newRS) {
    ({ newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(dc, d, rsList, true));
    allRSs = [...oldRSs, newRS];
  }
  // Scale up the new replica set.
  scaleReplicaSetAndRecordEvent(dc, newRS!, replicasOf(d), d);
  if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(dc, oldRSs, d);
  syncRolloutStatus(dc, allRSs, newRS, d);
}

function scaleDownOldReplicaSetsForRecreate(dc: DeploymentContext, oldRSs: ReplicaSetObj[], d: DeploymentObj): boolean {
  let scaled = false;
  for (const rs of oldRSs) {
    // Scaling not required.
    if (replicasOf(rs) === 0) continue;
    if (scaleReplicaSetAndRecordEvent(dc, rs, 0, d).scaled) scaled = true;
  }
  return scaled;
}

/**
 * oldPodsRunning: whether any old RS still reports pods, or any pod of an old RS is not in a terminal phase
 * (Unknown counts as running: a disconnected node's pod may still run).
 */
export function oldPodsRunning(newRS: ReplicaSetObj | undefined, oldRSs: ReplicaSetObj[], podMap: Map<string, Pod[]>): boolean {
  if (getActualReplicaCountForReplicaSets(oldRSs) > 0) return true;
  for (const [rsUid, pods] of podMap) {
    // Pods of the new ReplicaSet don't count.
    if (newRS && newRS.metadata.uid === rsUid) continue;
    for (const pod of pods) {
      const phase = pod.status?.phase;
      // Terminal pods don't count.
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      return true;
    }
  }
  return false;
}
