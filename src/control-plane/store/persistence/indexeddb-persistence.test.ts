import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { VirtualClock } from '../../sim/virtual-clock';
import { MvccStore } from '../mvcc-store';
import type { KeyValue } from '../types';
import { IndexedDbPersistence } from './indexeddb-persistence';
import { unwrap } from 'idb';
import { DB_VERSION, KV_STORE, LOG_STORE, META_KEY, META_STORE, MOD_REVISION_INDEX, openKubeplayDb, SNAPSHOT_STORE } from './indexeddb-schema';
import type { ClusterMeta } from './types';

const cm = (name: string, v = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } });
const key = (name: string): string => `/registry/core/configmaps/ns/${name}`;
const meta = (clockTime: number): ClusterMeta => ({ clockTime, rngState: 7, seed: 42 });

function storeInto(p: IndexedDbPersistence): MvccStore {
  return new MvccStore({ clock: new VirtualClock(), onCommit: (b) => p.enqueue(b) });
}

function put(store: MvccStore, name: string, v = '1'): number {
  return store.txn([], [{ type: 'put', key: key(name), value: cm(name, v) }]).revision;
}

/** Raw IDB helpers for inspecting and seeding databases outside the adapter. */
function openRaw(factory: IDBFactory, name: string, version?: number, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(name, version);
    req.onupgradeneeded = () => upgrade?.(req.result);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function seedV1(factory: IDBFactory, kvs: KeyValue[], metaRecord: { revision: number; clusterMeta?: ClusterMeta }): Promise<void> {
  const v1 = await openRaw(factory, 'test', 1, (db) => db.createObjectStore('kv', { keyPath: 'key' }));
  const seed = v1.transaction('kv', 'readwrite');
  for (const kv of kvs) seed.objectStore('kv').put(kv);
  seed.objectStore('kv').put({ key: 'meta', ...metaRecord });
  await new Promise((resolve) => (seed.oncomplete = resolve));
  v1.close();
}

function requestValue<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

const opened: IndexedDbPersistence[] = [];
function persistence(factory: IDBFactory, extra: Partial<ConstructorParameters<typeof IndexedDbPersistence>[0]> = {}): IndexedDbPersistence {
  const p = new IndexedDbPersistence({ indexedDB: factory, dbName: 'test', ...extra });
  opened.push(p);
  return p;
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const p of opened.splice(0)) p.close();
});

describe('IndexedDbPersistence', () => {
  it('loads nothing from an empty database', async () => {
    const p = persistence(new IDBFactory());
    expect(await p.load()).toBeUndefined();
    expect(p.durableRevision).toBe(0);
  });

  it('round-trips objects and meta, and a restored store continues the revisions', async () => {
    const factory = new IDBFactory();
    const p = persistence(factory);
    const store = storeInto(p);
    put(store, 'a');
    put(store, 'b');
    store.txn([], [
      { type: 'put', key: key('a'), value: cm('a', '2') },
      { type: 'delete', key: key('b') },
      { type: 'put', key: key('c'), value: cm('c') },
    ]);
    p.setMeta(meta(1234));
    await p.flush();
    expect(p.durableRevision).toBe(3);

    const q = persistence(factory);
    const snap = await q.load();
    expect(snap).toEqual({ schemaVersion: DB_VERSION, revision: 3, kvs: store.range('').kvs, meta: meta(1234) });
    expect(q.durableRevision).toBe(3);

    const restored = new MvccStore({ clock: new VirtualClock(), snapshot: snap, onCommit: (b) => q.enqueue(b) });
    const r = restored.txn([], [{ type: 'put', key: key('a'), value: cm('a', '3') }]);
    expect(r.revision).toBe(4);
    expect(r.results[0]).toMatchObject({ createRevision: 1, version: 3 });
    await q.whenDurable(4);
    const again = await persistence(factory).load();
    expect(again?.revision).toBe(4);
    expect(again?.kvs.find((kv) => kv.key === key('a'))?.value.data).toEqual({ v: '3' });
  });

  it('writes one relaxed transaction per cycle, one at a time; batches arriving meanwhile go into the next', async () => {
    const factory = new IDBFactory();
    const p = persistence(factory);
    await p.load(); // open the connection first so only flush transactions are counted
    const cycles: { durability: string | undefined; active: boolean }[] = [];
    const original = IDBDatabase.prototype.transaction;
    vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, stores, mode, options) {
      const tx = original.call(this, stores, mode, options);
      if (mode === 'readwrite') {
        expect(cycles.some((c) => c.active)).toBe(false);
        const cycle = { durability: options?.durability, active: true };
        cycles.push(cycle);
        tx.addEventListener('complete', () => (cycle.active = false));
      }
      return tx;
    });
    const store = storeInto(p);
    put(store, 'a');
    put(store, 'b');
    put(store, 'c');
    const first = p.whenDurable(3);
    // Let the first cycle open its transaction, then commit more while it is in flight.
    while (cycles.length === 0) await Promise.resolve();
    expect(cycles[0].active).toBe(true);
    put(store, 'd');
    put(store, 'e');
    await first;
    await p.whenDurable(5);
    expect(cycles.map((c) => c.durability)).toEqual(['relaxed', 'relaxed']);
    expect(p.durableRevision).toBe(5);
  });

  it('whenDurable resolves only once the revision is readable from another connection', async () => {
    const factory = new IDBFactory();
    const p = persistence(factory);
    const store = storeInto(p);
    const rev = put(store, 'a');
    let resolved = false;
    const waiting = p.whenDurable(rev).then(() => (resolved = true));
    expect(resolved).toBe(false);
    await waiting;
    expect((await persistence(factory).load())?.revision).toBe(rev);
    await expect(p.whenDurable(rev)).resolves.toBeUndefined();
  });

  it('crash: batches queued but never written are absent after reopening; the state is a whole earlier revision', async () => {
    const factory = new IDBFactory();
    const p = persistence(factory);
    const store = storeInto(p);
    put(store, 'a');
    put(store, 'b');
    await p.flush();
    store.txn([], [
      { type: 'put', key: key('a'), value: cm('a', '2') },
      { type: 'put', key: key('z'), value: cm('z') },
    ]);
    const lost = p.whenDurable(3);
    p.close(); // the worker dies before the write-behind cycle runs
    await expect(lost).rejects.toThrow('persistence is closed');
    const snap = await persistence(factory).load();
    expect(snap?.revision).toBe(2);
    expect(snap?.kvs).toEqual(store.range('', 2).kvs);
  });

  it('a failed transaction writes nothing of its batches, rejects their waiters and retries them later', async () => {
    const factory = new IDBFactory();
    const p = persistence(factory);
    const store = storeInto(p);
    put(store, 'a');
    await p.flush();

    // The second put of the next cycle fails, after the first was already issued in the same transaction.
    let puts = 0;
    const originalPut = IDBObjectStore.prototype.put;
    const spy = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value, k) {
      if (++puts === 2) throw new DOMException('quota exceeded', 'QuotaExceededError');
      return originalPut.call(this, value, k);
    });
    store.txn([], [
      { type: 'put', key: key('b'), value: cm('b') },
      { type: 'put', key: key('c'), value: cm('c') },
      { type: 'put', key: key('d'), value: cm('d') },
    ]);
    const waiter = p.whenDurable(2);
    await expect(p.flush()).rejects.toMatchObject({ name: 'QuotaExceededError' });
    await expect(waiter).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(p.durableRevision).toBe(1);
    expect(p.pendingBatches).toBe(1);
    const afterFailure = await persistence(factory).load();
    expect(afterFailure?.revision).toBe(1);
    expect(afterFailure?.kvs.map((kv) => kv.key)).toEqual([key('a')]);

    spy.mockRestore();
    put(store, 'e');
    await p.whenDurable(3);
    const recovered = await persistence(factory).load();
    expect(recovered?.revision).toBe(3);
    expect(recovered?.kvs).toEqual(store.range('').kvs);
  });

  it('a meta-only write never moves the stored revision backwards', async () => {
    const factory = new IDBFactory();
    const p = persistence(factory);
    const store = storeInto(p);
    for (const n of ['a', 'b', 'c']) put(store, n);
    p.setMeta(meta(1));
    await p.flush();
    // A fresh instance that never loaded writes only meta.
    const q = persistence(factory);
    q.setMeta(meta(99));
    await q.flush();
    const snap = await persistence(factory).load();
    expect(snap?.revision).toBe(3);
    expect(snap?.meta).toEqual(meta(99));
    expect(snap?.kvs).toHaveLength(3);
  });

  it("a fenced leader's cycles put the meta record from memory, not read back, and it stays whole", async () => {
    const factory = new IDBFactory();
    const first = persistence(factory);
    const before = storeInto(first);
    put(before, 'a');
    first.setMeta(meta(5));
    await first.flush();
    first.close();

    const p = persistence(factory);
    await p.claimLeadership();
    const loaded = await p.load();
    const store = new MvccStore({ clock: new VirtualClock(), snapshot: loaded, onCommit: (b) => p.enqueue(b) });
    const metaReads = vi.fn();
    const originalGet = IDBObjectStore.prototype.get;
    vi.spyOn(IDBObjectStore.prototype, 'get').mockImplementation(function (this: IDBObjectStore, query) {
      if (this.name === META_STORE && query === META_KEY) metaReads();
      return originalGet.call(this, query);
    });
    put(store, 'b'); // no meta with this cycle: the loaded cluster meta must be kept
    await p.flush();
    p.setMeta(meta(9)); // a meta-only cycle
    await p.flush();
    put(store, 'c');
    await p.flush();
    expect(metaReads).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    const snap = await persistence(factory).load();
    expect(snap?.revision).toBe(3);
    expect(snap?.meta).toEqual(meta(9));
    expect(snap?.kvs.map((kv) => kv.key)).toEqual([key('a'), key('b'), key('c')]);
  });

  it('keeps only the last write of a key within one transaction', async () => {
    const factory = new IDBFactory();
    const p = persistence(factory);
    const store = storeInto(p);
    put(store, 'a');
    store.txn([], [{ type: 'delete', key: key('a') }]);
    put(store, 'b');
    put(store, 'b', '2');
    await p.flush();
    const snap = await persistence(factory).load();
    expect(snap?.kvs.map((kv) => `${kv.key}=${kv.value.data && (kv.value.data as { v: string }).v}`)).toEqual([`${key('b')}=2`]);
    expect(snap?.revision).toBe(4);
  });

  it('clear() empties everything', async () => {
    const factory = new IDBFactory();
    const p = persistence(factory);
    const store = storeInto(p);
    put(store, 'a');
    p.setMeta(meta(5));
    await p.flush();
    await p.clear();
    expect(p.durableRevision).toBe(0);
    expect(await persistence(factory).load()).toBeUndefined();
  });

  it('migrates a version-1 database (meta inside kv) to version 2 (meta store, modRevision index)', async () => {
    const factory = new IDBFactory();
    const kvA: KeyValue = { key: key('a'), value: cm('a'), createRevision: 1, modRevision: 4, version: 2 };
    const kvB: KeyValue = { key: key('b'), value: cm('b'), createRevision: 3, modRevision: 3, version: 1 };
    await seedV1(factory, [kvA, kvB], { revision: 6, clusterMeta: meta(77) });

    // Only the 1 → 2 step (the app of that time); the next test goes on to the current version.
    const v2 = unwrap(await openKubeplayDb(factory, 'test', {}, 2)) as IDBDatabase;
    expect(v2.version).toBe(2);
    expect([...v2.objectStoreNames].sort()).toEqual([KV_STORE, META_STORE]);
    const tx = v2.transaction([KV_STORE, META_STORE], 'readonly');
    const kv = tx.objectStore(KV_STORE);
    expect([...kv.indexNames]).toEqual([MOD_REVISION_INDEX]);
    expect(await requestValue(kv.get('meta'))).toBeUndefined();
    expect(await requestValue(kv.index(MOD_REVISION_INDEX).getAllKeys(IDBKeyRange.lowerBound(4)))).toEqual([key('a')]);
    expect(await requestValue(tx.objectStore(META_STORE).get('current'))).toEqual({ revision: 6, clusterMeta: meta(77), schemaVersion: 2 });
    v2.close();
  });

  it('migrates version-1 and version-2 databases to compact records (version 3): same objects, revision and meta', async () => {
    const factory = new IDBFactory();
    const kvA: KeyValue = { key: key('a'), value: cm('a'), createRevision: 1, modRevision: 4, version: 2 };
    const kvB: KeyValue = { key: key('b'), value: cm('b'), createRevision: 3, modRevision: 3, version: 1 };
    await seedV1(factory, [kvA, kvB], { revision: 6, clusterMeta: meta(77) });
    const snap = await persistence(factory).load();
    expect(snap).toEqual({ schemaVersion: DB_VERSION, revision: 6, kvs: [kvA, kvB], meta: meta(77) });
    const v3 = await openRaw(factory, 'test');
    expect(v3.version).toBe(3);
    expect([...v3.objectStoreNames].sort()).toEqual([LOG_STORE, META_STORE, SNAPSHOT_STORE]);
    v3.close();

    // From version 2 (stopping the first migration there), then on to 3.
    const other = new IDBFactory();
    await seedV1(other, [kvB], { revision: 3 });
    (await openKubeplayDb(other, 'test', {}, 2)).close();
    const fromV2 = await persistence(other).load();
    expect(fromV2).toEqual({ schemaVersion: DB_VERSION, revision: 3, kvs: [kvB], meta: undefined });
  });

  it('closes on versionchange so a newer version can open, and tells the owner', async () => {
    const factory = new IDBFactory();
    const reasons: string[] = [];
    const p = persistence(factory, { onClose: (r) => reasons.push(r) });
    const store = storeInto(p);
    put(store, 'a');
    await p.flush();
    const newer = await openRaw(factory, 'test', DB_VERSION + 1); // would stay blocked if p kept its connection open
    expect(newer.version).toBe(DB_VERSION + 1);
    newer.close();
    expect(reasons).toEqual(['versionchange']);
    put(store, 'b');
    await expect(p.flush()).rejects.toThrow('IndexedDB connection closed (versionchange)');
    expect(p.pendingBatches).toBe(1);
  });

  describe('group commit and compact records', () => {
    /** Counts the readwrite transactions opened from now on. */
    function countWriteTransactions(): { count: number } {
      const counter = { count: 0 };
      const original = IDBDatabase.prototype.transaction;
      vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, stores, mode, options) {
        if (mode === 'readwrite') counter.count++;
        return original.call(this, stores, mode, options);
      });
      return counter;
    }

    async function countRecords(factory: IDBFactory): Promise<{ log: number; snapshot: number }> {
      const db = await openRaw(factory, 'test');
      const tx = db.transaction([LOG_STORE, SNAPSHOT_STORE], 'readonly');
      const [log, snapshot] = await Promise.all([requestValue(tx.objectStore(LOG_STORE).count()), requestValue(tx.objectStore(SNAPSHOT_STORE).count())]);
      db.close();
      return { log, snapshot };
    }

    it('writes 500 revisions committed in one go as one transaction and one log record; every ack waits for it', async () => {
      const factory = new IDBFactory();
      const p = persistence(factory, { minLogEntries: 10_000 });
      await p.load();
      const writes = countWriteTransactions();
      const store = storeInto(p);
      const acks: number[] = [];
      const waiting: Promise<void>[] = [];
      for (let i = 0; i < 500; i++) {
        const rev = put(store, `cm-${i}`);
        waiting.push(p.whenDurable(rev).then(() => void acks.push(rev)));
      }
      await Promise.resolve();
      expect(acks).toEqual([]);
      expect(p.durableRevision).toBe(0);
      await Promise.all(waiting);
      expect(writes.count).toBe(1);
      expect(acks).toHaveLength(500);
      expect(await countRecords(factory)).toEqual({ log: 1, snapshot: 0 });
      const snap = await persistence(factory).load();
      expect(snap?.revision).toBe(500);
      expect(snap?.kvs).toEqual(store.range('').kvs);
    });

    it('a crash that drops the pending batch never loses an acknowledged write, and the revision never goes back', async () => {
      const factory = new IDBFactory();
      const p = persistence(factory, { minLogEntries: 4 });
      await p.load();
      const store = storeInto(p);
      for (let i = 0; i < 6; i++) put(store, `cm-${i}`);
      // The last acknowledged revision is a delete: no live key carries it, the meta does.
      const acked = store.txn([], [{ type: 'delete', key: key('cm-5') }]).revision;
      await p.whenDurable(acked);
      put(store, 'lost');
      const lost = p.whenDurable(store.revision);
      p.close(); // the worker dies before the cycle holding 'lost' ran
      await expect(lost).rejects.toThrow('persistence is closed');

      const q = persistence(factory, { minLogEntries: 4 });
      const snap = await q.load();
      expect(snap?.revision).toBe(acked);
      expect(snap?.kvs).toEqual(store.range('', acked).kvs);
      const restored = new MvccStore({ clock: new VirtualClock(), snapshot: snap, onCommit: (b) => q.enqueue(b) });
      const next = put(restored, 'after');
      expect(next).toBe(acked + 1);
      await q.whenDurable(next);
      expect((await persistence(factory).load())?.revision).toBe(next);
    });

    it('compacts the log into a snapshot once it holds as many entries as there are live keys; a reload reads the same state', async () => {
      const factory = new IDBFactory();
      const p = persistence(factory, { minLogEntries: 8 });
      await p.load();
      const store = storeInto(p);
      const cycles: Promise<void>[] = [];
      // 12 cycles of 3 writes each: creates, then updates and deletes of earlier keys.
      for (let c = 0; c < 12; c++) {
        put(store, `new-${c}`);
        if (c > 0) put(store, `new-${c - 1}`, String(c));
        if (c > 1) store.txn([], [{ type: 'delete', key: key(`new-${c - 2}`) }]);
        else put(store, `extra-${c}`);
        cycles.push(p.whenDurable(store.revision));
        await cycles[c];
      }
      const records = await countRecords(factory);
      // Compacted at least once: the log holds fewer records than there were cycles, and a snapshot exists.
      expect(records.snapshot).toBeGreaterThan(0);
      expect(records.log).toBeLessThan(12);
      const snap = await persistence(factory).load();
      expect(snap?.revision).toBe(store.revision);
      expect(snap?.kvs).toEqual(store.range('').kvs);
    });

    it('a reload of 5,000 objects written in 10 cycles reads a bounded number of records', async () => {
      const factory = new IDBFactory();
      const p = persistence(factory);
      await p.load();
      const store = storeInto(p);
      for (let c = 0; c < 10; c++) {
        for (let i = 0; i < 500; i++) put(store, `cm-${c}-${i}`);
        await p.whenDurable(store.revision);
      }
      const records = await countRecords(factory);
      expect(records.log + records.snapshot).toBeLessThanOrEqual(10);
      const reader = vi.spyOn(IDBObjectStore.prototype, 'get');
      const snap = await persistence(factory).load();
      // The objects come from getAll over the log and snapshot stores; get() reads only the meta record.
      expect(reader).toHaveBeenCalledTimes(1);
      expect(snap?.kvs).toHaveLength(5000);
      expect(snap?.kvs).toEqual(store.range('').kvs);
    });

    it('a compaction that fails writes nothing and leaves the next cycle to retry it', async () => {
      const factory = new IDBFactory();
      const p = persistence(factory, { minLogEntries: 3 });
      await p.load();
      const store = storeInto(p);
      put(store, 'a');
      put(store, 'b');
      await p.whenDurable(2);
      const originalPut = IDBObjectStore.prototype.put;
      const spy = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value, k) {
        if (this.name === SNAPSHOT_STORE) throw new DOMException('quota exceeded', 'QuotaExceededError');
        return originalPut.call(this, value, k);
      });
      put(store, 'c'); // the third entry: this cycle compacts
      await expect(p.whenDurable(3)).rejects.toMatchObject({ name: 'QuotaExceededError' });
      expect(await countRecords(factory)).toEqual({ log: 1, snapshot: 0 });
      expect((await persistence(factory).load())?.revision).toBe(2);
      spy.mockRestore();
      put(store, 'd');
      await p.whenDurable(4);
      expect(await countRecords(factory)).toEqual({ log: 0, snapshot: 1 });
      const snap = await persistence(factory).load();
      expect(snap?.revision).toBe(4);
      expect(snap?.kvs).toEqual(store.range('').kvs);
    });
  });
});
