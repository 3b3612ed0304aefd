// A pre-check of the filter phase: for most pods and most nodes, whether NodeUnschedulable, NodeName,
// TaintToleration and NodeResourcesFit would each return Success can be read off the node's NodeFitRows row
// (a few contiguous numbers) without touching the NodeInfo. It only ever answers "these four pass"; a node it
// cannot vouch for goes through every Filter plugin as before, so every rejection keeps the plugin's own Status.
//
// Why a passing row means Success from each of the four (given the pod conditions checked in forPod):
//   NodeUnschedulable   the node has its Node object and is not spec.unschedulable      (Flags has neither bit)
//   NodeName            the pod names no node                                            (checked per pod)
//   TaintToleration     the node has no NoSchedule/NoExecute taint to match              (Flags has no FilterTaints)
//   NodeResourcesFit    fits(): pods.length + 1 ≤ allowedPodNumber, and each of cpu, memory and ephemeral-storage
//                       requested is 0 or ≤ allocatable − requested (the same subtraction, done when the row
//                       was written); the pod requests no extended resource (checked per pod)
// The filters are pure and stop at the first rejection, so when these four pass, the first rejection of the full
// chain is the first rejection among the other active filters, in order: those still run for the node.
import { FitRow, FitRowStride, type NodeFitRows } from './cache/node-fit-rows';
import type { FilterPlugin } from './framework/interface';
import type { PodInfo } from './framework/types';
import { NodeName } from './plugins/nodename/node-name';
import { Fit } from './plugins/noderesources/fit';
import { NodeUnschedulable } from './plugins/nodeunschedulable/node-unschedulable';
import { TaintToleration } from './plugins/tainttoleration/taint-toleration';

/** The Filter plugins a row answers for, a bit each (0 for the others): those very classes, not subclasses. */
function precheckedBit(pl: FilterPlugin): number {
  switch (pl.constructor) {
    case NodeUnschedulable:
      return 1;
    case NodeName:
      return 2;
    case TaintToleration:
      return 4;
    case Fit:
      return 8;
    default:
      return 0;
  }
}
const allPrechecked = 15;

/** The pre-check for one pod over the rows of one node list. */
export class FilterPrecheck {
  private constructor(
    private readonly rows: Float64Array,
    /** The active Filter plugins the rows do not answer for, in order. */
    readonly rest: readonly FilterPlugin[],
    private readonly milliCPU: number,
    private readonly memory: number,
    private readonly ephemeralStorage: number,
  ) {}

  /**
   * The pre-check for this pod and its active Filter plugins, or undefined when the rows cannot decide for it:
   * one of the four is not active, the pod names a node, or it requests an extended resource.
   */
  static forPod(active: readonly FilterPlugin[], pod: PodInfo, fitRows: NodeFitRows): FilterPrecheck | undefined {
    let covered = 0;
    const rest: FilterPlugin[] = [];
    for (const pl of active) {
      const bit = precheckedBit(pl);
      if (bit === 0) rest.push(pl);
      covered |= bit;
    }
    if (covered !== allPrechecked) return undefined;
    if (pod.pod.spec?.nodeName) return undefined;
    const req = pod.requests;
    for (const name in req.scalar) if (req.scalar[name] > 0) return undefined;
    return new FilterPrecheck(fitRows.rows, rest, req.milliCPU, req.memory, req.ephemeralStorage);
  }

  /** True only when the four filters would each return Success for the node of row i (false: not known). */
  passes(i: number): boolean {
    const r = this.rows;
    const o = i * FitRowStride;
    if (r[o + FitRow.Flags] !== 0) return false;
    if (r[o + FitRow.PodCount] + 1 > r[o + FitRow.AllowedPods]) return false;
    const cpu = this.milliCPU;
    if (cpu > 0 && cpu > r[o + FitRow.FreeMilliCPU]) return false;
    const memory = this.memory;
    if (memory > 0 && memory > r[o + FitRow.FreeMemory]) return false;
    const storage = this.ephemeralStorage;
    if (storage > 0 && storage > r[o + FitRow.FreeEphemeralStorage]) return false;
    return true;
  }
}
