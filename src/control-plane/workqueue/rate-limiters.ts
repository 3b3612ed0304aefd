// client-go's default_rate_limiters.go, on virtual time. All delays are milliseconds.
import type { Clock } from '../sim/clock';

export interface RateLimiter<T = string> {
  /** How long the item should wait before it is processed again; counts a failure where the limiter tracks them. */
  when(item: T): number;
  /** Stops tracking the item (it succeeded). */
  forget(item: T): void;
  /** How many times the item has been requeued through when(). */
  numRequeues(item: T): number;
}

/**
 * baseDelay × 2^failures, capped at maxDelay. With client-go's 5 ms → 1000 s: 5, 10, 20, 40 ms, … the 19th
 * failure waits 5 ms × 2^18 ≈ 1311 s, so it and all later ones wait the 1000 s cap.
 */
export class ItemExponentialFailureRateLimiter<T = string> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    readonly baseDelayMs: number,
    readonly maxDelayMs: number,
  ) {}

  when(item: T): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseDelayMs * 2 ** exp;
    return backoff > this.maxDelayMs || !Number.isFinite(backoff) ? this.maxDelayMs : backoff;
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * An overall token bucket (golang.org/x/time/rate) shared by all items: `qps` tokens per second, at most
 * `burst` saved, starting full. With 10 qps / 100 burst, 100 requeues in one instant pass at once, the 101st
 * waits 100 ms, the 102nd 200 ms, … It does not track items: numRequeues is 0 and forget does nothing.
 */
export class BucketRateLimiter<T = string> implements RateLimiter<T> {
  private tokens: number;
  private last: number | undefined;

  constructor(
    private readonly clock: Clock,
    readonly qps: number,
    readonly burst: number,
  ) {
    this.tokens = burst;
  }

  when(_item: T): number {
    const now = this.clock.now();
    // advance(): tokens accrue since the last reservation, up to burst.
    const last = this.last === undefined || now < this.last ? now : this.last;
    const tokens = Math.min(this.burst, this.tokens + ((now - last) / 1000) * this.qps) - 1;
    this.last = now;
    this.tokens = tokens;
    return tokens < 0 ? (-tokens / this.qps) * 1000 : 0;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest delay of several limiters; numRequeues is the largest count. */
export class MaxOfRateLimiter<T = string> implements RateLimiter<T> {
  readonly limiters: readonly RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/** workqueue.DefaultControllerRateLimiter: per-item 5 ms → 1000 s exponential, overall 10 qps with burst 100. */
export function defaultControllerRateLimiter<T = string>(clock: Clock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(5, 1000 * 1000),
    new BucketRateLimiter<T>(clock, 10, 100),
  );
}
