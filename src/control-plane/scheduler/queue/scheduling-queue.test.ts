import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/virtual-clock';
import { ActionType, EventResource, QueueingHint } from '../framework/interface';
import { makeNode, makePod } from '../testing';
import type { PodObject } from '../framework/types';
import { SchedulingQueue } from './scheduling-queue';

function setup(hints = new Map()) {
  const clock = new VirtualClock({ startTime: 0 });
  let woken = 0;
  const queue = new SchedulingQueue({ clock, queueingHints: hints, onActive: () => woken++ });
  return { clock, queue, woken: () => woken };
}

const pod = (name: string, priority?: number) => ({ ...makePod(name, { priority }), metadata: { ...makePod(name).metadata, uid: `u-${name}`, resourceVersion: '1' } });

describe('SchedulingQueue', () => {
  it('pops by priority, then by arrival', () => {
    const { clock, queue, woken } = setup();
    queue.add(pod('a'));
    clock.advance(10);
    queue.add(pod('b', 100));
    queue.add(pod('c'));
    expect(woken()).toBe(3);
    expect([queue.pop(), queue.pop(), queue.pop()].map((q) => q?.podInfo.key)).toEqual(['default/b', 'default/a', 'default/c']);
    expect(queue.pop()).toBeUndefined();
  });

  it('backs off 1 s doubling to 10 s', () => {
    const { queue } = setup();
    queue.add(pod('a'));
    const q = queue.pop()!;
    const durations = [1, 2, 3, 4, 5, 6].map((attempts) => queue.backoffDuration({ ...q, attempts }));
    expect(durations).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('retries a failed pod without rejecting plugins after its backoff', () => {
    const { clock, queue } = setup();
    queue.add(pod('a'));
    const q = queue.pop()!;
    queue.addUnschedulableIfNotPresent(q);
    expect(queue.whereIs('default/a')).toBe('backoffQ');
    clock.advance(999);
    expect(queue.whereIs('default/a')).toBe('backoffQ');
    clock.advance(1);
    expect(queue.whereIs('default/a')).toBe('activeQ');
  });

  it('moves an unschedulable pod only on events its rejecting plugin says may help', () => {
    const hints = new Map([
      [
        'NodeResourcesFit',
        [{ event: { resource: EventResource.Node, actionType: ActionType.Add }, hint: (_p: unknown, _o: unknown, n: unknown) => ((n as { metadata: { name: string } }).metadata.name === 'big' ? QueueingHint.Queue : QueueingHint.QueueSkip) }],
      ],
    ]);
    const { clock, queue } = setup(hints);
    queue.add(pod('a'));
    const q = queue.pop()!;
    q.unschedulablePlugins = new Set(['NodeResourcesFit']);
    queue.addUnschedulableIfNotPresent(q);
    expect(queue.whereIs('default/a')).toBe('unschedulablePods');
    queue.moveAllToActiveOrBackoffQueue({ resource: EventResource.Node, actionType: ActionType.Add, label: 'NodeAdd' }, undefined, makeNode('small'));
    expect(queue.whereIs('default/a')).toBe('unschedulablePods');
    // A pod deletion is not an event NodeResourcesFit registered here.
    queue.moveAllToActiveOrBackoffQueue({ resource: EventResource.AssignedPod, actionType: ActionType.Delete, label: 'AssignedPodDelete' }, pod('x'), undefined);
    expect(queue.whereIs('default/a')).toBe('unschedulablePods');
    // Still within its 1 s backoff: it waits in backoffQ first.
    queue.moveAllToActiveOrBackoffQueue({ resource: EventResource.Node, actionType: ActionType.Add, label: 'NodeAdd' }, undefined, makeNode('big'));
    expect(queue.whereIs('default/a')).toBe('backoffQ');
    clock.advance(1000);
    expect(queue.whereIs('default/a')).toBe('activeQ');
  });

  it('flushes pods unschedulable for more than 5 minutes (checked every 30 s)', () => {
    const { clock, queue } = setup();
    queue.add(pod('a'));
    const q = queue.pop()!;
    q.unschedulablePlugins = new Set(['X']);
    queue.addUnschedulableIfNotPresent(q);
    clock.advance(5 * 60_000);
    expect(queue.whereIs('default/a')).toBe('unschedulablePods');
    clock.advance(30_000);
    expect(queue.whereIs('default/a')).toBe('activeQ');
  });

  it('keeps gated pods aside until their gates are removed', () => {
    const { queue } = setup();
    const gated = { ...pod('g'), spec: { ...pod('g').spec!, schedulingGates: [{ name: 'example.com/wait' }] } } as PodObject;
    queue.add(gated);
    expect(queue.whereIs('default/g')).toBe('unschedulablePods');
    expect(queue.pop()).toBeUndefined();
    queue.update(gated, { ...pod('g'), metadata: { ...pod('g').metadata, resourceVersion: '2' } });
    expect(queue.whereIs('default/g')).toBe('activeQ');
  });

  it('ignores status-only updates of unschedulable pods but requeues on label changes', () => {
    const { clock, queue } = setup();
    const a = pod('a');
    queue.add(a);
    const q = queue.pop()!;
    q.unschedulablePlugins = new Set(['X']);
    queue.addUnschedulableIfNotPresent(q);
    const withStatus = { ...a, status: { conditions: [{ type: 'PodScheduled', status: 'False' }] }, metadata: { ...a.metadata, resourceVersion: '2' } };
    queue.update(a, withStatus);
    expect(queue.whereIs('default/a')).toBe('unschedulablePods');
    clock.advance(2000);
    queue.update(withStatus, { ...withStatus, metadata: { ...withStatus.metadata, labels: { tier: 'x' }, resourceVersion: '3' } });
    expect(queue.whereIs('default/a')).toBe('activeQ');
  });

  it('delete removes the pod from every queue, in flight included', () => {
    const { queue } = setup();
    queue.add(pod('a'));
    queue.pop();
    expect(queue.whereIs('default/a')).toBe('inFlight');
    queue.delete(pod('a'));
    expect(queue.whereIs('default/a')).toBeUndefined();
  });
});
