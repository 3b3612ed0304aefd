// Resource arithmetic the scheduler does on int64s (framework.Resource, component-helpers resource.PodRequests):
// cpu in millicores, memory and ephemeral-storage in bytes, every other resource (extended, hugepages) as its
// integer Value(). Quantities are parsed once per pod, when its PodInfo is built.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { parseQuantityJSON, toMillis, toValue } from '../../../shared/lib/quantity';

export const ResourceName = {
  CPU: 'cpu',
  Memory: 'memory',
  EphemeralStorage: 'ephemeral-storage',
  Pods: 'pods',
} as const;

/** framework.Resource. */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  /** Only meaningful for a node's allocatable. */
  allowedPodNumber: number;
  /** Extended resources and hugepages, by name. */
  scalar: Record<string, number>;
}

/** The request defaults the scorers use for containers that set none (schedutil.DefaultMilliCPURequest / DefaultMemoryRequest). */
export const DefaultMilliCPURequest = 100;
export const DefaultMemoryRequest = 200 * 1024 * 1024;

export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0, scalar: {} };
}

export function cloneResource(r: Resource): Resource {
  return { ...r, scalar: { ...r.scalar } };
}

/** Adds (sign 1) or subtracts (sign -1) b into a. */
export function addResource(a: Resource, b: Resource, sign = 1): void {
  a.milliCPU += sign * b.milliCPU;
  a.memory += sign * b.memory;
  a.ephemeralStorage += sign * b.ephemeralStorage;
  for (const [k, v] of Object.entries(b.scalar)) a.scalar[k] = (a.scalar[k] ?? 0) + sign * v;
}

function quantityOf(name: string, value: unknown): number {
  try {
    const q = parseQuantityJSON(value);
    return name === ResourceName.CPU ? toMillis(q) : toValue(q);
  } catch {
    return 0;
  }
}

/** A ResourceList (requests, allocatable, overhead) as a Resource. */
export function resourceFromList(list: Record<string, unknown> | undefined): Resource {
  const r = emptyResource();
  if (!list) return r;
  for (const [name, value] of Object.entries(list)) {
    const v = quantityOf(name, value);
    switch (name) {
      case ResourceName.CPU:
        r.milliCPU = v;
        break;
      case ResourceName.Memory:
        r.memory = v;
        break;
      case ResourceName.EphemeralStorage:
        r.ephemeralStorage = v;
        break;
      case ResourceName.Pods:
        r.allowedPodNumber = v;
        break;
      default:
        r.scalar[name] = v;
    }
  }
  return r;
}

function maxInto(a: Resource, b: Resource): void {
  a.milliCPU = Math.max(a.milliCPU, b.milliCPU);
  a.memory = Math.max(a.memory, b.memory);
  a.ephemeralStorage = Math.max(a.ephemeralStorage, b.ephemeralStorage);
  for (const [k, v] of Object.entries(b.scalar)) a.scalar[k] = Math.max(a.scalar[k] ?? 0, v);
}

function containerRequests(c: Container, nonMissing: boolean): Resource {
  const requests = (c.resources?.requests ?? {}) as Record<string, unknown>;
  const r = resourceFromList(requests);
  if (nonMissing) {
    // NonMissingContainerRequests: a request that is absent (not zero) counts as the default.
    if (!(ResourceName.CPU in requests)) r.milliCPU = DefaultMilliCPURequest;
    if (!(ResourceName.Memory in requests)) r.memory = DefaultMemoryRequest;
  }
  return r;
}

/**
 * resource.PodRequests: the sum of the app containers and restartable (sidecar) init containers, or the largest
 * init container plus the sidecars started before it when that is larger, plus the pod overhead. With nonMissing,
 * containers without a cpu/memory request count the defaults (NodeInfo.NonZeroRequested, used by scoring).
 */
export function podRequests(pod: Pod, nonMissing = false): Resource {
  const reqs = emptyResource();
  for (const c of pod.spec?.containers ?? []) addResource(reqs, containerRequests(c, nonMissing));
  const restartable = emptyResource();
  const initMax = emptyResource();
  for (const c of pod.spec?.initContainers ?? []) {
    const cr = containerRequests(c, nonMissing);
    let effective: Resource;
    if (c.restartPolicy === 'Always') {
      addResource(reqs, cr);
      addResource(restartable, cr);
      effective = cloneResource(restartable);
    } else {
      effective = cloneResource(cr);
      addResource(effective, restartable);
    }
    maxInto(initMax, effective);
  }
  maxInto(reqs, initMax);
  if (pod.spec?.overhead) addResource(reqs, resourceFromList(pod.spec.overhead as Record<string, unknown>));
  return reqs;
}
