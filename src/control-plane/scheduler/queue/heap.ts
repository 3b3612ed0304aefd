// A binary heap with keyed lookup, update and removal (pkg/scheduler/backend/heap): the active queue and the
// backoff queue are both ordered heaps whose items can be updated or deleted by pod key.

export class KeyedHeap<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<string, number>();

  constructor(
    private readonly keyOf: (item: T) => string,
    /** Whether a comes before b. */
    private readonly less: (a: T, b: T) => boolean,
  ) {}

  get size(): number {
    return this.items.length;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.items[i];
  }

  peek(): T | undefined {
    return this.items[0];
  }

  /** Adds, or replaces the item with the same key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const i = this.index.get(key);
    if (i !== undefined) {
      this.items[i] = item;
      this.fix(i);
      return;
    }
    this.items.push(item);
    this.index.set(key, this.items.length - 1);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    if (this.items.length === 0) return undefined;
    const top = this.items[0];
    this.removeAt(0);
    return top;
  }

  delete(key: string): T | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const item = this.items[i];
    this.removeAt(i);
    return item;
  }

  list(): T[] {
    return [...this.items];
  }

  private removeAt(i: number): void {
    const last = this.items.length - 1;
    this.index.delete(this.keyOf(this.items[i]));
    if (i !== last) {
      this.items[i] = this.items[last];
      this.index.set(this.keyOf(this.items[i]), i);
      this.items.pop();
      this.fix(i);
    } else {
      this.items.pop();
    }
  }

  private fix(i: number): void {
    if (!this.up(i)) this.down(i);
  }

  // up and down move the item through a hole (each item passed is shifted once, its index updated once) rather
  // than swapping at every level: the same comparisons, so the same arrangement, with half the index writes.

  private up(i: number): boolean {
    const items = this.items;
    const item = items[i];
    const start = i;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = items[p];
      if (!this.less(item, parent)) break;
      items[i] = parent;
      this.index.set(this.keyOf(parent), i);
      i = p;
    }
    if (i === start) return false;
    items[i] = item;
    this.index.set(this.keyOf(item), i);
    return true;
  }

  private down(i: number): void {
    const items = this.items;
    const n = items.length;
    const item = items[i];
    const start = i;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      // The smaller child; it moves up if it comes before the item (for a strict weak order, the same child
      // a pairwise comparison with the item first would pick).
      const m = r < n && this.less(items[r], items[l]) ? r : l;
      const child = items[m];
      if (!this.less(child, item)) break;
      items[i] = child;
      this.index.set(this.keyOf(child), i);
      i = m;
    }
    if (i === start) return;
    items[i] = item;
    this.index.set(this.keyOf(item), i);
  }
}
