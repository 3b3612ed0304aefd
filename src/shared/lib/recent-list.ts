// Short most-recently-used lists, for sharing one copy of a value that many long-lived records repeat (the pods
// of a template ask for the same requests, the Events of a recorder carry the same source): a new value equal to
// a recent one is replaced by it. Only sharing depends on what is remembered, never a value.

export class RecentList<T> {
  private readonly items: T[] = [];

  constructor(private readonly capacity: number) {}

  /** The most recent remembered value that matches, moved to the front; undefined when none does. */
  find(matches: (item: T) => boolean): T | undefined {
    const items = this.items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (!matches(item)) continue;
      for (let j = i; j > 0; j--) items[j] = items[j - 1]!;
      items[0] = item;
      return item;
    }
    return undefined;
  }

  /** The i-th most recent value (0: the most recent), undefined past the last; read without reordering. */
  at(i: number): T | undefined {
    return this.items[i];
  }

  /** Remembers value as the most recent (the oldest beyond capacity is forgotten) and returns it. */
  add(value: T): T {
    this.items.unshift(value);
    if (this.items.length > this.capacity) this.items.pop();
    return value;
  }
}

/**
 * Frozen records found under a key (a reason, a host, a fingerprint) with few combinations per key, each key's
 * kept in a RecentList of perKey. A cache: it starts again when it holds maxKeys keys (keys from user input must
 * not grow it).
 */
export class KeyedRecords<R extends object, K = string> {
  private readonly byKey = new Map<K, RecentList<R>>();

  constructor(
    private readonly maxKeys: number,
    private readonly perKey = 16,
  ) {}

  /** The remembered record under key that matches, or make()'s, frozen and remembered. */
  get(key: K, matches: (r: R) => boolean, make: () => R): R {
    return this.find(key, matches) ?? this.add(key, make());
  }

  /** The remembered record under key that matches (now the key's most recent), or undefined. */
  find(key: K, matches: (r: R) => boolean): R | undefined {
    return this.byKey.get(key)?.find(matches);
  }

  /** Remembers record, frozen, as the most recent under key, and returns it. */
  add(key: K, record: R): R {
    let list = this.byKey.get(key);
    if (!list) {
      if (this.byKey.size >= this.maxKeys) this.byKey.clear();
      this.byKey.set(key, (list = new RecentList<R>(this.perKey)));
    }
    return list.add(Object.freeze(record));
  }
}
