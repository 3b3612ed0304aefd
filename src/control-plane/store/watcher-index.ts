// The watchers of one directory that select by an exact value (WatchOptions.index), so a write reaches only the
// watchers whose value its object had or has, not every watcher of the directory (every kubelet watches all pods
// for the few bound to its node).
//
// Exactness. An unindexed watcher gets every revision of its prefix: each write queues the revision for it and,
// when it is idle, defers its drain; the drain hands over everything queued when it starts. Skipping the
// revisions that carry nothing for a watcher must not move its drains in the clock's FIFO, or deliveries across
// watchers would reorder. So the index keeps, without touching each watcher, where each one's drain WOULD be:
//
// - Members are ordered by registration seq, as the store visits a directory's watchers. A write defers, in that
//   order, a drain task for each idle unindexed watcher and one "segment" task for each run of members between
//   them: the members idle at the write are scheduled in that segment.
// - `intervals` partitions the seq axis: each interval is idle, or scheduled in one pending/running segment.
//   Scheduling at a write assigns every idle interval to a segment; a segment that finishes (or, while it runs,
//   the part of it up to the member being drained) becomes idle again. So a member's drain position is the
//   interval holding its seq, whatever the number of writes that skipped it: work per write is proportional to
//   the unindexed watchers and the members a write is for, never to all members.
// - A member with batches queued (its value matched, or it is due a bookmark) is on its segment's work list; the
//   segment drains those in seq order. The others' drains would have delivered nothing.
// - Each interval also keeps the last revision of the directory its members' drains had reached (what an
//   unindexed watcher's "last revision seen" would be): `progressOf`.
import type { KubeObject } from '../../shared/api/types';
import type { StoreEvent, WatchIndex } from './types';

export const SegmentState = { Pending: 0, Running: 1, Done: 2 } as const;
export type SegmentState = (typeof SegmentState)[keyof typeof SegmentState];

/** The part of the store's watcher the index reads and writes. */
export interface IndexMember {
  readonly seq: number;
  active: boolean;
  readonly index?: WatchIndex;
  /** The segment whose work list holds this member (it has batches queued), if any. */
  segment?: DeliverySegment<IndexMember>;
  /** Due time carried by its entry in the bookmark heap; NaN when it has none. */
  dueAt: number;
  /** In the set of members given every revision (a bookmark may be due). */
  inDue: boolean;
}

/** One deferred drain task for the members with seq in [lo, hi) that were idle when it was created. */
export interface DeliverySegment<W extends IndexMember> {
  readonly lo: number;
  readonly hi: number;
  state: SegmentState;
  /** While running: the seq of the member being drained (members up to it have had their turn). */
  cursor: number;
  /** Members with batches queued, drained in seq order; `next` is the position of the one to drain next. */
  work: W[];
  next: number;
}

interface NamedIndex<W> {
  valueOf: (object: KubeObject) => string;
  byValue: Map<string, Set<W>>;
  members: number;
}

export class DirWatcherIndex<W extends IndexMember> {
  /** Revision of the last batch that touched the directory (as far as this index knows). */
  lastRevision = 0;
  running: DeliverySegment<W> | undefined;

  private readonly memberSeqs: number[] = [];
  private readonly byName = new Map<string, NamedIndex<W>>();
  // Intervals [los[i], los[i+1]) of the seq axis; segs[i] undefined = idle; progs[i] = revision reached.
  private los: number[] = [0];
  private segs: (DeliverySegment<W> | undefined)[] = [undefined];
  private progs: number[] = [0];
  private readonly due = new Set<W>();
  private readonly dueHeap = new DueHeap<W>();

  constructor(readonly dir: string) {}

  get size(): number {
    return this.memberSeqs.length;
  }

  /**
   * A new member (its seq above every other): idle from `progress`, or scheduled in `replay` when it has history
   * to replay. `now` places it in the bookmark heap.
   */
  add(w: W, progress: number, now: number, replay?: DeliverySegment<W>): void {
    const index = w.index!;
    let named = this.byName.get(index.name);
    if (!named) this.byName.set(index.name, (named = { valueOf: index.valueOf, byValue: new Map(), members: 0 }));
    named.members++;
    let set = named.byValue.get(index.value);
    if (!set) named.byValue.set(index.value, (set = new Set()));
    set.add(w);
    this.memberSeqs.push(w.seq);

    const i = this.splitAt(w.seq);
    this.los.length = i + 1;
    this.segs.length = i + 1;
    this.progs.length = i + 1;
    this.segs[i] = undefined;
    this.progs[i] = progress;
    if (replay) {
      this.segs[i] = replay;
      this.los.push(w.seq + 1);
      this.segs.push(undefined);
      this.progs.push(progress);
    }
    this.compact();
    this.refreshDue(w, now);
  }

  remove(w: W): void {
    const index = w.index!;
    const named = this.byName.get(index.name);
    if (named) {
      const set = named.byValue.get(index.value);
      set?.delete(w);
      if (set?.size === 0) named.byValue.delete(index.value);
      if (--named.members === 0) this.byName.delete(index.name);
    }
    const at = lowerBound(this.memberSeqs, w.seq);
    if (this.memberSeqs[at] === w.seq) this.memberSeqs.splice(at, 1);
    this.due.delete(w);
    w.inDue = false;
  }

  /**
   * The members this directory's events are for: those indexed under an event object's old or new value, and
   * those that may be due a bookmark (given every revision until they have delivered).
   */
  membersFor(events: readonly StoreEvent[], now: number): Set<W> {
    const out = new Set<W>();
    for (const named of this.byName.values()) {
      for (const ev of events) {
        const value = named.valueOf(ev.kv.value);
        addAll(out, named.byValue.get(value));
        if (ev.prevKv && ev.prevKv.value !== ev.kv.value) {
          const old = named.valueOf(ev.prevKv.value);
          if (old !== value) addAll(out, named.byValue.get(old));
        }
      }
    }
    this.promoteDue(now);
    for (const w of this.due) out.add(w);
    return out;
  }

  /** Whether some event's object had or has the member's value. */
  memberWants(w: W, events: readonly StoreEvent[]): boolean {
    const index = w.index!;
    const named = this.byName.get(index.name);
    if (!named) return false;
    for (const ev of events) {
      if (named.valueOf(ev.kv.value) === index.value) return true;
      if (ev.prevKv && named.valueOf(ev.prevKv.value) === index.value) return true;
    }
    return false;
  }

  /**
   * Members of the running segment up to its cursor have had their turn: they are idle, having reached the
   * directory's last revision. Called before a write schedules, so they join its segments.
   */
  settleRunning(): void {
    const s = this.running;
    if (!s || s.cursor < 0) return;
    const end = this.splitAt(s.cursor + 1);
    for (let i = this.find(s.lo); i < end; i++) {
      if (this.segs[i] === s) {
        this.segs[i] = undefined;
        this.progs[i] = this.lastRevision;
      }
    }
    this.compact();
  }

  /** Schedules the idle members with seq in [lo, hi) in one segment, made by `make` only if there are any. */
  scheduleIdle(lo: number, hi: number, make: () => DeliverySegment<W>): void {
    if (lo >= hi || !this.hasMemberIn(lo, hi)) return;
    let seg: DeliverySegment<W> | undefined;
    for (let i = this.find(lo); i < this.los.length && this.los[i] < hi; i++) {
      if (this.segs[i] !== undefined) continue;
      const from = Math.max(lo, this.los[i]);
      const to = Math.min(hi, i + 1 < this.los.length ? this.los[i + 1] : Infinity);
      if (!this.hasMemberIn(from, to)) continue;
      seg ??= make();
      const a = this.splitAt(from);
      const b = to === Infinity ? this.los.length : this.splitAt(to);
      for (let j = a; j < b; j++) this.segs[j] = seg;
      i = b - 1;
    }
    if (seg) this.compact();
  }

  /** The pending or running segment the member's drain is scheduled in, or undefined when it is idle. */
  segmentOf(w: W): DeliverySegment<W> | undefined {
    const seg = this.segs[this.find(w.seq)];
    if (!seg || seg.state === SegmentState.Done) return undefined;
    if (seg.state === SegmentState.Running && w.seq <= seg.cursor) return undefined;
    return seg;
  }

  /** Schedules one idle member alone (a replay, or batches left by a handler that threw). */
  scheduleAlone(w: W, seg: DeliverySegment<W>): void {
    const a = this.splitAt(w.seq);
    const b = this.splitAt(w.seq + 1);
    for (let j = a; j < b; j++) this.segs[j] = seg;
  }

  /** The segment ran to its end: everyone left in it is idle, having reached the directory's last revision. */
  finish(s: DeliverySegment<W>): void {
    s.state = SegmentState.Done;
    if (this.running === s) this.running = undefined;
    for (let i = this.find(s.lo); i < this.los.length && this.los[i] < s.hi; i++) {
      if (this.segs[i] === s) {
        this.segs[i] = undefined;
        this.progs[i] = this.lastRevision;
      }
    }
    this.compact();
  }

  /** The last revision of the directory the member's drains have reached (an unindexed watcher's last batch). */
  progressOf(w: W): number {
    const i = this.find(w.seq);
    const seg = this.segs[i];
    if (seg && seg.state === SegmentState.Running && w.seq <= seg.cursor) return this.lastRevision;
    return this.progs[i];
  }

  /** After a delivery: a member that was due a bookmark leaves the due set once its next due time is ahead. */
  refreshDue(w: W, now: number): void {
    const at = w.index?.quietBatchesFrom?.() ?? Infinity;
    if (at <= now) {
      if (!w.inDue) {
        w.inDue = true;
        this.due.add(w);
      }
      return;
    }
    if (w.inDue) {
      w.inDue = false;
      this.due.delete(w);
    }
    if (at !== Infinity && !(w.dueAt <= at)) {
      w.dueAt = at;
      this.dueHeap.push(at, w);
    }
  }

  /** Members whose heap time has come are due (after re-reading their time, which may have moved on). */
  private promoteDue(now: number): void {
    for (let top = this.dueHeap.peek(); top && top.at <= now; top = this.dueHeap.peek()) {
      this.dueHeap.pop();
      const w = top.w;
      if (!w.active || w.dueAt !== top.at) continue;
      w.dueAt = NaN;
      this.refreshDue(w, now);
    }
  }

  private hasMemberIn(lo: number, hi: number): boolean {
    const at = lowerBound(this.memberSeqs, lo);
    return at < this.memberSeqs.length && this.memberSeqs[at] < hi;
  }

  /** Index of the interval holding seq. */
  private find(seq: number): number {
    const los = this.los;
    let lo = 0;
    let hi = los.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (los[mid] <= seq) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Makes an interval start at seq (copying the state of the one holding it); returns its index. */
  private splitAt(seq: number): number {
    const i = this.find(seq);
    if (this.los[i] === seq) return i;
    this.los.splice(i + 1, 0, seq);
    this.segs.splice(i + 1, 0, this.segs[i]);
    this.progs.splice(i + 1, 0, this.progs[i]);
    return i + 1;
  }

  /** Merges neighbours in the same state; intervals stay few (about one per unindexed watcher between members). */
  private compact(): void {
    const { los, segs, progs } = this;
    let k = 0;
    for (let i = 1; i < los.length; i++) {
      if (segs[i] === segs[k] && progs[i] === progs[k]) continue;
      k++;
      los[k] = los[i];
      segs[k] = segs[i];
      progs[k] = progs[i];
    }
    los.length = segs.length = progs.length = k + 1;
  }
}

function addAll<W>(out: Set<W>, from: Set<W> | undefined): void {
  if (from) for (const w of from) if ((w as unknown as IndexMember).active) out.add(w);
}

function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A binary min-heap of (time, member); stale entries are skipped by the reader. */
class DueHeap<W> {
  private readonly items: { at: number; w: W }[] = [];

  peek(): { at: number; w: W } | undefined {
    return this.items[0];
  }

  push(at: number, w: W): void {
    const items = this.items;
    items.push({ at, w });
    let i = items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (items[p].at <= items[i].at) break;
      [items[p], items[i]] = [items[i], items[p]];
      i = p;
    }
  }

  pop(): void {
    const items = this.items;
    const last = items.pop()!;
    if (items.length === 0) return;
    items[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && items[l].at < items[m].at) m = l;
      if (r < items.length && items[r].at < items[m].at) m = r;
      if (m === i) return;
      [items[m], items[i]] = [items[i], items[m]];
      i = m;
    }
  }
}
