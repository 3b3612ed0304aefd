// The simulation's clock: a timer queue ordered by (due time, insertion order) plus a FIFO of deferred tasks.
// Tests drive it with advance()/runUntilIdle(); the real-time driver (realtime-driver.ts) drives it in the worker.
//
// advance/runUntilIdle/runUntil fire every timer due at one virtual instant, then settle deferred work: what
// happens at the same time (500 kubelets finishing a step in the same millisecond) reaches the informers as one
// burst, so a controller's work queue merges the adds of one key and syncs it once, as a busy controller does in
// a real cluster, instead of once per event. step() still fires a single timer.
import type { Clock, TimerHandle, TimerOptions } from './clock';

interface Timer {
  id: number;
  due: number;
  seq: number;
  fn: () => void;
  label?: string;
  background: boolean;
  cancelled: boolean;
}

/** A binary min-heap on (due, seq): O(log n) per timer even with 100k pending. */
class TimerHeap {
  private items: Timer[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Timer | undefined {
    return this.items[0];
  }
  push(t: Timer): void {
    const a = this.items;
    a.push(t);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  pop(): Timer | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l], a[m])) m = l;
        if (r < a.length && before(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

function before(x: Timer, y: Timer): boolean {
  return x.due < y.due || (x.due === y.due && x.seq < y.seq);
}

export interface VirtualClockOptions {
  /** Start time, ms since the epoch. */
  startTime?: number;
}

/** Thrown when runUntilIdle hits its step limit: something keeps scheduling work forever. */
export class ClockRunawayError extends Error {}

export class VirtualClock implements Clock {
  private time: number;
  private seq = 0;
  private nextId = 1;
  private readonly timers = new TimerHeap();
  private readonly live = new Map<number, Timer>();
  /** Live timers that are not background: while any is pending the cluster is not idle. */
  private foreground = 0;
  /** The FIFO of deferred tasks; labels are not kept (nothing reads them), so a defer allocates nothing. */
  private deferred: (() => void)[] = [];
  private deferredHead = 0;

  constructor(options: VirtualClockOptions = {}) {
    this.time = options.startTime ?? Date.UTC(2026, 0, 1);
  }

  now(): number {
    return this.time;
  }

  setTimer(delayMs: number, fn: () => void, label?: string, options?: TimerOptions): TimerHandle {
    const background = options?.background === true;
    const t: Timer = { id: this.nextId++, due: this.time + Math.max(0, delayMs), seq: this.seq++, fn, label, background, cancelled: false };
    this.timers.push(t);
    this.live.set(t.id, t);
    if (!background) this.foreground++;
    return { id: t.id };
  }

  clearTimer(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const t = this.live.get(handle.id);
    if (t) {
      t.cancelled = true;
      this.live.delete(handle.id);
      if (!t.background) this.foreground--;
    }
  }

  defer(fn: () => void, _label?: string): void {
    this.deferred.push(fn);
  }

  /** Pending deferred tasks plus live timers (and how many of those are background). */
  get pending(): { deferred: number; timers: number; background: number } {
    return { deferred: this.deferred.length - this.deferredHead, timers: this.live.size, background: this.live.size - this.foreground };
  }

  /** Due time of the earliest live timer, or undefined. */
  nextTimerAt(): number | undefined {
    this.dropCancelled();
    return this.timers.peek()?.due;
  }

  /** Runs every deferred task, including ones they defer, without moving time. Returns how many ran. */
  runDeferred(maxSteps = 10_000_000): number {
    let ran = 0;
    while (this.deferredHead < this.deferred.length) {
      if (ran >= maxSteps) throw new ClockRunawayError(`more than ${maxSteps} deferred tasks without settling`);
      const task = this.deferred[this.deferredHead++];
      ran++;
      task();
      if (this.deferredHead > 4096 && this.deferredHead * 2 > this.deferred.length) {
        this.deferred = this.deferred.slice(this.deferredHead);
        this.deferredHead = 0;
      }
    }
    this.deferred.length = 0;
    this.deferredHead = 0;
    return ran;
  }

  /**
   * Moves time forward by ms, firing every timer due on the way in order, running deferred work after each
   * instant's timers. Time ends exactly at now+ms.
   */
  advance(ms: number): void {
    this.advanceTo(this.time + Math.max(0, ms));
  }

  advanceTo(target: number): void {
    this.runDeferred();
    for (;;) {
      const next = this.nextTimerAt();
      if (next === undefined || next > target) break;
      this.fireInstant();
      this.runDeferred();
    }
    if (target > this.time) this.time = target;
    this.runDeferred();
  }

  /** Fires the earliest timer (jumping time to it) and settles deferred work. False when no timer is pending. */
  step(): boolean {
    this.runDeferred();
    if (this.nextTimerAt() === undefined) return false;
    this.fireNext();
    this.runDeferred();
    return true;
  }

  /**
   * Runs deferred work and fires timers, jumping time from timer to timer, until no deferred work and no
   * foreground timer is pending (background timers due before then fire too), or the time limit is reached.
   */
  runUntilIdle(options: { maxTimeMs?: number; maxSteps?: number } = {}): void {
    const deadline = options.maxTimeMs === undefined ? Infinity : this.time + options.maxTimeMs;
    const maxSteps = options.maxSteps ?? 1_000_000;
    let steps = 0;
    this.runDeferred();
    for (;;) {
      if (this.foreground === 0) return;
      const next = this.nextTimerAt();
      if (next === undefined || next > deadline) break;
      if (++steps > maxSteps) throw new ClockRunawayError(`more than ${maxSteps} timers without becoming idle`);
      this.fireInstant();
      this.runDeferred();
    }
    // Still busy at the limit: time stops exactly there.
    if (deadline !== Infinity && deadline > this.time) this.time = deadline;
  }

  /** Runs until predicate() holds (checked after every step) or the time limit passes; returns whether it held. */
  runUntil(predicate: () => boolean, maxTimeMs = 10 * 60_000): boolean {
    const deadline = this.time + maxTimeMs;
    this.runDeferred();
    while (!predicate()) {
      const next = this.nextTimerAt();
      if (next === undefined || next > deadline) {
        if (deadline > this.time) this.time = deadline;
        return predicate();
      }
      this.fireInstant();
      this.runDeferred();
    }
    return true;
  }

  /** Fires the earliest timer and every other timer due at that same instant (including ones they set for now). */
  private fireInstant(maxTimers = 1_000_000): void {
    this.fireNext();
    for (let fired = 1; ; fired++) {
      this.dropCancelled();
      const t = this.timers.peek();
      if (!t || t.due > this.time) return;
      // A timer that re-arms itself for now would never let time move on.
      if (fired >= maxTimers) throw new ClockRunawayError(`more than ${maxTimers} timers at one instant`);
      this.fireNext();
    }
  }

  private dropCancelled(): void {
    for (let t = this.timers.peek(); t && t.cancelled; t = this.timers.peek()) this.timers.pop();
  }

  private fireNext(): void {
    this.dropCancelled();
    const t = this.timers.pop();
    if (!t) return;
    this.live.delete(t.id);
    if (!t.background) this.foreground--;
    if (t.due > this.time) this.time = t.due;
    t.fn();
  }
}
