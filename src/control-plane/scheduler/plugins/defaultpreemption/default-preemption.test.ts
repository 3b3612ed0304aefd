import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { listerOf, makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import { newFramework } from '../../profile';
import type { Handle } from '../../framework/handle';
import { createRng } from '../../../sim/rng';
import { DefaultPreemption, ReasonNoVictims, ReasonNotEligiblePreemptNever, ReasonPreemptionNotHelpful, selectCandidate } from './default-preemption';

function setup() {
  const handle = { rng: createRng(1), podLister: { get: () => undefined }, schedulerName: 'default-scheduler' } as unknown as Handle;
  const fw = newFramework(handle);
  return { fw, plugin: fw.postFilterPlugins[0] as DefaultPreemption };
}

describe('DefaultPreemption', () => {
  it('selects the fewest, least important victims that make room', () => {
    const { plugin } = setup();
    const node = nodeInfoOf(makeNode('n', { cpu: '3' }), [
      podInfoOf(makePod('low-a', { cpu: '1', priority: 1 }), 'n'),
      podInfoOf(makePod('low-b', { cpu: '1', priority: 2 }), 'n'),
      podInfoOf(makePod('peer', { cpu: '1', priority: 100 }), 'n'),
    ]);
    const pod = podInfoOf(makePod('high', { cpu: '1', priority: 100 }));
    const state = new CycleState();
    const { victims, status } = plugin.selectVictimsOnNode(state, pod, node.clone());
    expect(status).toBeUndefined();
    // Reprieving the more important low-b first leaves low-a as the only victim.
    expect(victims.map((v) => v.pod.metadata.name)).toEqual(['low-a']);
  });

  it('explains nodes where preemption cannot help', () => {
    const { plugin } = setup();
    const pod = podInfoOf(makePod('high', { cpu: '8', priority: 100 }));
    const nodes = [nodeInfoOf(makeNode('n1', { cpu: '2' })), nodeInfoOf(makeNode('n2', { cpu: '2' }), [podInfoOf(makePod('low', { cpu: '1', priority: 0 }), 'n2')]), nodeInfoOf(makeNode('cp'))];
    const m = new Map([
      ['n1', { code: 'Unschedulable' as const, reasons: ['Insufficient cpu'] }],
      ['n2', { code: 'Unschedulable' as const, reasons: ['Insufficient cpu'] }],
      ['cp', { code: 'UnschedulableAndUnresolvable' as const, reasons: ['node(s) had untolerated taint {x: }'] }],
    ]);
    const r = plugin.postFilter(new CycleState(), pod, m, listerOf(nodes));
    expect(r.status?.reasons).toEqual([
      `preemption: 0/3 nodes are available: 1 Insufficient cpu, 1 ${ReasonNoVictims}, 1 ${ReasonPreemptionNotHelpful}.`,
    ]);
    const never = podInfoOf(makePod('never', { cpu: '8', priority: 100, extra: { preemptionPolicy: 'Never' } }));
    expect(plugin.postFilter(new CycleState(), never, m, listerOf(nodes)).status?.reasons).toEqual([`preemption: ${ReasonNotEligiblePreemptNever}`]);
    expect(ReasonNotEligiblePreemptNever).toBe('not eligible due to preemptionPolicy=Never.');
  });

  it('picks the candidate whose most important victim matters least', () => {
    const mk = (name: string, prios: number[]) => ({ name, victims: prios.map((p, i) => podInfoOf(makePod(`${name}-${i}`, { priority: p }))) });
    expect(selectCandidate([mk('a', [10]), mk('b', [5, 5]), mk('c', [5])]).name).toBe('c');
  });
});
