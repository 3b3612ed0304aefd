import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import { ErrReasonUnschedulable, NodeUnschedulable } from './node-unschedulable';

const plugin = new NodeUnschedulable();

describe('NodeUnschedulable', () => {
  it('rejects a cordoned node as unresolvable', () => {
    const s = plugin.filter(new CycleState(), podInfoOf(makePod('p')), nodeInfoOf(makeNode('n', { unschedulable: true })));
    expect(s).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were unschedulable'] });
    expect(ErrReasonUnschedulable).toBe('node(s) were unschedulable');
  });

  it('lets through pods tolerating node.kubernetes.io/unschedulable, and any pod on a schedulable node', () => {
    const tolerating = podInfoOf(makePod('ds', { extra: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] } }));
    expect(plugin.filter(new CycleState(), tolerating, nodeInfoOf(makeNode('n', { unschedulable: true })))).toBeUndefined();
    expect(plugin.filter(new CycleState(), podInfoOf(makePod('p')), nodeInfoOf(makeNode('n')))).toBeUndefined();
  });

  it('queues on uncordon or a schedulable node added, not on a cordon', () => {
    const hint = plugin.eventsToRegister()[0].hint!;
    const pod = makePod('p');
    expect(hint(pod, makeNode('n', { unschedulable: true }), makeNode('n'))).toBe('Queue');
    expect(hint(pod, undefined, makeNode('n'))).toBe('Queue');
    expect(hint(pod, makeNode('n'), makeNode('n', { unschedulable: true }))).toBe('QueueSkip');
    expect(hint(pod, undefined, makeNode('n', { unschedulable: true }))).toBe('QueueSkip');
  });
});
