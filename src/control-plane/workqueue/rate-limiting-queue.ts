// client-go's rate_limiting_queue.go: addRateLimited waits as long as the rate limiter says; forget ends the
// item's backoff once it has been processed successfully.
import { TraceKind } from '../../shared/protocol/trace';
import { DelayingQueue } from './delaying-queue';
import type { QueueOptions } from './queue';
import { keyString } from './queue';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters';

export interface RateLimitingQueueOptions<T> extends QueueOptions {
  /** Default: defaultControllerRateLimiter (5 ms → 1000 s per item, 10 qps / 100 burst overall). */
  rateLimiter?: RateLimiter<T>;
}

/** What the UI shows for a queue. Keys are rendered as strings. */
export interface QueueSnapshot {
  name: string;
  /** Keys waiting to be processed, in order. */
  queued: string[];
  processing: number;
  /** Keys waiting for a delay (addAfter / addRateLimited) to pass. */
  waiting: { key: string; readyAt: number }[];
  /** Keys with failed attempts not yet forgotten, and how many. */
  retries: { key: string; requeues: number }[];
}

export class RateLimitingQueue<T = string> extends DelayingQueue<T> {
  readonly rateLimiter: RateLimiter<T>;
  /** Items that have been requeued through the rate limiter and not forgotten, for retries(). */
  private readonly backingOff = new Set<T>();

  constructor(options: RateLimitingQueueOptions<T>) {
    super(options);
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(options.clock);
  }

  addRateLimited(item: T): void {
    if (this.shuttingDown()) return;
    const delayMs = this.rateLimiter.when(item);
    this.backingOff.add(item);
    this.emit(TraceKind.QueueRetry, item, { delayMs, requeues: this.rateLimiter.numRequeues(item) });
    this.addAfter(item, delayMs);
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
    this.backingOff.delete(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }

  /** Items currently backing off, with their requeue counts. */
  retries(): { item: T; requeues: number }[] {
    return [...this.backingOff].map((item) => ({ item, requeues: this.rateLimiter.numRequeues(item) }));
  }

  snapshot(): QueueSnapshot {
    return {
      name: this.name,
      queued: this.keys().map(keyString),
      processing: this.processingCount,
      waiting: this.waiting().map((w) => ({ key: keyString(w.item), readyAt: w.readyAt })),
      retries: this.retries().map((r) => ({ key: keyString(r.item), requeues: r.requeues })),
    };
  }
}
