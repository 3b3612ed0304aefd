import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { VirtualClock } from '../../sim/virtual-clock';
import { MvccStore } from '../mvcc-store';
import { IdbCloseReason, IndexedDbPersistence } from './indexeddb-persistence';
import type { IdbCloseReason as CloseReason } from './indexeddb-persistence';
import { FencedError } from './leader-epoch';

const cm = (name: string, v: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } });
const key = (name: string): string => `/registry/core/configmaps/ns/${name}`;

function leader(factory: IDBFactory, onClose?: (reason: CloseReason) => void): { persistence: IndexedDbPersistence; store: MvccStore } {
  const persistence = new IndexedDbPersistence({ indexedDB: factory, dbName: 'fencing', onClose });
  const store = new MvccStore({ clock: new VirtualClock(), onCommit: (b) => persistence.enqueue(b) });
  return { persistence, store };
}

function put(store: MvccStore, name: string, v: string): number {
  return store.txn([], [{ type: 'put', key: key(name), value: cm(name, v) }]).revision;
}

async function readBack(factory: IDBFactory): Promise<{ revision: number; values: Record<string, string> }> {
  const reader = new IndexedDbPersistence({ indexedDB: factory, dbName: 'fencing' });
  const snap = await reader.load();
  reader.close();
  const values: Record<string, string> = {};
  for (const kv of snap?.kvs ?? []) values[kv.key] = (kv.value as unknown as { data: { v: string } }).data.v;
  return { revision: snap?.revision ?? 0, values };
}

describe('leader epoch fencing', () => {
  it('each leader claims the next epoch, and a reset keeps the counter', async () => {
    const factory = new IDBFactory();
    const a = leader(factory);
    expect(await a.persistence.claimLeadership()).toBe(1);
    await a.persistence.clear();
    a.persistence.close();
    const b = leader(factory);
    expect(await b.persistence.claimLeadership()).toBe(2);
    b.persistence.close();
  });

  it("a stale leader's write aborts whole once a newer epoch exists, and it never writes again", async () => {
    const factory = new IDBFactory();
    const closes: CloseReason[] = [];
    const one = leader(factory, (r) => closes.push(r));
    expect(await one.persistence.claimLeadership()).toBe(1);
    await one.persistence.load();
    const r1 = put(one.store, 'a', 'from-1');
    await one.persistence.whenDurable(r1);

    // Epoch 2 takes over (the lock moved; epoch 1 did not notice) and reads what epoch 1 committed.
    const two = leader(factory);
    expect(await two.persistence.claimLeadership()).toBe(2);
    const loaded = await two.persistence.load();
    expect(loaded?.revision).toBe(r1);

    // Epoch 1 writes again: refused inside the transaction, and reported as fenced.
    const stale = put(one.store, 'a', 'stale');
    put(one.store, 'b', 'stale');
    const err = await one.persistence.whenDurable(stale + 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FencedError);
    expect((err as FencedError).currentEpoch).toBe(2);
    expect(closes).toEqual([IdbCloseReason.Fenced]);
    // Later writes of epoch 1 fail without reaching the database.
    const later = put(one.store, 'c', 'stale');
    await expect(one.persistence.whenDurable(later)).rejects.toThrow(/fenced/);

    expect(await readBack(factory)).toEqual({ revision: r1, values: { [key('a')]: 'from-1' } });

    // Epoch 2 writes on from the last commit.
    const twoStore = new MvccStore({ clock: new VirtualClock(), snapshot: loaded, onCommit: (b) => two.persistence.enqueue(b) });
    const r2 = put(twoStore, 'a', 'from-2');
    expect(r2).toBeGreaterThan(r1);
    await two.persistence.whenDurable(r2);
    expect(await readBack(factory)).toEqual({ revision: r2, values: { [key('a')]: 'from-2' } });
    one.persistence.close();
    two.persistence.close();
  });

  it("a stale leader's reset is refused too: the new leader's cluster stays", async () => {
    const factory = new IDBFactory();
    const one = leader(factory);
    const epoch1 = await one.persistence.claimLeadership();
    await one.persistence.load();
    await one.persistence.whenDurable(put(one.store, 'a', 'kept'));
    one.persistence.close();
    const two = leader(factory);
    await two.persistence.claimLeadership();
    // Epoch 1 resets its cluster with a fresh connection fenced on its old epoch.
    const wipe = new IndexedDbPersistence({ indexedDB: factory, dbName: 'fencing', leaderEpoch: epoch1 });
    await expect(wipe.clear()).rejects.toBeInstanceOf(FencedError);
    wipe.close();
    expect((await readBack(factory)).values).toEqual({ [key('a')]: 'kept' });
    two.persistence.close();
  });

  it('a persistence that never claimed leadership is not fenced (headless clusters, tests)', async () => {
    const factory = new IDBFactory();
    const a = leader(factory);
    await a.persistence.claimLeadership();
    const plain = leader(factory);
    await plain.persistence.load();
    const r = put(plain.store, 'x', '1');
    await plain.persistence.whenDurable(r);
    expect((await readBack(factory)).values[key('x')]).toBe('1');
    a.persistence.close();
    plain.persistence.close();
  });
});
