// client-go's reflector.go: list, then watch from the list's resourceVersion, feeding a store. When the watch
// ends with an error — 410 Expired because the server compacted past our resourceVersion, or anything else —
// the reflector backs off and lists again; the store's replace() turns the difference between its cache and
// the new list into add/update/delete notifications, so the cache converges to the server's state.
//
// A watch that simply ends (dropWatch: the connection closed) is restarted from the last resourceVersion without
// a relist; if history was compacted past it meanwhile, that watch fails with 410 and the reflector relists.
// Backoff between attempts as client-go's (800 ms doubling to 30 s, without its jitter), on the virtual clock;
// it resets after a successful list.
import type { Status } from '../../shared/api/status';
import { toStatus } from '../../shared/api/status';
import type { KubeList, KubeObject, WatchEvent } from '../../shared/api/types';
import { WatchEventType } from '../../shared/api/types';
import { TraceKind, nullTraceSink, type TraceSink } from '../../shared/protocol/trace';
import type { WatchHandle, WatchHandler } from '../client/client';
import type { Clock, TimerHandle } from '../sim/clock';

export interface ListerWatcher {
  /** Lists every object (consistent read); throws StatusError. */
  list(): KubeList;
  /** Watches every change after resourceVersion; may throw StatusError (e.g. 410) instead of an ERROR event. */
  watch(resourceVersion: string, handler: WatchHandler): WatchHandle;
}

export interface ReflectorStore {
  /** A (re)list: replace the cache with these items. */
  replace(items: KubeObject[], resourceVersion: string): void;
  /** One watch batch, to be applied as a whole before any handler runs. */
  applyEvents(events: WatchEvent[], resourceVersion: string): void;
}

export interface ReflectorOptions {
  /** For traces: "pods", "deployments.apps". */
  name: string;
  clock: Clock;
  listerWatcher: ListerWatcher;
  store: ReflectorStore;
  trace?: TraceSink;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

/** Not a BOOKMARK (nor an ERROR, which ends the watch before the events after it). */
function isObjectEvent(ev: WatchEvent): boolean {
  return ev.type !== WatchEventType.Bookmark;
}

export function isExpired(status: Status): boolean {
  return status.code === 410 || status.reason === 'Expired' || status.reason === 'Gone';
}

export class Reflector {
  readonly name: string;
  private readonly clock: Clock;
  private readonly lw: ListerWatcher;
  private readonly store: ReflectorStore;
  private readonly trace: TraceSink;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private backoffMs: number;
  private running = false;
  /** Bumped whenever a watch is abandoned, so batches it had already queued are ignored. */
  private generation = 0;
  private watchHandle: WatchHandle | undefined;
  private retryTimer: TimerHandle | undefined;
  private lastSyncRV = '';
  private lists = 0;
  private lastErrorStatus: Status | undefined;

  constructor(options: ReflectorOptions) {
    this.name = options.name;
    this.clock = options.clock;
    this.lw = options.listerWatcher;
    this.store = options.store;
    this.trace = options.trace ?? nullTraceSink;
    this.initialBackoffMs = options.initialBackoffMs ?? 800;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.backoffMs = this.initialBackoffMs;
  }

  /** The resourceVersion of the last list or watch event applied. */
  get lastSyncResourceVersion(): string {
    return this.lastSyncRV;
  }

  /** How many lists have succeeded (1 after the initial sync; more after relists). */
  get listCount(): number {
    return this.lists;
  }

  /** The error that ended the last list or watch, if any. */
  get lastError(): Status | undefined {
    return this.lastErrorStatus;
  }

  get isWatching(): boolean {
    return this.watchHandle !== undefined;
  }

  /** Starts listing on the next deferred turn of the clock. */
  run(): void {
    if (this.running) return;
    this.running = true;
    this.clock.defer(() => this.listAndWatch(), `reflector/${this.name} list`);
  }

  /** Lists now, then watches: for a caller that must read a synced cache before its next step. */
  runNow(): void {
    if (this.running) return;
    this.running = true;
    this.listAndWatch();
  }

  stop(): void {
    this.running = false;
    this.generation++;
    this.clock.clearTimer(this.retryTimer);
    this.retryTimer = undefined;
    this.stopWatch();
  }

  private listAndWatch(): void {
    if (!this.running) return;
    this.retryTimer = undefined;
    this.generation++;
    let list: KubeList;
    try {
      list = this.lw.list();
    } catch (err) {
      this.failed(toStatus(err), 'list');
      return;
    }
    this.lists++;
    this.backoffMs = this.initialBackoffMs;
    const rv = list.metadata?.resourceVersion ?? '';
    this.store.replace(list.items, rv);
    this.lastSyncRV = rv;
    this.startWatch();
  }

  private startWatch(): void {
    const generation = this.generation;
    try {
      const handle = this.lw.watch(this.lastSyncRV, (events) => this.onEvents(generation, events));
      // A server that reports an error inside watch() itself has already made us move on.
      if (generation === this.generation && this.running) this.watchHandle = handle;
      else handle.stop();
    } catch (err) {
      this.failed(toStatus(err), 'watch');
    }
  }

  private onEvents(generation: number, events: WatchEvent[]): void {
    if (!this.running || generation !== this.generation) return;
    // Usually the delivery is one revision's object events: it goes to the store as it is, without a copy.
    let rv = this.lastSyncRV;
    let objectEvents = 0;
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      if (ev.type === WatchEventType.Error) {
        const batch = objectEvents === i ? events.slice(0, i) : events.slice(0, i).filter(isObjectEvent);
        if (batch.length > 0) this.store.applyEvents(batch, rv);
        this.lastSyncRV = rv;
        this.failed(toStatus(ev.object), 'watch');
        return;
      }
      rv = ev.object.metadata?.resourceVersion ?? rv;
      if (ev.type !== WatchEventType.Bookmark) objectEvents++;
    }
    if (objectEvents > 0) this.store.applyEvents(objectEvents === events.length ? events : events.filter(isObjectEvent), rv);
    this.lastSyncRV = rv;
  }

  private failed(status: Status, during: 'list' | 'watch'): void {
    this.lastErrorStatus = status;
    this.stopWatch();
    this.generation++;
    const delayMs = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
    this.trace.emit({
      kind: TraceKind.Custom,
      component: `reflector/${this.name}`,
      data: { event: 'relist', during, expired: isExpired(status), code: status.code, message: status.message, delayMs },
    });
    this.retryTimer = this.clock.setTimer(delayMs, () => this.listAndWatch(), `reflector/${this.name} relist`);
  }

  /**
   * Ends the current watch as a dropped connection would: the reflector watches again from its last
   * resourceVersion on the next deferred turn (and relists if that has been compacted meanwhile).
   */
  dropWatch(): void {
    if (!this.running || !this.watchHandle) return;
    this.stopWatch();
    this.generation++;
    const generation = this.generation;
    this.clock.defer(() => {
      if (this.running && generation === this.generation) this.startWatch();
    }, `reflector/${this.name} rewatch`);
  }

  private stopWatch(): void {
    const h = this.watchHandle;
    this.watchHandle = undefined;
    h?.stop();
  }
}
