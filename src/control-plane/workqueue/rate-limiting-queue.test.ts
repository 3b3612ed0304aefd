import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../sim/virtual-clock';
import { TraceBus } from '../trace/trace-bus';
import { TraceKind } from '../../shared/protocol/trace';
import { DelayingQueue } from './delaying-queue';
import { RateLimitingQueue } from './rate-limiting-queue';
import { ItemExponentialFailureRateLimiter } from './rate-limiters';

describe('DelayingQueue', () => {
  it('adds the item once the delay has passed on the virtual clock', () => {
    const clock = new VirtualClock();
    const q = new DelayingQueue<string>({ name: 'd', clock });
    q.addAfter('a', 1000);
    q.addAfter('now', 0);
    expect(q.keys()).toEqual(['now']);
    expect(q.waiting()).toEqual([{ item: 'a', readyAt: clock.now() + 1000 }]);
    clock.advance(999);
    expect(q.keys()).toEqual(['now']);
    clock.advance(1);
    expect(q.keys()).toEqual(['now', 'a']);
    expect(q.waiting()).toEqual([]);
  });

  it('keeps the earlier ready time when an item is added after a delay twice', () => {
    const clock = new VirtualClock();
    const q = new DelayingQueue<string>({ name: 'd', clock });
    const t0 = clock.now();
    q.addAfter('a', 5000);
    q.addAfter('a', 2000);
    q.addAfter('a', 8000);
    expect(q.waiting()).toEqual([{ item: 'a', readyAt: t0 + 2000 }]);
    clock.advance(2000);
    expect(q.keys()).toEqual(['a']);
    clock.advance(10_000);
    expect(q.keys()).toEqual(['a']); // the dropped 5 s and 8 s timers never add it again
    expect(clock.pending.timers).toBe(0);
  });

  it('drops waiting items on shutdown', () => {
    const clock = new VirtualClock();
    const q = new DelayingQueue<string>({ name: 'd', clock });
    q.addAfter('a', 100);
    q.shutDown();
    q.addAfter('b', 100);
    clock.advance(1000);
    expect(q.len()).toBe(0);
    expect(q.waiting()).toEqual([]);
    expect(clock.pending.timers).toBe(0);
  });
});

describe('RateLimitingQueue', () => {
  it('backs a failing key off exponentially and forgets it on success', () => {
    const clock = new VirtualClock();
    const trace = new TraceBus({ clock });
    const q = new RateLimitingQueue<string>({ name: 'rl', clock, trace });
    const t0 = clock.now();
    const readyTimes: number[] = [];
    for (let i = 0; i < 4; i++) {
      q.addRateLimited('k');
      readyTimes.push(q.waiting()[0].readyAt - clock.now());
      clock.runUntilIdle();
      expect(q.get().item).toBe('k');
      q.done('k');
    }
    expect(readyTimes).toEqual([5, 10, 20, 40]);
    expect(clock.now()).toBe(t0 + 75);
    expect(q.numRequeues('k')).toBe(4);
    expect(q.snapshot().retries).toEqual([{ key: 'k', requeues: 4 }]);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
    expect(q.retries()).toEqual([]);
    const retries = trace.recent().filter((e) => e.kind === TraceKind.QueueRetry);
    expect(retries.map((e) => [e.data.key, e.data.delayMs, e.data.requeues])).toEqual([
      ['k', 5, 1],
      ['k', 10, 2],
      ['k', 20, 3],
      ['k', 40, 4],
    ]);
  });

  it('uses the given rate limiter and reports a snapshot', () => {
    const clock = new VirtualClock();
    const q = new RateLimitingQueue<string>({ name: 'snap', clock, rateLimiter: new ItemExponentialFailureRateLimiter(1000, 60_000) });
    q.add('a');
    q.add('b');
    q.get();
    q.addRateLimited('c');
    expect(q.snapshot()).toEqual({
      name: 'snap',
      queued: ['b'],
      processing: 1,
      waiting: [{ key: 'c', readyAt: clock.now() + 1000 }],
      retries: [{ key: 'c', requeues: 1 }],
    });
  });
});
