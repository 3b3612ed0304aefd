// The virtual clock every component reads time from and schedules work on. No component reads the wall clock,
// sets real timers or draws real randomness: time only moves when the clock is advanced.

export interface TimerHandle {
  readonly id: number;
}

export interface TimerOptions {
  background?: boolean;
}

export interface Clock {
  /** Current simulated time, milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Runs fn once the simulated time reaches now()+delayMs. Timers due at the same time run in the order set.
   * A background timer (a heartbeat, a monitor loop, a resync) fires like any other but does not by itself keep
   * the cluster busy: runUntilIdle() stops once only background timers are left.
   */
  setTimer(delayMs: number, fn: () => void, label?: string, options?: TimerOptions): TimerHandle;
  clearTimer(handle: TimerHandle | undefined): void;
  /**
   * Runs fn as soon as possible without advancing time, after everything deferred before it (FIFO).
   * Watch delivery and work-queue processing go through here so no handler runs inside another's write.
   */
  defer(fn: () => void, label?: string): void;
}

// Every write stamps a time, and virtual time stands still while a burst of writes settles: the last second's
// text is kept, so formatting costs one Date only when the second changes.
let lastSecond = NaN;
let lastSecondText = '';

/** RFC 3339 with second precision, as metav1.Time serialises: "2026-11-22T14:33:28Z". */
export function rfc3339(ms: number): string {
  const second = Math.floor(Math.trunc(ms) / 1000); // Date truncates fractional ms
  if (second !== lastSecond) {
    lastSecondText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastSecondText;
}

let lastMicroMs = NaN;
let lastMicroText = '';

/** metav1.MicroTime, as Lease renewTime and Event eventTime use: "2026-11-22T14:33:28.123000Z". */
export function rfc3339Micro(ms: number): string {
  if (ms !== lastMicroMs) {
    lastMicroText = new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    lastMicroMs = ms;
  }
  return lastMicroText;
}
