// How much the store holds, for the playground limits: objects (the store's O(1) count) and bytes (the JSON size
// of every stored value plus its key, as etcd's db size counts values).
//
// Sizing a value means serializing it, which costs a fair share of the write itself, so it is done lazily:
// observe() (called from the store's onCommit) only remembers which keys changed, in order, and the sizes are computed when
// someone asks for the exact figure (the Settings dialog, or the admission plugin once the estimate comes near its
// cap). Far below the cap the estimate is enough: the last exact total plus the average object size for each
// object created since. (Updates that grow objects are not estimated: the plugin's slack covers them.)
// When nobody asks for a long time (a big rollout with no cap), the remembered writes are forgotten rather than
// sized: sizing them would keep a size per key (and a length per value) for every object in the store, about
// 8 MiB at 30,000 pods, for a figure nobody reads. The next exact read scans the store instead.
import type { KubeObject } from '../../shared/api/types';
import { frozenJsonLength } from '../../shared/lib/json-length';
import type { RevisionBatch, Store } from '../store/types';
import { StoreEventType } from '../store/types';

/** What the admission plugin and the worker read. */
export interface StoreUsageReader {
  objects(): number;
  /** Exact: sizes every value changed since the last call. */
  storedBytes(): number;
  /** Without sizing anything: the last exact total plus the average size for each object created since. */
  storedBytesEstimate(): number;
}

/** The JSON size of a stored value (UTF-16 code units: bytes for the ASCII objects are made of). */
export function storedSize(key: string, value: KubeObject): number {
  return key.length + JSON.stringify(value).length;
}

/** The size assumed for an object not sized yet: a running pod's JSON is 3–4 KiB. */
export const assumedObjectBytes = 4096;

export class StoreUsage implements StoreUsageReader {
  private readonly sizes = new Map<string, number>();
  /**
   * Keys written since the last exact total, in commit order (repeats included). A list, not a set: observe()
   * runs on every commit and appending costs less than hashing the key. Keys only: a key's value is read from the
   * store when it is counted (the store's current value is the last one written, or none after a delete), so
   * this list never keeps an old version of an object alive after the store's history has let it go.
   */
  private pending: string[] = [];
  private total = 0;
  /** Objects created since the last exact figure. */
  private pendingCreates = 0;
  /** A restored store's values are sized at the first exact read, not at boot. */
  private scanned = false;
  /** The average size per object at the last exact figure, for estimates while nothing is sized. */
  private averageObjectBytes = assumedObjectBytes;

  constructor(
    private readonly store: Pick<Store, 'count' | 'range' | 'get'>,
    /** Writes remembered before they are forgotten (bounds the memory of a store nobody asks about). */
    private readonly maxPendingWrites = 100_000,
  ) {}

  /** Records a committed revision; call it from the store's onCommit. O(events). */
  observe(batch: RevisionBatch): void {
    const pending = this.pending;
    for (const ev of batch.events) {
      if (ev.type === StoreEventType.Put && !ev.prevKv) this.pendingCreates++;
      pending.push(ev.kv.key);
    }
    if (pending.length > this.maxPendingWrites) this.forget();
  }

  objects(): number {
    return this.store.count('');
  }

  storedBytes(): number {
    if (!this.scanned) this.scan();
    else this.flush();
    return this.total;
  }

  storedBytesEstimate(): number {
    if (!this.scanned) return this.objects() * this.averageObjectBytes;
    return this.total + this.pendingCreates * this.average();
  }

  private average(): number {
    return this.sizes.size > 0 ? this.total / this.sizes.size : this.averageObjectBytes;
  }

  /** Drops every size and remembered write, keeping the average for estimates: the next exact read scans. */
  private forget(): void {
    if (this.scanned) this.averageObjectBytes = this.average();
    this.sizes.clear();
    this.pending = [];
    this.pendingCreates = 0;
    this.total = 0;
    this.scanned = false;
  }

  private scan(): void {
    this.sizes.clear();
    this.pending = [];
    this.pendingCreates = 0;
    this.total = 0;
    for (const kv of this.store.range('').kvs) {
      const size = kv.key.length + frozenJsonLength(kv.value);
      this.sizes.set(kv.key, size);
      this.total += size;
    }
    this.scanned = true;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const counted = new Set<string>();
    for (const key of this.pending) {
      if (counted.has(key)) continue;
      counted.add(key);
      const value = this.store.get(key)?.value;
      const before = this.sizes.get(key) ?? 0;
      if (value === undefined) {
        this.sizes.delete(key);
        this.total -= before;
      } else {
        const after = key.length + frozenJsonLength(value);
        this.sizes.set(key, after);
        this.total += after - before;
      }
    }
    this.pending = [];
    this.pendingCreates = 0;
  }
}
