// An ordered set of strings for prefix ranges: sorted chunks of at most 2 × maxChunk keys. Placing a key and
// deleting one cost O(log n + maxChunk) (a splice inside one chunk); a prefix range costs O(log n + result).
// This keeps range('/registry/core/pods/ns/') proportional to the pods in ns, however many objects the store
// holds. Keys compare by UTF-16 code units (JS `<`), which matches etcd's byte order for the ASCII keys we use.
//
// A new key is first only remembered under its directory, and put in order when a range or a delete needs that
// directory: most keys of a busy cluster are Events nobody lists while they are written, and placing each one
// among a hundred thousand others as it came was a binary search and a splice per Event. A range looks at every
// directory with keys not in order yet, so there are at most maxUnorderedDirs of them: one more puts them all in
// order first.

const DEFAULT_MAX_CHUNK = 512;
const DEFAULT_MAX_UNORDERED_DIRS = 32;

export class SortedKeySet {
  private chunks: string[][] = [];
  /** Keys in the set, ordered or not. */
  private count = 0;
  /** New keys not yet in the chunks, by directory (the key up to its last '/'). */
  private readonly unordered = new Map<string, string[]>();

  /**
   * maxChunk: a chunk splits in two once it exceeds twice this size; maxUnorderedDirs: directories that may
   * hold keys not in order yet (small values exercise splits and orderings in tests).
   */
  constructor(
    private readonly maxChunk = DEFAULT_MAX_CHUNK,
    private readonly maxUnorderedDirs = DEFAULT_MAX_UNORDERED_DIRS,
  ) {}

  get size(): number {
    return this.count;
  }

  /**
   * Adds a key the set does not hold (the caller knows: the store's map of values says so). dir is its
   * directory, key up to and including its last '/' ('' when it has none), which the store has at hand.
   */
  insert(key: string, dir: string): void {
    const keys = this.unordered.get(dir);
    if (keys !== undefined) keys.push(key);
    else {
      if (this.unordered.size >= this.maxUnorderedDirs) this.orderUnder('');
      this.unordered.set(dir, [key]);
    }
    this.count++;
  }

  /** Removes the key; false when it was absent. */
  delete(key: string, dir: string): boolean {
    this.orderDir(dir);
    const ci = this.chunkFor(key);
    if (ci === this.chunks.length) return false;
    const chunk = this.chunks[ci];
    const pos = lowerBound(chunk, key);
    if (chunk[pos] !== key) return false;
    chunk.splice(pos, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(ci, 1);
    return true;
  }

  /** Calls fn for every key starting with prefix, in order. */
  forEachWithPrefix(prefix: string, fn: (key: string) => void): void {
    this.orderUnder(prefix);
    const chunks = this.chunks;
    let ci = this.chunkFor(prefix);
    if (ci === chunks.length) return;
    let pos = lowerBound(chunks[ci], prefix);
    for (; ci < chunks.length; ci++, pos = 0) {
      const chunk = chunks[ci];
      for (; pos < chunk.length; pos++) {
        const key = chunk[pos];
        if (!key.startsWith(prefix)) return;
        fn(key);
      }
    }
  }

  /** Number of keys starting with prefix: O(log n + result). */
  countWithPrefix(prefix: string): number {
    if (prefix === '') return this.count;
    let n = 0;
    this.forEachWithPrefix(prefix, () => n++);
    return n;
  }

  /** Puts in order every unordered key that may start with prefix: those of a directory inside it or around it. */
  private orderUnder(prefix: string): void {
    if (this.unordered.size === 0) return;
    let keys: string[] | undefined;
    for (const [dir, dirKeys] of this.unordered) {
      if (!(dir.startsWith(prefix) || prefix.startsWith(dir))) continue;
      this.unordered.delete(dir);
      keys = keys === undefined ? dirKeys : keys.concat(dirKeys);
    }
    if (keys !== undefined) this.order(keys);
  }

  /** Puts dir's unordered keys in order, if it has any. */
  private orderDir(dir: string): void {
    const keys = this.unordered.get(dir);
    if (keys === undefined) return;
    this.unordered.delete(dir);
    this.order(keys);
  }

  /** Puts keys (in no chunk yet) in the chunks: one by one when few, else by merging them with every chunk. */
  private order(keys: string[]): void {
    keys.sort();
    let ordered = this.count - keys.length;
    for (const other of this.unordered.values()) ordered -= other.length;
    if (keys.length * 8 < ordered) {
      for (const key of keys) this.place(key);
      return;
    }
    const merged: string[] = [];
    let j = 0;
    for (const chunk of this.chunks) {
      for (const key of chunk) {
        while (j < keys.length && keys[j] < key) merged.push(keys[j++]);
        merged.push(key);
      }
    }
    while (j < keys.length) merged.push(keys[j++]);
    this.chunks = [];
    for (let i = 0; i < merged.length; i += this.maxChunk) this.chunks.push(merged.slice(i, i + this.maxChunk));
  }

  /** Puts a key that is in no chunk in its place among them. */
  private place(key: string): void {
    const chunks = this.chunks;
    if (chunks.length === 0) {
      chunks.push([key]);
      return;
    }
    let ci = this.chunkFor(key);
    if (ci === chunks.length) ci--; // greater than every key: append to the last chunk
    const chunk = chunks[ci];
    const pos = lowerBound(chunk, key);
    if (pos === chunk.length) chunk.push(key);
    else chunk.splice(pos, 0, key);
    if (chunk.length > this.maxChunk * 2) chunks.splice(ci + 1, 0, chunk.splice(this.maxChunk));
  }

  /** Index of the first chunk whose last key is ≥ key (chunks.length when none is). */
  private chunkFor(key: string): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = chunks[mid];
      if (chunk[chunk.length - 1] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** First index whose element is ≥ key. */
function lowerBound(arr: string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
