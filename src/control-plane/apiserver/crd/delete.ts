// DELETE of a CustomResourceDefinition (apiextensions-apiserver registry/customresourcedefinition/etcd.go):
// the first request only marks it — deletionTimestamp, the customresourcecleanup finalizer and a Terminating
// condition — so its custom resources can be deleted first (registrar.ts finalizes). Later requests are
// ordinary deletes.
import { OptimisticLockErrorMsg, newConflict, newNotFound } from '../../../shared/api/status';
import { rfc3339 } from '../../sim/clock';
import type { ApiRequest, SideWrite } from '../types';
import { deleteAdmission } from '../pipeline/admission';
import type { ResourceContext } from '../pipeline/context';
import { persistenceStage } from '../pipeline/persistence';
import { fromStored, toStored, writableMeta } from '../storage/object-codec';
import { deepCopy } from '../patch/json-value';
import { deleteObject, validateDeleteOptions, type DeleteOutcome } from '../handlers/delete';
import { objectKeyFor } from '../handlers/guaranteed-update';
import { CustomResourceCleanupFinalizer, crdGroupResource } from './registrar';

type Options = NonNullable<ApiRequest['options']>;

export function isCustomResourceDefinitions(ctx: ResourceContext): boolean {
  return ctx.rt.group === crdGroupResource.group && ctx.rt.resource === crdGroupResource.resource;
}

export function deleteCustomResourceDefinition(ctx: ResourceContext, name: string, options: Options): DeleteOutcome {
  const key = objectKeyFor(ctx, name);
  const kv = ctx.server.store.get(key);
  if (!kv) throw newNotFound(ctx.rt, name);
  const crd = fromStored(kv);
  if (crd.metadata.deletionTimestamp) return deleteObject(ctx, name, options);

  validateDeleteOptions(options);
  const pre = options.preconditions;
  if (pre?.uid !== undefined && pre.uid !== crd.metadata.uid) {
    throw newConflict(ctx.rt, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${crd.metadata.uid ?? ''}`);
  }
  const sideWrites: SideWrite[] = [];
  deleteAdmission(ctx, crd, sideWrites);
  const next = deepCopy(crd);
  writableMeta(next).deletionTimestamp = rfc3339(ctx.server.clock.now());
  const finalizers = next.metadata.finalizers ?? [];
  if (!finalizers.includes(CustomResourceCleanupFinalizer)) next.metadata.finalizers = [...finalizers, CustomResourceCleanupFinalizer];
  const status = (next.status ??= {}) as { conditions?: Record<string, unknown>[] };
  status.conditions = [
    ...(status.conditions ?? []).filter((c) => c.type !== 'Terminating'),
    {
      type: 'Terminating',
      status: 'True',
      lastTransitionTime: rfc3339(ctx.server.clock.now()),
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    },
  ];
  if (ctx.dryRun) return { body: next, deleted: false };
  const result = persistenceStage(ctx, { key, expectModRevision: kv.modRevision, op: { type: 'put', key, value: toStored(next) } }, sideWrites, () =>
    newConflict(ctx.rt, name, OptimisticLockErrorMsg),
  );
  return { body: fromStored(result.results[0] ?? kv), deleted: false };
}
