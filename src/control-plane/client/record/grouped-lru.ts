// The LRU caches of client-go's event correlator (golang-lru, maxLruCacheEntries keys each), laid out for memory:
// instead of a Map keyed by one joined string per entry (a fresh copy of the object's kind, namespace, name, uid
// and, for the event logger, the whole message), entries are grouped under a string the caller already holds
// (the involved object's uid, else its name) and compared field by field; recency is an intrusive doubly linked
// list, so a use moves two pointers and reading the oldest entry never walks over a Map's deleted slots.

/** What an entry carries for the list. */
export interface LruEntry {
  older: LruEntry | undefined;
  newer: LruEntry | undefined;
}

export class GroupedLru<E extends LruEntry> {
  /** One entry, or several (same group, different keys): most groups hold one or a few. */
  private readonly groups = new Map<string, E | E[]>();
  /**
   * The group an entry is filed under, read from the entry (a string it holds already): a kubelet's recorder
   * keeps thousands of entries, and a field of its own per entry for the group would cost 8 bytes each.
   */
  private readonly groupOf: (e: E) => string;
  private oldestEntry: E | undefined;
  private newestEntry: E | undefined;
  private count = 0;

  constructor(groupOf: (e: E) => string) {
    this.groupOf = groupOf;
  }

  get size(): number {
    return this.count;
  }

  /** The least recently used entry. */
  get oldest(): E | undefined {
    return this.oldestEntry;
  }

  /** The entry of the group that matches, or undefined; not a use. */
  find(group: string, matches: (e: E) => boolean): E | undefined {
    const g = this.groups.get(group);
    if (g === undefined) return undefined;
    if (!Array.isArray(g)) return matches(g) ? g : undefined;
    for (const e of g) if (matches(e)) return e;
    return undefined;
  }

  /** Adds a new entry as the most recently used. */
  add(e: E): void {
    const group = this.groupOf(e);
    const g = this.groups.get(group);
    if (g === undefined) this.groups.set(group, e);
    // A new array of the exact length: one grown by push (or spread) reserves room for 16 more entries.
    else this.groups.set(group, Array.isArray(g) ? exactly(g.length + 1, g, undefined, e) : [g, e]);
    this.link(e);
    this.count++;
  }

  /** A use: the entry becomes the most recently used. */
  touch(e: E): void {
    if (this.newestEntry === e) return;
    this.unlink(e);
    this.link(e);
  }

  delete(e: E): void {
    const group = this.groupOf(e);
    const g = this.groups.get(group);
    if (g === undefined) return;
    if (g === e) this.groups.delete(group);
    else if (Array.isArray(g)) {
      const i = g.indexOf(e);
      if (i < 0) return;
      this.groups.set(group, g.length === 2 ? g[1 - i] : exactly(g.length - 1, g, e, undefined));
    } else return;
    this.unlink(e);
    this.count--;
  }

  /** Evicts the least recently used entries beyond max. */
  evictBeyond(max: number): void {
    while (this.count > max && this.oldestEntry) this.delete(this.oldestEntry);
  }

  private link(e: E): void {
    e.older = this.newestEntry;
    e.newer = undefined;
    if (this.newestEntry) this.newestEntry.newer = e;
    else this.oldestEntry = e;
    this.newestEntry = e;
  }

  private unlink(e: E): void {
    if (e.older) e.older.newer = e.newer;
    else this.oldestEntry = e.newer as E | undefined;
    if (e.newer) e.newer.older = e.older;
    else this.newestEntry = e.older as E | undefined;
    e.older = undefined;
    e.newer = undefined;
  }
}

/** The entries of `from` without `drop` and then `add`, in an array allocated at exactly `length`. */
function exactly<E>(length: number, from: readonly E[], drop: E | undefined, add: E | undefined): E[] {
  const out = new Array<E>(length);
  let n = 0;
  for (const x of from) if (x !== drop) out[n++] = x;
  if (add !== undefined) out[n++] = add;
  return out;
}

/**
 * ms as a small integer when it is one: a subtraction of two large times gives a heap number even when the
 * difference is small, and one heap number stored in a field makes V8 box that field in every entry.
 */
export function smallInteger(ms: number): number {
  const i = ms | 0;
  return i === ms ? i : ms;
}
