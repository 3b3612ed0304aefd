// NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable): a cordoned node (spec.unschedulable)
// takes no pods, except those tolerating the node.kubernetes.io/unschedulable:NoSchedule taint.
import type { CycleState } from '../../framework/cycle-state';
import { ActionType, EventResource, QueueingHint, type ClusterEventWithHint, type EnqueueExtensions, type FilterPlugin } from '../../framework/interface';
import { Code, newStatus, type Status } from '../../framework/status';
import type { NodeInfo, NodeObject, PodInfo, PodObject } from '../../framework/types';
import { TaintEffect, TaintNodeUnschedulable, tolerationsTolerateTaint } from '../helper/taints';

export const Name = 'NodeUnschedulable';
export const ErrReasonUnknownCondition = 'node(s) had unknown conditions';
export const ErrReasonUnschedulable = 'node(s) were unschedulable';

function toleratesUnschedulable(pod: PodObject): boolean {
  return tolerationsTolerateTaint(pod.spec?.tolerations, { key: TaintNodeUnschedulable, effect: TaintEffect.NoSchedule });
}

export class NodeUnschedulable {
  readonly name = Name;

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    const node = nodeInfo.node;
    if (!node) return newStatus(Code.UnschedulableAndUnresolvable, ErrReasonUnknownCondition);
    if (!nodeInfo.unschedulable) return undefined;
    if (toleratesUnschedulable(pod.pod)) return undefined;
    return newStatus(Code.UnschedulableAndUnresolvable, ErrReasonUnschedulable);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeTaint },
        // Queue when a node is added schedulable, or an unschedulable node becomes schedulable.
        hint: (_pod, oldObj, newObj) => {
          const before = oldObj as NodeObject | undefined;
          const after = newObj as NodeObject | undefined;
          if (!after) return QueueingHint.QueueSkip;
          if ((before && before.spec?.unschedulable && !after.spec?.unschedulable) || (!before && !after.spec?.unschedulable)) return QueueingHint.Queue;
          return QueueingHint.QueueSkip;
        },
      },
    ];
  }
}

NodeUnschedulable.prototype satisfies FilterPlugin & EnqueueExtensions;
