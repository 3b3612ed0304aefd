import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { VirtualClock } from '../sim/virtual-clock';
import { MvccStore } from '../store/mvcc-store';
import type { RevisionBatch } from '../store/types';
import { StoreUsage, storedSize } from './store-usage';

const cm = (name: string, data: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });
const key = (name: string) => `/registry/core/configmaps/default/${name}`;

function setup(snapshot?: { revision: number; kvs: { key: string; value: KubeObject }[] }) {
  let usage: StoreUsage | undefined;
  const store = new MvccStore({
    clock: new VirtualClock(),
    onCommit: (batch: RevisionBatch) => usage?.observe(batch),
    snapshot: snapshot && {
      schemaVersion: 2,
      meta: undefined,
      revision: snapshot.revision,
      kvs: snapshot.kvs.map((kv) => ({ ...kv, createRevision: 1, modRevision: 1, version: 1 })),
    },
  });
  usage = new StoreUsage(store, 2);
  return { store, usage };
}

/** What a full recount gives: the reference the incremental total must equal. */
function recount(store: MvccStore): number {
  return store.range('').kvs.reduce((n, kv) => n + storedSize(kv.key, kv.value), 0);
}

describe('StoreUsage', () => {
  it('counts objects and the JSON bytes of values and keys through creates, updates and deletes', () => {
    const { store, usage } = setup();
    expect(usage.objects()).toBe(0);
    expect(usage.storedBytes()).toBe(0);
    store.txn([], [{ type: 'put', key: key('a'), value: cm('a') }]);
    store.txn([], [{ type: 'put', key: key('b'), value: cm('b', { k: 'v' }) }]);
    expect(usage.objects()).toBe(2);
    expect(usage.storedBytes()).toBe(key('a').length + JSON.stringify(cm('a')).length + key('b').length + JSON.stringify(cm('b', { k: 'v' })).length);
    store.txn([], [{ type: 'put', key: key('a'), value: cm('a', { big: 'x'.repeat(1000) }) }]);
    store.txn([], [{ type: 'delete', key: key('b') }]);
    expect(usage.objects()).toBe(1);
    expect(usage.storedBytes()).toBe(recount(store));
    store.txn([], [{ type: 'delete', key: key('a') }]);
    expect(usage.storedBytes()).toBe(0);
  });

  it('sizes a restored store at the first read', () => {
    const { store, usage } = setup({ revision: 5, kvs: [{ key: key('x'), value: cm('x', { a: 'b' }) }] });
    store.txn([], [{ type: 'put', key: key('y'), value: cm('y') }]);
    expect(usage.storedBytes()).toBe(recount(store));
    expect(usage.objects()).toBe(2);
  });

  it('estimates without sizing: the last exact total plus the average size per object created since', () => {
    const { store, usage } = setup();
    store.txn([], [{ type: 'put', key: key('a'), value: cm('a') }]);
    expect(usage.storedBytesEstimate()).toBe(4096); // nothing sized yet: the assumed size per object
    const exact = usage.storedBytes();
    store.txn([], [{ type: 'put', key: key('b'), value: cm('b') }]);
    store.txn([], [{ type: 'put', key: key('a'), value: cm('a', { grown: 'x'.repeat(100) }) }]); // an update: not estimated
    expect(usage.storedBytesEstimate()).toBe(exact * 2);
    expect(usage.storedBytes()).toBe(recount(store));
    expect(usage.storedBytesEstimate()).toBe(recount(store));
  });

  it('forgets the writes once more than maxPendingWrites are pending, sizing nothing, and scans at the next exact read', () => {
    const { store, usage } = setup();
    store.txn([], [{ type: 'put', key: key('a'), value: cm('a') }]);
    const exact = usage.storedBytes();
    for (const n of ['b', 'c', 'd']) store.txn([], [{ type: 'put', key: key(n), value: cm(n) }]);
    // Three pending keys with maxPendingWrites 2: forgotten, so the estimate is the objects at the last average.
    expect(usage.storedBytesEstimate()).toBe(4 * exact);
    expect(usage.storedBytes()).toBe(recount(store));
    expect(usage.storedBytesEstimate()).toBe(recount(store));
  });

  it('stays equal to a recount over a random sequence of writes', () => {
    const { store, usage } = setup();
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 300; i++) {
      const name = `cm-${next() % 20}`;
      if (next() % 4 === 0) store.txn([], [{ type: 'delete', key: key(name) }]);
      else store.txn([], [{ type: 'put', key: key(name), value: cm(name, { v: 'x'.repeat(next() % 50) }) }]);
      if (i % 37 === 0) expect(usage.storedBytes()).toBe(recount(store));
    }
    expect(usage.storedBytes()).toBe(recount(store));
    expect(usage.objects()).toBe(store.range('').kvs.length);
  });
});
