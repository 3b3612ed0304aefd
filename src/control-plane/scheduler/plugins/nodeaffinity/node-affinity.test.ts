import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import { ErrReasonPod, NodeAffinity } from './node-affinity';

const plugin = new NodeAffinity();

function affinityPod(required?: object[], preferred?: object[]) {
  return podInfoOf(
    makePod('p', {
      extra: {
        affinity: {
          nodeAffinity: {
            ...(required ? { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: required } } : {}),
            ...(preferred ? { preferredDuringSchedulingIgnoredDuringExecution: preferred } : {}),
          },
        },
      } as never,
    }),
  );
}

describe('NodeAffinity', () => {
  it('rejects nodes not matching the nodeSelector', () => {
    const pod = podInfoOf(makePod('p', { extra: { nodeSelector: { disktype: 'ssd' } } }));
    const state = new CycleState();
    expect(plugin.preFilter(state, pod).status).toBeUndefined();
    expect(plugin.filter(state, pod, nodeInfoOf(makeNode('hdd')))).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: [ErrReasonPod] });
    expect(ErrReasonPod).toBe("node(s) didn't match Pod's node affinity/selector");
    expect(plugin.filter(state, pod, nodeInfoOf(makeNode('ssd', { labels: { disktype: 'ssd' } })))).toBeUndefined();
  });

  it('ORs required terms and ANDs expressions, with In, NotIn, Exists and Gt', () => {
    const pod = affinityPod([
      { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }, { key: 'spot', operator: 'DoesNotExist' }] },
      { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['16'] }] },
    ]);
    const s = new CycleState();
    const ok = (labels: Record<string, string>) => plugin.filter(s, pod, nodeInfoOf(makeNode('n', { labels }))) === undefined;
    expect(ok({ zone: 'a' })).toBe(true);
    expect(ok({ zone: 'a', spot: 'true' })).toBe(false);
    expect(ok({ zone: 'c' })).toBe(false);
    expect(ok({ zone: 'c', cores: '32' })).toBe(true);
    expect(ok({ cores: '8' })).toBe(false);
  });

  it('skips pods without node affinity, and narrows to named nodes with matchFields', () => {
    expect(plugin.preFilter(new CycleState(), podInfoOf(makePod('p'))).status?.code).toBe('Skip');
    const pinned = affinityPod([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-2'] }] }]);
    expect(plugin.preFilter(new CycleState(), pinned).result?.nodeNames).toEqual(new Set(['node-2']));
  });

  it('scores the weights of matching preferred terms, normalised to 100', () => {
    const pod = affinityPod(undefined, [
      { weight: 80, preference: { matchExpressions: [{ key: 'disktype', operator: 'In', values: ['ssd'] }] } },
      { weight: 20, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
    ]);
    const state = new CycleState();
    expect(plugin.preScore(state, pod)).toBeUndefined();
    const nodes = [makeNode('both', { labels: { disktype: 'ssd', zone: 'a' } }), makeNode('ssd', { labels: { disktype: 'ssd' } }), makeNode('none')];
    const scores = nodes.map((n) => ({ name: n.metadata.name!, score: plugin.score(state, pod, nodeInfoOf(n)) }));
    expect(scores.map((s) => s.score)).toEqual([100, 80, 0]);
    plugin.normalizeScore(state, pod, scores);
    expect(scores.map((s) => s.score)).toEqual([100, 80, 0]);
    expect(plugin.preScore(new CycleState(), podInfoOf(makePod('q')))?.code).toBe('Skip');
  });
});
