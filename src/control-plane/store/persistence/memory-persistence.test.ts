import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { VirtualClock } from '../../sim/virtual-clock';
import { MvccStore } from '../mvcc-store';
import { DB_VERSION } from './indexeddb-schema';
import { MemoryPersistence } from './memory-persistence';
import type { ClusterMeta } from './types';

const cm = (name: string, v = '1'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v } });
const key = (name: string): string => `/registry/core/configmaps/ns/${name}`;
const meta: ClusterMeta = { clockTime: 1000, rngState: 3, seed: 9 };

function setup(p: MemoryPersistence): MvccStore {
  return new MvccStore({ clock: new VirtualClock(), onCommit: (b) => p.enqueue(b) });
}
const put = (s: MvccStore, name: string, v = '1') => s.txn([], [{ type: 'put', key: key(name), value: cm(name, v) }]).revision;

describe('MemoryPersistence', () => {
  it('writes behind on a microtask and round-trips into a store that continues the revisions', async () => {
    const p = new MemoryPersistence();
    expect(await p.load()).toBeUndefined();
    const store = setup(p);
    put(store, 'a');
    store.txn([], [
      { type: 'put', key: key('b'), value: cm('b') },
      { type: 'put', key: key('a'), value: cm('a', '2') },
    ]);
    p.setMeta(meta);
    expect(p.durableRevision).toBe(0); // nothing is durable synchronously
    await p.whenDurable(2);
    expect(p.durableRevision).toBe(2);

    const snap = await p.load();
    expect(snap).toEqual({ schemaVersion: DB_VERSION, revision: 2, kvs: store.range('').kvs, meta });
    const restored = new MvccStore({ clock: new VirtualClock(), snapshot: snap });
    expect(put(restored, 'c')).toBe(3);
  });

  it('a crash loses exactly the batches not yet written', async () => {
    const p = new MemoryPersistence();
    const store = setup(p);
    put(store, 'a');
    await p.flush();
    put(store, 'b');
    const lost = p.whenDurable(2);
    expect(p.discardPending()).toBe(1);
    await expect(lost).rejects.toThrow('discarded');
    const snap = await p.load();
    expect(snap?.revision).toBe(1);
    expect(snap?.kvs.map((kv) => kv.key)).toEqual([key('a')]);
  });

  it('a failed write keeps its batches for the next cycle and rejects their waiters', async () => {
    const p = new MemoryPersistence();
    const store = setup(p);
    p.failNextWrite(new Error('disk full'));
    put(store, 'a');
    const w = p.whenDurable(1);
    await expect(p.flush()).rejects.toThrow('disk full');
    await expect(w).rejects.toThrow('disk full');
    expect(await p.load()).toBeUndefined();
    expect(p.pendingBatches).toBe(1);
    // Waiting again retries the kept batch.
    await p.whenDurable(1);
    put(store, 'b');
    await p.flush();
    expect((await p.load())?.kvs.map((kv) => kv.key)).toEqual([key('a'), key('b')]);
  });

  it('with autoFlush off, only flush() writes', async () => {
    const p = new MemoryPersistence({ autoFlush: false });
    const store = setup(p);
    put(store, 'a');
    await Promise.resolve();
    await Promise.resolve();
    expect(await p.load()).toBeUndefined();
    await p.flush();
    expect((await p.load())?.revision).toBe(1);
  });

  it('clear() forgets everything; close() stops accepting writes', async () => {
    const p = new MemoryPersistence();
    const store = setup(p);
    put(store, 'a');
    p.setMeta(meta);
    await p.flush();
    await p.clear();
    expect(p.durableRevision).toBe(0);
    expect(await p.load()).toBeUndefined();
    p.close();
    put(store, 'b');
    await expect(p.flush()).rejects.toThrow('closed');
    await expect(p.whenDurable(2)).rejects.toThrow('closed');
  });
});
