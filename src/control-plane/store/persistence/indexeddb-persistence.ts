// Persistence in IndexedDB (through idb). Write-behind with group commit: each write cycle is ONE readwrite
// transaction holding every queued batch (the last write of each key, as one compact log record, log-codec.ts) plus
// the meta record {revision, clusterMeta, schemaVersion}, so a reload always finds the store at a consistent
// revision, never half a batch, and the stored revision never goes backwards. Once the log holds as many entries as
// there are live keys, the cycle writes a snapshot of the live keys instead and empties the log, in the same
// transaction, so a reload reads O(live keys) and the log's cost per write stays constant.
// Durability 'relaxed': a tab or worker crash loses nothing committed; a power loss may lose the last writes.
import type { IDBPDatabase } from 'idb';
import { unwrap } from 'idb';
import type { KeyValue, RevisionBatch } from '../types';
import { StoreEventType } from '../types';
import type { KubeplayDB, MetaRecord } from './indexeddb-schema';
import { DB_VERSION, DEFAULT_DB_NAME, LOG_STORE, META_KEY, META_STORE, openKubeplayDb, SNAPSHOT_CHUNK, SNAPSHOT_STORE } from './indexeddb-schema';
import { encodeLogRecord, encodeSnapshotChunks, replayLogRecord, replaySnapshotChunk, sortedKvs } from './log-codec';
import type { ClusterMeta, PersistedSnapshot } from './types';
import { WriteBehindPersistence } from './write-behind';
import { FencedError, isLeaderRecord, LEADER_KEY } from './leader-epoch';
import type { LeaderRecord } from './leader-epoch';

export const IdbCloseReason = {
  /** Another tab opened a newer schema version: this connection was closed so it can upgrade. Reload. */
  VersionChange: 'versionchange',
  /** The browser closed the connection (site data cleared, storage evicted, I/O error). */
  Terminated: 'terminated',
  /** Another tab claimed a newer leader epoch (leader-epoch.ts): this one must stop writing. */
  Fenced: 'fenced',
} as const;
export type IdbCloseReason = (typeof IdbCloseReason)[keyof typeof IdbCloseReason];

export interface IndexedDbPersistenceOptions {
  /** Default 'kubeplay'. */
  dbName?: string;
  /** Default globalThis.indexedDB; tests pass fake-indexeddb's IDBFactory. */
  indexedDB?: IDBFactory;
  /** Told when the connection is lost; later writes fail (their waiters are rejected, batches kept). */
  onClose?: (reason: IdbCloseReason) => void;
  /** Log entries that always fit before a compaction (beyond it, a compaction once they reach the live keys). Default 1024. */
  minLogEntries?: number;
  /**
   * Told when a write cycle failed (before its waiters are rejected); isQuotaExceeded(err) when the disk is full.
   * The cycle's batches stay queued for the next cycle.
   */
  onWriteError?: (err: unknown) => void;
  /**
   * load() reports at least this revision: a cluster reopened after its unsaved writes were rolled back continues
   * after every revision it ever handed out, so no watcher sees a resourceVersion reused.
   */
  minRevision?: number;
  /**
   * Fences on an epoch this leader claimed earlier with another instance (claimLeadership), without claiming a new
   * one: e.g. the connection that wipes the database on a reset.
   */
  leaderEpoch?: number;
}

const STORES = [LOG_STORE, SNAPSHOT_STORE, META_STORE] as const;

const ignore = (): void => {};

export class IndexedDbPersistence extends WriteBehindPersistence {
  private readonly factory: IDBFactory;
  private readonly dbName: string;
  private readonly onClose?: (reason: IdbCloseReason) => void;
  private db: Promise<IDBPDatabase<KubeplayDB>> | undefined;
  private lostReason: IdbCloseReason | undefined;
  private readonly minLogEntries: number;
  private readonly onWriteError?: (err: unknown) => void;
  private readonly minRevision: number;
  /**
   * The stored keys as of the durable revision (shared KeyValues, no copies), so a compaction needs no read.
   * Undefined until this instance has read the database (load) or emptied it (clear): without it, it only appends.
   */
  private live: Map<string, KeyValue> | undefined;
  /** Entries in the log since the last snapshot (records count too: each costs a read on reload). */
  private logEntries = 0;
  /** Set by claimLeadership(): every write transaction then checks the stored epoch is still this one. */
  private leaderEpoch: number | undefined;
  /**
   * The meta record as stored, known once this instance read it (load) or wrote it: a fenced leader is the only
   * writer, so its cycles need not read it back. That read cost every cycle a round trip through the worker's
   * event loop before the transaction could commit (its success event queues behind every message waiting
   * there). 'unknown': read it in the transaction, as an instance that is not the fenced leader always does.
   */
  private storedMeta: MetaRecord | undefined | 'unknown' = 'unknown';

  constructor(options: IndexedDbPersistenceOptions = {}) {
    super();
    const factory = options.indexedDB ?? globalThis.indexedDB;
    if (!factory) throw new Error('IndexedDB is not available in this environment');
    this.factory = factory;
    this.dbName = options.dbName ?? DEFAULT_DB_NAME;
    this.onClose = options.onClose;
    this.minLogEntries = options.minLogEntries ?? 1024;
    this.onWriteError = options.onWriteError;
    this.minRevision = options.minRevision ?? 0;
    this.leaderEpoch = options.leaderEpoch;
  }

  /** The leader epoch this instance claimed, if it did. */
  get leaderEpochClaimed(): number | undefined {
    return this.leaderEpoch;
  }

  /**
   * Makes this instance the leader: increments the stored epoch in one transaction and fences every later write
   * on it. Call before load(), so whatever a previous leader committed before being fenced is what load() reads.
   */
  async claimLeadership(): Promise<number> {
    const db = await this.open();
    const tx = db.transaction(META_STORE, 'readwrite');
    const store = unwrap(tx.objectStore(META_STORE));
    let epoch = 0;
    const req = store.get(LEADER_KEY) as IDBRequest<unknown>;
    req.onsuccess = () => {
      epoch = (isLeaderRecord(req.result) ? req.result.epoch : 0) + 1;
      store.put({ epoch } satisfies LeaderRecord, LEADER_KEY);
    };
    await tx.done;
    this.leaderEpoch = epoch;
    return epoch;
  }

  async load(): Promise<PersistedSnapshot | undefined> {
    const db = await this.open();
    const tx = db.transaction([...STORES], 'readonly');
    const [chunks, logKeys, log, meta] = await Promise.all([
      tx.objectStore(SNAPSHOT_STORE).getAll(),
      tx.objectStore(LOG_STORE).getAllKeys(),
      tx.objectStore(LOG_STORE).getAll(),
      tx.objectStore(META_STORE).get(META_KEY) as Promise<MetaRecord | undefined>,
      tx.done,
    ]);
    // One pass: the snapshot, then the log in revision order (getAll returns records in key order).
    const state = new Map<string, KeyValue>();
    for (const chunk of chunks) replaySnapshotChunk(chunk, state);
    let entries = 0;
    for (const record of log) entries += replayLogRecord(record, state);
    this.live = state;
    this.logEntries = entries;
    this.storedMeta = meta;
    if (!meta && state.size === 0 && logKeys.length === 0) return undefined;
    let revision = meta?.revision ?? 0;
    for (const r of logKeys) if (r > revision) revision = r;
    for (const kv of state.values()) if (kv.modRevision > revision) revision = kv.modRevision;
    this.markDurable(revision);
    if (this.minRevision > revision) revision = this.minRevision;
    return { schemaVersion: DB_VERSION, revision, kvs: sortedKvs(state), meta: meta?.clusterMeta };
  }

  protected async write(batches: RevisionBatch[], meta: ClusterMeta | undefined): Promise<void> {
    try {
      await this.writeCycle(batches, meta);
    } catch (err) {
      this.onWriteError?.(err);
      throw err;
    }
  }

  private async writeCycle(batches: RevisionBatch[], meta: ClusterMeta | undefined): Promise<void> {
    const db = await this.open();
    const tx = db.transaction([...STORES], 'readwrite', { durability: 'relaxed' });
    const done = tx.done;
    done.catch(ignore);
    // Raw requests: nothing to await per record, and a failing request aborts the whole transaction.
    const logStore = unwrap(tx.objectStore(LOG_STORE));
    const snapshotStore = unwrap(tx.objectStore(SNAPSHOT_STORE));
    const metaStore = unwrap(tx.objectStore(META_STORE));
    /** An error thrown inside a request callback: the transaction is aborted and write() rejects with it. */
    let failure: unknown;
    // Only the last write of each key matters within one transaction.
    const last = new Map<string, KeyValue | null>();
    let maxRevision = 0;
    for (const batch of batches) {
      for (const ev of batch.events) last.set(ev.kv.key, ev.type === StoreEventType.Put ? ev.kv : null);
      if (batch.revision > maxRevision) maxRevision = batch.revision;
    }
    const live = this.live;
    const compact = live !== undefined && last.size > 0 && this.logEntries + last.size >= Math.max(this.minLogEntries, live.size);
    let next: Map<string, KeyValue> | undefined;
    /** The meta record this cycle puts (once its transaction commits, what is stored). */
    let written: MetaRecord | undefined;
    try {
      // Fencing: requests run in order, so a stale epoch aborts the transaction before anything of it lands.
      const epoch = this.leaderEpoch;
      if (epoch !== undefined) {
        const leaderReq = metaStore.get(LEADER_KEY) as IDBRequest<unknown>;
        leaderReq.onsuccess = () => {
          const current = isLeaderRecord(leaderReq.result) ? leaderReq.result.epoch : 0;
          if (current !== epoch) {
            failure = new FencedError(epoch, current);
            tx.abort();
          }
        };
      }
      if (compact) {
        next = new Map(live);
        applyChanges(next, last);
        logStore.clear();
        snapshotStore.clear();
        encodeSnapshotChunks(next.values(), SNAPSHOT_CHUNK).forEach((chunk, i) => snapshotStore.put(chunk, i));
      } else if (last.size > 0) {
        logStore.put(encodeLogRecord(last), maxRevision);
      }
      const known = this.storedMeta;
      if (epoch !== undefined && known !== 'unknown') {
        // The fenced leader's own last record: if another tab took over since, the epoch check aborts this put.
        written = metaRecord(known, maxRevision, meta);
        metaStore.put(written, META_KEY);
      } else {
        const prevReq = metaStore.get(META_KEY) as IDBRequest<MetaRecord | undefined>;
        prevReq.onsuccess = () => {
          try {
            written = metaRecord(prevReq.result, maxRevision, meta);
            metaStore.put(written, META_KEY);
          } catch (err) {
            failure = err;
            tx.abort();
          }
        };
      }
    } catch (err) {
      // e.g. QuotaExceededError or DataCloneError thrown synchronously by put(): nothing of this cycle may land.
      try {
        tx.abort();
      } catch {
        // already finished
      }
      throw err;
    }
    try {
      await done;
    } catch (err) {
      if (failure instanceof FencedError) this.lost(IdbCloseReason.Fenced);
      throw failure ?? err;
    }
    // Durable: the in-memory mirror of the stored keys (and the meta record) follows.
    if (written) this.storedMeta = written;
    if (next) {
      this.live = next;
      this.logEntries = 0;
    } else if (last.size > 0) {
      if (this.live) applyChanges(this.live, last);
      this.logEntries += last.size;
    }
  }

  protected async clearStorage(): Promise<void> {
    const db = await this.open();
    const tx = db.transaction([...STORES], 'readwrite');
    // A stale leader must not wipe the new one's cluster: the epoch check comes first and aborts the clears.
    let fenced: FencedError | undefined;
    const epoch = this.leaderEpoch;
    if (epoch !== undefined) {
      const leaderReq = unwrap(tx.objectStore(META_STORE)).get(LEADER_KEY) as IDBRequest<unknown>;
      leaderReq.onsuccess = () => {
        const current = isLeaderRecord(leaderReq.result) ? leaderReq.result.epoch : 0;
        if (current !== epoch) {
          fenced = new FencedError(epoch, current);
          tx.abort();
        }
      };
    }
    // The leader record survives a reset, so epochs never repeat.
    try {
      await Promise.all([tx.objectStore(LOG_STORE).clear(), tx.objectStore(SNAPSHOT_STORE).clear(), tx.objectStore(META_STORE).delete(META_KEY), tx.done]);
    } catch (err) {
      if (fenced) {
        this.lost(IdbCloseReason.Fenced);
        throw fenced;
      }
      throw err;
    }
    this.live = new Map();
    this.logEntries = 0;
    this.storedMeta = undefined;
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
    const db = this.db;
    this.db = undefined;
    // A fenced connection is still open: close it so it blocks no upgrade (versionchange closed it already).
    if (reason === IdbCloseReason.Fenced) db?.then((d) => d.close(), ignore);
    this.onClose?.(reason);
  }
}

/** The meta record after a cycle: the revision never goes backwards; the cluster meta is the newest given. */
function metaRecord(prev: MetaRecord | undefined, maxRevision: number, meta: ClusterMeta | undefined): MetaRecord {
  const record: MetaRecord = { revision: Math.max(prev?.revision ?? 0, maxRevision), schemaVersion: DB_VERSION };
  const clusterMeta = meta ?? prev?.clusterMeta;
  if (clusterMeta !== undefined) record.clusterMeta = clusterMeta;
  return record;
}

function applyChanges(state: Map<string, KeyValue>, changes: ReadonlyMap<string, KeyValue | null>): void {
  for (const [key, kv] of changes) {
    if (kv) state.set(key, kv);
    else state.delete(key);
  }
}
