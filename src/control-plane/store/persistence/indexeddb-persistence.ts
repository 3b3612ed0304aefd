// Persistence in IndexedDB (through idb). Write-behind: each write cycle is ONE readwrite transaction holding every
// queued batch's puts/deletes plus the meta record {revision, clusterMeta, schemaVersion}, so a reload always finds
// the store at a consistent revision, never half a batch, and the stored revision never goes backwards.
// Durability 'relaxed': a tab or worker crash loses nothing committed; a power loss may lose the last writes.
import type { IDBPDatabase } from 'idb';
import { unwrap } from 'idb';
import type { KeyValue, RevisionBatch } from '../types';
import { StoreEventType } from '../types';
import type { KubeplayDB, MetaRecord } from './indexeddb-schema';
import { DB_VERSION, DEFAULT_DB_NAME, KV_STORE, META_KEY, META_STORE, openKubeplayDb } from './indexeddb-schema';
import type { ClusterMeta, PersistedSnapshot } from './types';
import { WriteBehindPersistence } from './write-behind';

export const IdbCloseReason = {
  /** Another tab opened a newer schema version: this connection was closed so it can upgrade. Reload. */
  VersionChange: 'versionchange',
  /** The browser closed the connection (site data cleared, storage evicted, I/O error). */
  Terminated: 'terminated',
} as const;
export type IdbCloseReason = (typeof IdbCloseReason)[keyof typeof IdbCloseReason];

export interface IndexedDbPersistenceOptions {
  /** Default 'kubeplay'. */
  dbName?: string;
  /** Default globalThis.indexedDB; tests pass fake-indexeddb's IDBFactory. */
  indexedDB?: IDBFactory;
  /** Told when the connection is lost; later writes fail (their waiters are rejected, batches kept). */
  onClose?: (reason: IdbCloseReason) => void;
}

const ignore = (): void => {};

export class IndexedDbPersistence extends WriteBehindPersistence {
  private readonly factory: IDBFactory;
  private readonly dbName: string;
  private readonly onClose?: (reason: IdbCloseReason) => void;
  private db: Promise<IDBPDatabase<KubeplayDB>> | undefined;
  private lostReason: IdbCloseReason | undefined;

  constructor(options: IndexedDbPersistenceOptions = {}) {
    super();
    const factory = options.indexedDB ?? globalThis.indexedDB;
    if (!factory) throw new Error('IndexedDB is not available in this environment');
    this.factory = factory;
    this.dbName = options.dbName ?? DEFAULT_DB_NAME;
    this.onClose = options.onClose;
  }

  async load(): Promise<PersistedSnapshot | undefined> {
    const db = await this.open();
    const tx = db.transaction([KV_STORE, META_STORE], 'readonly');
    const [kvs, meta] = await Promise.all([tx.objectStore(KV_STORE).getAll(), tx.objectStore(META_STORE).get(META_KEY), tx.done]);
    if (!meta && kvs.length === 0) return undefined;
    let revision = meta?.revision ?? 0;
    for (const kv of kvs) if (kv.modRevision > revision) revision = kv.modRevision;
    this.markDurable(revision);
    return { schemaVersion: DB_VERSION, revision, kvs, meta: meta?.clusterMeta };
  }

  protected async write(batches: RevisionBatch[], meta: ClusterMeta | undefined): Promise<void> {
    const db = await this.open();
    const tx = db.transaction([KV_STORE, META_STORE], 'readwrite', { durability: 'relaxed' });
    const done = tx.done;
    done.catch(ignore);
    // Raw requests: nothing to await per object, and a failing request aborts the whole transaction.
    const kvStore = unwrap(tx.objectStore(KV_STORE));
    const metaStore = unwrap(tx.objectStore(META_STORE));
    try {
      // Only the last write of each key matters within one transaction.
      const last = new Map<string, KeyValue | null>();
      let maxRevision = 0;
      for (const batch of batches) {
        for (const ev of batch.events) last.set(ev.kv.key, ev.type === StoreEventType.Put ? ev.kv : null);
        if (batch.revision > maxRevision) maxRevision = batch.revision;
      }
      for (const [key, kv] of last) {
        if (kv) kvStore.put(kv);
        else kvStore.delete(key);
      }
      const prevReq = metaStore.get(META_KEY) as IDBRequest<MetaRecord | undefined>;
      prevReq.onsuccess = () => {
        const prev = prevReq.result;
        const record: MetaRecord = { revision: Math.max(prev?.revision ?? 0, maxRevision), schemaVersion: DB_VERSION };
        const clusterMeta = meta ?? prev?.clusterMeta;
        if (clusterMeta !== undefined) record.clusterMeta = clusterMeta;
        metaStore.put(record, META_KEY);
      };
    } catch (err) {
      // e.g. DataCloneError thrown synchronously by put(): nothing of this cycle may land.
      try {
        tx.abort();
      } catch {
        // already finished
      }
      throw err;
    }
    await done;
  }

  protected async clearStorage(): Promise<void> {
    const db = await this.open();
    const tx = db.transaction([KV_STORE, META_STORE], 'readwrite');
    await Promise.all([tx.objectStore(KV_STORE).clear(), tx.objectStore(META_STORE).clear(), tx.done]);
  }

  protected closeStorage(): void {
    const db = this.db;
    this.db = undefined;
    // Closing waits for running transactions; queued writes were dropped by close().
    db?.then((d) => d.close(), ignore);
  }

  private open(): Promise<IDBPDatabase<KubeplayDB>> {
    if (this.closed) return Promise.reject(new Error('persistence is closed'));
    if (this.lostReason) return Promise.reject(new Error(`IndexedDB connection closed (${this.lostReason})`));
    if (!this.db) {
      const db = openKubeplayDb(this.factory, this.dbName, {
        onVersionChange: () => this.lost(IdbCloseReason.VersionChange),
        onTerminated: () => this.lost(IdbCloseReason.Terminated),
      });
      this.db = db;
      // A failed open is retried by the next operation.
      db.catch(() => {
        if (this.db === db) this.db = undefined;
      });
    }
    return this.db;
  }

  private lost(reason: IdbCloseReason): void {
    if (this.lostReason || this.closed) return;
    this.lostReason = reason;
    this.db = undefined;
    this.onClose?.(reason);
  }
}
