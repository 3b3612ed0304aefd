import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import { NodePorts } from './node-ports';

function withPort(name: string, hostPort: number, hostIP?: string) {
  return makePod(name, { extra: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort, ...(hostIP ? { hostIP } : {}) }] }] } });
}

describe('NodePorts', () => {
  it('rejects nodes where the host port is taken', () => {
    const plugin = new NodePorts();
    const node = nodeInfoOf(makeNode('n'), [podInfoOf(withPort('a', 8080), 'n')]);
    expect(plugin.filter(new CycleState(), podInfoOf(withPort('b', 8080)), node)).toEqual({
      code: 'Unschedulable',
      reasons: ["node(s) didn't have free ports for the requested pod ports"],
    });
    expect(plugin.filter(new CycleState(), podInfoOf(withPort('c', 8081)), node)).toBeUndefined();
    // A specific address conflicts with 0.0.0.0.
    expect(plugin.filter(new CycleState(), podInfoOf(withPort('d', 8080, '10.0.0.1')), node)?.code).toBe('Unschedulable');
  });

  it('skips pods without host ports', () => {
    expect(new NodePorts().preFilter(new CycleState(), podInfoOf(makePod('p'))).status?.code).toBe('Skip');
  });
});
