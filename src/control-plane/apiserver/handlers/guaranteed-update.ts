// The generic registry's Store.Update (registry/generic/registry/store.go) around one read-modify-write:
// the new object is computed from the stored one (a PUT body, a patch, an apply, a scale change), then managed
// fields → mutating admission → defaulting → optimistic concurrency → BeforeUpdate (prepare + validate) →
// validating admission → the write, compared against the stored modRevision. An update that empties the
// finalizers of an object being deleted deletes it instead. The in-process server runs one request at a
// time, so the read and the compare-and-swap never race and no retry loop is needed.
import { OptimisticLockErrorMsg, newConflict, newInvalid, newNotFound, newBadRequest } from '../../../shared/api/status';
import { fieldErr } from '../../../shared/api/field-errors';
import type { KubeObject } from '../../../shared/api/types';
import { rfc3339 } from '../../sim/clock';
import { objectKey } from '../../store/keys';
import { AdmissionOperation, type SideWrite } from '../types';
import { admissionAttributes, mutatingAdmissionStage, validatingAdmissionStage } from '../pipeline/admission';
import type { ResourceContext } from '../pipeline/context';
import { defaultingStage } from '../pipeline/defaulting';
import { persistenceStage } from '../pipeline/persistence';
import { validateUpdateStage } from '../pipeline/validation';
import { fromStored, resourceVersionOf, storedView, toStoredBy, writableMeta } from '../storage/object-codec';
import { deepCopy } from '../patch/json-value';
import { createObject } from './create';
import { fieldManagerName } from './field-manager-name';

export type UpdateSubresource = 'status' | 'scale' | 'finalize';

export interface UpdateSpec {
  name: string;
  subresource?: UpdateSubresource;
  /**
   * The object to write, computed from a private copy of the stored one (undefined when there is none).
   * Throws to refuse (NotFound for a patch of a missing object, Invalid for a bad patch result…).
   */
  transform(existing: KubeObject | undefined): KubeObject;
  /** transform replaces the object whole (a PUT body) and never reads its argument: no copy is made for it. */
  ignoresExisting?: boolean;
  /** transform reads its argument but never changes it (patches copy what they patch): it gets the frozen view. */
  readsExistingOnly?: boolean;
  /** Create when the object does not exist even if the kind does not allow create-on-update (apply). */
  forceAllowCreate?: boolean;
  /** transform already recorded managed fields (server-side apply does). */
  managedFieldsDone?: boolean;
  /** Skip the kind's strategy (namespaces/finalize has its own narrow rules). */
  validate?: (obj: KubeObject, old: KubeObject) => void;
}

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

/**
 * Kinds whose strategy has AllowCreateOnUpdate() = true in Kubernetes v1.32: a PUT of a missing object creates
 * it. Everything else answers 404.
 */
const createOnUpdate = new Set([
  '/events',
  'events.k8s.io/events',
  '/endpoints',
  '/limitranges',
  '/services',
  'coordination.k8s.io/leases',
  'rbac.authorization.k8s.io/roles',
  'rbac.authorization.k8s.io/clusterroles',
  'rbac.authorization.k8s.io/rolebindings',
  'rbac.authorization.k8s.io/clusterrolebindings',
]);

export function allowCreateOnUpdate(rt: { group: string; resource: string }): boolean {
  return createOnUpdate.has(`${rt.group}/${rt.resource}`);
}

export function objectKeyFor(ctx: ResourceContext, name: string): string {
  return objectKey(ctx.rt, ctx.rt.namespaced ? ctx.namespace : undefined, name);
}

export function guaranteedUpdate(ctx: ResourceContext, spec: UpdateSpec): UpdateResult {
  const { server, rt } = ctx;
  const key = objectKeyFor(ctx, spec.name);
  const kv = server.store.get(key);
  // The old object only read (field manager, admission, validation): the stored value's frozen view, no copy.
  const existing = kv ? storedView(kv) : undefined;
  if (!existing && !(spec.forceAllowCreate || (allowCreateOnUpdate(rt) && !spec.subresource))) {
    throw newNotFound(rt, spec.name);
  }

  const obj = spec.transform(!existing || spec.ignoresExisting ? undefined : spec.readsExistingOnly ? existing : deepCopy(existing));

  if (!existing || !kv) {
    // Create-on-update: the create path, with the system fields filled afresh.
    delete writableMeta(obj).uid;
    delete writableMeta(obj).creationTimestamp;
    if (!spec.forceAllowCreate) delete writableMeta(obj).resourceVersion;
    return { object: createObject(ctx, obj, { managedFieldsDone: spec.managedFieldsDone }), created: true };
  }

  const sub = spec.subresource === 'status' || spec.subresource === 'scale' ? spec.subresource : undefined;
  const sideWrites: SideWrite[] = [];
  if (!spec.managedFieldsDone) {
    defaultingStage(ctx, obj, sub);
    server.fieldManagerFor(rt).update(existing, obj, fieldManagerName(ctx), {
      apiVersion: existing.apiVersion,
      subresource: spec.subresource === 'status' ? 'status' : undefined,
      time: rfc3339(server.clock.now()),
      hasStatusSubresource: rt.subresources.status,
      writer: ctx.user.username,
    });
  }
  mutatingAdmissionStage(ctx, admissionAttributes(ctx, AdmissionOperation.Update, obj, existing, spec.subresource), sideWrites);
  defaultingStage(ctx, obj, sub);

  // Optimistic concurrency: no resourceVersion means "unconditional" where the strategy allows it.
  const newRV = resourceVersionOf(obj);
  if (Number.isNaN(newRV)) throw newBadRequest(`invalid resource version: ${JSON.stringify(obj.metadata.resourceVersion)}`);
  if (newRV === 0) {
    if (!ctx.strategy.allowUnconditionalUpdate) {
      // store.go builds this error with the resource in the Kind field (see the TODO there): "deployments.apps".
      throw newInvalid({ group: rt.group, kind: rt.resource }, spec.name, [
        fieldErr.invalid('metadata.resourceVersion', 0, 'must be specified for an update'),
      ]);
    }
    writableMeta(obj).resourceVersion = String(kv.modRevision);
  } else if (newRV !== kv.modRevision) {
    throw newConflict(rt, spec.name, OptimisticLockErrorMsg);
  }

  if (spec.validate) spec.validate(obj, existing);
  else validateUpdateStage(ctx, obj, existing, sub);
  validatingAdmissionStage(ctx, admissionAttributes(ctx, AdmissionOperation.Update, obj, existing, spec.subresource), sideWrites);

  if (shouldDeleteDuringUpdate(ctx, obj, existing)) {
    if (ctx.dryRun) return { object: obj, created: false };
    persistenceStage(ctx, { key, expectModRevision: kv.modRevision, op: { type: 'delete', key } }, sideWrites, () =>
      newConflict(rt, spec.name, OptimisticLockErrorMsg),
    );
    // Clients expect the updated object from a PUT, not a Status (deleteWithoutFinalizers).
    return { object: obj, created: false };
  }

  if (ctx.dryRun) return { object: obj, created: false };
  const result = persistenceStage(ctx, { key, expectModRevision: kv.modRevision, op: { type: 'put', key, value: toStoredBy(ctx.strategy, obj, kv.value) } }, sideWrites, () =>
    newConflict(rt, spec.name, OptimisticLockErrorMsg),
  );
  const written = result.results[0];
  // An identical write is a no-op in the store: the stored object (and its resourceVersion) stays.
  if (!written) return { object: fromStored(kv), created: false };
  // obj is private and equals what was stored: answer with it instead of copying again.
  delete writableMeta(obj).selfLink;
  writableMeta(obj).resourceVersion = String(written.modRevision);
  return { object: obj, created: false };
}

/**
 * ShouldDeleteDuringUpdate: the last finalizer is gone from an object whose deletion was requested with no
 * grace period left. Namespaces must also have no spec.finalizers (shouldDeleteNamespaceDuringUpdate).
 */
export function shouldDeleteDuringUpdate(ctx: ResourceContext, obj: KubeObject, existing: KubeObject): boolean {
  if ((obj.metadata.finalizers ?? []).length > 0) return false;
  if (!existing.metadata.deletionTimestamp) return false;
  const grace = existing.metadata.deletionGracePeriodSeconds;
  if (!(grace === undefined || grace === null || grace === 0)) return false;
  if (ctx.rt.group === '' && ctx.rt.resource === 'namespaces') {
    const spec = obj.spec as { finalizers?: unknown[] } | undefined;
    if ((spec?.finalizers ?? []).length > 0) return false;
  }
  return true;
}
