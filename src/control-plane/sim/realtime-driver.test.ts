import { describe, expect, it } from 'vitest';
import { RealtimeDriver, SimMode, type RealtimeHost } from './realtime-driver';
import { VirtualClock } from './virtual-clock';

/** A host whose real time only moves when the test says so. */
class FakeHost implements RealtimeHost {
  real = 0;
  private nextId = 0;
  private readonly tasks = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.real;
  }
  schedule(fn: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.tasks.set(id, { at: this.real + ms, fn });
    return () => this.tasks.delete(id);
  }
  get scheduled(): number {
    return this.tasks.size;
  }
  /** Delay of the only scheduled task, from now. */
  nextDelay(): number | undefined {
    const [t] = [...this.tasks.values()].sort((a, b) => a.at - b.at);
    return t === undefined ? undefined : t.at - this.real;
  }
  /** Moves real time forward, running host tasks as they come due. */
  run(ms: number): void {
    const end = this.real + ms;
    for (;;) {
      const [entry] = [...this.tasks.entries()].sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
      if (!entry || entry[1].at > end) break;
      this.tasks.delete(entry[0]);
      this.real = Math.max(this.real, entry[1].at);
      entry[1].fn();
    }
    this.real = end;
  }
  /** Jumps real time without running anything (the host was suspended). */
  suspend(ms: number): void {
    this.real += ms;
  }
}

function setup(speed = 1) {
  const clock = new VirtualClock({ startTime: 0 });
  const host = new FakeHost();
  const ticks: number[] = [];
  const driver = new RealtimeDriver({ clock, host, speed, onTick: (s) => ticks.push(s.time) });
  return { clock, host, driver, ticks };
}

describe('RealtimeDriver', () => {
  it('starts paused and does not move time until resumed', () => {
    const { clock, host, driver } = setup();
    expect(driver.state().mode).toBe(SimMode.Paused);
    host.run(5000);
    expect(clock.now()).toBe(0);
    expect(host.scheduled).toBe(0);
  });

  it('advances virtual time by real elapsed × speed and fires timers on the way', () => {
    const { clock, host, driver } = setup(2);
    const fired: number[] = [];
    clock.setTimer(3000, () => fired.push(clock.now()));
    driver.resume();
    host.run(1000);
    expect(clock.now()).toBe(2000);
    expect(fired).toEqual([]);
    host.run(500);
    expect(fired).toEqual([3000]);
    expect(clock.now()).toBe(3000);
    host.run(10_000);
    expect(clock.now()).toBe(23_000);
  });

  it('sleeps until the next timer is due, but no longer than the idle cap', () => {
    const { clock, host, driver } = setup(4);
    clock.setTimer(400, () => {});
    driver.resume();
    host.run(0); // first tick
    expect(host.nextDelay()).toBe(100); // 400 virtual ms at ×4
    host.run(100);
    expect(clock.now()).toBe(400);
    expect(host.nextDelay()).toBe(250); // idle: the maximum sleep
  });

  it('sleeps at least a real millisecond for a timer a fraction of one away, instead of spinning at high speed', () => {
    const { clock, host, driver } = setup(50);
    const fired: number[] = [];
    clock.setTimer(1, () => fired.push(clock.now()));
    driver.resume();
    host.run(0); // first tick: no real time elapsed yet
    expect(host.nextDelay()).toBe(1); // not 1/50 ms: that would wake with nothing to advance
    host.run(1);
    expect(fired).toEqual([1]);
    expect(clock.now()).toBe(50);
  });

  it('clamps speed to ×0.25…×50 and counts time before a speed change at the old speed', () => {
    const { clock, host, driver } = setup(1);
    expect(driver.setSpeed(1000).speed).toBe(50);
    expect(driver.setSpeed(0.01).speed).toBe(0.25);
    driver.setSpeed(1);
    driver.resume();
    host.run(200);
    host.suspend(100); // 100 ms since the last tick, not yet counted
    driver.setSpeed(10);
    expect(clock.now()).toBe(300);
    host.run(250); // the next idle tick
    expect(clock.now()).toBe(2800);
  });

  it('keeps fractional virtual time without drift at slow speeds', () => {
    const { clock, host, driver } = setup(0.25);
    driver.resume();
    for (let i = 0; i < 40; i++) host.run(10);
    driver.pause(); // counts the real time since the last tick
    expect(clock.now()).toBe(100);
  });

  it('caps the real time counted per tick so a suspended host does not jump ahead', () => {
    const { clock, host, driver } = setup(1);
    const fired: string[] = [];
    clock.setTimer(60_000, () => fired.push('lease expired'));
    driver.resume();
    host.run(100);
    host.suspend(10 * 60_000); // laptop asleep for 10 minutes
    host.run(0);
    host.run(250);
    expect(clock.now()).toBeLessThan(2000);
    expect(fired).toEqual([]);
  });

  it('pauses: counts elapsed time, cancels its tick, and resumes from the present', () => {
    const { clock, host, driver } = setup(1);
    driver.resume();
    host.run(300);
    host.suspend(50);
    expect(driver.pause().mode).toBe(SimMode.Paused);
    expect(clock.now()).toBe(350);
    expect(host.scheduled).toBe(0);
    host.run(10_000);
    expect(clock.now()).toBe(350);
    driver.resume();
    host.run(100);
    driver.pause();
    expect(clock.now()).toBe(450);
  });

  it('steps one timer at a time, pausing first', () => {
    const { clock, driver, ticks } = setup(1);
    const fired: string[] = [];
    clock.setTimer(1000, () => fired.push('a'));
    clock.setTimer(5000, () => fired.push('b'));
    driver.resume();
    const s = driver.step();
    expect(s.mode).toBe(SimMode.Paused);
    expect(fired).toEqual(['a']);
    expect(clock.now()).toBe(1000);
    expect(s.nextTimerAt).toBe(5000);
    driver.step();
    expect(fired).toEqual(['a', 'b']);
    expect(driver.step().time).toBe(5000); // nothing left: time stays
    expect(ticks.slice(-3)).toEqual([1000, 5000, 5000]);
  });

  it('wake() runs deferred work at once while running, and waits while paused', () => {
    const { clock, host, driver } = setup(1);
    const ran: string[] = [];
    driver.resume();
    host.run(0);
    clock.defer(() => ran.push('deferred'));
    driver.wake();
    expect(host.nextDelay()).toBe(0);
    host.run(0);
    expect(ran).toEqual(['deferred']);
    driver.pause();
    clock.defer(() => ran.push('while paused'));
    driver.wake();
    host.run(1000);
    expect(ran).toEqual(['deferred']);
  });

  it('keeps running after a timer throws and reports the error', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const host = new FakeHost();
    const errors: unknown[] = [];
    const driver = new RealtimeDriver({ clock, host, onError: (e) => errors.push(e) });
    const fired: string[] = [];
    clock.setTimer(100, () => {
      throw new Error('bad timer');
    });
    clock.setTimer(200, () => fired.push('later'));
    driver.resume();
    host.run(500);
    driver.pause();
    expect(errors).toHaveLength(1);
    expect(driver.state().lastError).toBe('bad timer');
    expect(fired).toEqual(['later']);
    expect(clock.now()).toBe(500);
  });

  it('dispose stops ticking', () => {
    const { clock, host, driver } = setup(1);
    driver.resume();
    host.run(250);
    expect(clock.now()).toBe(250);
    driver.dispose();
    host.run(1000);
    expect(clock.now()).toBe(250);
    expect(host.scheduled).toBe(0);
  });
});
