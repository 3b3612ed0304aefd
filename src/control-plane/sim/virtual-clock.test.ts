import { describe, expect, it } from 'vitest';
import { rfc3339, rfc3339Micro } from './clock';
import { ClockRunawayError, VirtualClock } from './virtual-clock';

describe('VirtualClock', () => {
  it('fires timers in (due time, insertion) order and moves time to each', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const log: string[] = [];
    clock.setTimer(20, () => log.push(`b@${clock.now()}`));
    clock.setTimer(10, () => log.push(`a@${clock.now()}`));
    clock.setTimer(20, () => log.push(`c@${clock.now()}`));
    clock.advance(15);
    expect(log).toEqual(['a@10']);
    expect(clock.now()).toBe(15);
    clock.advance(100);
    expect(log).toEqual(['a@10', 'b@20', 'c@20']);
    expect(clock.now()).toBe(115);
  });

  it('runs deferred tasks FIFO, including ones they defer, before timers', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const log: string[] = [];
    clock.setTimer(0, () => log.push('timer'));
    clock.defer(() => {
      log.push('d1');
      clock.defer(() => log.push('d3'));
    });
    clock.defer(() => log.push('d2'));
    clock.advance(0);
    expect(log).toEqual(['d1', 'd2', 'd3', 'timer']);
  });

  it('cancels timers', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const log: string[] = [];
    const h = clock.setTimer(10, () => log.push('x'));
    clock.setTimer(30, () => log.push('y'));
    clock.clearTimer(h);
    clock.clearTimer(undefined);
    expect(clock.nextTimerAt()).toBe(30);
    expect(clock.pending).toEqual({ deferred: 0, timers: 1, background: 0 });
    clock.runUntilIdle();
    expect(log).toEqual(['y']);
  });

  it('step fires exactly one timer and reports when none is left', () => {
    const clock = new VirtualClock({ startTime: 0 });
    let n = 0;
    clock.setTimer(5, () => n++);
    clock.setTimer(7, () => n++);
    expect(clock.step()).toBe(true);
    expect([n, clock.now()]).toEqual([1, 5]);
    expect(clock.step()).toBe(true);
    expect(clock.step()).toBe(false);
    expect([n, clock.now()]).toEqual([2, 7]);
  });

  it('runUntilIdle stops at the time limit with periodic timers, and detects runaways', () => {
    const clock = new VirtualClock({ startTime: 0 });
    let beats = 0;
    const beat = () => {
      beats++;
      clock.setTimer(1000, beat);
    };
    clock.setTimer(1000, beat);
    clock.runUntilIdle({ maxTimeMs: 10_500 });
    expect(beats).toBe(10);
    expect(clock.now()).toBe(10_500);
    expect(() => clock.runUntilIdle({ maxSteps: 5 })).toThrow(ClockRunawayError);
  });

  it('runUntil returns once the predicate holds, or false at the deadline', () => {
    const clock = new VirtualClock({ startTime: 0 });
    let done = false;
    clock.setTimer(3000, () => (done = true));
    expect(clock.runUntil(() => done)).toBe(true);
    expect(clock.now()).toBe(3000);
    expect(clock.runUntil(() => false, 1000)).toBe(false);
    expect(clock.now()).toBe(4000);
  });

  it('formats metav1.Time and MicroTime', () => {
    const t = Date.UTC(2026, 10, 22, 14, 33, 28, 123);
    expect(rfc3339(t)).toBe('2026-11-22T14:33:28Z');
    expect(rfc3339Micro(t)).toBe('2026-11-22T14:33:28.123000Z');
  });

  it('formats every time afresh when the second or millisecond changes (the last text is reused)', () => {
    const base = Date.UTC(2026, 10, 22, 14, 33, 28, 0);
    const times = [base, base + 999, base + 1000, base + 999, base - 1, base - 1000, base + 60_000, base + 60_000.7, base];
    for (const t of times) {
      const iso = new Date(t).toISOString();
      expect(rfc3339(t)).toBe(iso.replace(/\.\d{3}Z$/, 'Z'));
      expect(rfc3339Micro(t)).toBe(iso.replace(/\.(\d{3})Z$/, '.$1000Z'));
    }
    expect(() => rfc3339(NaN)).toThrow(RangeError);
  });
});

describe('advance settles deferred work after every instant', () => {
  it('runs what a timer defers before a later timer fires', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const order: string[] = [];
    clock.setTimer(10, () => clock.defer(() => order.push(`deferred@${clock.now()}`)));
    clock.setTimer(20, () => order.push(`timer@${clock.now()}`));
    clock.advance(30);
    expect(order).toEqual(['deferred@10', 'timer@20']);
  });
});

describe('timers due at one instant fire together', () => {
  it('fires every timer due at the same time before the deferred work any of them scheduled', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const order: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      clock.setTimer(10, () => {
        order.push(`${name}@${clock.now()}`);
        clock.defer(() => order.push(`deferred ${name}`));
      });
    }
    clock.setTimer(11, () => order.push(`d@${clock.now()}`));
    clock.advance(20);
    expect(order).toEqual(['a@10', 'b@10', 'c@10', 'deferred a', 'deferred b', 'deferred c', 'd@11']);
  });

  it('lets a work queue merge the adds of one key made by timers of one instant', () => {
    const clock = new VirtualClock({ startTime: 0 });
    let dirty = false;
    let syncs = 0;
    // A minimal queue: an add while the key is already waiting is merged; processing is deferred.
    const add = () => {
      if (dirty) return;
      dirty = true;
      clock.defer(() => {
        dirty = false;
        syncs++;
      });
    };
    for (let i = 0; i < 50; i++) clock.setTimer(600, () => clock.defer(add)); // a watch delivery per write
    expect(clock.runUntil(() => syncs > 0)).toBe(true);
    expect(syncs).toBe(1);
  });

  it('also fires timers set for now by a timer of the same instant, and detects a timer re-arming itself forever', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const order: string[] = [];
    clock.setTimer(5, () => {
      order.push('first');
      clock.defer(() => order.push('deferred'));
      clock.setTimer(0, () => order.push('set for now'));
    });
    clock.advance(5);
    expect(order).toEqual(['first', 'set for now', 'deferred']);

    const looping = new VirtualClock({ startTime: 0 });
    const rearm = () => looping.setTimer(0, rearm);
    looping.setTimer(1, rearm);
    expect(() => looping.advance(1)).toThrow(ClockRunawayError);
  });

  it('step still fires a single timer', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const order: string[] = [];
    clock.setTimer(10, () => clock.defer(() => order.push('deferred a')));
    clock.setTimer(10, () => order.push('b'));
    clock.step();
    expect(order).toEqual(['deferred a']);
    clock.step();
    expect(order).toEqual(['deferred a', 'b']);
  });
});

describe('background timers', () => {
  it('fire in order but do not keep runUntilIdle going', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const fired: string[] = [];
    const heartbeat = () => {
      fired.push(`beat@${clock.now()}`);
      clock.setTimer(10_000, heartbeat, 'heartbeat', { background: true });
    };
    clock.setTimer(10_000, heartbeat, 'heartbeat', { background: true });
    clock.setTimer(25_000, () => fired.push(`work@${clock.now()}`));
    clock.runUntilIdle();
    expect(fired).toEqual(['beat@10000', 'beat@20000', 'work@25000']);
    expect(clock.now()).toBe(25_000);
    expect(clock.pending).toEqual({ deferred: 0, timers: 1, background: 1 });
    clock.runUntilIdle({ maxTimeMs: 60_000 });
    expect(clock.now()).toBe(25_000); // idle: nothing but background timers, time does not move
  });

  it('count a cancelled foreground timer as gone', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const h = clock.setTimer(1_000, () => undefined);
    clock.clearTimer(h);
    clock.setTimer(5_000, () => undefined, 'bg', { background: true });
    clock.runUntilIdle();
    expect(clock.now()).toBe(0);
  });
});
