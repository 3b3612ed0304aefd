// The LRU caches of client-go's event correlator (golang-lru, maxLruCacheEntries keys each), laid out for memory.
// A kubelet's recorder remembers a few entries per pod, so an entry is not an object: it is a slot number into
// columns the cache owns (structure of arrays). Per slot: its recency links and the next slot of its group in
// one Int32Array, its references (strings, shared records) in one array, its numbers (counts, times, tokens) in
// one Float64Array, where a double is stored in place rather than boxed as a heap number per field.
//
// Instead of a Map keyed by one joined string per entry (a fresh copy of the object's kind, namespace, name, uid
// and, for the event logger, the whole message), entries are grouped under a string the caller already holds
// (the involved object's uid, else its name) and compared field by field. A group is a chain of slots; the
// Map holds its first slot as a small integer. Recency is a doubly linked list of slots, so a use moves two
// links and reading the oldest entry never walks over a Map's deleted slots.

/** No slot (an empty chain or list). */
export const noSlot = -1;

/** Link columns per slot: older, newer, next in the group's chain (next on the free list once freed). */
const linkColumns = 3;
const OLDER = 0;
const NEWER = 1;
const NEXT = 2;

/** Slots one lane of a shared GroupIndex can name (15 bits, less the 0 that stands for none). */
const maxSharedSlots = 0x7fff - 1;

/**
 * Groups → the first slot of each cache's chain. Two caches grouped by the same strings (a recorder's event log
 * and spam filter, both by the object's uid) can share one index, each in a lane of its values: a Map entry per
 * object instead of one in each. A shared index packs both heads into one small integer, so its caches hold at
 * most maxSharedSlots slots each.
 */
export class GroupIndex {
  private readonly heads = new Map<string, number>();

  constructor(readonly lanes: 1 | 2 = 1) {}

  /** The first slot of the lane's chain for the group, or noSlot. */
  get(group: string, lane: number): number {
    const v = this.heads.get(group);
    if (v === undefined) return noSlot;
    if (this.lanes === 1) return v;
    return (lane === 0 ? v & 0x7fff : v >>> 15) - 1;
  }

  set(group: string, lane: number, slot: number): void {
    if (this.lanes === 1) {
      if (slot === noSlot) this.heads.delete(group);
      else this.heads.set(group, slot);
      return;
    }
    const v = this.heads.get(group) ?? 0;
    const next = lane === 0 ? (v & ~0x7fff) | (slot + 1) : (v & 0x7fff) | ((slot + 1) << 15);
    if (next === 0) this.heads.delete(group);
    else this.heads.set(group, next);
  }

  /** Groups with an entry in some lane (for tests). */
  get size(): number {
    return this.heads.size;
  }
}

export class GroupedLru {
  /** Group → its first slot, in this cache's lane. */
  private readonly groups: GroupIndex;
  private readonly lane: number;
  private links: Int32Array;
  /** refsPerEntry references per slot; reference 0 is the entry's group. */
  private refs: unknown[] = [];
  private numbers: Float64Array;
  private capacity = 0;
  private oldestSlot = noSlot;
  private newestSlot = noSlot;
  /** Freed slots, chained through their NEXT link, reused before the columns grow. */
  private freeSlot = noSlot;
  private count = 0;

  constructor(
    private readonly refsPerEntry: number,
    private readonly numbersPerEntry: number,
    shared?: { groups: GroupIndex; lane: number },
  ) {
    if (refsPerEntry < 1) throw new Error('an entry holds at least its group');
    this.groups = shared?.groups ?? new GroupIndex();
    this.lane = shared?.lane ?? 0;
    this.links = new Int32Array(0);
    this.numbers = new Float64Array(0);
  }

  get size(): number {
    return this.count;
  }

  /** The least recently used entry's slot, or noSlot. */
  get oldest(): number {
    return this.oldestSlot;
  }

  /** The first slot of the group, or noSlot; with next(), the group's entries (in no particular order). */
  first(group: string): number {
    return this.groups.get(group, this.lane);
  }

  /** The group's slot after this one, or noSlot. */
  next(slot: number): number {
    return this.links[slot * linkColumns + NEXT];
  }

  /** The slot used next after this one (oldest first), or noSlot. */
  newer(slot: number): number {
    return this.links[slot * linkColumns + NEWER];
  }

  /** Reference i of the entry (0 is its group). */
  ref(slot: number, i: number): unknown {
    return this.refs[slot * this.refsPerEntry + i];
  }

  setRef(slot: number, i: number, value: unknown): void {
    if (i === 0) throw new Error('an entry keeps its group');
    this.refs[slot * this.refsPerEntry + i] = value;
  }

  number(slot: number, i: number): number {
    return this.numbers[slot * this.numbersPerEntry + i];
  }

  setNumber(slot: number, i: number, value: number): void {
    this.numbers[slot * this.numbersPerEntry + i] = value;
  }

  /** A new entry of the group, the most recently used; the caller fills its references and numbers. */
  add(group: string): number {
    const slot = this.allocate();
    const links = this.links;
    this.refs[slot * this.refsPerEntry] = group;
    links[slot * linkColumns + NEXT] = this.groups.get(group, this.lane);
    this.groups.set(group, this.lane, slot);
    this.link(slot);
    this.count++;
    return slot;
  }

  /** A use: the entry becomes the most recently used. */
  touch(slot: number): void {
    if (this.newestSlot === slot) return;
    this.unlink(slot);
    this.link(slot);
  }

  delete(slot: number): void {
    const group = this.refs[slot * this.refsPerEntry] as string;
    const links = this.links;
    const after = links[slot * linkColumns + NEXT];
    let s = group === undefined ? noSlot : this.groups.get(group, this.lane);
    if (s === slot) {
      this.groups.set(group, this.lane, after);
    } else {
      while (s !== noSlot && links[s * linkColumns + NEXT] !== slot) s = links[s * linkColumns + NEXT];
      if (s === noSlot) return; // not an entry of this cache
      links[s * linkColumns + NEXT] = after;
    }
    this.unlink(slot);
    this.count--;
    // Released: its strings and records are not kept alive by a free slot.
    const r = slot * this.refsPerEntry;
    for (let i = 0; i < this.refsPerEntry; i++) this.refs[r + i] = undefined;
    links[slot * linkColumns + NEXT] = this.freeSlot;
    this.freeSlot = slot;
  }

  /** Evicts the least recently used entries beyond max. */
  evictBeyond(max: number): void {
    while (this.count > max && this.oldestSlot !== noSlot) this.delete(this.oldestSlot);
  }

  private allocate(): number {
    if (this.freeSlot !== noSlot) {
      const slot = this.freeSlot;
      this.freeSlot = this.links[slot * linkColumns + NEXT];
      return slot;
    }
    if (this.count === this.capacity) this.grow();
    // No free slot and count < capacity: the slots past the highest used one are untouched.
    return this.count;
  }

  /**
   * By a half (at least 4 slots): a kubelet's recorder holds a few hundred entries at most (three per pod of its
   * node), a controller's up to maxLruCacheEntries. Growing by an eighth kept the columns tighter but copied
   * them some thirty times while a 100-pod node filled (~0.5% of a 300-pod rollout); by a half, about ten.
   */
  private grow(): void {
    let capacity = this.capacity + Math.max(4, this.capacity >> 1);
    if (this.groups.lanes > 1) {
      if (this.capacity >= maxSharedSlots) throw new Error(`a cache sharing its group index holds at most ${maxSharedSlots} entries`);
      capacity = Math.min(capacity, maxSharedSlots);
    }
    const links = new Int32Array(capacity * linkColumns);
    links.set(this.links);
    this.links = links;
    const numbers = new Float64Array(capacity * this.numbersPerEntry);
    numbers.set(this.numbers);
    this.numbers = numbers;
    // Allocated at its size (a growing array reserves room for half as many more plus 16).
    const refs = new Array<unknown>(capacity * this.refsPerEntry).fill(undefined);
    for (let i = 0; i < this.refs.length; i++) refs[i] = this.refs[i];
    this.refs = refs;
    this.capacity = capacity;
  }

  private link(slot: number): void {
    const links = this.links;
    const newest = this.newestSlot;
    links[slot * linkColumns + OLDER] = newest;
    links[slot * linkColumns + NEWER] = noSlot;
    if (newest !== noSlot) links[newest * linkColumns + NEWER] = slot;
    else this.oldestSlot = slot;
    this.newestSlot = slot;
  }

  private unlink(slot: number): void {
    const links = this.links;
    const older = links[slot * linkColumns + OLDER];
    const newer = links[slot * linkColumns + NEWER];
    if (older !== noSlot) links[older * linkColumns + NEWER] = newer;
    else this.oldestSlot = newer;
    if (newer !== noSlot) links[newer * linkColumns + OLDER] = older;
    else this.newestSlot = older;
  }
}
