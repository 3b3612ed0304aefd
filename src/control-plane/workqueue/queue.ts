// The work queue of client-go's util/workqueue (queue.go), single-threaded and driven by the virtual clock.
//
// Invariants, as in client-go:
//   - an item is in `dirty` from add() until get() hands it out; adding a dirty item again is a no-op, so a key
//     added twice before get is processed once;
//   - an item is in `processing` from get() until done(); adding it meanwhile only marks it dirty, and done()
//     puts it back on the queue, so one key is never processed twice at once yet no change is lost;
//   - after shutDown() adds are ignored, but what is queued still drains; get() reports shutdown once empty.
//
// client-go's Get blocks; here nothing may block, so a controller registers its processNextWorkItem with
// run(), and the queue schedules it through clock.defer() whenever an item is available: one item per deferred
// task, so queues of different controllers interleave fairly with watch deliveries, FIFO.
import type { Clock } from '../sim/clock';
import { TraceKind, nullTraceSink, type TraceEvent, type TraceSink } from '../../shared/protocol/trace';
import { wantsEvent } from '../trace/trace-bus';

export interface QueueOptions {
  /** Names the queue in traces and the UI: "deployment", "serviceaccount", … */
  name: string;
  clock: Clock;
  trace?: TraceSink;
}

export type GetResult<T> =
  | { item: T; shutdown: false; /** seq of the queue.get trace event, for the reconcile that follows. */ seq: number }
  | { item: undefined; shutdown: boolean; seq?: undefined };

/** Returns whether to keep going: false once the queue has shut down (client-go's processNextWorkItem). */
export type QueueWorker = () => boolean;

/** Items are usually "namespace/name" keys; anything else is shown in traces through keyString(). */
export function keyString(item: unknown): string {
  if (typeof item === 'string') return item;
  if (typeof item === 'number' || typeof item === 'boolean' || item === undefined || item === null) return String(item);
  try {
    return JSON.stringify(item);
  } catch {
    return String(item);
  }
}

/** The extra trace fields of the common queue operations, shared rather than built per operation (only read). */
const noExtra: Readonly<Record<string, unknown>> = Object.freeze({});
const dedupedExtra: Readonly<Record<string, unknown>> = Object.freeze({ deduped: true });
const whileProcessingExtra: Readonly<Record<string, unknown>> = Object.freeze({ whileProcessing: true });
const requeuedExtra: Readonly<Record<string, unknown>> = Object.freeze({ requeued: true });

export class WorkQueue<T = string> {
  readonly name: string;
  protected readonly clock: Clock;
  protected readonly trace: TraceSink;
  private items: T[] = [];
  private itemsHead = 0;
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  /** seq of the queue.add event that made each dirty item dirty: the cause of its queue.get. */
  private readonly addSeq = new Map<T, number>();
  private shuttingDownFlag = false;
  private worker: QueueWorker | undefined;
  private drainScheduled = false;
  private readonly traceComponent: string;
  /** drainOne, bound once: scheduled on every wake-up of the queue. */
  private readonly drainTask = (): void => this.drainOne();

  constructor(options: QueueOptions) {
    this.name = options.name;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.traceComponent = `workqueue/${this.name}`;
  }

  add(item: T): void {
    if (this.shuttingDownFlag) return;
    if (this.dirty.has(item)) {
      // Already waiting to be processed: merged into the pending entry.
      this.emit(TraceKind.QueueAdd, item, dedupedExtra);
      return;
    }
    this.dirty.add(item);
    const inProcessing = this.processing.has(item);
    if (!inProcessing) this.items.push(item);
    const seq = this.emit(TraceKind.QueueAdd, item, inProcessing ? whileProcessingExtra : noExtra);
    this.addSeq.set(item, seq);
    this.scheduleDrain();
  }

  /** Number of items waiting to be handed out (not counting those being processed). */
  len(): number {
    return this.items.length - this.itemsHead;
  }

  /** The waiting items in the order get() will return them. */
  keys(): T[] {
    return this.items.slice(this.itemsHead);
  }

  /** Items handed out by get() and not yet done(). */
  get processingCount(): number {
    return this.processing.size;
  }

  isProcessing(item: T): boolean {
    return this.processing.has(item);
  }

  /** Hands out the next item; {item: undefined, shutdown: false} when empty (client-go would block here). */
  get(): GetResult<T> {
    if (this.len() === 0) return { item: undefined, shutdown: this.shuttingDownFlag };
    const item = this.items[this.itemsHead++];
    if (this.itemsHead > 1024 && this.itemsHead * 2 > this.items.length) {
      this.items = this.items.slice(this.itemsHead);
      this.itemsHead = 0;
    }
    this.processing.add(item);
    this.dirty.delete(item);
    const cause = this.addSeq.get(item);
    this.addSeq.delete(item);
    const seq = this.emit(TraceKind.QueueGet, item, noExtra, cause);
    return { item, shutdown: false, seq };
  }

  /** Marks the item processed; if it was added again meanwhile, it goes back on the queue. */
  done(item: T): void {
    if (!this.processing.delete(item)) return;
    const requeued = this.dirty.has(item);
    if (requeued) this.items.push(item);
    if (wantsEvent(this.trace, TraceKind.QueueDone)) this.emit(TraceKind.QueueDone, item, requeued ? requeuedExtra : noExtra);
    if (requeued) this.scheduleDrain();
  }

  /** Stops accepting items. Queued items still drain; get() reports shutdown once the queue is empty. */
  shutDown(): void {
    this.shuttingDownFlag = true;
    this.scheduleDrain();
  }

  shuttingDown(): boolean {
    return this.shuttingDownFlag;
  }

  /**
   * Registers the worker (a controller's processNextWorkItem). It is called once per deferred task while items
   * are available, and once more after shutdown so it can see get() report it and stop.
   */
  run(worker: QueueWorker): void {
    this.worker = worker;
    this.scheduleDrain();
  }

  private scheduleDrain(): void {
    if (!this.worker || this.drainScheduled) return;
    if (this.len() === 0 && !this.shuttingDownFlag) return;
    this.drainScheduled = true;
    this.clock.defer(this.drainTask, this.traceComponent);
  }

  private drainOne(): void {
    this.drainScheduled = false;
    const worker = this.worker;
    if (!worker) return;
    if (this.len() === 0 && !this.shuttingDownFlag) return;
    if (!worker()) {
      this.worker = undefined;
      return;
    }
    if (this.len() > 0 || this.shuttingDownFlag) this.scheduleDrain();
  }

  protected emit(kind: TraceKind, item: T, extra: Readonly<Record<string, unknown>>, cause?: number): number {
    if (this.trace === nullTraceSink) return 0;
    const data: Record<string, unknown> = { queue: this.name, key: keyString(item), depth: this.len() };
    if (extra !== noExtra) for (const k in extra) data[k] = extra[k];
    // One literal per shape (with or without a cause) rather than a member added afterwards.
    const component = this.traceComponent;
    const event: Omit<TraceEvent, 'seq' | 'time'> = cause === undefined ? { kind, component, data } : { kind, component, cause, data };
    return this.trace.emit(event);
  }
}
