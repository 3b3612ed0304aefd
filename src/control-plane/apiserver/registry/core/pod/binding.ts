// The pods/binding path (pkg/registry/core/pod/storage BindingREST): the only way spec.nodeName gets set on an
// existing pod. The Binding subresource handler calls bindPodToNode inside its store update.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import { newConflict } from '../../../../../shared/api/status';
import type { KubeObject } from '../../../../../shared/api/types';
import { type Obj, ensureObj, isObj, meta, objItems, str } from '../../generic/util';

const bindingResource = { group: '', resource: 'pods/binding' };

/** ValidatePodBinding: target.kind is Node (or empty) and target.name is set. */
export function validatePodBinding(binding: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const target = isObj(binding.target) ? binding.target : {};
  const kind = str(target.kind);
  if (kind && kind !== 'Node') errs.push(fieldErr.notSupported('target.kind', kind, ['Node', '<empty>']));
  if (!str(target.name)) errs.push(fieldErr.required('target.name', ''));
  return errs;
}

export interface BindOptions {
  /** Binding metadata.uid / resourceVersion preconditions, when the binding carries them. */
  uid?: string;
  resourceVersion?: string;
  /** Annotations from the Binding object, copied onto the pod. */
  annotations?: Record<string, string>;
  /** Current time as RFC 3339, for the PodScheduled condition's lastTransitionTime. */
  now: string;
}

/**
 * setPodNodeAndMetadata: mutates `pod` (a private copy) to be bound to `nodeName`, or throws the 409 Conflict
 * Kubernetes returns: already assigned, being deleted, still gated, or a failed precondition.
 */
export function bindPodToNode(pod: KubeObject, nodeName: string, opts: BindOptions): void {
  const name = pod.metadata?.name ?? '';
  const conflict = (msg: string) => newConflict(bindingResource, name, msg);
  if (pod.metadata?.deletionTimestamp) throw conflict(`pod ${name} is being deleted, cannot be assigned to a host`);
  if (opts.uid && pod.metadata?.uid !== opts.uid) {
    throw conflict(`Precondition failed: UID in precondition: ${opts.uid}, UID in object meta: ${pod.metadata?.uid ?? ''}`);
  }
  if (opts.resourceVersion && pod.metadata?.resourceVersion !== opts.resourceVersion) {
    throw conflict(
      `Precondition failed: ResourceVersion in precondition: ${opts.resourceVersion}, ResourceVersion in object meta: ${pod.metadata?.resourceVersion ?? ''}`,
    );
  }
  const spec = ensureObj(pod as Obj, 'spec');
  if (str(spec.nodeName)) throw conflict(`pod ${name} is already assigned to node ${JSON.stringify(str(spec.nodeName))}`);
  if (objItems(spec, 'schedulingGates').length > 0) throw conflict(`pod ${name} has non-empty .spec.schedulingGates`);
  spec.nodeName = nodeName;
  const m = meta(pod);
  if (opts.annotations && Object.keys(opts.annotations).length) m.annotations = { ...(m.annotations ?? {}), ...opts.annotations };
  setPodCondition(pod, { type: 'PodScheduled', status: 'True' }, opts.now);
}

/** podutil.UpdatePodCondition: replaces the condition of that type, moving lastTransitionTime only when status changes. */
export function setPodCondition(pod: KubeObject, condition: { type: string; status: string; reason?: string; message?: string }, now: string): void {
  const status = ensureObj(pod as Obj, 'status');
  const conditions = Array.isArray(status.conditions) ? (status.conditions as Obj[]) : [];
  const i = conditions.findIndex((c) => isObj(c) && c.type === condition.type);
  const next: Obj = { ...condition, lastProbeTime: null, lastTransitionTime: now };
  if (i < 0) {
    status.conditions = [...conditions, next];
    return;
  }
  const old = conditions[i];
  if (old.status === condition.status) next.lastTransitionTime = old.lastTransitionTime ?? now;
  const copy = [...conditions];
  copy[i] = { ...old, ...next };
  status.conditions = copy;
}
