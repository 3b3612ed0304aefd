import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import { ErrReasonNotMatch, TaintToleration } from './taint-toleration';

const plugin = new TaintToleration();

describe('TaintToleration', () => {
  it('filters untolerated NoSchedule and NoExecute taints, naming the first one', () => {
    const state = new CycleState();
    const pod = podInfoOf(makePod('p'));
    const cp = nodeInfoOf(makeNode('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }));
    expect(plugin.filter(state, pod, cp)).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'] });
    const gpu = nodeInfoOf(makeNode('gpu', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }] }));
    expect(plugin.filter(state, pod, gpu)?.reasons).toEqual(['node(s) had untolerated taint {dedicated: gpu}']);
    expect(ErrReasonNotMatch).toBe("node(s) had taints that the pod didn't tolerate");
  });

  it('passes tolerated taints and ignores PreferNoSchedule in the filter', () => {
    const state = new CycleState();
    const tolerating = podInfoOf(makePod('p', { extra: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] } }));
    const gpu = nodeInfoOf(makeNode('gpu', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }));
    expect(plugin.filter(state, tolerating, gpu)).toBeUndefined();
    const wrongValue = podInfoOf(makePod('q', { extra: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'cpu' }] } }));
    expect(plugin.filter(state, wrongValue, gpu)?.code).toBe('UnschedulableAndUnresolvable');
    const exists = podInfoOf(makePod('r', { extra: { tolerations: [{ operator: 'Exists' }] } }));
    expect(plugin.filter(state, exists, gpu)).toBeUndefined();
    const soft = nodeInfoOf(makeNode('soft', { taints: [{ key: 'spot', effect: 'PreferNoSchedule' }] }));
    expect(plugin.filter(state, podInfoOf(makePod('s')), soft)).toBeUndefined();
  });

  it('scores fewer untolerated PreferNoSchedule taints higher (reverse-normalised)', () => {
    const state = new CycleState();
    const pod = podInfoOf(makePod('p', { extra: { tolerations: [{ key: 'b', operator: 'Exists', effect: 'PreferNoSchedule' }] } }));
    const nodes = [
      nodeInfoOf(makeNode('none')),
      nodeInfoOf(makeNode('one', { taints: [{ key: 'a', effect: 'PreferNoSchedule' }] })),
      nodeInfoOf(makeNode('two', { taints: [{ key: 'a', effect: 'PreferNoSchedule' }, { key: 'c', effect: 'PreferNoSchedule' }, { key: 'b', effect: 'PreferNoSchedule' }] })),
    ];
    plugin.preScore(state, pod);
    const scores = nodes.map((n) => ({ name: n.name, score: plugin.score(state, pod, n) }));
    expect(scores.map((s) => s.score)).toEqual([0, 1, 2]);
    plugin.normalizeScore(state, pod, scores);
    expect(scores.map((s) => s.score)).toEqual([100, 50, 0]);
  });

  it('queues a rejected pod only when a node stops carrying the untolerated taint', () => {
    const hint = plugin.eventsToRegister()[0].hint!;
    const pod = makePod('p');
    const tainted = makeNode('n', { taints: [{ key: 'x', effect: 'NoSchedule' }] });
    const clean = makeNode('n');
    expect(hint(pod, tainted, clean)).toBe('Queue');
    expect(hint(pod, clean, tainted)).toBe('QueueSkip');
    expect(hint(pod, undefined, clean)).toBe('Queue');
  });
});
