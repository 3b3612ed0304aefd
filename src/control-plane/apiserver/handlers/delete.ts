// DELETE: the generic registry's Store.Delete with rest.BeforeDelete. An object goes away at once unless
//   - it is a pod with a grace period: deletionTimestamp = now + grace, deletionGracePeriodSeconds = grace
//     (an unscheduled or finished pod has no grace: pod strategy's CheckGracefulDelete), or
//   - it has finalizers (the propagation policy adds "orphan" or "foregroundDeletion"): deletionTimestamp =
//     now and the object stays until the last finalizer is removed.
// A second delete may only shorten a pending grace period. Namespaces have their own rules (namespace.ts).
import { FieldErrorType, fieldErr, type FieldError } from '../../../shared/api/field-errors';
import {
  OptimisticLockErrorMsg,
  newConflict,
  newInvalid,
  newNotFound,
  successStatus,
  type Status,
} from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { rfc3339 } from '../../sim/clock';
import type { KeyValue } from '../../store/types';
import type { ApiRequest, ApiResponse, SideWrite } from '../types';
import { deleteAdmission } from '../pipeline/admission';
import type { ResourceContext } from '../pipeline/context';
import { persistenceStage } from '../pipeline/persistence';
import { fromStored, toStoredBy, writableMeta } from '../storage/object-codec';
import { deepCopy } from '../patch/json-value';
import { objectKeyFor } from './guaranteed-update';

export const FinalizerOrphanDependents = 'orphan';
export const FinalizerDeleteDependents = 'foregroundDeletion';

export interface DeleteOutcome {
  /** The object as it now is (still present), the deleted object, or a Success Status. */
  body: KubeObject | Status;
  /** Whether the object is gone from storage. */
  deleted: boolean;
}

type Options = NonNullable<ApiRequest['options']>;

/** validation.ValidateDeleteOptions, wrapped as DeleteOptions.meta.k8s.io is invalid. */
export function validateDeleteOptions(options: Options): void {
  const errs: FieldError[] = [];
  const policy = options.propagationPolicy;
  if (options.orphanDependents !== undefined && policy !== undefined) {
    errs.push(fieldErr.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && policy !== 'Foreground' && policy !== 'Background' && policy !== 'Orphan') {
    errs.push(fieldErr.notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  if (Array.isArray(options.dryRun)) {
    for (const v of options.dryRun) {
      if (v !== 'All') errs.push({ type: FieldErrorType.NotSupported, field: 'dryRun', badValue: options.dryRun, detail: 'supported values: "All"' });
    }
  }
  if (errs.length) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
}

function isPods(ctx: ResourceContext): boolean {
  return ctx.rt.group === '' && ctx.rt.resource === 'pods';
}

/** The GroupResource BeforeDelete builds its Conflict with: {group, resource: Kind} ("Deployment.apps"). */
function kindResource(ctx: ResourceContext): { group: string; resource: string } {
  return { group: ctx.rt.group, resource: ctx.rt.kind };
}

interface BeforeDeleteResult {
  graceful: boolean;
  pendingGraceful: boolean;
  /** The grace period the deletion uses (options.gracePeriodSeconds after defaulting). */
  grace?: number;
}

/**
 * rest.BeforeDelete on obj (mutated): options validation, preconditions, then for pods the graceful-deletion
 * bookkeeping.
 */
function beforeDelete(ctx: ResourceContext, obj: KubeObject, options: Options): BeforeDeleteResult {
  validateDeleteOptions(options);
  const meta = writableMeta(obj);
  const pre = options.preconditions;
  if (pre?.uid !== undefined && pre.uid !== meta.uid) {
    throw newConflict(
      kindResource(ctx),
      meta.name ?? '',
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    throw newConflict(
      kindResource(ctx),
      meta.name ?? '',
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
  let grace = options.gracePeriodSeconds;
  if (grace !== undefined && grace < 0) grace = 1;
  if (meta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds !== null && meta.deletionGracePeriodSeconds < 0) {
    meta.deletionGracePeriodSeconds = 1;
  }
  // Only pods delete gracefully (RESTGracefulDeleteStrategy).
  if (!isPods(ctx)) return { graceful: false, pendingGraceful: false };

  if (meta.deletionTimestamp) {
    const current = meta.deletionGracePeriodSeconds;
    if (current === undefined || current === null || current === 0) return { graceful: false, pendingGraceful: false };
    if (grace === undefined) return { graceful: false, pendingGraceful: true, grace: current };
    if (grace >= current) return { graceful: false, pendingGraceful: true, grace: current };
    // Only a shorter grace period may be given; the new deadline is counted from the original request.
    const requestedAt = Date.parse(meta.deletionTimestamp) - current * 1000;
    meta.deletionTimestamp = rfc3339(requestedAt + grace * 1000);
    meta.deletionGracePeriodSeconds = grace;
    return { graceful: true, pendingGraceful: false, grace };
  }

  // pod strategy CheckGracefulDelete: the pod's terminationGracePeriodSeconds by default; none at all for a
  // pod that never reached a node or has finished.
  let period = grace ?? ctx.strategy.defaultGracePeriodSeconds(obj);
  const spec = (obj.spec ?? {}) as { nodeName?: string };
  const phase = (obj.status as { phase?: string } | undefined)?.phase;
  if (!spec.nodeName) period = 0;
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  meta.deletionTimestamp = rfc3339(ctx.server.clock.now() + period * 1000);
  meta.deletionGracePeriodSeconds = period;
  if ((meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  return { graceful: true, pendingGraceful: false, grace: period };
}

/**
 * deletionFinalizersForGarbageCollection: the orphan / foregroundDeletion finalizers the options ask for. With
 * neither option, a GC finalizer already on the object decides, else the kind's default policy.
 */
function gcFinalizers(meta: KubeObject['metadata'], options: Options, defaultOrphan: boolean): { changed: boolean; finalizers: string[] } {
  const existing = meta.finalizers ?? [];
  const policy = options.propagationPolicy;
  let orphan: boolean;
  if (options.orphanDependents !== undefined) orphan = options.orphanDependents;
  else if (policy === 'Orphan') orphan = true;
  else if (policy === 'Background' || policy === 'Foreground') orphan = false;
  else if (existing.includes(FinalizerOrphanDependents) || existing.includes(FinalizerDeleteDependents)) {
    orphan = existing.includes(FinalizerOrphanDependents) && !firstIs(existing, FinalizerDeleteDependents);
  } else orphan = defaultOrphan;
  let foreground: boolean;
  if (options.orphanDependents !== undefined) foreground = false;
  else if (policy === 'Foreground') foreground = true;
  else if (policy === 'Background' || policy === 'Orphan') foreground = false;
  else foreground = existing.includes(FinalizerDeleteDependents) && !firstIs(existing, FinalizerOrphanDependents);

  const finalizers = existing.filter((f) => f !== FinalizerOrphanDependents && f !== FinalizerDeleteDependents);
  if (orphan) finalizers.push(FinalizerOrphanDependents);
  if (foreground) finalizers.push(FinalizerDeleteDependents);
  const a = new Set(existing);
  const b = new Set(finalizers);
  const changed = a.size !== b.size || [...a].some((f) => !b.has(f));
  return { changed, finalizers: changed ? finalizers : existing };
}

/** Which GC finalizer comes first in the list (store.go's loops stop at the first one they meet). */
function firstIs(finalizers: string[], name: string): boolean {
  const first = finalizers.find((f) => f === FinalizerOrphanDependents || f === FinalizerDeleteDependents);
  return first === name;
}

/** finalizeDelete: pods return the deleted object; other kinds a Success Status naming what went. */
function finalizeDelete(ctx: ResourceContext, obj: KubeObject): KubeObject | Status {
  if (isPods(ctx)) return obj;
  return successStatus({ name: obj.metadata.name, group: ctx.rt.group, kind: ctx.rt.resource, uid: obj.metadata.uid });
}

export function deleteObject(ctx: ResourceContext, name: string, options: Options): DeleteOutcome {
  const key = objectKeyFor(ctx, name);
  const kv = ctx.server.store.get(key);
  if (!kv) throw newNotFound(ctx.rt, name);
  const obj = fromStored(kv);

  const first = beforeDelete(ctx, deepCopy(obj), options);
  if (first.pendingGraceful) return { body: finalizeDelete(ctx, obj), deleted: false };

  const sideWrites: SideWrite[] = [];
  deleteAdmission(ctx, obj, sideWrites);

  const pendingFinalizers = (obj.metadata.finalizers ?? []).length > 0;
  // shouldOrphanDependents' last resort: the kind's default policy (Jobs and ReplicationControllers orphan).
  const defaultGC = ctx.strategy.defaultGarbageCollectionPolicy;
  const noPolicy = options.propagationPolicy === undefined && options.orphanDependents === undefined;
  if (defaultGC?.warning && noPolicy) ctx.warnings.push(defaultGC.warning);
  const defaultOrphan = defaultGC?.policy === 'OrphanDependents';
  const shouldUpdateFinalizers = gcFinalizers(obj.metadata, options, defaultOrphan).changed;
  let current: KeyValue = kv;
  if (first.graceful || pendingFinalizers || shouldUpdateFinalizers) {
    // updateForGracefulDeletionAndFinalizers
    const next = deepCopy(obj);
    const again = beforeDelete(ctx, next, options);
    if (again.pendingGraceful) return { body: finalizeDelete(ctx, obj), deleted: false };
    const gc = gcFinalizers(next.metadata, options, defaultOrphan);
    if (gc.changed) next.metadata.finalizers = gc.finalizers;
    const stillFinalizing = (next.metadata.finalizers ?? []).length > 0;
    if (!again.graceful && !stillFinalizing) {
      // errDeleteNow: nothing to wait for.
    } else {
      if (!again.graceful) markAsDeleting(next, ctx.server.clock.now());
      const written = writeUpdate(ctx, key, current, next, sideWrites);
      if (stillFinalizing || (again.grace ?? 0) > 0) return { body: written.object, deleted: false };
      if (!ctx.dryRun && written.kv) current = written.kv;
    }
  }

  // Delete now.
  if (ctx.dryRun) return { body: finalizeDelete(ctx, obj), deleted: true };
  const result = persistenceStage(ctx, { key, expectModRevision: current.modRevision, op: { type: 'delete', key } }, sideWrites, () =>
    newConflict(ctx.rt, name, OptimisticLockErrorMsg),
  );
  const deletedKv = result.results[0];
  return { body: finalizeDelete(ctx, deletedKv ? fromStored(deletedKv) : obj), deleted: true };
}

/**
 * markAsDeleting: deletion requested for an object with finalizers that has no grace period: deletionTimestamp
 * now (never later than an existing one), grace 0, and a generation bump on the first request.
 */
function markAsDeleting(obj: KubeObject, now: number): void {
  const meta = writableMeta(obj);
  if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > now) meta.deletionTimestamp = rfc3339(now);
  meta.deletionGracePeriodSeconds = 0;
}

function writeUpdate(
  ctx: ResourceContext,
  key: string,
  current: KeyValue,
  next: KubeObject,
  sideWrites: SideWrite[],
): { object: KubeObject; kv?: KeyValue } {
  if (ctx.dryRun) return { object: next };
  const result = persistenceStage(ctx, { key, expectModRevision: current.modRevision, op: { type: 'put', key, value: toStoredBy(ctx.strategy, next, current.value) } }, sideWrites, () =>
    newConflict(ctx.rt, next.metadata.name ?? '', OptimisticLockErrorMsg),
  );
  sideWrites.length = 0;
  const kv = result.results[0] ?? current;
  return { object: fromStored(kv), kv };
}
