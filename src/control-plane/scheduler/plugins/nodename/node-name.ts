// NodeName (pkg/scheduler/framework/plugins/nodename): a pod naming a node in spec.nodeName fits only that node.
// (Pods with spec.nodeName set never reach the scheduler's queue; the filter matters for preemption dry runs.)
import type { CycleState } from '../../framework/cycle-state';
import { ActionType, EventResource, QueueingHint, type ClusterEventWithHint, type EnqueueExtensions, type FilterPlugin } from '../../framework/interface';
import { Code, newStatus, type Status } from '../../framework/status';
import type { NodeInfo, NodeObject, PodInfo, PodObject } from '../../framework/types';

export const Name = 'NodeName';
export const ErrReason = "node(s) didn't match the requested node name";

/** nodename.Fits. */
export function fits(pod: PodObject, nodeName: string): boolean {
  const want = pod.spec?.nodeName ?? '';
  return want === '' || want === nodeName;
}

export class NodeName {
  readonly name = Name;

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    if (!fits(pod.pod, nodeInfo.name)) return newStatus(Code.UnschedulableAndUnresolvable, ErrReason);
    return undefined;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.Update },
        hint: (pod, _old, newObj) => (newObj && fits(pod, (newObj as NodeObject).metadata.name ?? '') ? QueueingHint.Queue : QueueingHint.QueueSkip),
      },
    ];
  }
}

NodeName.prototype satisfies FilterPlugin & EnqueueExtensions;
