// Namespaces delete in two phases (pkg/registry/core/namespace/storage): the first DELETE only marks the
// namespace Terminating (deletionTimestamp, status.phase); the namespace controller then empties it and
// removes the "kubernetes" spec finalizer through namespaces/finalize; once spec.finalizers is empty, a DELETE
// (or the finalize update itself) removes it.
import { OptimisticLockErrorMsg, newConflict, newNotFound } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { rfc3339 } from '../../sim/clock';
import type { ApiRequest, SideWrite } from '../types';
import { deleteAdmission } from '../pipeline/admission';
import type { ResourceContext } from '../pipeline/context';
import { persistenceStage } from '../pipeline/persistence';
import { fromStored, toStored, writableMeta } from '../storage/object-codec';
import { deepCopy } from '../patch/json-value';
import { deleteObject, validateDeleteOptions, FinalizerDeleteDependents, FinalizerOrphanDependents, type DeleteOutcome } from './delete';
import { objectKeyFor } from './guaranteed-update';

type Options = NonNullable<ApiRequest['options']>;

export function isNamespaces(ctx: ResourceContext): boolean {
  return ctx.rt.group === '' && ctx.rt.resource === 'namespaces';
}

export function deleteNamespace(ctx: ResourceContext, name: string, options: Options): DeleteOutcome {
  const key = objectKeyFor(ctx, name);
  const kv = ctx.server.store.get(key);
  if (!kv) throw newNotFound(ctx.rt, name);
  const ns = fromStored(kv);
  validateDeleteOptions(options);
  const pre = options.preconditions;
  if (pre?.uid !== undefined && pre.uid !== ns.metadata.uid) {
    throw newConflict(ctx.rt, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${ns.metadata.uid ?? ''}`);
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== ns.metadata.resourceVersion) {
    throw newConflict(
      ctx.rt,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${ns.metadata.resourceVersion ?? ''}`,
    );
  }
  const sideWrites: SideWrite[] = [];
  deleteAdmission(ctx, ns, sideWrites);

  if (!ns.metadata.deletionTimestamp) {
    const next = deepCopy(ns);
    writableMeta(next).deletionTimestamp = rfc3339(ctx.server.clock.now());
    const status = (next.status ??= {}) as Record<string, unknown>;
    status.phase = 'Terminating';
    next.metadata.finalizers = namespaceGcFinalizers(next, options);
    if (next.metadata.finalizers.length === 0) delete next.metadata.finalizers;
    if (ctx.dryRun) return { body: next, deleted: false };
    const result = persistenceStage(ctx, { key, expectModRevision: kv.modRevision, op: { type: 'put', key, value: toStored(next, kv.value) } }, sideWrites, () =>
      newConflict(ctx.rt, name, OptimisticLockErrorMsg),
    );
    return { body: fromStored(result.results[0] ?? kv), deleted: false };
  }
  // Prior to final deletion the namespace must have no spec finalizers left.
  const specFinalizers = ((ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length;
  if (specFinalizers > 0) return { body: ns, deleted: false };
  return deleteObject(ctx, name, options);
}

/** shouldHaveOrphanFinalizer / shouldHaveDeleteDependentsFinalizer of the namespace storage. */
function namespaceGcFinalizers(ns: KubeObject, options: Options): string[] {
  const existing = ns.metadata.finalizers ?? [];
  const hasOrphan = existing.includes(FinalizerOrphanDependents);
  const hasForeground = existing.includes(FinalizerDeleteDependents);
  let orphan = hasOrphan;
  let foreground = hasForeground;
  if (options.orphanDependents !== undefined) {
    orphan = options.orphanDependents;
    foreground = false;
  } else if (options.propagationPolicy !== undefined) {
    orphan = options.propagationPolicy === 'Orphan';
    foreground = options.propagationPolicy === 'Foreground';
  }
  const out = existing.filter((f) => f !== FinalizerOrphanDependents && f !== FinalizerDeleteDependents);
  if (orphan) out.push(FinalizerOrphanDependents);
  if (foreground) out.push(FinalizerDeleteDependents);
  return out;
}
