// pkg/controller/deployment/util/deployment_util.go: the pure arithmetic and bookkeeping of Deployments —
// revisions and annotations, maxSurge/maxUnavailable, proportions, conditions, which ReplicaSet is new.
import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet, ReplicaSetCondition } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import type { LabelSelector } from '../../../shared/api/types';
import { getScaledValueFromIntOrPercent, type IntOrString } from '../../../shared/lib/intstr';
import { rfc3339 } from '../../sim/clock';
import { canonicalJson, compareByCreationTimestamp, filterActiveReplicaSets, parseTime } from '../shared/controller-utils';

export type DeploymentObj = Deployment & { metadata: NonNullable<Deployment['metadata']> } & { apiVersion: string; kind: string };
export type ReplicaSetObj = ReplicaSet & { metadata: NonNullable<ReplicaSet['metadata']> } & { apiVersion: string; kind: string };

/** apps.DefaultDeploymentUniqueLabelKey. */
export const DefaultDeploymentUniqueLabelKey = 'pod-template-hash';

/** The revision annotation of a deployment's replica sets, which records its rollout sequence. */
export const RevisionAnnotation = 'deployment.kubernetes.io/revision';
/** The old revisions a replica set has served (a rolled-back-to RS keeps its earlier numbers here). */
export const RevisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
/** The deployment's replicas when the RS was last scaled: separates scaling events from rollouts. */
export const DesiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
/** replicas + maxSurge when the RS was last scaled: the base of proportional scaling. */
export const MaxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';
export const LastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** apps.DeprecatedRollbackTo (extensions/v1beta1's spec.rollbackTo as an annotation). */
export const DeprecatedRollbackTo = 'deprecated.deployment.rollback.to';
/** A change-cause annotation kubectl shows in rollout history. */
export const ChangeCauseAnnotation = 'kubernetes.io/change-cause';

/** Revision history of a rolled-back-to RS is capped at about 100 entries (2000 characters). */
export const maxRevHistoryLengthInChars = 2000;

export const MaxInt32 = 2147483647;

export const DeploymentConditionType = {
  Available: 'Available',
  Progressing: 'Progressing',
  ReplicaFailure: 'ReplicaFailure',
} as const;

/** Reasons of the Progressing and Available conditions, as kubectl describe shows them. */
export const DeploymentReason = {
  ReplicaSetUpdated: 'ReplicaSetUpdated',
  FailedRSCreate: 'ReplicaSetCreateError',
  NewReplicaSet: 'NewReplicaSetCreated',
  FoundNewRS: 'FoundNewReplicaSet',
  NewRSAvailable: 'NewReplicaSetAvailable',
  TimedOut: 'ProgressDeadlineExceeded',
  PausedDeploy: 'DeploymentPaused',
  ResumedDeploy: 'DeploymentResumed',
  MinimumReplicasAvailable: 'MinimumReplicasAvailable',
  MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

export const StrategyType = { Recreate: 'Recreate', RollingUpdate: 'RollingUpdate' } as const;

// ---------------------------------------------------------------- small accessors

/** spec.replicas (the API server defaults it to 1). */
export function replicasOf(obj: { spec?: { replicas?: number } } | undefined): number {
  return obj?.spec?.replicas ?? 1;
}

// ---------------------------------------------------------------- conditions

export function newDeploymentCondition(type: string, status: string, reason: string, message: string, nowMs: number): DeploymentCondition {
  const t = rfc3339(nowMs);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function getDeploymentCondition(status: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return (status?.conditions ?? []).find((c) => c.type === type);
}

/**
 * SetDeploymentCondition: adds or replaces the condition of that type; does nothing when status and reason are
 * unchanged; keeps lastTransitionTime when only the reason changes.
 */
export function setDeploymentCondition(status: DeploymentStatus, condition: DeploymentCondition): void {
  const current = getDeploymentCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const c = { ...condition };
  if (current && current.status === c.status) c.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), c];
}

export function removeDeploymentCondition(status: DeploymentStatus, type: string): void {
  const rest = (status.conditions ?? []).filter((c) => c.type !== type);
  if (rest.length > 0) status.conditions = rest;
  else delete status.conditions;
}

/** ReplicaSetToDeploymentCondition: a ReplicaFailure of an RS surfaces on its Deployment. */
export function replicaSetToDeploymentCondition(cond: ReplicaSetCondition): DeploymentCondition {
  return {
    type: cond.type,
    status: cond.status,
    lastTransitionTime: cond.lastTransitionTime,
    lastUpdateTime: cond.lastTransitionTime,
    reason: cond.reason,
    message: cond.message,
  };
}

// ---------------------------------------------------------------- revisions

/** The revision annotation as a number: 0 when absent, undefined when not an integer (skipped, as Go logs it). */
export function revision(obj: { metadata?: { annotations?: Record<string, string> } }): number | undefined {
  const v = obj.metadata?.annotations?.[RevisionAnnotation];
  if (v === undefined) return 0;
  return /^[+-]?\d+$/.test(v) ? Number.parseInt(v, 10) : undefined;
}

/** MaxRevision: the highest revision among the replica sets. */
export function maxRevision(rss: readonly ReplicaSet[]): number {
  let max = 0;
  for (const rs of rss) {
    const v = revision(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

/** LastRevision: the second highest revision (the one before the current). */
export function lastRevision(rss: readonly ReplicaSet[]): number {
  let max = 0;
  let secMax = 0;
  for (const rs of rss) {
    const v = revision(rs);
    if (v === undefined) continue;
    if (v >= max) {
      secMax = max;
      max = v;
    } else if (v > secMax) {
      secMax = v;
    }
  }
  return secMax;
}

/** SetDeploymentRevision: whether the deployment's revision annotation changed. */
export function setDeploymentRevision(d: DeploymentObj, rev: string): boolean {
  d.metadata.annotations ??= {};
  if (d.metadata.annotations[RevisionAnnotation] === rev) return false;
  d.metadata.annotations[RevisionAnnotation] = rev;
  return true;
}

const annotationsToSkip = new Set([
  LastAppliedConfigAnnotation,
  RevisionAnnotation,
  RevisionHistoryAnnotation,
  DesiredReplicasAnnotation,
  MaxReplicasAnnotation,
  DeprecatedRollbackTo,
]);

export function skipCopyAnnotation(key: string): boolean {
  return annotationsToSkip.has(key);
}

/** copyDeploymentAnnotationsToReplicaSet: all but the skipped ones; whether anything changed. */
function copyDeploymentAnnotationsToReplicaSet(d: DeploymentObj, rs: ReplicaSetObj): boolean {
  let changed = false;
  rs.metadata.annotations ??= {};
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (skipCopyAnnotation(k) || rs.metadata.annotations[k] === v) continue;
    rs.metadata.annotations[k] = v;
    changed = true;
  }
  return changed;
}

/** SetDeploymentAnnotationsTo: the deployment's annotations become the RS's (rollback), skipped ones kept. */
export function setDeploymentAnnotationsTo(d: DeploymentObj, rollbackToRS: ReplicaSet): void {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (skipCopyAnnotation(k)) kept[k] = v;
  for (const [k, v] of Object.entries(rollbackToRS.metadata?.annotations ?? {})) if (!skipCopyAnnotation(k)) kept[k] = v;
  d.metadata.annotations = kept;
}

/**
 * SetNewReplicaSetAnnotations: copies the deployment's annotations, raises the RS's revision to newRevision when
 * it is lower (a rollback to an old RS keeps its earlier numbers in revision-history: "1,3"), and on creation sets
 * desired-replicas and max-replicas. Returns whether the annotations changed.
 */
export function setNewReplicaSetAnnotations(
  d: DeploymentObj,
  newRS: ReplicaSetObj,
  newRevision: string,
  exists: boolean,
  revHistoryLimitInChars = maxRevHistoryLengthInChars,
): boolean {
  let changed = copyDeploymentAnnotationsToReplicaSet(d, newRS);
  const annotations = (newRS.metadata.annotations ??= {});
  const oldRevision = annotations[RevisionAnnotation];
  const hadRevision = oldRevision !== undefined;
  let oldRevisionInt = 0;
  if (hadRevision && oldRevision !== '') {
    if (!/^[+-]?\d+$/.test(oldRevision)) return false;
    oldRevisionInt = Number.parseInt(oldRevision, 10);
  }
  if (!/^[+-]?\d+$/.test(newRevision)) return false;
  const newRevisionInt = Number.parseInt(newRevision, 10);
  if (oldRevisionInt < newRevisionInt) {
    annotations[RevisionAnnotation] = newRevision;
    changed = true;
  }
  // An RS that already had a revision and gets a newer one is being rolled back to: keep its history.
  if (hadRevision && oldRevisionInt < newRevisionInt) {
    const history = annotations[RevisionHistoryAnnotation] ?? '';
    const oldRevisions = history.split(',');
    if (oldRevisions[0].length === 0) {
      annotations[RevisionHistoryAnnotation] = oldRevision;
    } else {
      let totalLen = history.length + oldRevision.length + 1;
      let start = 0;
      while (totalLen > revHistoryLimitInChars && start < oldRevisions.length) {
        totalLen = totalLen - oldRevisions[start].length - 1;
        start++;
      }
      if (totalLen <= revHistoryLimitInChars) {
        annotations[RevisionHistoryAnnotation] = [...oldRevisions.slice(start), oldRevision].join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(newRS, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  return changed;
}

function getIntFromAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata?.annotations?.[key];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return undefined;
  return Number.parseInt(v, 10);
}

export function getDesiredReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return getIntFromAnnotation(rs, DesiredReplicasAnnotation);
}

export function getMaxReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return getIntFromAnnotation(rs, MaxReplicasAnnotation);
}

/** SetReplicasAnnotations: whether desired-replicas or max-replicas changed. */
export function setReplicasAnnotations(rs: ReplicaSetObj, desiredReplicas: number, maxReplicas: number): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let updated = false;
  if (annotations[DesiredReplicasAnnotation] !== String(desiredReplicas)) {
    annotations[DesiredReplicasAnnotation] = String(desiredReplicas);
    updated = true;
  }
  if (annotations[MaxReplicasAnnotation] !== String(maxReplicas)) {
    annotations[MaxReplicasAnnotation] = String(maxReplicas);
    updated = true;
  }
  return updated;
}

export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desiredReplicas: number, maxReplicas: number): boolean {
  const annotations = rs.metadata?.annotations;
  if (!annotations) return true;
  return annotations[DesiredReplicasAnnotation] !== String(desiredReplicas) || annotations[MaxReplicasAnnotation] !== String(maxReplicas);
}

// ---------------------------------------------------------------- maxSurge / maxUnavailable

export function isRollingUpdate(d: Deployment): boolean {
  return d.spec?.strategy?.type === StrategyType.RollingUpdate;
}

/**
 * ResolveFenceposts resolves maxSurge (a percentage rounds UP) and maxUnavailable (rounds DOWN) against the
 * desired replicas, in one step because when both come out 0 maxUnavailable becomes 1 (surge might not work
 * due to quota; validation forbids both 0 explicitly, rounding can still get there).
 *
 *   10 replicas, 25% / 25%  → surge ceil(2.5) = 3, unavailable floor(2.5) = 2
 *   3 replicas, 25% / 25%   → surge ceil(0.75) = 1, unavailable floor(0.75) = 0
 *   1 replica,  0% / 25%    → surge 0, unavailable floor(0.25) = 0 → both 0 → unavailable 1
 *   10 replicas, 3 / 2      → surge 3, unavailable 2 (integers are taken as they are)
 */
export function resolveFenceposts(
  maxSurgeValue: IntOrString | undefined,
  maxUnavailableValue: IntOrString | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = getScaledValueFromIntOrPercent(maxSurgeValue ?? 0, desired, true);
  let unavailable = getScaledValueFromIntOrPercent(maxUnavailableValue ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** MaxUnavailable: 0 unless rolling; never more than the replicas (10 replicas, 200% → 10). */
export function maxUnavailable(d: Deployment): number {
  const replicas = replicasOf(d);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  const { unavailable } = resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicas);
  return Math.min(unavailable, replicas);
}

/** MinAvailable: replicas − maxUnavailable for a rolling deployment, else 0. */
export function minAvailable(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  return replicasOf(d) - maxUnavailable(d);
}

/** MaxSurge: 0 unless rolling. */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(ru?.maxSurge, ru?.maxUnavailable, replicasOf(d)).surge;
}

// ---------------------------------------------------------------- proportional scaling

/** Go's math.Round: half away from zero. */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * getReplicaSetFraction: how many replicas this RS should gain (or lose) when the deployment is resized during a
 * rollout, in proportion to its share of max-replicas when last scaled.
 *
 *   RS of 4 (annotated max-replicas 13) in a deployment going to replicas 20 + surge 5 = 25:
 *   round(4 × 25 / 13) = round(7.69) = 8 → fraction +4
 */
function getReplicaSetFraction(rs: ReplicaSet, d: DeploymentObj): number {
  // Scaling down to zero: the fraction of this RS is its whole size.
  if (replicasOf(d) === 0) return -replicasOf(rs);
  const deploymentReplicas = replicasOf(d) + maxSurge(d);
  // Without the annotation fall back to the current deployment size (less accurate, still within bounds).
  const annotatedReplicas = getMaxReplicasAnnotation(rs) ?? d.status?.replicas ?? 0;
  // Never proportionally scaled up from zero, so neither factor is zero here.
  const newRSsize = (replicasOf(rs) * deploymentReplicas) / annotatedReplicas;
  return roundHalfAway(newRSsize) - replicasOf(rs);
}

/**
 * GetProportion: the RS's share of deploymentReplicasToAdd, bounded by what is left to add (or remove) after
 * deploymentReplicasAdded.
 */
export function getProportion(rs: ReplicaSet | undefined, d: DeploymentObj, deploymentReplicasToAdd: number, deploymentReplicasAdded: number): number {
  if (!rs || replicasOf(rs) === 0 || deploymentReplicasToAdd === 0 || deploymentReplicasToAdd === deploymentReplicasAdded) return 0;
  const rsFraction = getReplicaSetFraction(rs, d);
  const allowed = deploymentReplicasToAdd - deploymentReplicasAdded;
  // Scaling up: never add more than allowed; scaling down: never remove more than allowed.
  return deploymentReplicasToAdd > 0 ? Math.min(rsFraction, allowed) : Math.max(rsFraction, allowed);
}

/** FindActiveOrLatest: the only active RS, or the newest when none is active; undefined when several are. */
export function findActiveOrLatest(newRS: ReplicaSetObj | undefined, oldRSs: ReplicaSetObj[]): ReplicaSetObj | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const sortedOld = [...oldRSs].sort((a, b) => compareByCreationTimestamp(b, a));
  const active = filterActiveReplicaSets([...sortedOld, newRS]);
  if (active.length === 0) return newRS ?? sortedOld[0];
  if (active.length === 1) return active[0];
  return undefined;
}

// ---------------------------------------------------------------- new and old replica sets

/** Drops empty maps and lists: apiequality.Semantic.DeepEqual treats nil and empty as equal. */
function semanticNormalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(semanticNormalize);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = semanticNormalize(v);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

/**
 * The comparable form of a template for EqualIgnoreHash: its canonical JSON without the pod-template-hash label,
 * empty maps and lists dropped. Remembered for frozen templates (those of cached objects, which never change),
 * as every Deployment sync compares the deployment's template with each of its ReplicaSets', several times.
 */
const strippedTemplates = new WeakMap<object, string>();

function strippedTemplate(t: PodTemplateSpec | undefined): string {
  if (t && Object.isFrozen(t)) {
    const known = strippedTemplates.get(t);
    if (known !== undefined) return known;
  }
  const c = structuredClone(t ?? {});
  if (c.metadata?.labels) delete c.metadata.labels[DefaultDeploymentUniqueLabelKey];
  const stripped = canonicalJson(semanticNormalize(c) ?? {});
  if (t && Object.isFrozen(t)) strippedTemplates.set(t, stripped);
  return stripped;
}

/** EqualIgnoreHash: the templates are semantically equal apart from the pod-template-hash label. */
export function equalIgnoreHash(t1: PodTemplateSpec | undefined, t2: PodTemplateSpec | undefined): boolean {
  return strippedTemplate(t1) === strippedTemplate(t2);
}

/** FindNewReplicaSet: the oldest RS whose template equals the deployment's. */
export function findNewReplicaSet(d: Deployment, rsList: readonly ReplicaSetObj[]): ReplicaSetObj | undefined {
  const sorted = [...rsList].sort(compareByCreationTimestamp);
  const want = strippedTemplate(d.spec?.template);
  return sorted.find((rs) => strippedTemplate(rs.spec?.template) === want);
}

/** FindOldReplicaSets: [old RSs with replicas, all old RSs]. */
export function findOldReplicaSets(d: Deployment, rsList: readonly ReplicaSetObj[]): { requiredRSs: ReplicaSetObj[]; allOldRSs: ReplicaSetObj[] } {
  const newRS = findNewReplicaSet(d, rsList);
  const allOldRSs = rsList.filter((rs) => !newRS || rs.metadata.uid !== newRS.metadata.uid);
  return { requiredRSs: allOldRSs.filter((rs) => replicasOf(rs) !== 0), allOldRSs };
}

/** ReplicaSetsByRevision: by revision, ties (or unparsable ones) by creation time. */
export function compareByRevision(a: ReplicaSet, b: ReplicaSet): number {
  const r1 = revision(a);
  const r2 = revision(b);
  if (r1 === undefined || r2 === undefined || r1 === r2) return compareByCreationTimestamp(a, b);
  return r1 - r2;
}

// ---------------------------------------------------------------- counts

export function getReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs ? replicasOf(rs) : 0), 0);
}

export function getActualReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
}

export function getReadyReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
}

export function getAvailableReplicaCountForReplicaSets(rss: readonly (ReplicaSet | undefined)[]): number {
  return rss.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
}

// ---------------------------------------------------------------- rollout state

/** DeploymentComplete: every desired replica updated and available, no old pods, the generation observed. */
export function deploymentComplete(d: DeploymentObj, newStatus: DeploymentStatus): boolean {
  const replicas = replicasOf(d);
  return (
    (newStatus.updatedReplicas ?? 0) === replicas &&
    (newStatus.replicas ?? 0) === replicas &&
    (newStatus.availableReplicas ?? 0) === replicas &&
    (newStatus.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** DeploymentProgressing: new pods scaled up, old ones down, or more pods ready or available than before. */
export function deploymentProgressing(d: Deployment, newStatus: DeploymentStatus): boolean {
  const oldStatus = d.status ?? {};
  const oldStatusOldReplicas = (oldStatus.replicas ?? 0) - (oldStatus.updatedReplicas ?? 0);
  const newStatusOldReplicas = (newStatus.replicas ?? 0) - (newStatus.updatedReplicas ?? 0);
  return (
    (newStatus.updatedReplicas ?? 0) > (oldStatus.updatedReplicas ?? 0) ||
    newStatusOldReplicas < oldStatusOldReplicas ||
    (newStatus.readyReplicas ?? 0) > (oldStatus.readyReplicas ?? 0) ||
    (newStatus.availableReplicas ?? 0) > (oldStatus.availableReplicas ?? 0)
  );
}

export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return s !== undefined && s !== null && s !== MaxInt32;
}

export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const l = d.spec?.revisionHistoryLimit;
  return l !== undefined && l !== null && l !== MaxInt32;
}

/**
 * DeploymentTimedOut: the Progressing condition last moved more than progressDeadlineSeconds ago (or already says
 * ProgressDeadlineExceeded). A completed rollout (NewReplicaSetAvailable) never times out.
 *
 *   lastUpdateTime 10:00:00, progressDeadlineSeconds 600 → timed out once now is after 10:10:00
 */
export function deploymentTimedOut(d: Deployment, newStatus: DeploymentStatus, nowMs: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const condition = getDeploymentCondition(newStatus, DeploymentConditionType.Progressing);
  if (!condition) return false;
  if (condition.reason === DeploymentReason.NewRSAvailable) return false;
  if (condition.reason === DeploymentReason.TimedOut) return true;
  const from = parseTime(condition.lastUpdateTime) ?? 0;
  return from + (d.spec!.progressDeadlineSeconds as number) * 1000 < nowMs;
}

/**
 * NewRSNewReplicas: the size the new RS may grow to now. Rolling: up to replicas + maxSurge pods in total, never
 * more than replicas for the new RS. Recreate: the full replicas at once.
 *
 *   10 replicas, maxSurge 3, RSs total 10 (new 0): room 13 − 10 = 3 → new RS 0 + min(3, 10 − 0) = 3
 *   same, once old scaled to 8 (total 11):        room 13 − 11 = 2 → new RS 3 + 2 = 5
 */
export function newRSNewReplicas(d: DeploymentObj, allRSs: readonly (ReplicaSet | undefined)[], newRS: ReplicaSet): number {
  switch (d.spec?.strategy?.type) {
    case StrategyType.RollingUpdate: {
      const surge = getScaledValueFromIntOrPercent(d.spec.strategy.rollingUpdate?.maxSurge ?? 0, replicasOf(d), true);
      const currentPodCount = getReplicaCountForReplicaSets(allRSs);
      const maxTotalPods = replicasOf(d) + surge;
      if (currentPodCount >= maxTotalPods) return replicasOf(newRS);
      const scaleUpCount = Math.min(maxTotalPods - currentPodCount, replicasOf(d) - replicasOf(newRS));
      return replicasOf(newRS) + scaleUpCount;
    }
    case StrategyType.Recreate:
      return replicasOf(d);
    default:
      throw new Error(`deployment type ${d.spec?.strategy?.type} isn't supported`);
  }
}

/** IsSaturated: the new RS has all the replicas, believes it should (desired-replicas), and all are available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = getDesiredReplicasAnnotation(rs);
  if (desired === undefined) return false;
  const replicas = replicasOf(d);
  return replicasOf(rs) === replicas && desired === replicas && (rs.status?.availableReplicas ?? 0) === replicas;
}

// ---------------------------------------------------------------- labels

/** CloneAndAddLabel. */
export function cloneAndAddLabel(labels: Record<string, string> | undefined, key: string, value: string): Record<string, string> {
  return { ...(labels ?? {}), [key]: value };
}

/** CloneSelectorAndAddLabel: the selector with key=value added to matchLabels. */
export function cloneSelectorAndAddLabel(selector: LabelSelector | undefined, key: string, value: string): LabelSelector {
  const out = structuredClone(selector ?? {});
  out.matchLabels = { ...(out.matchLabels ?? {}), [key]: value };
  return out;
}
