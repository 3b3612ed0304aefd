// The IndexedDB layout and its migrations. DB_VERSION is the schema version; MIGRATIONS[v] upgrades a database
// from version v to v+1 inside the versionchange transaction, so opening an old database runs every step after its
// version in order, and a fresh one runs them all.
//
//   v1: store "kv" (keyPath "key") held the KeyValue records AND the cluster meta as a record with key "meta".
//   v2: the meta moves to its own store "meta" (record at key "current": {revision, clusterMeta, schemaVersion}),
//       so "kv" holds only objects and load() needs no filtering; "kv" gains an index on modRevision (reading
//       what changed since a revision, for export and debugging).
import type { DBSchema, IDBPDatabase, IDBPTransaction } from 'idb';
import { unwrap, wrap } from 'idb';
import type { KeyValue } from '../types';
import type { ClusterMeta } from './types';

export const DB_VERSION = 2;
export const DEFAULT_DB_NAME = 'kubeplay';
export const KV_STORE = 'kv';
export const META_STORE = 'meta';
export const META_KEY = 'current';
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
  kv: { key: string; value: KeyValue; indexes: { modRevision: number } };
  meta: { key: string; value: MetaRecord };
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
