// NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go): prefers nodes where, with the pod,
// cpu and memory would be used in equal shares: score = (1 − std of the requested fractions) × MaxNodeScore.
import type { CycleState } from '../../framework/cycle-state';
import { MaxNodeScore, type ScorePlugin } from '../../framework/interface';
import type { NodeInfo, PodInfo } from '../../framework/types';
import type { NodeFitRows } from '../../cache/node-fit-rows';
import { defaultResources, NodeAmount, NodeResourceReader, resourcePair, scoredResources, type ResourceSpec } from './resource-allocation';

export const Name = 'NodeResourcesBalancedAllocation';

/** balancedResourceScorer. */
export function balancedResourceScore(requested: number[], allocatable: number[], count = requested.length): number {
  // The fractions go into a scratch array reused across calls: this runs for every scored node of every pod.
  const fractions = scratchFractions;
  let len = 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (allocatable[i] === 0) continue;
    const f = Math.min(requested[i] / allocatable[i], 1);
    total += f;
    fractions[len++] = f;
  }
  let std = 0;
  if (len === 2) {
    std = Math.abs((fractions[0] - fractions[1]) / 2);
  } else if (len > 2) {
    const mean = total / len;
    let sum = 0;
    for (let i = 0; i < len; i++) sum += (fractions[i] - mean) * (fractions[i] - mean);
    std = Math.sqrt(sum / len);
  }
  return Math.trunc((1 - std) * MaxNodeScore);
}

const scratchFractions: number[] = [];

export class BalancedAllocation {
  readonly name = Name;
  constructor(private readonly resources: readonly ResourceSpec[] = defaultResources) {}

  score(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number {
    const pair = this.pair;
    const requested = this.requested;
    const allocatable = this.allocatable;
    let n = 0;
    for (const r of this.resources) {
      if (!resourcePair(nodeInfo, pod, r.name, true, pair)) continue;
      allocatable[n] = pair[0];
      requested[n] = pair[1];
      n++;
    }
    return balancedResourceScore(requested, allocatable, n);
  }

  /** score for every node: the scored resources and the pod's requests looked up once. */
  scoreNodes(_state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array, rows?: NodeFitRows): void {
    const { names, podRequests } = scoredResources(pod, this.resources, true);
    const requested = this.requested;
    const allocatable = this.allocatable;
    const reader = new NodeResourceReader(names, NodeAmount.Requested, rows);
    const { table, columns } = reader;
    const count = names.length;
    for (let n = 0; n < nodes.length; n++) {
      const nodeInfo = nodes[n];
      const o = reader.offsetOf(nodeInfo);
      for (let r = 0; r < count; r++) {
        allocatable[r] = o >= 0 ? table[o + columns[2 * r]] : reader.allocatableOf(nodeInfo, r);
        requested[r] = (o >= 0 ? table[o + columns[2 * r + 1]] : reader.requestedOf(nodeInfo, r)) + podRequests[r];
      }
      out[n] = balancedResourceScore(requested, allocatable, names.length);
    }
  }

  private readonly pair = [0, 0];
  private readonly requested: number[] = [];
  private readonly allocatable: number[] = [];
}

BalancedAllocation.prototype satisfies ScorePlugin;
