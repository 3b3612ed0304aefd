// pkg/controller/deployment/progress.go: the Progressing condition during a rollout and the progress-deadline
// check, scheduled on virtual time so a stuck rollout is noticed even with no events.
import type { DeploymentCondition } from 'kubernetes-types/apps/v1';
import type { DeploymentContext } from './context';
import {
  deploymentComplete,
  deploymentProgressing,
  DeploymentConditionType,
  DeploymentReason,
  deploymentTimedOut,
  getDeploymentCondition,
  hasProgressDeadline,
  newDeploymentCondition,
  removeDeploymentCondition,
  replicaSetToDeploymentCondition,
  setDeploymentCondition,
  type DeploymentObj,
  type ReplicaSetObj,
} from './deployment-util';
import { calculateStatus, statusEqual, updateDeploymentStatus } from './sync';
import { parseTime } from '../shared/controller-utils';

/**
 * syncRolloutStatus: the status of a rolling or recreating deployment. With a progress deadline, Progressing is
 * NewReplicaSetAvailable once complete ('ReplicaSet "web-7d4b9c8f5" has successfully progressed.'),
 * ReplicaSetUpdated while anything moves, ProgressDeadlineExceeded when nothing moved for the deadline.
 */
export function syncRolloutStatus(dc: DeploymentContext, allRSs: (ReplicaSetObj | undefined)[], newRS: ReplicaSetObj | undefined, d: DeploymentObj): void {
  const now = dc.clock.now();
  const newStatus = calculateStatus(allRSs, newRS, d, now);
  // Without progressDeadlineSeconds there is no Progressing condition.
  if (!hasProgressDeadline(d)) removeDeploymentCondition(newStatus, DeploymentConditionType.Progressing);

  // A resync after a complete rollout (one active RS, fully updated): no progress to estimate.
  const currentCond = getDeploymentCondition(d.status, DeploymentConditionType.Progressing);
  const isCompleteDeployment =
    (newStatus.replicas ?? 0) === (newStatus.updatedReplicas ?? 0) && currentCond?.reason === DeploymentReason.NewRSAvailable;
  if (hasProgressDeadline(d) && !isCompleteDeployment) {
    if (deploymentComplete(d, newStatus)) {
      const msg = newRS
        ? `ReplicaSet ${JSON.stringify(newRS.metadata.name)} has successfully progressed.`
        : `Deployment ${JSON.stringify(d.metadata.name)} has successfully progressed.`;
      setDeploymentCondition(newStatus, newDeploymentCondition(DeploymentConditionType.Progressing, 'True', DeploymentReason.NewRSAvailable, msg, now));
    } else if (deploymentProgressing(d, newStatus)) {
      // Progress: continue without checking for a timeout (the rolling updater's progressDeadline behaviour).
      const msg = newRS
        ? `ReplicaSet ${JSON.stringify(newRS.metadata.name)} is progressing.`
        : `Deployment ${JSON.stringify(d.metadata.name)} is progressing.`;
      const condition = newDeploymentCondition(DeploymentConditionType.Progressing, 'True', DeploymentReason.ReplicaSetUpdated, msg, now);
      // Unlike other conditions, this one is refreshed (lastUpdateTime) on every progress even with the same
      // reason; lastTransitionTime stays while the status stays True.
      if (currentCond) {
        if (currentCond.status === 'True') condition.lastTransitionTime = currentCond.lastTransitionTime;
        removeDeploymentCondition(newStatus, DeploymentConditionType.Progressing);
      }
      setDeploymentCondition(newStatus, condition);
    } else if (deploymentTimedOut(d, newStatus, now)) {
      const msg = newRS
        ? `ReplicaSet ${JSON.stringify(newRS.metadata.name)} has timed out progressing.`
        : `Deployment ${JSON.stringify(d.metadata.name)} has timed out progressing.`;
      setDeploymentCondition(newStatus, newDeploymentCondition(DeploymentConditionType.Progressing, 'False', DeploymentReason.TimedOut, msg, now));
    }
  }

  // Failure conditions of the replica sets surface on the deployment (only one: the new RS's first).
  const replicaFailureCond = getReplicaFailures(allRSs, newRS);
  if (replicaFailureCond.length > 0) setDeploymentCondition(newStatus, replicaFailureCond[0]);
  else removeDeploymentCondition(newStatus, DeploymentConditionType.ReplicaFailure);

  if (statusEqual(d.status, newStatus)) {
    // Nothing new to write: make sure a stuck rollout is checked again at its deadline.
    requeueStuckDeployment(dc, d, newStatus);
    return;
  }
  d.status = newStatus;
  updateDeploymentStatus(dc, d);
}

/** getReplicaFailures: ReplicaFailure conditions of the new RS, else of any RS, as deployment conditions. */
export function getReplicaFailures(allRSs: (ReplicaSetObj | undefined)[], newRS: ReplicaSetObj | undefined): DeploymentCondition[] {
  const fromRS = (rs: ReplicaSetObj | undefined) =>
    (rs?.status?.conditions ?? []).filter((c) => c.type === DeploymentConditionType.ReplicaFailure).map(replicaSetToDeploymentCondition);
  const own = fromRS(newRS);
  if (own.length > 0) return own;
  return allRSs.flatMap(fromRS);
}

/**
 * requeueStuckDeployment: with no sign of progress, syncs the deployment again when its deadline passes.
 * Returns the delay in ms, 0 for "now" (rate limited), -1 when no check is needed.
 *
 *   lastUpdateTime 10:00:00, now 10:03:00, progressDeadlineSeconds 600
 *   → after = 10:00:00 + 10:00 − 10:03:00 = 7 min; requeued after 7 min + 1 s (the second avoids waking early)
 */
export function requeueStuckDeployment(dc: DeploymentContext, d: DeploymentObj, newStatus: NonNullable<DeploymentObj['status']>): number {
  const currentCond = getDeploymentCondition(d.status, DeploymentConditionType.Progressing);
  // No deadline, or no Progressing condition to estimate progress from.
  if (!hasProgressDeadline(d) || !currentCond) return -1;
  // Complete or already timed out: nothing to wait for.
  if (deploymentComplete(d, newStatus) || currentCond.reason === DeploymentReason.TimedOut) return -1;
  const lastUpdate = parseTime(currentCond.lastUpdateTime) ?? 0;
  const after = lastUpdate + (d.spec!.progressDeadlineSeconds as number) * 1000 - dc.clock.now();
  if (after < 1000) {
    dc.enqueueRateLimited(d);
    return 0;
  }
  dc.enqueueAfter(d, after + 1000);
  return after;
}
