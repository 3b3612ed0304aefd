// NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go): prefers nodes where, with the pod,
// cpu and memory would be used in equal shares: score = (1 − std of the requested fractions) × MaxNodeScore.
import type { CycleState } from '../../framework/cycle-state';
import { MaxNodeScore, type ScorePlugin } from '../../framework/interface';
import type { NodeInfo, PodInfo } from '../../framework/types';
import { defaultResources, resourcePair, type ResourceSpec } from './resource-allocation';

export const Name = 'NodeResourcesBalancedAllocation';

/** balancedResourceScorer. */
export function balancedResourceScore(requested: number[], allocatable: number[], count = requested.length): number {
  const fractions: number[] = [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (allocatable[i] === 0) continue;
    const f = Math.min(requested[i] / allocatable[i], 1);
    total += f;
    fractions.push(f);
  }
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs((fractions[0] - fractions[1]) / 2);
  } else if (fractions.length > 2) {
    const mean = total / fractions.length;
    let sum = 0;
    for (const f of fractions) sum += (f - mean) * (f - mean);
    std = Math.sqrt(sum / fractions.length);
  }
  return Math.trunc((1 - std) * MaxNodeScore);
}

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

  private readonly pair = [0, 0];
  private readonly requested: number[] = [];
  private readonly allocatable: number[] = [];
}

BalancedAllocation.prototype satisfies ScorePlugin;
