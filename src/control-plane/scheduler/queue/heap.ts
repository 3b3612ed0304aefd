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

  private swap(i: number, j: number): void {
    const a = this.items;
    [a[i], a[j]] = [a[j], a[i]];
    this.index.set(this.keyOf(a[i]), i);
    this.index.set(this.keyOf(a[j]), j);
  }

  private up(i: number): boolean {
    const start = i;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(this.items[i], this.items[p])) break;
      this.swap(i, p);
      i = p;
    }
    return i !== start;
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(this.items[l], this.items[m])) m = l;
      if (r < n && this.less(this.items[r], this.items[m])) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
