// NodePorts (pkg/scheduler/framework/plugins/nodeports): a pod asking for a hostPort fits only nodes where that
// protocol/port is free on its hostIP (0.0.0.0 conflicts with every address).
import type { CycleState } from '../../framework/cycle-state';
import {
  ActionType,
  EventResource,
  QueueingHint,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  type FilterPlugin,
  type PreFilterPlugin,
} from '../../framework/interface';
import { Code, newStatus, type Status } from '../../framework/status';
import { newPodInfo, type HostPort, type NodeInfo, type PodInfo, type PodObject } from '../../framework/types';

export const Name = 'NodePorts';
export const ErrReason = "node(s) didn't have free ports for the requested pod ports";

const anyIP = '0.0.0.0';

/** HostPortInfo.CheckConflict. */
export function portConflicts(used: Map<string, Set<string>>, want: HostPort): boolean {
  const pp = `${want.protocol}/${want.port}`;
  if (want.ip === anyIP) {
    for (const set of used.values()) if (set.has(pp)) return true;
    return false;
  }
  return !!used.get(want.ip)?.has(pp) || !!used.get(anyIP)?.has(pp);
}

function overlaps(a: readonly HostPort[], b: readonly HostPort[]): boolean {
  return a.some((x) => b.some((y) => x.port === y.port && x.protocol === y.protocol && (x.ip === y.ip || x.ip === anyIP || y.ip === anyIP)));
}

export class NodePorts {
  readonly name = Name;

  preFilter(_state: CycleState, pod: PodInfo): { status?: Status } {
    if (pod.hostPorts.length === 0) return { status: newStatus(Code.Skip) };
    return {};
  }

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    for (const hp of pod.hostPorts) if (portConflicts(nodeInfo.usedPorts, hp)) return newStatus(Code.Unschedulable, ErrReason);
    return undefined;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: EventResource.AssignedPod, actionType: ActionType.Delete },
        // Only a deleted pod that held one of the wanted ports can help.
        hint: (pod, oldObj) => {
          if (!oldObj) return QueueingHint.QueueSkip;
          return overlaps(newPodInfo(pod).hostPorts, newPodInfo(oldObj as PodObject).hostPorts) ? QueueingHint.Queue : QueueingHint.QueueSkip;
        },
      },
      { event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.Update } },
    ];
  }
}

NodePorts.prototype satisfies PreFilterPlugin & FilterPlugin & EnqueueExtensions;
