// The IndexedDB layout and its migrations. DB_VERSION is the schema version; MIGRATIONS[v] upgrades a database
// from version v to v+1 inside the versionchange transaction, so opening an old database runs every step after its
// version in order, and a fresh one runs them all.
//
//   v1: store "kv" (keyPath "key") held the KeyValue records AND the cluster meta as a record with key "meta".
//   v2: the meta moves to its own store "meta" (record at key "current": {revision, clusterMeta, schemaVersion}),
//       so "kv" holds only objects and load() needs no filtering; "kv" gains an index on modRevision (reading
//       what changed since a revision, for export and debugging).
//   v3: compact records (log-codec.ts). "log" holds one record per write cycle (key: the cycle's highest revision,
//       value: its entries as one JSON string) and "snapshot" the live keys as of the last compaction (key: chunk
//       number, value: a JSON string of KeyValues); a compaction replaces both in one transaction. A reload reads
//       both stores whole (getAll) and replays the log over the snapshot. "kv" is moved into "snapshot" and dropped.
import type { DBSchema, IDBPDatabase, IDBPTransaction } from 'idb';
import { unwrap, wrap } from 'idb';
import type { KeyValue } from '../types';
import { encodeSnapshotChunks } from './log-codec';
import type { ClusterMeta } from './types';
import type { LeaderRecord } from './leader-epoch';

export const DB_VERSION = 3;
export const DEFAULT_DB_NAME = 'kubeplay';
export const KV_STORE = 'kv';
export const META_STORE = 'meta';
export const META_KEY = 'current';
export const LOG_STORE = 'log';
export const SNAPSHOT_STORE = 'snapshot';
/** KeyValues per snapshot record: big enough that a reload reads a handful of records, small enough to clone cheaply. */
export const SNAPSHOT_CHUNK = 1000;
export const MOD_REVISION_INDEX = 'modRevision';
/** Where v1 kept the meta, inside the kv store. Object keys start with '/', so it cannot collide. */
export const V1_META_KEY = 'meta';

export interface MetaRecord {
  /** The store revision the database is consistent at. */
  revision: number;
  clusterMeta?: ClusterMeta;
  schemaVersion: number;
}

export interface KubeplayDB extends DBSchema {
  /** Key: the highest revision of the write cycle; value: encodeLogRecord(). */
  log: { key: number; value: string };
  /** Key: chunk number; value: encodeSnapshotChunks() chunk. */
  snapshot: { key: number; value: string };
  /** META_KEY: MetaRecord; LEADER_KEY: the leader epoch (leader-epoch.ts). */
  meta: { key: string; value: MetaRecord | LeaderRecord };
}

// Migrations run against whatever schema the database had, so they are typed loosely.
export type UpgradeDb = IDBPDatabase<unknown>;
export type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;
export type Migration = (db: UpgradeDb, oldVersion: number, tx: UpgradeTx) => void;

interface V1MetaRecord {
  key: string;
  revision: number;
  clusterMeta?: ClusterMeta;
}

export const MIGRATIONS: readonly Migration[] = [
  // 0 → 1
  (db) => {
    db.createObjectStore(KV_STORE, { keyPath: 'key' });
  },
  // 1 → 2: move the meta record out of kv; index kv by modRevision.
  (db, oldVersion, tx) => {
    db.createObjectStore(META_STORE);
    const kv = tx.objectStore(KV_STORE);
    kv.createIndex(MOD_REVISION_INDEX, 'modRevision');
    if (oldVersion < 1) return;
    // Raw request callbacks: they run while the versionchange transaction is active, whatever the promise timing.
    const rawKv = unwrap(kv) as IDBObjectStore;
    const rawMeta = unwrap(tx.objectStore(META_STORE)) as IDBObjectStore;
    const req = rawKv.get(V1_META_KEY) as IDBRequest<V1MetaRecord | undefined>;
    req.onsuccess = () => {
      const old = req.result;
      if (!old) return;
      const record: MetaRecord = { revision: old.revision, schemaVersion: 2 };
      if (old.clusterMeta !== undefined) record.clusterMeta = old.clusterMeta;
      rawMeta.put(record, META_KEY);
      rawKv.delete(V1_META_KEY);
    };
  },
  // 2 → 3: compact records. The objects of "kv" become snapshot chunks; then "kv" goes.
  (db, _oldVersion, tx) => {
    db.createObjectStore(LOG_STORE);
    db.createObjectStore(SNAPSHOT_STORE);
    const rawKv = unwrap(tx.objectStore(KV_STORE)) as IDBObjectStore;
    const rawSnapshot = unwrap(tx.objectStore(SNAPSHOT_STORE)) as IDBObjectStore;
    const rawDb = unwrap(db) as IDBDatabase;
    const all = rawKv.getAll() as IDBRequest<(KeyValue | V1MetaRecord)[]>;
    all.onsuccess = () => {
      // A v1 database's meta record may still be there (the 1 → 2 step deletes it after this read was queued).
      const kvs = all.result.filter((r): r is KeyValue => r.key !== V1_META_KEY);
      encodeSnapshotChunks(kvs, SNAPSHOT_CHUNK).forEach((chunk, i) => rawSnapshot.put(chunk, i));
      // Requests complete in order: once this one has, nothing is pending on "kv" and it can go.
      rawKv.count().onsuccess = () => rawDb.deleteObjectStore(KV_STORE);
    };
  },
];

export interface OpenCallbacks {
  /** Another connection wants a newer version: this one has been closed. */
  onVersionChange?: () => void;
  /** The browser closed the connection (storage cleared, disk error). */
  onTerminated?: () => void;
}

/** Opens (creating or migrating) the database through the given factory, as idb's openDB does for the global one. */
export function openKubeplayDb(
  factory: IDBFactory,
  name: string,
  callbacks: OpenCallbacks = {},
  version: number = DB_VERSION,
): Promise<IDBPDatabase<KubeplayDB>> {
  const request = factory.open(name, version);
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as UpgradeDb;
    const tx = wrap(request.transaction!) as unknown as UpgradeTx;
    for (let v = event.oldVersion; v < version; v++) MIGRATIONS[v](db, event.oldVersion, tx);
  });
  return (wrap(request) as Promise<IDBPDatabase<KubeplayDB>>).then((db) => {
    db.addEventListener('versionchange', () => {
      db.close();
      callbacks.onVersionChange?.();
    });
    db.addEventListener('close', () => callbacks.onTerminated?.());
    return db;
  });
}
