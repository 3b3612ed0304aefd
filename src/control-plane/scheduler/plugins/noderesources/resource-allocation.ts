// resourceAllocationScorer (noderesources/resource_allocation.go): the shared part of the resource scorers —
// per scored resource, the node's allocatable and what would be requested with the pod on it.
import type { Resource } from '../../framework/pod-resources';
import { ResourceName } from '../../framework/pod-resources';
import type { NodeInfo, PodInfo } from '../../framework/types';

export interface ResourceSpec {
  name: string;
  weight: number;
}

/** The default scored resources (config.DefaultResourceSpec… cpu and memory, weight 1 each). */
export const defaultResources: readonly ResourceSpec[] = [
  { name: ResourceName.CPU, weight: 1 },
  { name: ResourceName.Memory, weight: 1 },
];

export function amount(r: Resource, name: string): number {
  switch (name) {
    case ResourceName.CPU:
      return r.milliCPU;
    case ResourceName.Memory:
      return r.memory;
    case ResourceName.EphemeralStorage:
      return r.ephemeralStorage;
    default:
      return r.scalar[name] ?? 0;
  }
}

/**
 * (allocatable, requested) per resource. useRequested: the node's real requested sums and the pod's requests
 * (BalancedAllocation); otherwise the non-zero variants (LeastAllocated), so pods without requests still count.
 */
export function allocatableAndRequested(
  nodeInfo: NodeInfo,
  pod: PodInfo,
  resources: readonly ResourceSpec[],
  useRequested: boolean,
): { allocatable: number[]; requested: number[] } {
  const nodeRequested = useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
  const podRequest = useRequested ? pod.requests : pod.nonZeroRequests;
  const allocatable: number[] = [];
  const requested: number[] = [];
  for (const r of resources) {
    const podReq = amount(podRequest, r.name);
    const isScalar = r.name !== ResourceName.CPU && r.name !== ResourceName.Memory && r.name !== ResourceName.EphemeralStorage;
    // An extended resource the pod does not request is not scored.
    if (isScalar && podReq === 0) {
      allocatable.push(0);
      requested.push(0);
      continue;
    }
    allocatable.push(amount(nodeInfo.allocatable, r.name));
    requested.push(amount(nodeRequested, r.name) + podReq);
  }
  return { allocatable, requested };
}

/**
 * The same as allocatableAndRequested for one resource, without allocating: [allocatable, requested], or
 * undefined when the resource is not scored for this pod (an extended resource it does not request).
 */
export function resourcePair(nodeInfo: NodeInfo, pod: PodInfo, name: string, useRequested: boolean, out: number[]): boolean {
  const podReq = amount(useRequested ? pod.requests : pod.nonZeroRequests, name);
  const isScalar = name !== ResourceName.CPU && name !== ResourceName.Memory && name !== ResourceName.EphemeralStorage;
  if (isScalar && podReq === 0) return false;
  out[0] = amount(nodeInfo.allocatable, name);
  out[1] = amount(useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested, name) + podReq;
  return true;
}

/**
 * The scored resources for one pod, worked out once per cycle for scoreNodes: which resources count (an
 * extended resource the pod does not request does not), and the pod's request of each.
 */
export interface ScoredResources {
  names: string[];
  weights: number[];
  podRequests: number[];
}

export function scoredResources(pod: PodInfo, resources: readonly ResourceSpec[], useRequested: boolean): ScoredResources {
  const out: ScoredResources = { names: [], weights: [], podRequests: [] };
  const podRequest = useRequested ? pod.requests : pod.nonZeroRequests;
  for (const r of resources) {
    const podReq = amount(podRequest, r.name);
    const isScalar = r.name !== ResourceName.CPU && r.name !== ResourceName.Memory && r.name !== ResourceName.EphemeralStorage;
    if (isScalar && podReq === 0) continue;
    out.names.push(r.name);
    out.weights.push(r.weight);
    out.podRequests.push(podReq);
  }
  return out;
}
