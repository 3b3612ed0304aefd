// The loop every controller runs, as in kube-controller-manager: informer handlers only enqueue keys; a worker
// takes one key at a time and calls sync(key), the single reconcile entry point; handleErr decides what happens
// after a failure (client-go's processNextWorkItem / handleErr pattern):
//
//   key = queue.get(); try { sync(key); queue.forget(key) }               // success ends the backoff
//   catch { numRequeues(key) < maxRetries ? queue.addRateLimited(key)     // 5 ms, 10 ms, 20 ms, …
//                                         : (queue.forget(key), drop) }   // give up until the next event
//   finally { queue.done(key) }
//
// Each reconcile is traced: reconcile.start (caused by the queue.get, itself caused by the queue.add and so
// by the watch delivery) and reconcile.end with the outcome and the writes it made; every API request made
// during sync names reconcile.start as its cause.
import { TraceKind, nullTraceSink, type TraceSink } from '../../../shared/protocol/trace';
import type { Client, RequestRecord } from '../../client/client';
import type { Clock, TimerHandle } from '../../sim/clock';
import { wantsEvent, withCause } from '../../trace/trace-bus';
import type { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';

/**
 * The identity controllers act as. kube-controller-manager runs each controller as its own service account
 * (system:serviceaccount:kube-system:<name>) bound to a system:controller:<name> ClusterRole; the bootstrap policy
 * has no such roles yet, so for now controllers act as one user in system:masters.
 */
export const controllerManagerUser = { username: 'system:kube-controller-manager', groups: ['system:masters'] };

export interface ControllerOptions {
  /** "serviceaccount-controller", "deployment-controller", …: the component name in traces. */
  name: string;
  queue: RateLimitingQueue<string>;
  clock: Clock;
  /** Reconciles one key; throws to be retried with backoff. */
  sync(key: string): void;
  /** Retries before a key is dropped. Default 15 (client-go's usual maxRetries); Infinity retries forever. */
  maxRetries?: number;
  /** Informers' hasSynced: workers start once all are true (WaitForCacheSync, polled every 100 ms). */
  cacheSyncs?: (() => boolean)[];
  trace?: TraceSink;
  /** When given, reconcile.end lists the writes sync made through this client. */
  client?: Client;
}

export const ReconcileOutcome = {
  Success: 'success',
  /** Failed; requeued with rate-limited backoff. */
  Requeued: 'requeued',
  /** Failed maxRetries times; dropped until a new event adds the key again. */
  Dropped: 'dropped',
} as const;
export type ReconcileOutcome = (typeof ReconcileOutcome)[keyof typeof ReconcileOutcome];

export class BaseController {
  readonly name: string;
  readonly queue: RateLimitingQueue<string>;
  private readonly clock: Clock;
  private readonly syncFn: (key: string) => void;
  private readonly maxRetries: number;
  private readonly cacheSyncs: (() => boolean)[];
  private readonly trace: TraceSink;
  private readonly client?: Client;
  private running = false;
  private syncPoll: TimerHandle | undefined;
  /** The last error per key that failed, for the UI; cleared on success. */
  readonly lastErrors = new Map<string, string>();

  constructor(options: ControllerOptions) {
    this.name = options.name;
    this.queue = options.queue;
    this.clock = options.clock;
    this.syncFn = options.sync;
    this.maxRetries = options.maxRetries ?? 15;
    this.cacheSyncs = options.cacheSyncs ?? [];
    this.trace = options.trace ?? nullTraceSink;
    this.client = options.client;
  }

  /** Starts the worker once the caches have synced. */
  run(): void {
    if (this.running) return;
    this.running = true;
    this.startWhenSynced();
  }

  /** Stops taking new keys (client-go's ShutDown: queued keys still drain). */
  shutDown(): void {
    this.running = false;
    this.clock.clearTimer(this.syncPoll);
    this.queue.shutDown();
  }

  private startWhenSynced(): void {
    this.syncPoll = undefined;
    if (!this.running) return;
    if (this.cacheSyncs.every((synced) => synced())) {
      this.queue.run(() => this.processNextWorkItem());
      return;
    }
    this.syncPoll = this.clock.setTimer(100, () => this.startWhenSynced(), `${this.name} waitForCacheSync`);
  }

  /** Takes one key and reconciles it; false once the queue has shut down. */
  processNextWorkItem(): boolean {
    const got = this.queue.get();
    if (got.shutdown) return false;
    if (got.item === undefined) return true;
    const key = got.item;
    const startSeq = this.trace.emit({
      kind: TraceKind.ReconcileStart,
      component: this.name,
      cause: got.seq || undefined,
      data: { controller: this.name, queue: this.queue.name, key },
    });
    let error: unknown;
    // The reconcile's end lists what it wrote: recorded only when someone will see the end (see TraceBus.wants).
    const traced = wantsEvent(this.trace, TraceKind.ReconcileEnd);
    const writes: RequestRecord[] = [];
    try {
      withCause(this.trace, startSeq || undefined, () => {
        if (this.client && traced) this.client.record(writes, () => this.syncFn(key));
        else this.syncFn(key);
      });
    } catch (err) {
      error = err;
    } finally {
      this.queue.done(key);
    }
    const outcome = this.handleErr(error, key);
    if (!traced) return true;
    const data: Record<string, unknown> = { controller: this.name, queue: this.queue.name, key, outcome };
    if (writes.length > 0) data.writes = writes;
    if (error !== undefined) data.error = errorMessage(error);
    if (outcome !== ReconcileOutcome.Success) data.requeues = this.queue.numRequeues(key);
    this.trace.emit({ kind: TraceKind.ReconcileEnd, component: this.name, cause: startSeq || undefined, data });
    return true;
  }

  private handleErr(err: unknown, key: string): ReconcileOutcome {
    if (err === undefined) {
      this.queue.forget(key);
      this.lastErrors.delete(key);
      return ReconcileOutcome.Success;
    }
    this.lastErrors.set(key, errorMessage(err));
    if (this.queue.numRequeues(key) < this.maxRetries) {
      this.queue.addRateLimited(key);
      return ReconcileOutcome.Requeued;
    }
    this.queue.forget(key);
    return ReconcileOutcome.Dropped;
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
