// LimitRanger (plugin/pkg/admission/limitranger/admission.go). Mutating: containers of new pods get the
// LimitRange defaults they lack (and the kubernetes.io/limit-ranger annotation saying so). Validating: pods and
// claims must respect min, max and maxLimitRequestRatio, per Container, per Pod and per PersistentVolumeClaim.
import type { KubeObject } from '../../../shared/api/types';
import { type Quantity, quantityToString, toScaledBigInt } from '../../../shared/lib/quantity';
import { aggregateMessages } from '../rbac/rule-resolver';
import type {
  AdmissionAttributes,
  AdmissionContext,
  AdmissionOperation,
  MutatingAdmissionPlugin,
  ValidatingAdmissionPlugin,
} from '../types';
import { AdmissionOperation as Op } from '../types';
import { admissionForbidden } from './errors';
import { podLimits, podRequests } from './pod-resources';
import { type ResourceList, parseResourceList } from './resource-list';

export const LimitRangerPluginName = 'LimitRanger';
export const LimitRangerAnnotation = 'kubernetes.io/limit-ranger';

export const LimitType = { Pod: 'Pod', Container: 'Container', PersistentVolumeClaim: 'PersistentVolumeClaim' } as const;

const limitRangesGR = Object.freeze({ group: '', resource: 'limitranges' });

interface LimitRangeItem {
  type: string;
  max: ResourceList;
  min: ResourceList;
  default: ResourceList;
  defaultRequest: ResourceList;
  maxLimitRequestRatio: ResourceList;
}

interface ContainerLike {
  name: string;
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
}

/** The items of a LimitRange, with SetDefaults_LimitRangeItem applied (default ← max, defaultRequest ← default ← min). */
export function limitRangeItems(lr: KubeObject): LimitRangeItem[] {
  const limits = ((lr.spec as { limits?: Record<string, unknown>[] } | undefined)?.limits ?? []) as Record<string, unknown>[];
  return limits.map((raw) => {
    const item: LimitRangeItem = {
      type: String(raw.type ?? ''),
      max: parseResourceList(raw.max),
      min: parseResourceList(raw.min),
      default: parseResourceList(raw.default),
      defaultRequest: parseResourceList(raw.defaultRequest),
      maxLimitRequestRatio: parseResourceList(raw.maxLimitRequestRatio),
    };
    if (item.type === LimitType.Container) {
      for (const [k, v] of item.max) if (!item.default.has(k)) item.default.set(k, v);
      for (const [k, v] of item.default) if (!item.defaultRequest.has(k)) item.defaultRequest.set(k, v);
      for (const [k, v] of item.min) if (!item.defaultRequest.has(k)) item.defaultRequest.set(k, v);
    }
    return item;
  });
}

function sortedKeys(list: ResourceList): string[] {
  return [...list.keys()].sort();
}

// ---------------------------------------------------------------- defaults

function mergeContainerResources(c: ContainerLike, defaults: { requests: ResourceList; limits: ResourceList }, prefix: string, notes: string[]): void {
  const resources = (c.resources ??= {});
  const limits = (resources.limits ??= {});
  const requests = (resources.requests ??= {});
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of defaults.limits) {
    if (!(k in limits)) {
      limits[k] = quantityToString(v);
      setLimits.push(k);
    }
  }
  for (const [k, v] of defaults.requests) {
    if (!(k in requests)) {
      requests[k] = quantityToString(v);
      setRequests.push(k);
    }
  }
  if (Object.keys(limits).length === 0) delete resources.limits;
  if (Object.keys(requests).length === 0) delete resources.requests;
  if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${c.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${c.name}`);
}

/** PodMutateLimitFunc: Container-type default and defaultRequest, recorded in the limit-ranger annotation. */
export function applyLimitRangeDefaults(lr: KubeObject, pod: KubeObject): void {
  const defaults = { requests: new Map() as ResourceList, limits: new Map() as ResourceList };
  for (const item of limitRangeItems(lr)) {
    if (item.type !== LimitType.Container) continue;
    for (const [k, v] of item.defaultRequest) defaults.requests.set(k, v);
    for (const [k, v] of item.default) defaults.limits.set(k, v);
  }
  const spec = (pod.spec ?? {}) as { containers?: ContainerLike[]; initContainers?: ContainerLike[] };
  const notes: string[] = [];
  for (const c of spec.containers ?? []) mergeContainerResources(c, defaults, 'container', notes);
  for (const c of spec.initContainers ?? []) mergeContainerResources(c, defaults, 'init container', notes);
  if (notes.length > 0) {
    pod.metadata = {
      ...pod.metadata,
      annotations: { ...(pod.metadata.annotations ?? {}), [LimitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}` },
    };
  }
}

// ---------------------------------------------------------------- constraints

/** resource.MaxMilliValue: above it Go compares whole units, below it milli-units. */
const maxMilliValue = (2n ** 63n - 1n) / 1000n;

/** requestLimitEnforcedValues: request, limit and enforced at one precision (absent quantities count as 0). */
function comparable(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const value = (q: Quantity | undefined) => (q ? toScaledBigInt(q, 0) : 0n);
  const milli = (q: Quantity | undefined) => (q ? toScaledBigInt(q, -3) : 0n);
  if (value(req) <= maxMilliValue && value(lim) <= maxMilliValue && value(enforced) <= maxMilliValue) {
    return [milli(req), milli(lim), milli(enforced)];
  }
  return [value(req), value(lim), value(enforced)];
}

const str = quantityToString;

function minConstraint(limitType: string, name: string, enforced: Quantity, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${limitType} is ${str(enforced)}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${limitType} is ${str(enforced)}, but request is ${str(req)}`;
  if (lim && l < e) return `minimum ${name} usage per ${limitType} is ${str(enforced)}, but limit is ${str(lim)}`;
  return undefined;
}

function maxRequestConstraint(limitType: string, name: string, enforced: Quantity, request: ResourceList): string | undefined {
  const req = request.get(name);
  const [r, , e] = comparable(req, undefined, enforced);
  if (!req) return `maximum ${name} usage per ${limitType} is ${str(enforced)}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${limitType} is ${str(enforced)}, but request is ${str(req)}`;
  return undefined;
}

function maxConstraint(limitType: string, name: string, enforced: Quantity, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l, e] = comparable(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${limitType} is ${str(enforced)}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${limitType} is ${str(enforced)}, but limit is ${str(lim)}`;
  if (req && r > e) return `maximum ${name} usage per ${limitType} is ${str(enforced)}, but request is ${str(req)}`;
  return undefined;
}

function limitRequestRatioConstraint(limitType: string, name: string, enforced: Quantity, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l] = comparable(req, lim, enforced);
  if (!req || r === 0n) {
    return `${name} max limit to request ratio per ${limitType} is ${str(enforced)}, but no request is specified or request is 0`;
  }
  if (!lim || l === 0n) {
    return `${name} max limit to request ratio per ${limitType} is ${str(enforced)}, but no limit is specified or limit is 0`;
  }
  const displayRatio = Number(l) / Number(r);
  let observed = displayRatio;
  let max = Number(toScaledBigInt(enforced, 0));
  if (toScaledBigInt(enforced, 0) <= maxMilliValue) {
    observed = observed * 1000;
    max = Number(toScaledBigInt(enforced, -3));
  }
  if (observed > max) {
    return `${name} max limit to request ratio per ${limitType} is ${str(enforced)}, but provided ratio is ${displayRatio.toFixed(6)}`;
  }
  return undefined;
}

function checkAll(errs: string[], item: LimitRangeItem, limitType: string, requests: ResourceList, limits: ResourceList): void {
  // Go walks these maps in random order; sorted keys keep the message stable.
  for (const k of sortedKeys(item.min)) {
    const e = minConstraint(limitType, k, item.min.get(k) as Quantity, requests, limits);
    if (e) errs.push(e);
  }
  for (const k of sortedKeys(item.max)) {
    const e = maxConstraint(limitType, k, item.max.get(k) as Quantity, requests, limits);
    if (e) errs.push(e);
  }
  for (const k of sortedKeys(item.maxLimitRequestRatio)) {
    const e = limitRequestRatioConstraint(limitType, k, item.maxLimitRequestRatio.get(k) as Quantity, requests, limits);
    if (e) errs.push(e);
  }
}

/** PodValidateLimitFunc: the violations of one LimitRange, aggregated ("" when none). */
export function validatePodLimits(lr: KubeObject, pod: KubeObject): string {
  const errs: string[] = [];
  const spec = (pod.spec ?? {}) as { containers?: ContainerLike[]; initContainers?: ContainerLike[] };
  for (const item of limitRangeItems(lr)) {
    if (item.type === LimitType.Container) {
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
        checkAll(errs, item, item.type, parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits));
      }
    }
    if (item.type === LimitType.Pod) {
      checkAll(errs, item, item.type, podRequests(pod, { includeOverhead: false }), podLimits(pod, { includeOverhead: false }));
    }
  }
  return aggregateMessages(errs);
}

/** PersistentVolumeClaimValidateLimitFunc: min and max against spec.resources.requests only. */
export function validateClaimLimits(lr: KubeObject, pvc: KubeObject): string {
  const errs: string[] = [];
  const requests = parseResourceList((pvc.spec as { resources?: { requests?: unknown } } | undefined)?.resources?.requests);
  for (const item of limitRangeItems(lr)) {
    if (item.type !== LimitType.PersistentVolumeClaim) continue;
    for (const k of sortedKeys(item.min)) {
      const e = minConstraint(item.type, k, item.min.get(k) as Quantity, requests, new Map());
      if (e) errs.push(e);
    }
    for (const k of sortedKeys(item.max)) {
      const e = maxRequestConstraint(item.type, k, item.max.get(k) as Quantity, requests);
      if (e) errs.push(e);
    }
  }
  return aggregateMessages(errs);
}

// ---------------------------------------------------------------- plugin

function kindOf(attrs: AdmissionAttributes): 'pod' | 'pvc' | undefined {
  if (attrs.resourceType.group !== '') return undefined;
  if (attrs.resourceType.resource === 'pods') return 'pod';
  if (attrs.resourceType.resource === 'persistentvolumeclaims') return 'pvc';
  return undefined;
}

/** SupportsAttributes: pods on create (their containers are immutable afterwards), claims on create and update. */
function supports(attrs: AdmissionAttributes): 'pod' | 'pvc' | undefined {
  if (attrs.subresource || !attrs.object) return undefined;
  const kind = kindOf(attrs);
  if (kind === 'pod' && attrs.operation !== Op.Create) return undefined;
  // Objects already being deleted are left alone.
  if (attrs.oldObject?.metadata.deletionTimestamp) return undefined;
  return kind;
}

function limitRangesOf(attrs: AdmissionAttributes, ctx: AdmissionContext): KubeObject[] {
  return ctx.reader.list(limitRangesGR, attrs.namespace);
}

export class LimitRanger implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  readonly name = LimitRangerPluginName;

  handles(op: AdmissionOperation): boolean {
    return op === Op.Create || op === Op.Update;
  }

  admit(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    if (supports(attrs) !== 'pod') return;
    for (const lr of limitRangesOf(attrs, ctx)) applyLimitRangeDefaults(lr, attrs.object as KubeObject);
  }

  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    const kind = supports(attrs);
    if (!kind) return;
    for (const lr of limitRangesOf(attrs, ctx)) {
      const msg = kind === 'pod' ? validatePodLimits(lr, attrs.object as KubeObject) : validateClaimLimits(lr, attrs.object as KubeObject);
      if (msg) throw admissionForbidden(attrs, msg);
    }
  }
}
