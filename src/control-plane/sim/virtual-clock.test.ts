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
});

describe('advance settles deferred work after every timer', () => {
  it('runs what a timer defers before the next timer fires', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const order: string[] = [];
    clock.setTimer(10, () => clock.defer(() => order.push(`deferred@${clock.now()}`)));
    clock.setTimer(20, () => order.push(`timer@${clock.now()}`));
    clock.advance(30);
    expect(order).toEqual(['deferred@10', 'timer@20']);
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
