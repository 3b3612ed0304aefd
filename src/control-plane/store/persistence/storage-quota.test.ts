// A full disk (QuotaExceededError) during a write cycle: nothing of the cycle lands, the owner is told (the worker
// answers etcd's NOSPACE error), and a store reopened after a rollback continues after every revision it handed out.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { VirtualClock } from '../../sim/virtual-clock';
import { MvccStore } from '../mvcc-store';
import { IndexedDbPersistence } from './indexeddb-persistence';
import { isQuotaExceeded } from './storage-errors';

const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v: '1' } });
const key = (name: string): string => `/registry/core/configmaps/ns/${name}`;
const put = (store: MvccStore, name: string): number => store.txn([], [{ type: 'put', key: key(name), value: cm(name) }]).revision;

const opened: IndexedDbPersistence[] = [];
function open(factory: IDBFactory, extra: ConstructorParameters<typeof IndexedDbPersistence>[0] = {}): IndexedDbPersistence {
  const p = new IndexedDbPersistence({ indexedDB: factory, dbName: 'quota', ...extra });
  opened.push(p);
  return p;
}

function diskFull(): void {
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const p of opened.splice(0)) p.close();
});

describe('QuotaExceededError during a write cycle', () => {
  it('writes nothing of the cycle, rejects its waiters with the quota error and tells the owner', async () => {
    const factory = new IDBFactory();
    const errors: unknown[] = [];
    const p = open(factory, { onWriteError: (err) => errors.push(err) });
    await p.load();
    const store = new MvccStore({ clock: new VirtualClock(), onCommit: (b) => p.enqueue(b) });
    const acked = put(store, 'kept');
    await p.whenDurable(acked);

    diskFull();
    const refused = put(store, 'refused');
    const waiter = p.whenDurable(refused);
    await expect(waiter).rejects.toMatchObject({ name: 'QuotaExceededError' });
    expect(errors).toHaveLength(1);
    expect(isQuotaExceeded(errors[0])).toBe(true);
    expect(p.durableRevision).toBe(acked);
    vi.restoreAllMocks();
    p.close(); // the worker rolls back: the refused batch is dropped

    const snap = await open(factory).load();
    expect(snap?.revision).toBe(acked);
    expect(snap?.kvs.map((kv) => kv.key)).toEqual([key('kept')]);
  });

  it('a store reopened with minRevision continues after the revisions it handed out, so none is reused', async () => {
    const factory = new IDBFactory();
    const p = open(factory);
    await p.load();
    const store = new MvccStore({ clock: new VirtualClock(), onCommit: (b) => p.enqueue(b) });
    const acked = put(store, 'kept');
    await p.whenDurable(acked);
    diskFull();
    put(store, 'refused-1');
    const seen = put(store, 'refused-2');
    await expect(p.whenDurable(seen)).rejects.toMatchObject({ name: 'QuotaExceededError' });
    vi.restoreAllMocks();
    p.close();

    const q = open(factory, { minRevision: seen });
    const snap = await q.load();
    expect(snap?.revision).toBe(seen);
    expect(q.durableRevision).toBe(acked); // what is really on disk
    const restored = new MvccStore({ clock: new VirtualClock(), snapshot: snap, onCommit: (b) => q.enqueue(b) });
    const next = put(restored, 'after');
    expect(next).toBe(seen + 1);
    await q.whenDurable(next);
    const reloaded = await open(factory).load();
    expect(reloaded?.revision).toBe(next);
    expect(reloaded?.kvs.map((kv) => kv.key).sort()).toEqual([key('after'), key('kept')]);
  });

  it('recognises quota errors by name or legacy code, not other failures', () => {
    expect(isQuotaExceeded(new DOMException('x', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaExceeded({ name: 'Error', code: 22 })).toBe(true);
    expect(isQuotaExceeded(new DOMException('x', 'DataCloneError'))).toBe(false);
    expect(isQuotaExceeded(new Error('boom'))).toBe(false);
    expect(isQuotaExceeded(undefined)).toBe(false);
  });
});
