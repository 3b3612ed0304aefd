// POST of a Binding (pkg/registry/core/pod/storage BindingREST), to /bindings or /pods/<name>/binding: how the
// scheduler puts a pod on a node. The Binding is decoded, validated and admitted like any create, but nothing
// named Binding is stored: the pod gets spec.nodeName, the binding's annotations and PodScheduled=True, in one
// compare-and-swap. Answer: 201 with a Success Status.
import {
  OptimisticLockErrorMsg,
  newBadRequest,
  newConflict,
  newInvalid,
  newNotFound,
  successStatus,
  type Status,
} from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { rfc3339 } from '../../sim/clock';
import { objectKey } from '../../store/keys';
import { AdmissionOperation, type ApiResponse, type SideWrite } from '../types';
import { bindPodToNode, validatePodBinding } from '../registry/core/pod/binding';
import { admissionAttributes, validatingAdmissionStage } from '../pipeline/admission';
import { Stage, runStage, type ResourceContext } from '../pipeline/context';
import { decodeStage } from '../pipeline/decode';
import { ensureObjectNamespaceMatchesRequest } from '../pipeline/object-meta';
import { persistenceStage } from '../pipeline/persistence';
import { storedView, toStoredBy } from '../storage/object-codec';

export function isBinding(ctx: ResourceContext): boolean {
  const sub = ctx.req.subresource as string | undefined;
  return ctx.rt.group === '' && (ctx.rt.resource === 'bindings' || (ctx.rt.resource === 'pods' && sub === 'binding'));
}

export function bindingHandler(ctx: ResourceContext): ApiResponse<Status> {
  const bindings = ctx.server.registry.forGroupResource({ group: '', resource: 'bindings' });
  if (!bindings) throw newNotFound({ group: '', resource: 'bindings' }, '');
  // Decode and admit as the bindings resource, whichever path the request came by.
  const bctx: ResourceContext = { ...ctx, rt: bindings, strategy: ctx.server.strategyFor(bindings) };
  const binding = decodeStage(bctx, { body: ctx.req.body, rawBody: ctx.req.rawBody });
  ensureObjectNamespaceMatchesRequest(bctx, binding);
  const podName = binding.metadata?.name ?? '';
  if (ctx.rt.resource === 'pods' && ctx.req.name !== podName) throw newBadRequest('name in URL does not match name in Binding object');
  runStage(bctx, Stage.Validation, () => {
    const errs = validatePodBinding(binding);
    if (errs.length) throw newInvalid({ group: '', kind: 'Binding' }, podName, errs);
  });
  const sideWrites: SideWrite[] = [];
  validatingAdmissionStage(bctx, admissionAttributes(bctx, AdmissionOperation.Create, binding, undefined), sideWrites);
  assignPod(bctx, binding, sideWrites);
  const status = successStatus();
  status.code = 201;
  return { code: 201, body: status };
}

function assignPod(ctx: ResourceContext, binding: KubeObject, sideWrites: SideWrite[]): void {
  const pods = ctx.server.registry.forGroupResource({ group: '', resource: 'pods' })!;
  const name = binding.metadata?.name ?? '';
  const key = objectKey(pods, ctx.namespace, name);
  const kv = ctx.server.store.get(key);
  if (!kv) throw newNotFound(pods, name);
  // Copy on write: bindPodToNode sets spec.nodeName, replaces metadata.annotations and status.conditions, and
  // nothing else; those three objects are fresh, every other subtree is the stored value's (frozen) and is
  // shared by the new version.
  const view = storedView(kv);
  const pod: KubeObject = { ...view, metadata: { ...view.metadata }, spec: { ...(view.spec as object) }, status: { ...(view.status as object) } };
  const target = binding.target as { name?: string } | undefined;
  bindPodToNode(pod, target?.name ?? '', {
    uid: binding.metadata?.uid,
    resourceVersion: binding.metadata?.resourceVersion,
    annotations: binding.metadata?.annotations,
    now: rfc3339(ctx.server.clock.now()),
  });
  if (ctx.dryRun) return;
  persistenceStage({ ...ctx, rt: pods }, { key, expectModRevision: kv.modRevision, op: { type: 'put', key, value: toStoredBy(ctx.server.strategyFor(pods), pod, kv.value) } }, sideWrites, () =>
    newConflict(pods, name, OptimisticLockErrorMsg),
  );
}
