// What the default filters and resource scorers read of a node, one contiguous row per node in the cache's
// node-list order: the filter phase of a plain pod can then accept a node from its row (see filter-precheck.ts),
// and the resource scorers read cpu and memory from it, instead of walking the NodeInfo, its Node, its
// allocatable and requested records and its taints — several cache misses per node, hundreds of nodes per pod.
// The cache rewrites a node's row whenever the node or its pods change, from the very fields the filters read,
// so a row never says more than the NodeInfo does.
import { TaintEffect } from '../plugins/helper/taints';
import type { NodeInfo } from '../framework/types';

/** Row layout: Float64s, 16 per node (two 64-byte lines). */
export const FitRow = {
  /** FitFlag bits; 0 for a node the pre-check may accept. */
  Flags: 0,
  /** nodeInfo.pods.length. */
  PodCount: 1,
  /** allocatable.allowedPodNumber. */
  AllowedPods: 2,
  /** allocatable − requested, computed as NodeResourcesFit computes it. */
  FreeMilliCPU: 3,
  FreeMemory: 4,
  FreeEphemeralStorage: 5,
  /** What the resource scorers read (NodeResourcesFit, BalancedAllocation): copies of the NodeInfo's sums. */
  AllocatableMilliCPU: 6,
  AllocatableMemory: 7,
  RequestedMilliCPU: 8,
  RequestedMemory: 9,
  NonZeroRequestedMilliCPU: 10,
  NonZeroRequestedMemory: 11,
} as const;
export const FitRowStride = 16;

export const FitFlag = {
  /** No Node object (NodeUnschedulable's "unknown conditions"). */
  NoNode: 1,
  /** spec.unschedulable. */
  Unschedulable: 2,
  /** At least one NoSchedule or NoExecute taint: TaintToleration has to compare it with the pod's tolerations. */
  FilterTaints: 4,
} as const;

function hasFilterTaint(ni: NodeInfo): boolean {
  const taints = ni.taints;
  if (!taints) return false;
  for (const t of taints) if (t.effect === TaintEffect.NoSchedule || t.effect === TaintEffect.NoExecute) return true;
  return false;
}

export class NodeFitRows {
  /** The node list the rows follow (row i is nodes[i]); rebuilt when the cache's list is. */
  nodes: readonly NodeInfo[] = [];
  rows = new Float64Array(0);

  /** Lays the rows out for a new node list. */
  rebuild(nodes: readonly NodeInfo[]): void {
    this.nodes = nodes;
    if (this.rows.length < nodes.length * FitRowStride) this.rows = new Float64Array(nodes.length * FitRowStride);
    for (let i = 0; i < nodes.length; i++) {
      nodes[i].fitRow = i;
      this.write(i, nodes[i]);
    }
  }

  /** Rewrites the node's row after it or its pods changed (a node not in the current list has none). */
  refresh(ni: NodeInfo): void {
    const i = this.rowOf(ni);
    if (i >= 0) this.write(i, ni);
  }

  /** The node's row, or -1 when it has none in this table (then its row, if any, is another node's). */
  rowOf(ni: NodeInfo): number {
    const i = ni.fitRow;
    return i >= 0 && i < this.nodes.length && this.nodes[i] === ni ? i : -1;
  }

  private write(i: number, ni: NodeInfo): void {
    const r = this.rows;
    const o = i * FitRowStride;
    const alloc = ni.allocatable;
    const used = ni.requested;
    r[o + FitRow.Flags] = (ni.node ? 0 : FitFlag.NoNode) | (ni.unschedulable ? FitFlag.Unschedulable : 0) | (hasFilterTaint(ni) ? FitFlag.FilterTaints : 0);
    r[o + FitRow.PodCount] = ni.pods.length;
    r[o + FitRow.AllowedPods] = alloc.allowedPodNumber;
    r[o + FitRow.FreeMilliCPU] = alloc.milliCPU - used.milliCPU;
    r[o + FitRow.FreeMemory] = alloc.memory - used.memory;
    r[o + FitRow.FreeEphemeralStorage] = alloc.ephemeralStorage - used.ephemeralStorage;
    r[o + FitRow.AllocatableMilliCPU] = alloc.milliCPU;
    r[o + FitRow.AllocatableMemory] = alloc.memory;
    r[o + FitRow.RequestedMilliCPU] = used.milliCPU;
    r[o + FitRow.RequestedMemory] = used.memory;
    r[o + FitRow.NonZeroRequestedMilliCPU] = ni.nonZeroRequested.milliCPU;
    r[o + FitRow.NonZeroRequestedMemory] = ni.nonZeroRequested.memory;
  }
}
