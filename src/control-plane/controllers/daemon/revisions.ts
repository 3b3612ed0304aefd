// A DaemonSet's ControllerRevisions (pkg/controller/daemon/update.go constructHistory & co). The DaemonSet
// controller keeps its own revision code rather than pkg/controller/history: a revision's data is the patch
// {"spec":{"template":{…,"$patch":"replace"}}} that restores the template (what `kubectl rollout undo
// daemonset` applies), its name is "<ds>-<ComputeHash(template, collisionCount)>", and its
// controller-revision-hash label is the hash that labels the pods made from it.
//
//   template unchanged     → the revision whose data matches is current (renumbered to max(old)+1 if needed)
//   template changed       → a new revision max+1 is created (a name taken by other data → collisionCount++)
//   old revisions > revisionHistoryLimit → the oldest ones no live pod uses are deleted
import type { ControllerRevision, DaemonSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import { PatchType } from '../../../shared/api/request';
import type { Client, Typed } from '../../client/client';
import { canonicalJson, computeHash, newControllerRef } from '../shared/controller-utils';
import { DefaultDaemonSetUniqueLabelKey } from './daemonset-util';

export type Revision = Typed<ControllerRevision>;
export type DaemonSetObj = Typed<DaemonSet>;

export const daemonSetKind = { apiVersion: 'apps/v1', kind: 'DaemonSet' } as const;

/** getPatch: the strategic merge patch that restores the DaemonSet's pod template. */
export function getPatch(ds: DaemonSet): { spec: { template: Record<string, unknown> } } {
  const template = structuredClone((ds.spec?.template ?? {}) as Record<string, unknown>);
  template.$patch = 'replace';
  return { spec: { template } };
}

/** Match: the revision's data is exactly this DaemonSet's patch (Kubernetes compares the JSON bytes). */
export function match(ds: DaemonSet, history: ControllerRevision): boolean {
  return canonicalJson(getPatch(ds)) === canonicalJson(history.data ?? null);
}

export function maxRevision(histories: readonly ControllerRevision[]): number {
  return histories.reduce((max, h) => Math.max(max, h.revision ?? 0), 0);
}

/** historiesByRevision: oldest (lowest revision) first. */
export function sortByRevision<T extends ControllerRevision>(histories: readonly T[]): T[] {
  return [...histories].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
}

/** What the revision code needs from the controller. */
export interface RevisionContext {
  client: Client;
  /** controlledHistories: the revisions this DaemonSet owns, after adopting and releasing. */
  controlledHistories(ds: DaemonSetObj): Revision[];
  /** getDaemonPods: the pods this DaemonSet owns (claimed). */
  getDaemonPods(ds: DaemonSetObj): Typed<Pod>[];
}

/**
 * constructHistory: the current revision (created or renumbered as needed) and the old ones. Revisions missing
 * the hash label get their name as hash (so hash collisions need no care).
 */
export function constructHistory(ctx: RevisionContext, ds: DaemonSetObj): { cur: Revision; old: Revision[] } {
  const ns = ds.metadata.namespace ?? '';
  const currentHistories: Revision[] = [];
  const old: Revision[] = [];
  for (let history of ctx.controlledHistories(ds)) {
    if (history.metadata.labels?.[DefaultDaemonSetUniqueLabelKey] === undefined) {
      const toUpdate = structuredClone(history) as Revision;
      toUpdate.metadata.labels = { ...(toUpdate.metadata.labels ?? {}), [DefaultDaemonSetUniqueLabelKey]: toUpdate.metadata.name ?? '' };
      history = ctx.client.controllerRevisions.update(toUpdate, { namespace: ns });
    }
    if (match(ds, history)) currentHistories.push(history);
    else old.push(history);
  }
  const currRevision = maxRevision(old) + 1;
  let cur: Revision;
  if (currentHistories.length === 0) {
    cur = snapshot(ctx, ds, currRevision);
  } else {
    cur = dedupCurHistories(ctx, ds, currentHistories);
    if ((cur.revision ?? 0) < currRevision) {
      const toUpdate = structuredClone(cur) as Revision;
      toUpdate.revision = currRevision;
      cur = ctx.client.controllerRevisions.update(toUpdate, { namespace: ns });
    }
  }
  return { cur, old };
}

/**
 * dedupCurHistories: several revisions match the template (possible after a collision): keep the highest,
 * relabel the pods of the others to its hash, delete them.
 */
function dedupCurHistories(ctx: RevisionContext, ds: DaemonSetObj, curHistories: Revision[]): Revision {
  if (curHistories.length === 1) return curHistories[0];
  let keepCur = curHistories[0];
  let max = 0;
  for (const cur of curHistories) {
    if ((cur.revision ?? 0) >= max) {
      keepCur = cur;
      max = cur.revision ?? 0;
    }
  }
  const ns = ds.metadata.namespace ?? '';
  const keepHash = keepCur.metadata.labels?.[DefaultDaemonSetUniqueLabelKey] ?? '';
  for (const pod of ctx.getDaemonPods(ds)) {
    if (pod.metadata.labels?.[DefaultDaemonSetUniqueLabelKey] !== keepHash) {
      ctx.client.pods.patch(pod.metadata.name ?? '', PatchType.MergePatch, { metadata: { labels: { [DefaultDaemonSetUniqueLabelKey]: keepHash } } }, { namespace: ns });
    }
  }
  for (const cur of curHistories) {
    if (cur.metadata.name === keepCur.metadata.name) continue;
    ctx.client.controllerRevisions.delete(cur.metadata.name ?? '', { namespace: ns });
  }
  return keepCur;
}

/**
 * snapshot: creates the revision of the current template. If its name is taken by a revision with other data
 * (a hash collision), status.collisionCount is bumped and the AlreadyExists error returned for a retry.
 */
function snapshot(ctx: RevisionContext, ds: DaemonSetObj, revision: number): Revision {
  const ns = ds.metadata.namespace ?? '';
  const hash = computeHash(ds.spec?.template, ds.status?.collisionCount);
  const name = `${ds.metadata.name}-${hash}`;
  const history: Revision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: ns,
      labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [DefaultDaemonSetUniqueLabelKey]: hash },
      ownerReferences: [newControllerRef(ds, daemonSetKind)],
    },
    data: getPatch(ds) as ControllerRevision['data'],
    revision,
  };
  if (ds.metadata.annotations) history.metadata.annotations = { ...ds.metadata.annotations };
  try {
    return ctx.client.controllerRevisions.create(history, { namespace: ns });
  } catch (outerErr) {
    if (!isStatusError(outerErr, StatusReason.AlreadyExists)) throw outerErr;
    const existed = ctx.client.controllerRevisions.get(name, { namespace: ns });
    // Check if we already created it.
    if (match(ds, existed)) return existed;
    // A name collision between different revisions: get the latest DaemonSet so the count is only bumped once.
    const currDS = ctx.client.daemonSets.get(ds.metadata.name ?? '', { namespace: ns });
    if ((currDS.status?.collisionCount ?? undefined) !== (ds.status?.collisionCount ?? undefined)) {
      throw new Error(
        `found a stale collision count (${ds.status?.collisionCount ?? 0}, expected ${currDS.status?.collisionCount ?? 0}) of DaemonSet "${ds.metadata.name}" while processing; will retry until it is updated`,
      );
    }
    const bumped = { ...currDS, status: { ...currDS.status!, collisionCount: (currDS.status?.collisionCount ?? 0) + 1 } };
    ctx.client.daemonSets.updateStatus(bumped, { namespace: ns });
    throw outerErr;
  }
}

/**
 * cleanupHistory: deletes the oldest old revisions beyond spec.revisionHistoryLimit, sparing any whose hash a
 * live pod (including deleted terminal ones) still carries.
 */
export function cleanupHistory(client: Client, ds: DaemonSetObj, old: readonly Revision[], nodeToDaemonPods: ReadonlyMap<string, readonly Pod[]>): void {
  const toKeep = ds.spec?.revisionHistoryLimit ?? 10;
  let toKill = old.length - toKeep;
  if (toKill <= 0) return;
  const liveHashes = new Set<string>();
  for (const pods of nodeToDaemonPods.values()) {
    for (const pod of pods) {
      const hash = pod.metadata?.labels?.[DefaultDaemonSetUniqueLabelKey];
      if (hash) liveHashes.add(hash);
    }
  }
  for (const history of sortByRevision(old)) {
    if (toKill <= 0) break;
    const hash = history.metadata.labels?.[DefaultDaemonSetUniqueLabelKey];
    if (hash !== undefined && liveHashes.has(hash)) continue;
    client.controllerRevisions.delete(history.metadata.name ?? '', { namespace: ds.metadata.namespace ?? '' });
    toKill--;
  }
}
