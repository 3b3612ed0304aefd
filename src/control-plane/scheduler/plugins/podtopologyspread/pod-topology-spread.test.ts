import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { listerOf, makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import { ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch, PodTopologySpread, scoreForCount, topologyNormalizingWeight } from './pod-topology-spread';

const zoneKey = 'topology.kubernetes.io/zone';

function web(name: string, node?: string, constraint?: object) {
  return podInfoOf(
    makePod(name, { labels: { app: 'web' }, extra: constraint ? { topologySpreadConstraints: [constraint] } : undefined } as never),
    node,
  );
}

describe('PodTopologySpread filter (DoNotSchedule)', () => {
  it('rejects nodes whose domain would exceed maxSkew, and nodes missing the topology label', () => {
    const nodes = [
      nodeInfoOf(makeNode('a1', { zone: 'a' }), [web('w1', 'a1'), web('w2', 'a1')]),
      nodeInfoOf(makeNode('b1', { zone: 'b' })),
      nodeInfoOf(makeNode('nolabel')),
    ];
    const pod = web('w3', undefined, { maxSkew: 1, topologyKey: zoneKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } });
    const plugin = new PodTopologySpread();
    const state = new CycleState();
    expect(plugin.preFilter(state, pod, listerOf(nodes)).status).toBeUndefined();
    expect(nodes.map((n) => plugin.filter(state, pod, n))).toEqual([
      { code: 'Unschedulable', reasons: [ErrReasonConstraintsNotMatch] },
      undefined,
      { code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonNodeLabelNotMatch] },
    ]);
    expect(ErrReasonConstraintsNotMatch).toBe("node(s) didn't match pod topology spread constraints");
    expect(ErrReasonNodeLabelNotMatch).toBe("node(s) didn't match pod topology spread constraints (missing required label)");
  });

  it('has nothing to filter for pods without DoNotSchedule constraints', () => {
    expect(new PodTopologySpread().preFilter(new CycleState(), web('w'), listerOf([])).status?.code).toBe('Skip');
  });
});

describe('PodTopologySpread score', () => {
  it('ScheduleAnyway: fewer matching pods in the domain score higher', () => {
    const nodes = [
      nodeInfoOf(makeNode('a1', { zone: 'a' }), [web('w1', 'a1'), web('w2', 'a1')]),
      nodeInfoOf(makeNode('a2', { zone: 'a' })),
      nodeInfoOf(makeNode('b1', { zone: 'b' })),
    ];
    const pod = web('w3', undefined, { maxSkew: 1, topologyKey: zoneKey, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } });
    const plugin = new PodTopologySpread();
    const state = new CycleState();
    expect(plugin.preScore(state, pod, nodes, listerOf(nodes))).toBeUndefined();
    const w = topologyNormalizingWeight(2);
    const raw = nodes.map((n) => ({ name: n.name, score: plugin.score(state, pod, n) }));
    expect(raw.map((s) => s.score)).toEqual([Math.round(scoreForCount(2, 1, w)), Math.round(scoreForCount(2, 1, w)), Math.round(scoreForCount(0, 1, w))]);
    plugin.normalizeScore(state, pod, raw);
    expect(raw.map((s) => s.score)).toEqual([0, 0, 100]);
  });

  it('applies the system default constraints to pods of a ReplicaSet (hostname and zone)', () => {
    const rsLister = {
      get: (_ns: string | undefined, name: string) => (name === 'web' ? { spec: { selector: { matchLabels: { app: 'web' } } } } : undefined),
    };
    const plugin = new PodTopologySpread({ replicaSetLister: rsLister as never });
    const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u', controller: true }];
    const pod = podInfoOf(makePod('w9', { labels: { app: 'web' }, ownerReferences: owner }));
    const nodes = [nodeInfoOf(makeNode('n1', { zone: 'a' }), [web('w1', 'n1')]), nodeInfoOf(makeNode('n2', { zone: 'a' })), nodeInfoOf(makeNode('n3', { zone: 'b' }))];
    const state = new CycleState();
    expect(plugin.preScore(state, pod, nodes, listerOf(nodes))).toBeUndefined();
    const scores = nodes.map((n) => ({ name: n.name, score: plugin.score(state, pod, n) }));
    plugin.normalizeScore(state, pod, scores);
    // The empty zone wins; within zone a the node without the replica beats the one with it.
    expect(scores[2].score).toBe(100);
    expect(scores[1].score).toBeGreaterThan(scores[0].score);
    // A bare pod (no owner, no service) gets no default constraints.
    expect(plugin.preScore(new CycleState(), podInfoOf(makePod('bare', { labels: { app: 'web' } })), nodes, listerOf(nodes))?.code).toBe('Skip');
  });
});
