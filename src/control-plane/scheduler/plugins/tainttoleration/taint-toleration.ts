// TaintToleration (pkg/scheduler/framework/plugins/tainttoleration): a node's NoSchedule/NoExecute taints keep
// off pods that do not tolerate them; PreferNoSchedule taints only lower the node's score (fewer untolerated
// PreferNoSchedule taints score higher, normalised in reverse).
import type { Taint, Toleration } from 'kubernetes-types/core/v1';
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
  type PreScorePlugin,
  type ScorePlugin,
} from '../../framework/interface';
import { Code, newStatus, type Status } from '../../framework/status';
import type { NodeInfo, NodeObject, PodInfo } from '../../framework/types';
import { TaintEffect, findMatchingUntoleratedTaint, isNoScheduleOrNoExecute, tolerationsTolerateTaint } from '../helper/taints';
import { defaultNormalizeScore, defaultNormalizeScoreColumn } from '../helper/normalize-score';

export const Name = 'TaintToleration';
/** The generic reason (kept for reference: the Filter reports the taint itself). */
export const ErrReasonNotMatch = "node(s) had taints that the pod didn't tolerate";

/** The Filter's reason: `node(s) had untolerated taint {key: value}` (an empty value leaves "{key: }"). */
export function errReasonUntoleratedTaint(taint: Taint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

const preScoreStateKey = `PreScore${Name}`;

export class TaintToleration {
  readonly name = Name;

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    const taint = findMatchingUntoleratedTaint(nodeInfo.taints, pod.pod.spec?.tolerations, isNoScheduleOrNoExecute);
    if (!taint) return undefined;
    return newStatus(Code.UnschedulableAndUnresolvable, errReasonUntoleratedTaint(taint));
  }

  preScore(state: CycleState, pod: PodInfo): Status | undefined {
    // Tolerations with no effect tolerate every effect, PreferNoSchedule included.
    const tolerations: Toleration[] = (pod.pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === TaintEffect.PreferNoSchedule);
    state.write(preScoreStateKey, tolerations);
    return undefined;
  }

  score(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): number {
    const tolerations = state.read<Toleration[]>(preScoreStateKey) ?? [];
    let intolerable = 0;
    for (const taint of nodeInfo.taints ?? []) {
      if (taint.effect !== TaintEffect.PreferNoSchedule) continue;
      if (!tolerationsTolerateTaint(tolerations, taint)) intolerable++;
    }
    return intolerable;
  }

  /** score for every node, the tolerations read once. */
  scoreNodes(state: CycleState, _pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array): void {
    const tolerations = state.read<Toleration[]>(preScoreStateKey) ?? [];
    for (let n = 0; n < nodes.length; n++) {
      const taints = nodes[n].taints;
      let intolerable = 0;
      if (taints) {
        for (const taint of taints) {
          if (taint.effect !== TaintEffect.PreferNoSchedule) continue;
          if (!tolerationsTolerateTaint(tolerations, taint)) intolerable++;
        }
      }
      out[n] = intolerable;
    }
  }

  normalizeScore(_state: CycleState, _pod: PodInfo, scores: NodeScore[]): void {
    defaultNormalizeScore(MaxNodeScore, true, scores);
  }

  normalizeScoreColumn(_state: CycleState, _pod: PodInfo, _names: readonly string[], scores: Float64Array): void {
    defaultNormalizeScoreColumn(MaxNodeScore, true, scores);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeTaint },
        // Queue when the node's taints went from untolerated to tolerated.
        hint: (pod, oldObj, newObj) => {
          if (!newObj) return QueueingHint.QueueSkip;
          const untolerated = (n: NodeObject | undefined) =>
            !n || !!findMatchingUntoleratedTaint(n.spec?.taints, pod.spec?.tolerations, isNoScheduleOrNoExecute);
          const wasUntolerated = untolerated(oldObj as NodeObject | undefined);
          const isUntolerated = untolerated(newObj as NodeObject);
          return wasUntolerated && !isUntolerated ? QueueingHint.Queue : QueueingHint.QueueSkip;
        },
      },
    ];
  }
}

TaintToleration.prototype satisfies FilterPlugin & PreScorePlugin & ScorePlugin & EnqueueExtensions;
