// Drives the virtual clock from real time, for the worker: running at a speed (×0.25 … ×50), paused, or stepped
// one timer at a time. It touches no globals: the host (the worker) supplies real time and real timers.
//
// Each tick advances virtual time by realElapsed × speed and fires every timer due on the way. realElapsed is
// capped at maxTickRealMs (1 s) per tick: when the host was suspended (a sleeping laptop, a throttled tab) the
// cluster resumes where it was instead of jumping minutes ahead and firing every lease timeout at once. While
// running the driver never sleeps longer than maxSleepRealMs, so ordinary ticks stay under the cap and idle
// virtual time keeps flowing with real time.
import type { VirtualClock } from './virtual-clock';

export interface RealtimeHost {
  /** Real time, ms (performance.now in the worker). */
  now(): number;
  /** Calls fn after ms of real time (setTimeout in the worker); returns a cancel function. */
  schedule(fn: () => void, ms: number): () => void;
}

export const SimMode = { Running: 'running', Paused: 'paused' } as const;
export type SimMode = (typeof SimMode)[keyof typeof SimMode];

export const MinSpeed = 0.25;
export const MaxSpeed = 50;

export interface SimState {
  mode: SimMode;
  speed: number;
  /** Virtual time, ms since the epoch. */
  time: number;
  /** Due time of the next timer, if any. */
  nextTimerAt: number | undefined;
  pending: { deferred: number; timers: number };
  /** The last error a timer or deferred task threw, as a message (the driver keeps running). */
  lastError?: string;
}

export interface RealtimeDriverOptions {
  clock: VirtualClock;
  host: RealtimeHost;
  /** Default 1. Clamped to [MinSpeed, MaxSpeed]. */
  speed?: number;
  /** Real time counted per tick at most, ms. Default 1000. */
  maxTickRealMs?: number;
  /** Longest real sleep between ticks while running, ms. Default 250. */
  maxSleepRealMs?: number;
  /** Called after every tick and every step, e.g. for the worker to flush watch batches to the UI. */
  onTick?: (state: SimState) => void;
  /** Called when a timer or deferred task throws. */
  onError?: (err: unknown) => void;
}

export class RealtimeDriver {
  private readonly clock: VirtualClock;
  private readonly host: RealtimeHost;
  private readonly maxTickRealMs: number;
  private readonly maxSleepRealMs: number;
  private readonly onTick?: (state: SimState) => void;
  private readonly onError?: (err: unknown) => void;
  private mode: SimMode = SimMode.Paused;
  private speed: number;
  private lastReal = 0;
  /** Fractional virtual milliseconds not yet applied, so time moves in whole ms without drifting. */
  private carry = 0;
  private cancelTick: (() => void) | undefined;
  private lastError: string | undefined;

  constructor(options: RealtimeDriverOptions) {
    this.clock = options.clock;
    this.host = options.host;
    this.speed = clampSpeed(options.speed ?? 1);
    this.maxTickRealMs = options.maxTickRealMs ?? 1000;
    this.maxSleepRealMs = options.maxSleepRealMs ?? 250;
    this.onTick = options.onTick;
    this.onError = options.onError;
  }

  /** Starts running (the driver is created paused). */
  resume(): SimState {
    if (this.mode !== SimMode.Running) {
      this.mode = SimMode.Running;
      this.lastReal = this.host.now();
      this.carry = 0;
      this.scheduleTick(0);
    }
    return this.state();
  }

  /** Stops time, after counting the real time elapsed since the last tick. */
  pause(): SimState {
    if (this.mode === SimMode.Running) {
      this.advanceFromRealTime();
      this.mode = SimMode.Paused;
      this.cancel();
    }
    return this.state();
  }

  /** Changes the speed from now on: time elapsed so far is counted at the old speed. */
  setSpeed(speed: number): SimState {
    const next = clampSpeed(speed);
    if (this.mode === SimMode.Running) {
      this.advanceFromRealTime();
      this.speed = next;
      this.scheduleNext();
    } else {
      this.speed = next;
    }
    return this.state();
  }

  /** Pauses, then fires the next timer (jumping virtual time to it) and settles the work it caused. */
  step(): SimState {
    this.pause();
    this.guard(() => this.clock.step());
    const s = this.state();
    this.onTick?.(s);
    return s;
  }

  /**
   * Something outside a timer scheduled work (a UI request wrote an object, deferring watch deliveries): tick
   * now instead of at the next planned wake-up. Does nothing while paused — time and work wait for resume/step.
   */
  wake(): void {
    if (this.mode === SimMode.Running) this.scheduleTick(0);
  }

  /** Stops ticking for good (the worker is closing the cluster). */
  dispose(): void {
    this.mode = SimMode.Paused;
    this.cancel();
  }

  state(): SimState {
    const s: SimState = {
      mode: this.mode,
      speed: this.speed,
      time: this.clock.now(),
      nextTimerAt: this.clock.nextTimerAt(),
      pending: this.clock.pending,
    };
    if (this.lastError !== undefined) s.lastError = this.lastError;
    return s;
  }

  private tick(): void {
    this.cancelTick = undefined;
    if (this.mode !== SimMode.Running) return;
    this.advanceFromRealTime();
    this.onTick?.(this.state());
    if (this.mode === SimMode.Running && !this.cancelTick) this.scheduleNext();
  }

  private advanceFromRealTime(): void {
    const realNow = this.host.now();
    const elapsed = Math.min(Math.max(0, realNow - this.lastReal), this.maxTickRealMs);
    this.lastReal = realNow;
    this.carry += elapsed * this.speed;
    const whole = Math.floor(this.carry);
    this.carry -= whole;
    const target = this.clock.now() + whole;
    this.guard(() => this.clock.advanceTo(target));
  }

  /** Sleeps until the next timer is due at the current speed, but at most maxSleepRealMs. */
  private scheduleNext(): void {
    const { deferred } = this.clock.pending;
    if (deferred > 0) {
      this.scheduleTick(0);
      return;
    }
    const next = this.clock.nextTimerAt();
    const untilNext = next === undefined ? Infinity : (next - this.clock.now() - this.carry) / this.speed;
    // A timer less than a real millisecond away (a fraction of a virtual ms left at high speed) waits a whole
    // one: sleeping a few nanoseconds would wake with no real time elapsed, advance nothing and spin.
    const sleep = untilNext <= 0 ? 0 : Math.max(1, untilNext);
    this.scheduleTick(Math.min(this.maxSleepRealMs, sleep));
  }

  private scheduleTick(realMs: number): void {
    this.cancel();
    this.cancelTick = this.host.schedule(() => this.tick(), realMs);
  }

  private cancel(): void {
    const c = this.cancelTick;
    this.cancelTick = undefined;
    c?.();
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.lastError = err instanceof Error ? err.message : String(err);
      this.onError?.(err);
    }
  }
}

function clampSpeed(speed: number): number {
  if (!Number.isFinite(speed)) return 1;
  return Math.min(MaxSpeed, Math.max(MinSpeed, speed));
}
