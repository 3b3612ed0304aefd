// client-go's shared_informer.go: one reflector and one cache per resource, shared by every controller that
// registers handlers. A watch batch (one store revision) is applied to the cache whole, then handlers are told
// of each change in order, so a handler that reads the cache sees the state after the revision.
//
// Cached objects are frozen and shared: never mutate them — copy (structuredClone) before changing anything.
import type { Selector } from '../../shared/lib/labels';
import { parseSelector, selectorMatches } from '../../shared/lib/labels';
import type { GroupVersionResource, KubeObject, WatchEvent } from '../../shared/api/types';
import { WatchEventType, groupResourceString } from '../../shared/api/types';
import { TraceKind, nullTraceSink, type TraceSink } from '../../shared/protocol/trace';
import type { Client, Typed } from '../client/client';
import type { Clock, TimerHandle } from '../sim/clock';
import { deepFreeze } from '../../shared/lib/deep-freeze';
import { withCause } from '../trace/trace-bus';
import { Indexer, NamespaceIndex, defaultIndexers, type IndexFunc } from './indexer';
import { metaNamespaceKeyFunc, namespacedKey } from './keys';
import { Reflector } from './reflector';

/**
 * What onDelete receives when the informer missed the deletion (it happened while the watch was down and a
 * relist found the object gone): the last state it knew. cache.DeletedFinalStateUnknown.
 */
export class DeletedFinalStateUnknown<T = KubeObject> {
  constructor(
    readonly key: string,
    readonly obj: T,
  ) {}
}

export interface ResourceEventHandler<T> {
  /** isInInitialList: the object came from the initial list (or the replay for a late handler). */
  onAdd?(obj: T, isInInitialList: boolean): void;
  /** Also called on relists and resyncs, possibly with old === new content: compare resourceVersions. */
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface HandlerRegistration {
  /** Whether this handler has been told of every object of the initial list. */
  hasSynced(): boolean;
  remove(): void;
}

export interface HandlerOptions {
  /** Calls onUpdate(obj, obj) for every cached object this often (virtual ms). 0/undefined: never. */
  resyncPeriodMs?: number;
}

/** A label selector as a string ("app=web") or parsed; undefined matches everything. */
export type SelectorInput = Selector | string | undefined;

export interface Lister<T> {
  get(namespace: string | undefined, name: string): T | undefined;
  getByKey(key: string): T | undefined;
  /** Every object (in every namespace) matching the selector. */
  list(selector?: SelectorInput): T[];
  /** The objects in one namespace matching the selector. */
  listNamespace(namespace: string, selector?: SelectorInput): T[];
  byIndex(indexName: string, value: string): T[];
  /** byIndex, ordered as list() would list the objects (see Indexer.byIndexInListOrder). */
  byIndexInListOrder(indexName: string, value: string): T[];
}

/** key: the object's cache key, computed once when the event is applied (the delta trace names it again). */
type Notification<T> =
  | { type: 'add'; key: string; obj: T; initial: boolean }
  | { type: 'update'; key: string; old: T; obj: T }
  | { type: 'delete'; key: string; obj: T | DeletedFinalStateUnknown<T> };

interface Listener<T> {
  handler: ResourceEventHandler<T>;
  synced: boolean;
  resyncTimer?: TimerHandle;
  removed: boolean;
}

export interface SharedInformerOptions {
  gvr: GroupVersionResource;
  client: Client;
  clock: Clock;
  trace?: TraceSink;
  indexers?: Readonly<Record<string, IndexFunc>>;
  /** A handler threw. Default: rethrown from a deferred task, so tests fail and the realtime driver reports it. */
  onHandlerError?: (err: unknown) => void;
  initialBackoffMs?: number;
}

export class SharedInformer<T extends object = KubeObject> {
  readonly gvr: GroupVersionResource;
  /** "pods", "deployments.apps": names the informer in traces. */
  readonly name: string;
  readonly indexer: Indexer<Typed<T>>;
  readonly lister: Lister<Typed<T>>;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly reflector: Reflector;
  private readonly listeners = new Set<Listener<Typed<T>>>();
  private readonly traceComponent: string;
  private readonly onHandlerError: (err: unknown) => void;
  private started = false;
  private synced = false;

  constructor(options: SharedInformerOptions) {
    this.gvr = options.gvr;
    this.name = groupResourceString(options.gvr);
    this.traceComponent = `informer/${this.name}`;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.indexer = new Indexer<Typed<T>>(options.indexers ?? defaultIndexers);
    this.lister = newLister(this.indexer);
    const clock = options.clock;
    this.onHandlerError =
      options.onHandlerError ??
      ((err) =>
        clock.defer(() => {
          throw err;
        }, `informer/${this.name} handler error`));
    const rc = options.client.resource<T>(options.gvr);
    this.reflector = new Reflector({
      name: this.name,
      clock: options.clock,
      trace: options.trace,
      initialBackoffMs: options.initialBackoffMs,
      listerWatcher: {
        list: () => rc.list(),
        watch: (resourceVersion, handler) => rc.watch({ resourceVersion, allowWatchBookmarks: true }, handler),
      },
      store: {
        replace: (items, rv) => this.replace(items as Typed<T>[], rv),
        applyEvents: (events, rv) => this.applyEvents(events, rv),
      },
    });
  }

  /** Starts list+watch (on the next deferred turn of the clock). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.reflector.run();
  }

  stop(): void {
    this.reflector.stop();
    for (const l of this.listeners) this.clock.clearTimer(l.resyncTimer);
  }

  get isStarted(): boolean {
    return this.started;
  }

  /** True once the initial list is in the cache and every handler has been told of it. */
  hasSynced(): boolean {
    return this.synced;
  }

  get lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion;
  }

  /** Successful lists so far: 1 after the initial sync, more after relists (410, watch errors). */
  get listCount(): number {
    return this.reflector.listCount;
  }

  /** Adds custom indexes (e.g. pods by PVC name); existing objects are indexed at once. */
  addIndexers(indexers: Readonly<Record<string, IndexFunc>>): void {
    this.indexer.addIndexers(indexers);
  }

  /**
   * Registers a handler. One added after the informer synced is first told of every cached object as an add
   * (isInInitialList), on the next deferred turn.
   */
  addEventHandler(handler: ResourceEventHandler<Typed<T>>, options: HandlerOptions = {}): HandlerRegistration {
    const listener: Listener<Typed<T>> = { handler, synced: false, removed: false };
    this.listeners.add(listener);
    if (this.synced) {
      this.clock.defer(() => {
        if (listener.removed) return;
        for (const obj of this.indexer.list()) this.deliver(listener, { type: 'add', key: '', obj, initial: true });
        listener.synced = true;
      }, `informer/${this.name} replay`);
    }
    const period = options.resyncPeriodMs ?? 0;
    if (period > 0) {
      const resync = () => {
        if (listener.removed) return;
        for (const obj of this.indexer.list()) this.deliver(listener, { type: 'update', key: '', old: obj, obj });
        listener.resyncTimer = this.clock.setTimer(period, resync, `informer/${this.name} resync`, { background: true });
      };
      listener.resyncTimer = this.clock.setTimer(period, resync, `informer/${this.name} resync`, { background: true });
    }
    return {
      hasSynced: () => listener.synced,
      remove: () => {
        listener.removed = true;
        this.clock.clearTimer(listener.resyncTimer);
        this.listeners.delete(listener);
      },
    };
  }

  // ---------------------------------------------------------------- ReflectorStore

  /** A (re)list: adds and updates for the listed objects, then deletions (as tombstones) for the vanished. */
  private replace(items: Typed<T>[], resourceVersion: string): void {
    const initial = !this.synced;
    const notes: Notification<Typed<T>>[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const obj = deepFreeze(item);
      const key = metaNamespaceKeyFunc(obj);
      seen.add(key);
      const old = this.indexer.upsert(obj, key);
      notes.push(old === undefined ? { type: 'add', key, obj, initial } : { type: 'update', key, old, obj });
    }
    for (const key of this.indexer.listKeys()) {
      if (seen.has(key)) continue;
      const old = this.indexer.delete(key)!;
      notes.push({ type: 'delete', key, obj: new DeletedFinalStateUnknown(key, old) });
    }
    this.notify(notes, resourceVersion, initial ? 'list' : 'relist');
    if (initial) {
      this.synced = true;
      for (const l of this.listeners) l.synced = true;
    }
  }

  private applyEvents(events: WatchEvent[], resourceVersion: string): void {
    const notes: Notification<Typed<T>>[] = [];
    for (const ev of events) {
      const obj = deepFreeze(ev.object as Typed<T>);
      const key = metaNamespaceKeyFunc(obj);
      if (ev.type === WatchEventType.Deleted) {
        this.indexer.delete(key);
        notes.push({ type: 'delete', key, obj });
      } else {
        const old = this.indexer.upsert(obj, key);
        notes.push(old === undefined ? { type: 'add', key, obj, initial: false } : { type: 'update', key, old, obj });
      }
    }
    this.notify(notes, resourceVersion, 'watch');
  }

  private notify(notes: Notification<Typed<T>>[], resourceVersion: string, source: 'list' | 'relist' | 'watch'): void {
    if (notes.length === 0 && source === 'watch') return;
    let seq: number | undefined;
    if (this.trace !== nullTraceSink) {
      let added = 0;
      let updated = 0;
      let deleted = 0;
      const keys: string[] = [];
      for (const n of notes) {
        if (n.type === 'add') added++;
        else if (n.type === 'update') updated++;
        else deleted++;
        if (keys.length < 20) keys.push(n.key);
      }
      seq = this.trace.emit({
        kind: TraceKind.Custom,
        component: this.traceComponent,
        data: { event: 'informer.delta', source, resource: this.name, resourceVersion, added, updated, deleted, keys },
      });
    }
    if (this.listeners.size === 0) return;
    if (this.trace === nullTraceSink) this.deliverAll(notes);
    else withCause(this.trace, seq, () => this.deliverAll(notes));
  }

  private deliverAll(notes: readonly Notification<Typed<T>>[]): void {
    for (const n of notes) for (const l of this.listeners) this.deliver(l, n);
  }

  private deliver(l: Listener<Typed<T>>, n: Notification<Typed<T>>): void {
    if (l.removed) return;
    try {
      switch (n.type) {
        case 'add':
          l.handler.onAdd?.(n.obj, n.initial);
          break;
        case 'update':
          l.handler.onUpdate?.(n.old, n.obj);
          break;
        case 'delete':
          l.handler.onDelete?.(n.obj);
          break;
      }
    } catch (err) {
      this.onHandlerError(err);
    }
  }
}

function toSelector(selector: SelectorInput): Selector | undefined {
  return typeof selector === 'string' ? (selector === '' ? undefined : parseSelector(selector)) : selector;
}

function newLister<T extends KubeObject>(indexer: Indexer<T>): Lister<T> {
  const filter = (objs: T[], selector: SelectorInput): T[] => {
    const sel = toSelector(selector);
    return sel ? objs.filter((o) => selectorMatches(sel, o.metadata?.labels)) : objs;
  };
  return {
    get: (namespace, name) => indexer.get(namespacedKey(namespace, name)),
    getByKey: (key) => indexer.get(key),
    list: (selector) => filter(indexer.list(), selector),
    listNamespace: (namespace, selector) => filter(indexer.byIndex(NamespaceIndex, namespace), selector),
    byIndex: (indexName, value) => indexer.byIndex(indexName, value),
    byIndexInListOrder: (indexName, value) => indexer.byIndexInListOrder(indexName, value),
  };
}

