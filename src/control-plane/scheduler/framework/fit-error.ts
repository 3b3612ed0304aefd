// framework.FitError and Diagnosis (pkg/scheduler/framework/types.go): why no node fits a pod. Error() counts
// each reason over the nodes, formats "<count> <reason>", sorts the strings (Go's sort.Strings: plain byte
// order, so "10 …" sorts before "2 …"), joins them with ", ", and appends the PostFilter (preemption) message:
//
//   0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu.
//   preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod..
//
// Each part goes through SeparatorFormat " %v.", so the nested preemption message ends in "..", as real
// FailedScheduling events do.
import type { NodeToStatus } from './interface';
import type { Status } from './status';

export const NoNodeAvailableMsg = '0/%v nodes are available';
/** ErrNoNodesAvailable: the message when the cluster has no nodes at all. */
export const ErrNoNodesAvailable = 'no nodes available to schedule pods';

export interface Diagnosis {
  /** Nodes that were filtered out, with why. */
  nodeToStatus: NodeToStatus;
  /** The status of nodes that are not in nodeToStatus (NodeToStatus.AbsentNodesStatus), when some were never tried. */
  absentNodesStatus?: Status;
  /** Plugins that rejected the pod on some node: only events they care about requeue it. */
  unschedulablePlugins: Set<string>;
  /** The message of a PreFilter that rejected the pod outright. */
  preFilterMsg?: string;
  /** The message of the PostFilter plugins (DefaultPreemption: "preemption: …"). */
  postFilterMsg?: string;
}

export function newDiagnosis(): Diagnosis {
  return { nodeToStatus: new Map(), unschedulablePlugins: new Set() };
}

function separator(msg: string): string {
  return ` ${msg}.`;
}

/** FitError.Error(). */
export function fitErrorMessage(numAllNodes: number, diagnosis: Diagnosis): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (diagnosis.preFilterMsg) {
    msg += separator(diagnosis.preFilterMsg);
  } else {
    const reasons = new Map<string, number>();
    for (const status of diagnosis.nodeToStatus.values()) {
      for (const r of status.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
    const absent = numAllNodes - diagnosis.nodeToStatus.size;
    if (absent > 0 && diagnosis.absentNodesStatus) {
      for (const r of diagnosis.absentNodesStatus.reasons) reasons.set(r, (reasons.get(r) ?? 0) + absent);
    }
    const histogram = [...reasons].map(([reason, count]) => `${count} ${reason}`).sort(byteOrder);
    if (histogram.length) msg += separator(histogram.join(', '));
  }
  if (diagnosis.postFilterMsg) msg += separator(diagnosis.postFilterMsg);
  return msg;
}

/** Go's sort.Strings order. */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
