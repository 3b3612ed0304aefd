import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../sim/virtual-clock';
import { TraceBus } from '../trace/trace-bus';
import { TraceKind, type TraceEvent } from '../../shared/protocol/trace';
import { WorkQueue } from './queue';

function newQueue() {
  const clock = new VirtualClock();
  const trace = new TraceBus({ clock });
  const queue = new WorkQueue<string>({ name: 'test', clock, trace });
  return { clock, trace, queue };
}

describe('WorkQueue', () => {
  it('hands items out in FIFO order and processes a key added twice before get only once', () => {
    const { queue } = newQueue();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.len()).toBe(2);
    expect(queue.keys()).toEqual(['a', 'b']);
    const first = queue.get();
    expect(first.item).toBe('a');
    expect(queue.get().item).toBe('b');
    const empty = queue.get();
    expect(empty).toEqual({ item: undefined, shutdown: false });
  });

  it('re-queues a key added while it is processing only after done, and never hands it out twice at once', () => {
    const { queue } = newQueue();
    queue.add('a');
    expect(queue.get().item).toBe('a');
    expect(queue.processingCount).toBe(1);
    queue.add('a');
    // Dirty but processing: not handed out again yet.
    expect(queue.len()).toBe(0);
    expect(queue.get().item).toBeUndefined();
    queue.add('a');
    queue.done('a');
    expect(queue.processingCount).toBe(0);
    expect(queue.keys()).toEqual(['a']);
    expect(queue.get().item).toBe('a');
    queue.done('a');
    expect(queue.len()).toBe(0);
  });

  it('done without a re-add leaves the queue empty; done of an unknown item is ignored', () => {
    const { queue } = newQueue();
    queue.add('x');
    queue.get();
    queue.done('x');
    queue.done('y');
    expect(queue.len()).toBe(0);
    expect(queue.processingCount).toBe(0);
  });

  it('ignores adds after shutDown but still drains queued items, then reports shutdown', () => {
    const { queue } = newQueue();
    queue.add('a');
    queue.shutDown();
    queue.add('b');
    expect(queue.shuttingDown()).toBe(true);
    expect(queue.keys()).toEqual(['a']);
    expect(queue.get()).toMatchObject({ item: 'a', shutdown: false });
    expect(queue.get()).toEqual({ item: undefined, shutdown: true });
  });

  it('runs the registered worker through clock.defer, one item per task, until empty', () => {
    const { clock, queue } = newQueue();
    const processed: string[] = [];
    queue.run(() => {
      const { item, shutdown } = queue.get();
      if (shutdown) return false;
      if (item === undefined) return true;
      processed.push(item);
      if (item === 'a' && processed.length === 1) queue.add('a'); // re-add while processing
      queue.done(item);
      return true;
    });
    queue.add('a');
    queue.add('b');
    // Nothing runs inside add(): the worker waits for the clock.
    expect(processed).toEqual([]);
    expect(clock.pending.deferred).toBe(1);
    clock.runDeferred();
    expect(processed).toEqual(['a', 'b', 'a']);
    expect(queue.len()).toBe(0);
  });

  it('lets the worker stop after shutdown', () => {
    const { clock, queue } = newQueue();
    let calls = 0;
    let sawShutdown = false;
    queue.run(() => {
      calls++;
      const { item, shutdown } = queue.get();
      if (shutdown) {
        sawShutdown = true;
        return false;
      }
      if (item !== undefined) queue.done(item);
      return true;
    });
    queue.add('a');
    queue.shutDown();
    clock.runDeferred();
    expect(sawShutdown).toBe(true);
    expect(calls).toBe(2);
    queue.add('b');
    clock.runDeferred();
    expect(calls).toBe(2);
  });

  it('emits add/get/done trace events with the key, linking get to its add', () => {
    const { queue, trace } = newQueue();
    const events: TraceEvent[] = [];
    trace.subscribe((e) => events.push(e));
    queue.add('ns/a');
    queue.add('ns/a');
    const got = queue.get();
    queue.add('ns/a');
    queue.done('ns/a');
    expect(events.map((e) => [e.kind, e.data.key, e.data.deduped ?? e.data.whileProcessing ?? e.data.requeued ?? null])).toEqual([
      [TraceKind.QueueAdd, 'ns/a', null],
      [TraceKind.QueueAdd, 'ns/a', true],
      [TraceKind.QueueGet, 'ns/a', null],
      [TraceKind.QueueAdd, 'ns/a', true],
      [TraceKind.QueueDone, 'ns/a', true],
    ]);
    expect(events.every((e) => e.component === 'workqueue/test' && e.data.queue === 'test')).toBe(true);
    expect(got.seq).toBe(events[2].seq);
    expect(events[2].cause).toBe(events[0].seq);
    // done is a leaf (nothing names it as its cause): the ring keeps the others only.
    expect(trace.recent().map((e) => e.kind)).toEqual([TraceKind.QueueAdd, TraceKind.QueueAdd, TraceKind.QueueGet, TraceKind.QueueAdd]);
  });

  it('skips done events when nobody subscribes (the ring would not keep them)', () => {
    const { queue, trace } = newQueue();
    queue.add('ns/a');
    queue.get();
    queue.done('ns/a');
    expect(trace.recent().map((e) => e.kind)).toEqual([TraceKind.QueueAdd, TraceKind.QueueGet]);
    expect(trace.lastSeq).toBe(2);
  });
});
