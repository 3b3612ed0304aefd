// Fit's and BalancedAllocation's scoreNodes read cpu and memory straight from the node's sums when those are
// the scored resources: randomized nodes and pods must score exactly as the per-node Score (the generic path).
import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import type { NodeInfo, PodInfo } from '../../framework/types';
import { createRng, type Rng } from '../../../sim/rng';
import { BalancedAllocation } from './balanced-allocation';
import { Fit } from './fit';

function quantity(rng: Rng, unit: string, max: number): string {
  // Zero now and then (a node without the resource, a container asking for none), odd values otherwise.
  return rng.int(8) === 0 ? `0${unit}` : `${1 + rng.int(max)}${unit}`;
}

function randomNode(rng: Rng, i: number): NodeInfo {
  const pods: PodInfo[] = [];
  for (let j = rng.int(6); j > 0; j--) {
    const sized = rng.int(3) > 0;
    pods.push(podInfoOf(makePod(`p${i}-${j}`, sized ? { cpu: quantity(rng, 'm', 3000), memory: quantity(rng, 'Mi', 6000) } : {}), `n${i}`));
  }
  return nodeInfoOf(makeNode(`n${i}`, { cpu: quantity(rng, '', 16), memory: quantity(rng, 'Gi', 64) }), pods);
}

function randomPod(rng: Rng, i: number): PodInfo {
  const kind = rng.int(4);
  if (kind === 0) return podInfoOf(makePod(`pod${i}`));
  if (kind === 1) return podInfoOf(makePod(`pod${i}`, { cpu: quantity(rng, 'm', 4000) }));
  if (kind === 2) return podInfoOf(makePod(`pod${i}`, { memory: quantity(rng, 'Mi', 9000) }));
  return podInfoOf(makePod(`pod${i}`, { cpu: quantity(rng, 'm', 4000), memory: quantity(rng, 'Mi', 9000) }));
}

describe('resource scorers by column', () => {
  const weighted = [
    { name: 'cpu', weight: 3 },
    { name: 'memory', weight: 2 },
  ];
  const scorers = [new Fit(), new BalancedAllocation(), new Fit(weighted), new BalancedAllocation(weighted)];

  it('give every node the score Score gives it', () => {
    const rng = createRng(42);
    for (let round = 0; round < 40; round++) {
      const nodes = Array.from({ length: 25 }, (_, i) => randomNode(rng, i));
      const pod = randomPod(rng, round);
      for (const scorer of scorers) {
        const out = new Float64Array(nodes.length);
        scorer.scoreNodes(new CycleState(), pod, nodes, out);
        expect([...out]).toEqual(nodes.map((n) => scorer.score(new CycleState(), pod, n)));
      }
    }
  });
});
