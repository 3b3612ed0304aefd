// Persistence that keeps the durable state in memory: for tests and the headless cluster. It follows the same
// write-behind protocol as IndexedDbPersistence (a write cycle on a microtask, atomic per cycle), so a test can
// "reload" by loading it into a new store, "crash" with discardPending(), and fail a write with failNextWrite().
import type { KeyValue, RevisionBatch } from '../types';
import { StoreEventType } from '../types';
import { DB_VERSION } from './indexeddb-schema';
import type { ClusterMeta, PersistedSnapshot } from './types';
import type { WriteBehindOptions } from './write-behind';
import { WriteBehindPersistence } from './write-behind';

export class MemoryPersistence extends WriteBehindPersistence {
  private readonly kvs = new Map<string, KeyValue>();
  private revision = 0;
  private meta: ClusterMeta | undefined;
  private saved = false;
  private readonly failures: unknown[] = [];

  constructor(options: WriteBehindOptions = {}) {
    super(options);
  }

  load(): Promise<PersistedSnapshot | undefined> {
    if (!this.saved) return Promise.resolve(undefined);
    this.markDurable(this.revision);
    const kvs = [...this.kvs.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return Promise.resolve({ schemaVersion: DB_VERSION, revision: this.revision, kvs, meta: this.meta });
  }

  /** Makes the next write cycle fail with err (its batches stay queued for the following one). */
  failNextWrite(err: unknown = new Error('simulated write failure')): void {
    this.failures.push(err);
  }

  /** Drops everything queued and not yet written, as a crash would; returns how many batches were lost. */
  discardPending(): number {
    return this.dropPending(new Error('persistence discarded pending writes'));
  }

  protected write(batches: RevisionBatch[], meta: ClusterMeta | undefined): Promise<void> {
    if (this.failures.length > 0) return Promise.reject(this.failures.shift());
    for (const batch of batches) {
      for (const ev of batch.events) {
        if (ev.type === StoreEventType.Put) this.kvs.set(ev.kv.key, ev.kv);
        else this.kvs.delete(ev.kv.key);
      }
      if (batch.revision > this.revision) this.revision = batch.revision;
    }
    if (meta !== undefined) this.meta = meta;
    this.saved = true;
    return Promise.resolve();
  }

  protected clearStorage(): Promise<void> {
    this.kvs.clear();
    this.revision = 0;
    this.meta = undefined;
    this.saved = false;
    return Promise.resolve();
  }

  protected closeStorage(): void {}
}
