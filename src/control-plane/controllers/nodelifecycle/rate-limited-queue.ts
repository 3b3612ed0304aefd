// pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go on virtual time: a unique queue of node names
// ordered by the time each should be processed, drained by try() through a token-bucket rate limiter
// (flowcontrol.NewTokenBucketRateLimiter(qps, burst 1)). The node lifecycle controller has one per zone and
// swaps its limiter as the zone's health changes (0 qps: nothing is processed at all).
import type { Clock } from '../../sim/clock';

/** NodeEvictionPeriod: how often the controller tries to drain the queues. */
export const nodeEvictionPeriodMs = 100;
/** EvictionRateLimiterBurst. */
export const evictionRateLimiterBurst = 1;

export interface RateLimiter {
  readonly qps: number;
  /** Takes a token if one is available now. */
  tryAccept(): boolean;
  /** When the next token will be available (now if one is); Infinity for a limiter that never accepts. */
  nextTokenAt(): number;
}

/** golang.org/x/time/rate with the bucket full at the start, as flowcontrol's token bucket is. */
export class TokenBucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
      this.last = now;
    }
  }

  tryAccept(): boolean {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  nextTokenAt(): number {
    this.refill();
    if (this.tokens >= 1) return this.clock.now();
    return this.clock.now() + Math.ceil(((1 - this.tokens) * 1000) / this.qps);
  }
}

/** flowcontrol.NewFakeNeverRateLimiter: what a 0 qps limiter is. */
export class NeverRateLimiter implements RateLimiter {
  readonly qps = 0;
  tryAccept(): boolean {
    return false;
  }
  nextTokenAt(): number {
    return Infinity;
  }
}

export interface TimedValue {
  value: string;
  /** The node's uid when it was queued. */
  uid: string;
  addedAt: number;
  processAt: number;
}

/** What the action returns: done (removed from the queue), or retry after waitMs. */
export type ActionResult = { ok: true } | { ok: false; waitMs: number };

export class RateLimitedTimedQueue {
  /** Ordered by processAt; ties keep insertion order (the heap in Go makes no promise, this is one order). */
  private queue: TimedValue[] = [];
  /** Values added and not explicitly removed, including those already processed (UniqueQueue.set). */
  private readonly set = new Set<string>();
  private limiterImpl: RateLimiter;

  constructor(
    limiter: RateLimiter,
    private readonly clock: Clock,
  ) {
    this.limiterImpl = limiter;
  }

  get limiter(): RateLimiter {
    return this.limiterImpl;
  }

  /** Adds the value to be processed now unless it was added before and not removed. True when added. */
  add(value: string, uid: string): boolean {
    if (this.set.has(value)) return false;
    const now = this.clock.now();
    this.insert({ value, uid, addedAt: now, processAt: now });
    this.set.add(value);
    return true;
  }

  /** Forgets the value, so it is not processed and may be added again. */
  remove(value: string): boolean {
    if (!this.set.has(value)) return false;
    this.set.delete(value);
    this.queue = this.queue.filter((v) => v.value !== value);
    return true;
  }

  clear(): void {
    this.queue = [];
    this.set.clear();
  }

  /** The values waiting to be processed, soonest first. */
  items(): readonly TimedValue[] {
    return this.queue;
  }

  get length(): number {
    return this.queue.length;
  }

  /**
   * Processes due values while the limiter gives tokens: a value whose action succeeds leaves the queue but
   * stays known (it is not processed again until removed); a failed one is retried after its wait.
   */
  try(fn: (value: TimedValue) => ActionResult): void {
    let head = this.queue[0];
    while (head) {
      // Rate limit the queue checking.
      if (!this.limiterImpl.tryAccept()) break;
      const now = this.clock.now();
      if (now < head.processAt) break;
      const result = fn(head);
      const index = this.queue.indexOf(head);
      if (index >= 0) {
        this.queue.splice(index, 1);
        if (!result.ok) this.insert({ ...head, processAt: now + result.waitMs + 1 });
      }
      head = this.queue[0];
    }
  }

  /**
   * SwapLimiter: a new limiter when the qps changes. If the old one is out of tokens, the new one starts out of
   * tokens too (with burst 1 that keeps the pace across the swap).
   */
  swapLimiter(qps: number): void {
    if (this.limiterImpl.qps === qps) return;
    if (qps <= 0) {
      this.limiterImpl = new NeverRateLimiter();
      return;
    }
    const next = new TokenBucketRateLimiter(qps, evictionRateLimiterBurst, this.clock);
    if (!this.limiterImpl.tryAccept()) next.tryAccept();
    this.limiterImpl = next;
  }

  /** When try() could next process something: Infinity when empty or the limiter never accepts. */
  nextAttemptAt(): number {
    const head = this.queue[0];
    if (!head) return Infinity;
    return Math.max(head.processAt, this.limiterImpl.nextTokenAt());
  }

  private insert(v: TimedValue): void {
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1].processAt > v.processAt) i--;
    this.queue.splice(i, 0, v);
  }
}
