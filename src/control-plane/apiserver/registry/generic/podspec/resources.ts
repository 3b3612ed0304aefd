// Compute resources of containers: names, quantities, requests ≤ limits (ValidateContainerResourceRequirements),
// and the pod QoS class (qos.ComputePodQOS).
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import { IsNegativeErrorMsg, isQualifiedName } from '../../../../../shared/lib/validation';
import { type Quantity, addQuantities, ErrFormatWrong, quantitiesEqual, sign, toMillis } from '../../../../../shared/lib/quantity';
import { compareQuantities, parseQuantityOrUndefined, quantityString } from '../quantity';
import { type Obj, invalidEach, isObj, objItems } from '../util';

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** No "/" or a kubernetes.io/ prefix: a resource Kubernetes itself defines. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** CPU, memory and ephemeral storage may be overcommitted; extended resources and hugepages may not. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

function isIntegerResourceName(name: string): boolean {
  return isExtendedResourceName(name);
}

export function validateResourceName(name: string, path: string, standard: (n: string) => boolean, nonStandardMsg: string): FieldError[] {
  const errs = invalidEach(path, name, isQualifiedName(name));
  if (errs.length) return errs;
  if (!name.includes('/') && !standard(name)) errs.push(fieldErr.invalid(path, name, nonStandardMsg));
  return errs;
}

function isStandardResourceName(name: string): boolean {
  return (
    standardContainerResources.has(name) ||
    isHugePageResourceName(name) ||
    ['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'storage'].includes(name) ||
    name.startsWith('requests.') ||
    name.startsWith('limits.') ||
    name.startsWith('count/') ||
    ['services.nodeports', 'services.loadbalancers'].includes(name)
  );
}

export function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path, isStandardResourceName, 'must be a standard resource type or fully qualified');
  if (!name.includes('/')) {
    if (!standardContainerResources.has(name) && !isHugePageResourceName(name)) {
      errs.push(fieldErr.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(fieldErr.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuantityValue: not negative, and whole numbers for integer resources. */
export function validateResourceQuantityValue(name: string, raw: unknown, path: string): FieldError[] {
  const q = parseQuantityOrUndefined(raw);
  if (!q) return [fieldErr.invalid(path, quantityString(raw), ErrFormatWrong)];
  const errs: FieldError[] = [];
  if (sign(q) < 0) errs.push(fieldErr.invalid(path, quantityString(raw), IsNegativeErrorMsg));
  if (isIntegerResourceName(name) && toMillis(q) % 1000 !== 0) errs.push(fieldErr.invalid(path, quantityString(raw), 'must be an integer'));
  return errs;
}

export function validateContainerResourceRequirements(resources: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObj(resources)) return errs;
  const limits = isObj(resources.limits) ? resources.limits : {};
  const requests = isObj(resources.requests) ? resources.requests : {};
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  let limCpuMem = false;
  let reqCpuMem = false;
  let hugePages = false;
  for (const [name, q] of Object.entries(limits)) {
    const p = `${limPath}[${name}]`;
    errs.push(...validateContainerResourceName(name, p));
    errs.push(...validateResourceQuantityValue(name, q, p));
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') limCpuMem = true;
  }
  for (const [name, q] of Object.entries(requests)) {
    const p = `${reqPath}[${name}]`;
    errs.push(...validateContainerResourceName(name, p));
    errs.push(...validateResourceQuantityValue(name, q, p));
    if (Object.prototype.hasOwnProperty.call(limits, name)) {
      const limit = limits[name];
      const cmp = compareQuantities(q, limit);
      if (cmp !== undefined && cmp !== 0 && !isOvercommitAllowed(name)) {
        errs.push(fieldErr.invalid(reqPath, quantityString(q), `must be equal to ${name} limit of ${quantityString(limit)}`));
      } else if (cmp !== undefined && cmp > 0) {
        errs.push(fieldErr.invalid(reqPath, quantityString(q), `must be less than or equal to ${name} limit of ${quantityString(limit)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(fieldErr.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') reqCpuMem = true;
  }
  if (!limCpuMem && !reqCpuMem && hugePages) errs.push(fieldErr.forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

export const PodQOSClass = { Guaranteed: 'Guaranteed', Burstable: 'Burstable', BestEffort: 'BestEffort' } as const;
export type PodQOSClass = (typeof PodQOSClass)[keyof typeof PodQOSClass];

/**
 * ComputePodQOS: BestEffort when no container asks for cpu or memory; Guaranteed when every container sets both
 * cpu and memory limits and the summed requests equal the summed limits; Burstable otherwise.
 */
export function computePodQOS(spec: Obj): PodQOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const add = (m: Map<string, Quantity>, name: string, q: Quantity) => m.set(name, m.has(name) ? addQuantities(m.get(name)!, q) : q);
  for (const c of [...objItems(spec, 'containers'), ...objItems(spec, 'initContainers')]) {
    const res = isObj(c.resources) ? c.resources : {};
    for (const [name, raw] of Object.entries(isObj(res.requests) ? res.requests : {})) {
      const q = parseQuantityOrUndefined(raw);
      if ((name === 'cpu' || name === 'memory') && q && sign(q) > 0) add(requests, name, q);
    }
    const found = new Set<string>();
    for (const [name, raw] of Object.entries(isObj(res.limits) ? res.limits : {})) {
      const q = parseQuantityOrUndefined(raw);
      if ((name === 'cpu' || name === 'memory') && q && sign(q) > 0) {
        found.add(name);
        add(limits, name, q);
      }
    }
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return PodQOSClass.BestEffort;
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || !quantitiesEqual(lim, req)) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? PodQOSClass.Guaranteed : PodQOSClass.Burstable;
}
