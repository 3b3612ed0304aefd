// NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity): the pod's nodeSelector and required node affinity
// must match the node's labels (and metadata.name fields); preferred terms add their weights to the score.
import type { PreferredSchedulingTerm } from 'kubernetes-types/core/v1';
import type { CycleState } from '../../framework/cycle-state';
import {
  ActionType,
  EventResource,
  MaxNodeScore,
  QueueingHint,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  type FilterPlugin,
  type NodeScore,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ScorePlugin,
} from '../../framework/interface';
import { Code, newStatus, type Status } from '../../framework/status';
import type { NodeInfo, NodeObject, PodInfo } from '../../framework/types';
import { hasRequiredNodeAffinity, nodeSelectorTermMatches, requiredNodeAffinityMatches } from '../helper/node-affinity';
import { defaultNormalizeScore, defaultNormalizeScoreColumn } from '../helper/normalize-score';

export const Name = 'NodeAffinity';
export const ErrReasonPod = "node(s) didn't match Pod's node affinity/selector";
export const ErrReasonEnforced = "node(s) didn't match scheduler-enforced node affinity";
export const ErrReasonConflict = 'pod affinity terms conflict';

const preScoreStateKey = `PreScore${Name}`;

export class NodeAffinity {
  readonly name = Name;

  preFilter(_state: CycleState, pod: PodInfo): { result?: PreFilterResult; status?: Status } {
    if (!hasRequiredNodeAffinity(pod.pod)) return { status: newStatus(Code.Skip) };
    const terms = pod.pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
    if (terms.length === 0) return {};
    // Affinity to specific node names (matchFields metadata.name In …) narrows the nodes to try.
    let nodeNames: Set<string> | undefined;
    for (const t of terms) {
      let termNames: Set<string> | undefined;
      for (const r of t.matchFields ?? []) {
        if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
        const s = new Set(r.values ?? []);
        termNames = termNames ? new Set([...termNames].filter((n) => s.has(n))) : s;
      }
      // A term without a name requirement admits every node (terms are ORed).
      if (!termNames) return {};
      nodeNames = new Set([...(nodeNames ?? []), ...termNames]);
    }
    if (nodeNames && nodeNames.size === 0) return { status: newStatus(Code.UnschedulableAndUnresolvable, ErrReasonConflict) };
    return nodeNames ? { result: { nodeNames } } : {};
  }

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    if (!nodeInfo.node || !requiredNodeAffinityMatches(pod.pod, nodeInfo.node)) return newStatus(Code.UnschedulableAndUnresolvable, ErrReasonPod);
    return undefined;
  }

  preScore(state: CycleState, pod: PodInfo): Status | undefined {
    const preferred = pod.pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    if (preferred.length === 0) return newStatus(Code.Skip);
    state.write(preScoreStateKey, preferred);
    return undefined;
  }

  score(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): number {
    const preferred = state.read<PreferredSchedulingTerm[]>(preScoreStateKey) ?? [];
    let count = 0;
    for (const t of preferred) {
      if (t.weight === 0 || !nodeInfo.node) continue;
      if (nodeSelectorTermMatches(t.preference, nodeInfo.node)) count += t.weight;
    }
    return count;
  }

  normalizeScore(_state: CycleState, _pod: PodInfo, scores: NodeScore[]): void {
    defaultNormalizeScore(MaxNodeScore, false, scores);
  }

  normalizeScoreColumn(_state: CycleState, _pod: PodInfo, _names: readonly string[], scores: Float64Array): void {
    defaultNormalizeScoreColumn(MaxNodeScore, false, scores);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeLabel },
        // Queue when the node now matches the pod's required affinity and did not before.
        hint: (pod, oldObj, newObj) => {
          if (!newObj || !requiredNodeAffinityMatches(pod, newObj as NodeObject)) return QueueingHint.QueueSkip;
          if (oldObj && requiredNodeAffinityMatches(pod, oldObj as NodeObject)) return QueueingHint.QueueSkip;
          return QueueingHint.Queue;
        },
      },
    ];
  }
}

NodeAffinity.prototype satisfies PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin & EnqueueExtensions;
