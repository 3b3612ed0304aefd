// The etcd analogue: an in-memory MVCC key-value store with one global revision, compare-and-swap transactions,
// bounded history (older reads and watches get 410) and ordered, exactly-once, never-split watch delivery.
//
// Values are stored and returned as given, without cloning: callers pass fresh objects to txn() and must never
// mutate a value they put or one they read (get, range, watch events, txn results all share it).
//
// Costs: a write is O(ops × key depth) plus O(matching watchers); a current range is O(log n + result); a read at
// an older revision additionally walks the batches committed since then. Watchers that select one exact value
// (WatchOptions.index, e.g. every kubelet's spec.nodeName) are matched through an index (watcher-index.ts): a
// write reaches those its object's old or new value names, not all of them.
import type { Clock } from '../sim/clock';
import type { Status } from '../../shared/api/status';
import {
  newBadRequest,
  newResourceExpired,
  newTooLargeResourceVersion,
  newTooOldResourceVersion,
} from '../../shared/api/status';
import type { PersistedSnapshot } from './persistence/types';
import type {
  Compare,
  KeyValue,
  RangeResult,
  RevisionBatch,
  Store,
  StoreEvent,
  StoreWatch,
  TxnOp,
  TxnResult,
  WatchOptions,
} from './types';
import { StoreEventType } from './types';
import { jsonEqual } from './json-equal';
import { SortedKeySet } from './sorted-keys';
import { DirWatcherIndex, SegmentState, type DeliverySegment, type IndexMember } from './watcher-index';

export const DEFAULT_HISTORY_REVISIONS = 10_000;
export const DEFAULT_MAX_PENDING_WATCH_EVENTS = 100_000;

export interface MvccStoreOptions {
  clock: Clock;
  /** How many revisions of history to keep; older ones are compacted automatically. Default 10 000. */
  historyRevisions?: number;
  /** Restores a persisted state: revision and kvs; compactRevision becomes snapshot.revision. */
  snapshot?: PersistedSnapshot;
  /** Called synchronously after each committed revision (the persistence enqueues it here). */
  onCommit?: (batch: RevisionBatch) => void;
  /** A watcher with more undelivered events than this is terminated as too slow. Default 100 000. */
  maxPendingWatchEvents?: number;
}

/** Told why a watch ended on its own (only for slow consumers); it may resume from its last revision or relist. */
export type WatchErrorHandler = (status: Status) => void;

interface Watcher extends IndexMember {
  /** Registration order: the order the store visits a directory's watchers in. */
  readonly seq: number;
  prefix: string;
  /** The directory (prefix up to its last '/') the watcher is indexed under. */
  dir: string;
  handler: (batch: RevisionBatch) => void;
  onError?: WatchErrorHandler;
  queue: (RevisionBatch | undefined)[];
  head: number;
  pendingEvents: number;
  scheduled: boolean;
  active: boolean;
  /** drain(this watcher), bound once: every write defers it for every idle watcher of the prefix. */
  drainTask: () => void;
  /** Set for an indexed watcher: the index of its directory. */
  dirIndex?: DirWatcherIndex<Watcher>;
  segment?: DeliverySegment<Watcher>;
}

/** A watch handle of this store. */
export interface MvccStoreWatch extends StoreWatch {
  /**
   * Indexed watches only: the revision of the last batch under the prefix its deliveries have reached, counting
   * the batches the index skipped because they carried nothing for it (the revision an unindexed watcher's
   * handler would have seen last: what a requested bookmark names).
   */
  progressRevision?(): number;
}

/** One directory's part of a write: the unindexed watchers first matched with it, in seq order, and its events. */
interface DirPass {
  idx: DirWatcherIndex<Watcher>;
  plain: Watcher[];
  events: StoreEvent[];
}

export class MvccStore implements Store {
  private readonly clock: Clock;
  private readonly historyRevisions: number;
  private readonly maxPendingWatchEvents: number;
  private readonly onCommit?: (batch: RevisionBatch) => void;

  private rev = 0;
  private compactRev = 0;
  private readonly kvs = new Map<string, KeyValue>();
  private readonly keys = new SortedKeySet();
  /** Live keys under every directory prefix ('' and each prefix ending in '/'). */
  private readonly dirCounts = new Map<string, number>();
  /** The prefixes dirsOf() gave last. */
  private lastDirs: readonly string[] = [];
  /** Batches of revisions compactRev+1 … rev; the batch of revision r is at historyHead + (r - compactRev - 1). */
  private history: (RevisionBatch | undefined)[] = [];
  private historyHead = 0;
  private readonly watchersByDir = new Map<string, Set<Watcher>>();
  private readonly indexByDir = new Map<string, DirWatcherIndex<Watcher>>();
  private watchers = 0;
  private nextWatcherSeq = 1;

  constructor(options: MvccStoreOptions) {
    this.clock = options.clock;
    this.historyRevisions = Math.max(1, options.historyRevisions ?? DEFAULT_HISTORY_REVISIONS);
    this.maxPendingWatchEvents = options.maxPendingWatchEvents ?? DEFAULT_MAX_PENDING_WATCH_EVENTS;
    this.onCommit = options.onCommit;
    const snap = options.snapshot;
    if (snap) {
      for (const kv of snap.kvs) this.insertKey(kv);
      this.rev = snap.revision;
      this.compactRev = snap.revision;
    }
  }

  get revision(): number {
    return this.rev;
  }

  get compactRevision(): number {
    return this.compactRev;
  }

  /** Number of open watches (for tests and benchmarks). */
  get watcherCount(): number {
    return this.watchers;
  }

  /** atRevision undefined or ≤ 0 reads the current revision, as etcd does. */
  get(key: string, atRevision?: number): KeyValue | undefined {
    const current = this.kvs.get(key);
    if (atRevision === undefined || atRevision <= 0 || atRevision === this.rev) return current;
    this.checkReadable(atRevision);
    // Undo later writes: the earliest write after atRevision holds the value as of atRevision in its prevKv.
    let kv = current;
    for (let r = this.rev; r > atRevision; r--) {
      for (const ev of this.batchAt(r).events) if (ev.kv.key === key) kv = ev.prevKv;
    }
    return kv;
  }

  range(prefix: string, atRevision?: number): RangeResult {
    const atCurrent = atRevision === undefined || atRevision <= 0 || atRevision === this.rev;
    if (!atCurrent) this.checkReadable(atRevision);
    // A directory with no live key (admission reads every pod create's LimitRanges and ResourceQuotas, most
    // often none): its count says so without searching the index.
    if (atCurrent && prefix.endsWith('/') && this.count(prefix) === 0) return { kvs: [], revision: this.rev };
    const current: KeyValue[] = [];
    this.keys.forEachWithPrefix(prefix, (k) => current.push(this.kvs.get(k)!));
    if (atCurrent) return { kvs: current, revision: this.rev };
    const undone = new Map<string, KeyValue | undefined>();
    for (let r = this.rev; r > atRevision; r--) {
      for (const ev of this.batchAt(r).events) if (ev.kv.key.startsWith(prefix)) undone.set(ev.kv.key, ev.prevKv);
    }
    if (undone.size === 0) return { kvs: current, revision: atRevision };
    // Merge the unchanged current keys (sorted) with the restored ones (few; sorted here).
    const restored = [...undone.values()].filter((kv): kv is KeyValue => kv !== undefined).sort(byKey);
    const kvs: KeyValue[] = [];
    let j = 0;
    for (const kv of current) {
      if (undone.has(kv.key)) continue;
      while (j < restored.length && restored[j].key < kv.key) kvs.push(restored[j++]);
      kvs.push(kv);
    }
    while (j < restored.length) kvs.push(restored[j++]);
    return { kvs, revision: atRevision };
  }

  count(prefix: string): number {
    if (prefix === '' || prefix.endsWith('/')) return this.dirCounts.get(prefix) ?? 0;
    return this.keys.countWithPrefix(prefix);
  }

  /**
   * On success, results[i] is the written kv (for a delete, the deleted value with modRevision = the deleting
   * revision), or undefined for a no-op. On failure nothing changes and results[i] is the current kv of ops[i].key,
   * as etcd's failure branch would read it. Two ops on one key are rejected, as etcd does.
   */
  txn(compares: Compare[], ops: TxnOp[]): TxnResult {
    for (const c of compares) {
      const mod = this.kvs.get(c.key)?.modRevision ?? 0;
      if (mod !== c.modRevision) {
        return { succeeded: false, revision: this.rev, results: ops.map((op) => this.kvs.get(op.key)) };
      }
    }
    if (ops.length > 1) {
      const seen = new Set<string>();
      for (const op of ops) {
        if (seen.has(op.key)) throw newBadRequest('etcdserver: duplicate key given in txn request');
        seen.add(op.key);
      }
    }

    const rev = this.rev + 1;
    const events: StoreEvent[] = [];
    const results: (KeyValue | undefined)[] = new Array(ops.length);
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      const prev = this.kvs.get(op.key);
      if (op.type === 'put') {
        if (prev && jsonEqual(prev.value, op.value)) continue;
        const kv: KeyValue = {
          // The stored key's string, not the request's copy of it: every version (and whoever remembers
          // written keys) then holds one string per key instead of one per write.
          key: prev ? prev.key : op.key,
          value: op.value,
          createRevision: prev ? prev.createRevision : rev,
          modRevision: rev,
          version: prev ? prev.version + 1 : 1,
        };
        events.push(prev ? { type: StoreEventType.Put, kv, prevKv: prev } : { type: StoreEventType.Put, kv });
        results[i] = kv;
      } else {
        if (!prev) continue;
        const kv: KeyValue = { ...prev, modRevision: rev };
        events.push({ type: StoreEventType.Delete, kv, prevKv: prev });
        results[i] = kv;
      }
    }
    if (events.length === 0) return { succeeded: true, revision: this.rev, results };

    for (const ev of events) {
      if (ev.type === StoreEventType.Delete) this.removeKey(ev.kv.key);
      else if (ev.prevKv) this.kvs.set(ev.kv.key, ev.kv);
      else this.insertKey(ev.kv);
    }
    this.rev = rev;
    const batch: RevisionBatch = { revision: rev, events };
    this.history.push(batch);
    if (this.watchers > 0) this.dispatch(batch);
    if (rev - this.compactRev > this.historyRevisions) this.compact(rev - this.historyRevisions);
    this.onCommit?.(batch);
    return { succeeded: true, revision: rev, results };
  }

  /**
   * See Store.watch. onError is called (deferred) only when the store ends the watch itself: a consumer with more
   * than maxPendingWatchEvents undelivered events gets a 410 Expired status and no further batches.
   */
  watch(options: WatchOptions, handler: (batch: RevisionBatch) => void, onError?: WatchErrorHandler): MvccStoreWatch {
    const after = options.afterRevision;
    if (!Number.isInteger(after) || after < 0) throw newBadRequest(`invalid resource version: ${after}`);
    if (after < this.compactRev) throw newTooOldResourceVersion(after, this.compactRev);
    if (after > this.rev) throw newTooLargeResourceVersion(after, this.rev);

    const prefix = options.prefix ?? '';
    // Only a directory prefix is indexed: then every key under the directory is the watcher's.
    const index = options.index && prefix.endsWith('/') ? options.index : undefined;
    if (index) return this.watchIndexed(prefix, index, after, handler, onError);
    const w = this.newWatcher(prefix, prefix.slice(0, prefix.lastIndexOf('/') + 1), handler, onError);
    w.drainTask = () => this.drain(w);
    let set = this.watchersByDir.get(w.dir);
    if (!set) this.watchersByDir.set(w.dir, (set = new Set()));
    set.add(w);
    this.watchers++;

    // Replay the kept history after `after`; the live batches queue behind it.
    for (let r = after + 1; r <= this.rev; r++) {
      const batch = filterBatch(this.batchAt(r), prefix);
      if (batch) this.enqueue(w, batch, false);
    }
    return { cancel: () => this.stopWatcher(w) };
  }

  private newWatcher(
    prefix: string,
    dir: string,
    handler: (batch: RevisionBatch) => void,
    onError: WatchErrorHandler | undefined,
    index?: NonNullable<WatchOptions['index']>,
  ): Watcher {
    return {
      seq: this.nextWatcherSeq++,
      ...(index ? { index } : {}),
      dueAt: NaN,
      inDue: false,
      prefix,
      dir,
      handler,
      onError,
      queue: [],
      head: 0,
      pendingEvents: 0,
      scheduled: false,
      active: true,
      drainTask: () => undefined,
    };
  }

  /**
   * An indexed watcher: registered with its directory's index, not in watchersByDir. Its replay is scheduled as
   * an unindexed watcher's would be (one drain at watch time, if there is any history under the prefix), with
   * only the batches that carry something for it (or all of them while it may be due a bookmark).
   */
  private watchIndexed(
    prefix: string,
    index: NonNullable<WatchOptions['index']>,
    after: number,
    handler: (batch: RevisionBatch) => void,
    onError: WatchErrorHandler | undefined,
  ): MvccStoreWatch {
    const w = this.newWatcher(prefix, prefix, handler, onError, index);
    let idx = this.indexByDir.get(prefix);
    if (!idx) this.indexByDir.set(prefix, (idx = new DirWatcherIndex<Watcher>(prefix)));
    w.dirIndex = idx;
    this.watchers++;

    const replay: RevisionBatch[] = [];
    for (let r = after + 1; r <= this.rev; r++) {
      const batch = filterBatch(this.batchAt(r), prefix);
      if (batch) replay.push(batch);
    }
    const now = this.clock.now();
    if (replay.length === 0) {
      idx.add(w, after, now);
    } else {
      idx.lastRevision = Math.max(idx.lastRevision, replay[replay.length - 1].revision);
      const seg = this.newSegment(idx, w.seq, w.seq + 1);
      idx.add(w, after, now, seg);
      const wanted = idx.membersFor([], now).has(w); // due a bookmark already: it takes every batch
      for (const batch of replay) {
        if (wanted || idx.memberWants(w, batch.events)) this.enqueue(w, batch, false);
      }
    }
    return {
      cancel: () => this.stopWatcher(w),
      progressRevision: () => (w.active ? idx.progressOf(w) : after),
    };
  }

  /** Drops history up to and including revision: reads and watches below it get 410 from now on. */
  compact(revision: number): void {
    if (revision <= this.compactRev) return;
    if (revision > this.rev) throw newTooLargeResourceVersion(revision, this.rev);
    const drop = revision - this.compactRev;
    for (let i = 0; i < drop; i++) this.history[this.historyHead + i] = undefined;
    this.historyHead += drop;
    this.compactRev = revision;
    if (this.historyHead > 1024 && this.historyHead * 2 > this.history.length) {
      this.history = this.history.slice(this.historyHead);
      this.historyHead = 0;
    }
  }

  private batchAt(revision: number): RevisionBatch {
    return this.history[this.historyHead + (revision - this.compactRev - 1)]!;
  }

  private checkReadable(atRevision: number): void {
    if (atRevision < this.compactRev) throw newTooOldResourceVersion(atRevision, this.compactRev);
    if (atRevision > this.rev) throw newTooLargeResourceVersion(atRevision, this.rev);
  }

  private insertKey(kv: KeyValue): void {
    const known = this.kvs.size;
    this.kvs.set(kv.key, kv);
    if (this.kvs.size === known) return; // a new value of a key the index holds
    const dirs = this.dirsOf(kv.key);
    this.keys.insert(kv.key, dirs.at(-1) ?? '');
    this.adjustDirCounts(dirs, 1);
  }

  private removeKey(key: string): void {
    if (!this.kvs.delete(key)) return;
    const dirs = this.dirsOf(key);
    this.keys.delete(key, dirs.at(-1) ?? '');
    this.adjustDirCounts(dirs, -1);
  }

  private adjustDirCounts(dirs: readonly string[], delta: number): void {
    const counts = this.dirCounts;
    counts.set('', (counts.get('') ?? 0) + delta);
    for (const dir of dirs) {
      const n = (counts.get(dir) ?? 0) + delta;
      if (n === 0) counts.delete(dir);
      else counts.set(dir, n);
    }
  }

  /**
   * The directory prefixes of key ("/registry/", "/registry/core/", …), outermost first. Writes come in runs
   * to one directory (a rollout's pods, a recorder's Events): the last key's prefixes serve the next one in the
   * same directory, rather than slicing them again.
   */
  private dirsOf(key: string): readonly string[] {
    const last = this.lastDirs;
    if (last.length > 0) {
      const dir = last[last.length - 1]!;
      if (key.startsWith(dir) && key.indexOf('/', dir.length) < 0) return last;
    }
    const dirs: string[] = [];
    for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) dirs.push(key.slice(0, i + 1));
    this.lastDirs = dirs;
    return dirs;
  }

  /** Queues the batch (filtered) for every watcher whose prefix matches one of its keys. */
  private dispatch(batch: RevisionBatch): void {
    if (this.indexByDir.size > 0) {
      this.dispatchIndexed(batch);
      return;
    }
    if (batch.events.length === 1) {
      this.forEachWatcherOf(batch.events[0].kv.key, (w) => this.enqueue(w, batch, true));
      return;
    }
    const perWatcher = new Map<Watcher, StoreEvent[]>();
    for (const ev of batch.events) {
      this.forEachWatcherOf(ev.kv.key, (w) => {
        const list = perWatcher.get(w);
        if (list) list.push(ev);
        else perWatcher.set(w, [ev]);
      });
    }
    for (const [w, events] of perWatcher) {
      this.enqueue(w, events.length === batch.events.length ? batch : { revision: batch.revision, events }, true);
    }
  }

  /**
   * dispatch() with indexed directories: visits watchers in the same order (event by event, each key's
   * directories from the root, each directory's watchers in seq order), and where a directory has an index,
   * defers one segment for each run of its idle members between the unindexed watchers' drains.
   */
  private dispatchIndexed(batch: RevisionBatch): void {
    if (batch.events.length === 1) {
      this.dispatchIndexedOne(batch);
      return;
    }
    const perWatcher = new Map<Watcher, StoreEvent[]>();
    const passes = new Map<string, DirPass>();
    const order: (Watcher | DirPass)[] = [];
    for (const ev of batch.events) {
      const key = ev.kv.key;
      const visit = (dir: string): void => {
        const idx = this.indexByDir.get(dir);
        let pass: DirPass | undefined;
        let firstVisit = false;
        if (idx) {
          pass = passes.get(dir);
          if (!pass) {
            passes.set(dir, (pass = { idx, plain: [], events: [] }));
            order.push(pass);
            firstVisit = true;
          }
          pass.events.push(ev);
        }
        const set = this.watchersByDir.get(dir);
        if (!set) return;
        for (const w of set) {
          if (!watchesKey(w, dir, key)) continue;
          const list = perWatcher.get(w);
          if (list) list.push(ev);
          else {
            perWatcher.set(w, [ev]);
            if (firstVisit) pass!.plain.push(w);
            else order.push(w);
          }
        }
      };
      visit('');
      for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) visit(key.slice(0, i + 1));
    }
    const part = (events: StoreEvent[]): RevisionBatch =>
      events.length === batch.events.length ? batch : { revision: batch.revision, events };
    for (const item of order) {
      if (!('idx' in item)) {
        this.enqueue(item, part(perWatcher.get(item)!), true);
        continue;
      }
      const { idx, plain, events } = item;
      this.dispatchToDir(idx, plain, (p) => part(perWatcher.get(p)!), part(events));
    }
  }

  /**
   * dispatchIndexed() for a batch of one event (almost every write): the whole batch goes to every watcher it
   * reaches, and the watchers are visited in the order the general path would record them, so each directory
   * is handled as it is visited, without the per-watcher bookkeeping.
   */
  private dispatchIndexedOne(batch: RevisionBatch): void {
    const key = batch.events[0].kv.key;
    this.dispatchOneToDir('', key, batch);
    const dirs = this.dirsOf(key);
    for (let i = 0; i < dirs.length; i++) this.dispatchOneToDir(dirs[i]!, key, batch);
  }

  private dispatchOneToDir(dir: string, key: string, batch: RevisionBatch): void {
    const set = this.watchersByDir.get(dir);
    const idx = this.indexByDir.get(dir);
    if (!idx) {
      if (set) for (const w of set) if (watchesKey(w, dir, key)) this.enqueue(w, batch, true);
      return;
    }
    let plain: Watcher[] = noWatchers;
    if (set) {
      for (const w of set) {
        if (!watchesKey(w, dir, key)) continue;
        if (plain === noWatchers) plain = [];
        plain.push(w);
      }
    }
    this.dispatchToDir(idx, plain, () => batch, batch);
  }

  /**
   * An indexed directory's part of a write: between the drains of its unindexed watchers (in seq order), one
   * segment for each run of idle members, then the batch for the members it is for.
   */
  private dispatchToDir(
    idx: DirWatcherIndex<Watcher>,
    plain: readonly Watcher[],
    batchOf: (w: Watcher) => RevisionBatch,
    dirBatch: RevisionBatch,
  ): void {
    // Members whose turn in a running segment has passed are idle before this write, as their drains were.
    idx.settleRunning();
    idx.lastRevision = dirBatch.revision;
    let from = 0;
    for (const p of plain) {
      idx.scheduleIdle(from, p.seq, () => this.newSegment(idx, from, p.seq));
      from = p.seq;
      this.enqueue(p, batchOf(p), true);
    }
    idx.scheduleIdle(from, Infinity, () => this.newSegment(idx, from, Infinity));
    for (const w of idx.membersFor(dirBatch.events, this.clock.now())) this.enqueue(w, dirBatch, true);
  }

  /** A segment task of the directory's index, deferred now: its place in the FIFO is its members' drains'. */
  private newSegment(idx: DirWatcherIndex<Watcher>, lo: number, hi: number): DeliverySegment<Watcher> {
    const seg: DeliverySegment<Watcher> = { lo, hi, state: SegmentState.Pending, cursor: -1, work: [], next: 0 };
    this.clock.defer(() => this.runSegment(idx, seg), 'store watch delivery');
    return seg;
  }

  /** Drains the segment's members that have batches queued, in seq order; the rest had nothing to deliver. */
  private runSegment(idx: DirWatcherIndex<Watcher>, seg: DeliverySegment<Watcher>): void {
    seg.state = SegmentState.Running;
    idx.running = seg;
    seg.work.sort(bySeq);
    let completed = false;
    try {
      for (; seg.next < seg.work.length; seg.next++) {
        const w = seg.work[seg.next];
        if (w.segment !== seg) continue;
        seg.cursor = w.seq;
        w.segment = undefined;
        if (w.active) this.drain(w);
      }
      completed = true;
    } finally {
      if (completed) {
        idx.finish(seg);
        // Its last member left while it ran: the directory goes back to the unindexed path.
        if (idx.size === 0 && this.indexByDir.get(idx.dir) === idx) this.indexByDir.delete(idx.dir);
      } else {
        // A handler threw: the members after it keep their place in this segment, run again later.
        idx.settleRunning();
        idx.running = undefined;
        seg.state = SegmentState.Pending;
        seg.work = seg.work.slice(seg.next + 1);
        seg.next = 0;
        seg.cursor = -1;
        this.clock.defer(() => this.runSegment(idx, seg), 'store watch delivery');
      }
    }
  }

  /** An indexed watcher with batches queued joins the segment its drain is scheduled in (alone if it is idle). */
  private placeIndexed(w: Watcher): void {
    if (w.segment) return;
    const idx = w.dirIndex!;
    idx.settleRunning();
    let seg = idx.segmentOf(w);
    if (!seg) {
      seg = this.newSegment(idx, w.seq, w.seq + 1);
      idx.scheduleAlone(w, seg);
    }
    w.segment = seg;
    if (seg.state === SegmentState.Running) {
      // Members after the cursor are still to come: keep the rest of the work list in seq order.
      let i = seg.next + 1;
      while (i < seg.work.length && seg.work[i].seq < w.seq) i++;
      seg.work.splice(i, 0, w);
    } else {
      seg.work.push(w);
    }
  }

  /**
   * Looks only at watchers indexed under the key's own directory prefixes, never at all watchers. The prefixes
   * are dirsOf's: the same strings every write to the directory, hashed once.
   */
  private forEachWatcherOf(key: string, fn: (w: Watcher) => void): void {
    this.forEachWatcherIn('', key, fn);
    const dirs = this.dirsOf(key);
    for (let i = 0; i < dirs.length; i++) this.forEachWatcherIn(dirs[i]!, key, fn);
  }

  /** The watchers of one directory whose prefix the key has. */
  private forEachWatcherIn(dir: string, key: string, fn: (w: Watcher) => void): void {
    const set = this.watchersByDir.get(dir);
    if (set) for (const w of set) if (watchesKey(w, dir, key)) fn(w);
  }

  private enqueue(w: Watcher, batch: RevisionBatch, live: boolean): void {
    if (!w.active) return;
    w.queue.push(batch);
    w.pendingEvents += batch.events.length;
    if (live && w.pendingEvents > this.maxPendingWatchEvents) {
      const pending = w.pendingEvents;
      this.stopWatcher(w);
      const onError = w.onError;
      if (onError) {
        const status = newResourceExpired(
          `Forcing watcher close due to unresponsiveness: ${pending} undelivered events (limit ${this.maxPendingWatchEvents})`,
        ).status;
        this.clock.defer(() => onError(status), 'store watch terminated');
      }
      return;
    }
    if (w.dirIndex) this.placeIndexed(w);
    else if (!w.scheduled) {
      w.scheduled = true;
      this.clock.defer(w.drainTask, 'store watch delivery');
    }
  }

  /**
   * Delivers the batches queued when the task started, one at a time. Batches a handler's own writes add are
   * delivered by a fresh deferred task, so a watcher that writes cannot starve the rest of the deferred queue.
   */
  private drain(w: Watcher): void {
    w.scheduled = false;
    const end = w.queue.length;
    try {
      while (w.active && w.head < end) {
        const batch = w.queue[w.head]!;
        w.queue[w.head++] = undefined;
        w.pendingEvents -= batch.events.length;
        w.handler(batch);
      }
    } finally {
      if (w.active && w.dirIndex) {
        w.dirIndex.refreshDue(w, this.clock.now());
        if (w.head === w.queue.length) {
          w.queue.length = 0;
          w.head = 0;
        } else {
          this.placeIndexed(w);
        }
      } else if (w.active) {
        if (w.head === w.queue.length) {
          w.queue.length = 0;
          w.head = 0;
        } else {
          if (w.head > 1024 && w.head * 2 > w.queue.length) {
            w.queue = w.queue.slice(w.head);
            w.head = 0;
          }
          if (!w.scheduled) {
            w.scheduled = true;
            this.clock.defer(w.drainTask, 'store watch delivery');
          }
        }
      }
    }
  }

  private stopWatcher(w: Watcher): void {
    if (!w.active) return;
    w.active = false;
    w.queue = [];
    w.head = 0;
    w.pendingEvents = 0;
    const idx = w.dirIndex;
    if (idx) {
      idx.remove(w);
      if (idx.size === 0 && !idx.running && this.indexByDir.get(w.dir) === idx) this.indexByDir.delete(w.dir);
    }
    const set = this.watchersByDir.get(w.dir);
    if (set) {
      set.delete(w);
      if (set.size === 0) this.watchersByDir.delete(w.dir);
    }
    this.watchers--;
  }
}

const noWatchers: Watcher[] = [];

/** Whether a watcher filed under dir (its prefix's directory) watches key, a key under dir. */
function watchesKey(w: Watcher, dir: string, key: string): boolean {
  return w.prefix.length === dir.length || key.startsWith(w.prefix);
}

function bySeq(a: { seq: number }, b: { seq: number }): number {
  return a.seq - b.seq;
}

function byKey(a: KeyValue, b: KeyValue): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The batch restricted to keys with the prefix, or undefined when none match. Never splits across batches. */
function filterBatch(batch: RevisionBatch, prefix: string): RevisionBatch | undefined {
  if (prefix === '') return batch;
  let matching = 0;
  for (const ev of batch.events) if (ev.kv.key.startsWith(prefix)) matching++;
  if (matching === 0) return undefined;
  if (matching === batch.events.length) return batch;
  return { revision: batch.revision, events: batch.events.filter((ev) => ev.kv.key.startsWith(prefix)) };
}
