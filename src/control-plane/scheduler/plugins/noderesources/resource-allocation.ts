// resourceAllocationScorer (noderesources/resource_allocation.go): the shared part of the resource scorers —
// per scored resource, the node's allocatable and what would be requested with the pod on it.
import { FitRow, FitRowStride, type NodeFitRows } from '../../cache/node-fit-rows';
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

export const NodeAmount = { Allocatable: 0, Requested: 1, NonZeroRequested: 2 } as const;
export type NodeAmount = (typeof NodeAmount)[keyof typeof NodeAmount];

/** The NodeFitRows columns of cpu and memory, by NodeAmount. */
const cpuColumns = [FitRow.AllocatableMilliCPU, FitRow.RequestedMilliCPU, FitRow.NonZeroRequestedMilliCPU] as const;
const memoryColumns = [FitRow.AllocatableMemory, FitRow.RequestedMemory, FitRow.NonZeroRequestedMemory] as const;

/** The NodeFitRows column holding a node's amount of the resource, or -1 when rows keep only cpu and memory. */
function rowColumn(name: string, which: NodeAmount): number {
  if (name === ResourceName.CPU) return cpuColumns[which];
  if (name === ResourceName.Memory) return memoryColumns[which];
  return -1;
}

/** A node's amount of the resource, read from its NodeInfo. */
function nodeAmount(nodeInfo: NodeInfo, which: NodeAmount, name: string): number {
  return amount(which === NodeAmount.Allocatable ? nodeInfo.allocatable : which === NodeAmount.Requested ? nodeInfo.requested : nodeInfo.nonZeroRequested, name);
}

/**
 * What a resource scorer reads of every node for one pod: per scored resource, the node's allocatable and its
 * (non-zero, or real) requested amount. When rows keep every scored resource (cpu and memory: the default), a
 * node with a row is read from it — at its offset, the same two columns per resource for every node, which the
 * scorers' loops read directly — and any other node from its NodeInfo.
 */
export class NodeResourceReader {
  /** The rows' table when the scored resources are all in rows, else empty (every offset is then -1). */
  readonly table: Float64Array;
  /** Per scored resource r: the row column of its allocatable amount at 2r, of its requested amount at 2r + 1. */
  readonly columns: Int32Array;

  constructor(
    private readonly names: readonly string[],
    private readonly requested: NodeAmount,
    private readonly rows: NodeFitRows | undefined,
  ) {
    this.columns = new Int32Array(2 * names.length);
    let all = rows !== undefined;
    names.forEach((name, r) => {
      this.columns[2 * r] = rowColumn(name, NodeAmount.Allocatable);
      this.columns[2 * r + 1] = rowColumn(name, requested);
      if (this.columns[2 * r] < 0) all = false;
    });
    this.table = all ? rows!.rows : emptyTable;
  }

  /** Where the node's row starts in table, or -1: read the node with allocatableOf and requestedOf. */
  offsetOf(nodeInfo: NodeInfo): number {
    if (this.table === emptyTable) return -1;
    const row = this.rows!.rowOf(nodeInfo);
    return row < 0 ? -1 : row * FitRowStride;
  }

  /** The node's allocatable amount of scored resource r, from its NodeInfo. */
  allocatableOf(nodeInfo: NodeInfo, r: number): number {
    return nodeAmount(nodeInfo, NodeAmount.Allocatable, this.names[r]);
  }

  /** The node's requested amount of scored resource r (without the pod's), from its NodeInfo. */
  requestedOf(nodeInfo: NodeInfo, r: number): number {
    return nodeAmount(nodeInfo, this.requested, this.names[r]);
  }
}

const emptyTable = new Float64Array(0);
