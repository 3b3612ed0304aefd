// An ordered set of strings for prefix ranges: sorted chunks of at most 2 × maxChunk keys. Insert and delete cost
// O(log n + maxChunk) (a splice inside one chunk); a prefix range costs O(log n + result). This keeps
// range('/registry/core/pods/ns/') proportional to the pods in ns, however many objects the store holds.
// Keys compare by UTF-16 code units (JS `<`), which matches etcd's byte order for the ASCII keys we use.

const DEFAULT_MAX_CHUNK = 512;

export class SortedKeySet {
  private chunks: string[][] = [];
  private count = 0;

  /** maxChunk: a chunk splits in two once it exceeds twice this size (small values exercise splits in tests). */
  constructor(private readonly maxChunk = DEFAULT_MAX_CHUNK) {}

  get size(): number {
    return this.count;
  }

  /** Adds the key; false when it was already present. */
  add(key: string): boolean {
    const chunks = this.chunks;
    if (chunks.length === 0) {
      chunks.push([key]);
      this.count++;
      return true;
    }
    let ci = this.chunkFor(key);
    if (ci === chunks.length) ci--; // greater than every key: append to the last chunk
    const chunk = chunks[ci];
    const pos = lowerBound(chunk, key);
    if (chunk[pos] === key) return false;
    if (pos === chunk.length) chunk.push(key);
    else chunk.splice(pos, 0, key);
    this.count++;
    if (chunk.length > this.maxChunk * 2) chunks.splice(ci + 1, 0, chunk.splice(this.maxChunk));
    return true;
  }

  /** Removes the key; false when it was absent. */
  delete(key: string): boolean {
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
