import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import { NodeName } from './node-name';

describe('NodeName', () => {
  it('fits only the node the pod names', () => {
    const plugin = new NodeName();
    const pinned = podInfoOf(makePod('p', { extra: { nodeName: 'node-2' } }));
    expect(plugin.filter(new CycleState(), pinned, nodeInfoOf(makeNode('node-1')))).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ["node(s) didn't match the requested node name"],
    });
    expect(plugin.filter(new CycleState(), pinned, nodeInfoOf(makeNode('node-2')))).toBeUndefined();
    expect(plugin.filter(new CycleState(), podInfoOf(makePod('free')), nodeInfoOf(makeNode('node-1')))).toBeUndefined();
  });
});
