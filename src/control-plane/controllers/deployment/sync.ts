// pkg/controller/deployment/sync.go: finding (or creating) the new ReplicaSet with its revision, proportional
// scaling, history cleanup and the Deployment's status.
import type { DeploymentStatus, ReplicaSet } from 'kubernetes-types/apps/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import { TraceKind } from '../../../shared/protocol/trace';
import { hasStatusCause, NamespaceTerminatingCause } from '../serviceaccount/serviceaccounts-controller';
import { canonicalJson, compareBySizeNewer, compareBySizeOlder, computeHash, filterActiveReplicaSets, getControllerOf, newControllerRef } from '../shared/controller-utils';
import { errorText } from '../shared/pod-control';
import type { DeploymentContext } from './context';
import { DeploymentControllerName } from './context';
import {
  cloneAndAddLabel,
  cloneSelectorAndAddLabel,
  compareByRevision,
  DefaultDeploymentUniqueLabelKey,
  DeploymentConditionType,
  DeploymentReason,
  equalIgnoreHash,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  getActualReplicaCountForReplicaSets,
  getAvailableReplicaCountForReplicaSets,
  getDeploymentCondition,
  getDesiredReplicasAnnotation,
  getProportion,
  getReadyReplicaCountForReplicaSets,
  getReplicaCountForReplicaSets,
  hasProgressDeadline,
  hasRevisionHistoryLimit,
  isRollingUpdate,
  isSaturated,
  maxRevision,
  maxRevHistoryLengthInChars,
  maxSurge,
  maxUnavailable,
  newDeploymentCondition,
  newRSNewReplicas,
  replicasAnnotationsNeedUpdate,
  replicasOf,
  RevisionAnnotation,
  setDeploymentCondition,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  type DeploymentObj,
  type ReplicaSetObj,
} from './deployment-util';

/** The ownerReference kind of a Deployment (controllerKind). */
export const deploymentKind = { apiVersion: 'apps/v1', kind: 'Deployment' };

/**
 * Writes the deployment's status (and annotations: the status subresource of Deployments keeps them) and takes
 * the new resourceVersion into d, so a later write in the same sync does not conflict with this one.
 */
export function updateDeploymentStatus(dc: DeploymentContext, d: DeploymentObj): void {
  const updated = dc.client.deployments.updateStatus(d);
  (d.metadata as { resourceVersion?: string }).resourceVersion = updated.metadata.resourceVersion;
}

/** syncStatusOnly: only the status, no mutating actions (the deployment is being deleted). */
export function syncStatusOnly(dc: DeploymentContext, d: DeploymentObj, rsList: ReplicaSetObj[]): void {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  syncDeploymentStatus(dc, [...oldRSs, newRS], newRS, d);
}

/** sync: reconciles a scaling event or a paused deployment (scale only, no rollout). */
export function sync(dc: DeploymentContext, d: DeploymentObj, rsList: ReplicaSetObj[]): void {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  scale(dc, d, newRS, oldRSs);
  // Clean up the deployment when it's paused (and no rollback is in flight: the deprecated rollbackTo is not served).
  if (d.spec?.paused) cleanupDeployment(dc, oldRSs, d);
  syncDeploymentStatus(dc, [...oldRSs, newRS], newRS, d);
}

/**
 * checkPausedConditions: Progressing=Unknown DeploymentPaused / DeploymentResumed, so time spent paused is not
 * taken for lack of progress. A ProgressDeadlineExceeded already reported is left alone.
 */
export function checkPausedConditions(dc: DeploymentContext, d: DeploymentObj): void {
  if (!hasProgressDeadline(d)) return;
  const cond = getDeploymentCondition(d.status, DeploymentConditionType.Progressing);
  if (cond?.reason === DeploymentReason.TimedOut) return;
  const pausedCondExists = cond?.reason === DeploymentReason.PausedDeploy;
  d.status ??= {};
  const now = dc.clock.now();
  if (d.spec?.paused && !pausedCondExists) {
    setDeploymentCondition(d.status, newDeploymentCondition(DeploymentConditionType.Progressing, 'Unknown', DeploymentReason.PausedDeploy, 'Deployment is paused', now));
  } else if (!d.spec?.paused && pausedCondExists) {
    setDeploymentCondition(d.status, newDeploymentCondition(DeploymentConditionType.Progressing, 'Unknown', DeploymentReason.ResumedDeploy, 'Deployment is resumed', now));
  } else {
    return;
  }
  updateDeploymentStatus(dc, d);
}

/**
 * getAllReplicaSetsAndSyncRevision: the new RS (created when asked and missing) and all old ones, the new RS's
 * revision raised to max(old revisions) + 1 and copied to the deployment.
 */
export function getAllReplicaSetsAndSyncRevision(
  dc: DeploymentContext,
  d: DeploymentObj,
  rsList: ReplicaSetObj[],
  createIfNotExisted: boolean,
): { newRS: ReplicaSetObj | undefined; oldRSs: ReplicaSetObj[] } {
  const { allOldRSs } = findOldReplicaSets(d, rsList);
  const newRS = getNewReplicaSet(dc, d, rsList, allOldRSs, createIfNotExisted);
  return { newRS, oldRSs: allOldRSs };
}

/**
 * getNewReplicaSet: the RS whose template is the deployment's. An existing one gets its annotations and revision
 * synced; a missing one is created (when asked) as "<deployment>-<pod-template-hash>" with the hash in its labels
 * and selector, revision max(old) + 1, and as many replicas as the strategy allows right away.
 */
export function getNewReplicaSet(
  dc: DeploymentContext,
  d: DeploymentObj,
  rsList: ReplicaSetObj[],
  oldRSs: ReplicaSetObj[],
  createIfNotExisted: boolean,
): ReplicaSetObj | undefined {
  const existingNewRS = findNewReplicaSet(d, rsList);
  const newRevision = String(maxRevision(oldRSs) + 1);
  const now = dc.clock.now();

  if (existingNewRS) {
    const rsCopy = structuredClone(existingNewRS);
    const annotationsUpdated = setNewReplicaSetAnnotations(d, rsCopy, newRevision, true, maxRevHistoryLengthInChars);
    const minReadySecondsNeedsUpdate = (rsCopy.spec?.minReadySeconds ?? 0) !== (d.spec?.minReadySeconds ?? 0);
    if (annotationsUpdated || minReadySecondsNeedsUpdate) {
      rsCopy.spec ??= { selector: {} };
      rsCopy.spec.minReadySeconds = d.spec?.minReadySeconds ?? 0;
      return dc.client.replicaSets.update(rsCopy) as ReplicaSetObj;
    }
    // Use the revision in the RS's annotation: it was set before.
    let needsUpdate = setDeploymentRevision(d, rsCopy.metadata.annotations?.[RevisionAnnotation] ?? '');
    // An old deployment that just got a progress deadline: start counting from finding its new RS.
    const cond = getDeploymentCondition(d.status, DeploymentConditionType.Progressing);
    if (hasProgressDeadline(d) && !cond) {
      d.status ??= {};
      const msg = `Found new replica set ${JSON.stringify(rsCopy.metadata.name)}`;
      setDeploymentCondition(d.status, newDeploymentCondition(DeploymentConditionType.Progressing, 'True', DeploymentReason.FoundNewRS, msg, now));
      needsUpdate = true;
    }
    if (needsUpdate) updateDeploymentStatus(dc, d);
    return rsCopy;
  }

  if (!createIfNotExisted) return undefined;

  // The new ReplicaSet does not exist: create one.
  const newRSTemplate = structuredClone(d.spec?.template ?? {});
  const podTemplateSpecHash = computeHash(newRSTemplate, d.status?.collisionCount);
  newRSTemplate.metadata ??= {};
  newRSTemplate.metadata.labels = cloneAndAddLabel(d.spec?.template?.metadata?.labels, DefaultDeploymentUniqueLabelKey, podTemplateSpecHash);
  const newRSSelector = cloneSelectorAndAddLabel(d.spec?.selector, DefaultDeploymentUniqueLabelKey, podTemplateSpecHash);
  const newRS: ReplicaSetObj = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      // Deterministic, for idempotence.
      name: `${d.metadata.name}-${podTemplateSpecHash}`,
      namespace: d.metadata.namespace,
      ownerReferences: [newControllerRef(d as never, deploymentKind)],
      labels: { ...newRSTemplate.metadata.labels },
    },
    spec: {
      replicas: 0,
      minReadySeconds: d.spec?.minReadySeconds ?? 0,
      selector: newRSSelector,
      template: newRSTemplate,
    },
  };
  const newReplicasCount = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
  newRS.spec!.replicas = newReplicasCount;
  setNewReplicaSetAnnotations(d, newRS, newRevision, false, maxRevHistoryLengthInChars);

  let createdRS: ReplicaSetObj;
  let alreadyExists = false;
  try {
    createdRS = dc.client.replicaSets.create(newRS) as ReplicaSetObj;
  } catch (err) {
    if (isStatusError(err, StatusReason.AlreadyExists)) {
      // A slow cache or a fast resync: it may be ours already.
      alreadyExists = true;
      const rs = dc.rsLister.get(newRS.metadata.namespace, newRS.metadata.name!);
      if (!rs) throw err;
      const ref = getControllerOf(rs as never);
      if (ref && ref.uid === d.metadata.uid && equalIgnoreHash(d.spec?.template, rs.spec?.template)) {
        createdRS = rs;
      } else {
        // A hash collision: another template (or owner) has this name. Bump collisionCount so the next sync
        // computes another hash, and requeue by failing.
        d.status ??= {};
        d.status.collisionCount = (d.status.collisionCount ?? 0) + 1;
        try {
          updateDeploymentStatus(dc, d);
        } catch {
          // The requeue retries.
        }
        throw err;
      }
    } else if (hasStatusCause(err, NamespaceTerminatingCause)) {
      // Every later create fails too: nothing to report.
      throw err;
    } else {
      const msg = `Failed to create new replica set ${JSON.stringify(newRS.metadata.name)}: ${errorText(err)}`;
      if (hasProgressDeadline(d)) {
        d.status ??= {};
        setDeploymentCondition(d.status, newDeploymentCondition(DeploymentConditionType.Progressing, 'False', DeploymentReason.FailedRSCreate, msg, now));
        try {
          updateDeploymentStatus(dc, d);
        } catch {
          // The bigger issue is the failed create.
        }
      }
      dc.recorder.event(d as never, 'Warning', DeploymentReason.FailedRSCreate, msg);
      throw err;
    }
  }
  if (!alreadyExists && newReplicasCount > 0) {
    dc.recorder.event(d as never, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${createdRS.metadata.name} from 0 to ${newReplicasCount}`);
    emitScaled(dc, d, createdRS.metadata.name ?? '', 0, newReplicasCount);
  }
  let needsUpdate = setDeploymentRevision(d, newRevision);
  if (!alreadyExists && hasProgressDeadline(d)) {
    d.status ??= {};
    const msg = `Created new replica set ${JSON.stringify(createdRS.metadata.name)}`;
    setDeploymentCondition(d.status, newDeploymentCondition(DeploymentConditionType.Progressing, 'True', DeploymentReason.NewReplicaSet, msg, now));
    needsUpdate = true;
  }
  if (needsUpdate) updateDeploymentStatus(dc, d);
  return createdRS;
}

/**
 * scale: a resize of the deployment (or of a paused one) spread over its active ReplicaSets in proportion to their
 * sizes, so a resize during a rollout neither hastens nor stalls it.
 *
 * Worked example: replicas 10 → 20 with maxSurge 25% (3 at 10 replicas, 5 at 20), mid-rollout with old RS 8 and
 * new RS 5, both annotated max-replicas 13. allowedSize 20 + 5 = 25, toAdd 25 − 13 = 12. Sorted larger first: old 8 gets
 * round(8 × 25 / 13) − 8 = 15 − 8 = +7, new 5 gets min(round(5 × 25 / 13) − 5, 12 − 7) = min(5, 5) = +5;
 * leftover 0. Result old 15, new 10 = 25.
 */
export function scale(dc: DeploymentContext, d: DeploymentObj, newRS: ReplicaSetObj | undefined, oldRSs: ReplicaSetObj[]): void {
  // One active RS (or none: the newest): it simply gets the deployment's replicas.
  const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
  if (activeOrLatest) {
    if (replicasOf(activeOrLatest) === replicasOf(d)) return;
    scaleReplicaSetAndRecordEvent(dc, activeOrLatest, replicasOf(d), d);
    return;
  }
  // The new RS is saturated: old ones scale down fully (an adoption while saturated).
  if (isSaturated(d, newRS)) {
    for (const old of filterActiveReplicaSets(oldRSs)) scaleReplicaSetAndRecordEvent(dc, old, 0, d);
    return;
  }
  // Several active RSs and the new one is not saturated: scale them all proportionally (rolling only).
  if (isRollingUpdate(d)) {
    const allRSs = filterActiveReplicaSets([...oldRSs, newRS]);
    const allRSsReplicas = getReplicaCountForReplicaSets(allRSs);
    const allowedSize = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
    // Replicas to add (or remove, when negative), spread from the larger RSs to the smaller. On ties, scaling up
    // favours newer RSs and scaling down older ones.
    const deploymentReplicasToAdd = allowedSize - allRSsReplicas;
    let scalingOperation = '';
    if (deploymentReplicasToAdd > 0) {
      allRSs.sort(compareBySizeNewer);
      scalingOperation = 'up';
    } else if (deploymentReplicasToAdd < 0) {
      allRSs.sort(compareBySizeOlder);
      scalingOperation = 'down';
    }
    let deploymentReplicasAdded = 0;
    const nameToSize = new Map<string, number>();
    for (const rs of allRSs) {
      if (deploymentReplicasToAdd !== 0) {
        const proportion = getProportion(rs, d, deploymentReplicasToAdd, deploymentReplicasAdded);
        nameToSize.set(rs.metadata.name!, replicasOf(rs) + proportion);
        deploymentReplicasAdded += proportion;
      } else {
        nameToSize.set(rs.metadata.name!, replicasOf(rs));
      }
    }
    for (let i = 0; i < allRSs.length; i++) {
      const rs = allRSs[i];
      // Any leftover (rounding) goes to the largest RS.
      if (i === 0 && deploymentReplicasToAdd !== 0) {
        const leftover = deploymentReplicasToAdd - deploymentReplicasAdded;
        nameToSize.set(rs.metadata.name!, Math.max(0, nameToSize.get(rs.metadata.name!)! + leftover));
      }
      scaleReplicaSet(dc, rs, nameToSize.get(rs.metadata.name!)!, d, scalingOperation);
    }
  }
}

export function scaleReplicaSetAndRecordEvent(
  dc: DeploymentContext,
  rs: ReplicaSetObj,
  newScale: number,
  d: DeploymentObj,
): { scaled: boolean; rs: ReplicaSetObj } {
  if (replicasOf(rs) === newScale) return { scaled: false, rs };
  return scaleReplicaSet(dc, rs, newScale, d, replicasOf(rs) < newScale ? 'up' : 'down');
}

/**
 * scaleReplicaSet: sets spec.replicas and the desired-replicas / max-replicas annotations, recording
 * ScalingReplicaSet "Scaled up replica set web-7d4b9c8f5 from 1 to 3" (v1.32 wording) when the size changed.
 */
export function scaleReplicaSet(
  dc: DeploymentContext,
  rs: ReplicaSetObj,
  newScale: number,
  d: DeploymentObj,
  scalingOperation: string,
): { scaled: boolean; rs: ReplicaSetObj } {
  const sizeNeedsUpdate = replicasOf(rs) !== newScale;
  const maxReplicas = replicasOf(d) + maxSurge(d);
  const annotationsNeedUpdate = replicasAnnotationsNeedUpdate(rs, replicasOf(d), maxReplicas);
  if (!sizeNeedsUpdate && !annotationsNeedUpdate) return { scaled: false, rs };
  const oldScale = replicasOf(rs);
  const rsCopy = structuredClone(rs);
  rsCopy.spec ??= { selector: {} };
  rsCopy.spec.replicas = newScale;
  setReplicasAnnotations(rsCopy, replicasOf(d), maxReplicas);
  const updated = dc.client.replicaSets.update(rsCopy) as ReplicaSetObj;
  if (sizeNeedsUpdate) {
    dc.recorder.event(d as never, 'Normal', 'ScalingReplicaSet', `Scaled ${scalingOperation} replica set ${updated.metadata.name} from ${oldScale} to ${newScale}`);
    emitScaled(dc, d, updated.metadata.name ?? '', oldScale, newScale);
  }
  return { scaled: sizeNeedsUpdate, rs: updated };
}

function emitScaled(dc: DeploymentContext, d: DeploymentObj, rsName: string, from: number, to: number): void {
  dc.trace.emit({
    kind: TraceKind.Custom,
    component: DeploymentControllerName,
    data: { event: 'deployment.scaleReplicaSet', deployment: `${d.metadata.namespace}/${d.metadata.name}`, replicaSet: rsName, from, to },
  });
}

/**
 * cleanupDeployment: keeps the newest revisionHistoryLimit old ReplicaSets (by revision) and deletes older ones
 * that are fully scaled down and settled (no pods, observed generation current, not already being deleted).
 */
export function cleanupDeployment(dc: DeploymentContext, oldRSs: ReplicaSetObj[], d: DeploymentObj): void {
  if (!hasRevisionHistoryLimit(d)) return;
  // Avoid deleting replica sets already being deleted.
  const cleanable = oldRSs.filter((rs) => rs && !rs.metadata.deletionTimestamp);
  const diff = cleanable.length - (d.spec!.revisionHistoryLimit as number);
  if (diff <= 0) return;
  cleanable.sort(compareByRevision);
  for (let i = 0; i < diff; i++) {
    const rs = cleanable[i];
    // Avoid deleting replica sets with non-zero replica counts.
    if (
      (rs.status?.replicas ?? 0) !== 0 ||
      replicasOf(rs) !== 0 ||
      (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0) ||
      rs.metadata.deletionTimestamp
    ) {
      continue;
    }
    try {
      dc.client.replicaSets.delete(rs.metadata.name!, { namespace: rs.metadata.namespace });
    } catch (err) {
      if (!isStatusError(err, StatusReason.NotFound)) throw err;
    }
  }
}

/** Zero numbers and empty lists are omitted (every DeploymentStatus field is omitempty) before comparing. */
export function statusEqual(a: DeploymentStatus | undefined, b: DeploymentStatus | undefined): boolean {
  const norm = (s: DeploymentStatus | undefined): string => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s ?? {})) {
      if (v === 0 && k !== 'collisionCount') continue;
      if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
      out[k] = v;
    }
    return canonicalJson(out);
  };
  return norm(a) === norm(b);
}

/** syncDeploymentStatus: writes the calculated status when it differs. */
export function syncDeploymentStatus(dc: DeploymentContext, allRSs: (ReplicaSetObj | undefined)[], newRS: ReplicaSetObj | undefined, d: DeploymentObj): void {
  const newStatus = calculateStatus(allRSs, newRS, d, dc.clock.now());
  if (statusEqual(d.status, newStatus)) return;
  d.status = newStatus;
  updateDeploymentStatus(dc, d);
}

/**
 * calculateStatus: counts summed over the ReplicaSets (updatedReplicas: the new RS's pods), and the Available
 * condition: True MinimumReplicasAvailable once availableReplicas ≥ replicas − maxUnavailable.
 */
export function calculateStatus(allRSs: (ReplicaSet | undefined)[], newRS: ReplicaSet | undefined, d: DeploymentObj, nowMs: number): DeploymentStatus {
  const availableReplicas = getAvailableReplicaCountForReplicaSets(allRSs);
  const totalReplicas = getReplicaCountForReplicaSets(allRSs);
  // More available than desired (scaling down): no unavailable replicas.
  const unavailableReplicas = Math.max(0, totalReplicas - availableReplicas);
  const status: DeploymentStatus = {};
  const set = (k: keyof DeploymentStatus, v: number): void => {
    if (v !== 0) (status as Record<string, unknown>)[k] = v;
  };
  set('observedGeneration', d.metadata.generation ?? 0);
  set('replicas', getActualReplicaCountForReplicaSets(allRSs));
  set('updatedReplicas', getActualReplicaCountForReplicaSets([newRS]));
  set('readyReplicas', getReadyReplicaCountForReplicaSets(allRSs));
  set('availableReplicas', availableReplicas);
  set('unavailableReplicas', unavailableReplicas);
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (d.status?.conditions?.length) status.conditions = d.status.conditions.map((c) => ({ ...c }));

  if (availableReplicas >= replicasOf(d) - maxUnavailable(d)) {
    setDeploymentCondition(
      status,
      newDeploymentCondition(DeploymentConditionType.Available, 'True', DeploymentReason.MinimumReplicasAvailable, 'Deployment has minimum availability.', nowMs),
    );
  } else {
    setDeploymentCondition(
      status,
      newDeploymentCondition(DeploymentConditionType.Available, 'False', DeploymentReason.MinimumReplicasUnavailable, 'Deployment does not have minimum availability.', nowMs),
    );
  }
  return status;
}

/**
 * isScalingEvent: whether spec.replicas changed since the active ReplicaSets were last scaled (their
 * desired-replicas annotation differs): then only scale, proportionally, instead of rolling.
 */
export function isScalingEvent(dc: DeploymentContext, d: DeploymentObj, rsList: ReplicaSetObj[]): boolean {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  for (const rs of filterActiveReplicaSets([...oldRSs, newRS])) {
    const desired = getDesiredReplicasAnnotation(rs);
    if (desired === undefined) continue;
    if (desired !== replicasOf(d)) return true;
  }
  return false;
}
