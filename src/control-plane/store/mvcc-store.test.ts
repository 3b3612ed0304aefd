import { beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { Status } from '../../shared/api/status';
import { isStatusError } from '../../shared/api/status';
import { VirtualClock } from '../sim/virtual-clock';
import { MvccStore } from './mvcc-store';
import type { RevisionBatch, StoreWatch, WatchOptions } from './types';

function cm(name: string, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data };
}

const key = (ns: string, name: string): string => `/registry/core/configmaps/${ns}/${name}`;

function put(store: MvccStore, k: string, value: KubeObject) {
  return store.txn([], [{ type: 'put', key: k, value }]);
}
function del(store: MvccStore, k: string) {
  return store.txn([], [{ type: 'delete', key: k }]);
}

function statusOf(fn: () => unknown): { code: number; reason: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isStatusError(e)) return { code: e.status.code, reason: e.status.reason, message: e.status.message };
    throw e;
  }
  throw new Error('expected a StatusError');
}

/** Revisions and event summaries a watcher received. */
function record(store: MvccStore, options: WatchOptions): { batches: RevisionBatch[]; watch: StoreWatch; summary: () => string[] } {
  const batches: RevisionBatch[] = [];
  const watch = store.watch(options, (b) => batches.push(b));
  return {
    batches,
    watch,
    summary: () => batches.map((b) => `${b.revision}:${b.events.map((e) => `${e.type} ${e.kv.key}`).join(',')}`),
  };
}

let clock: VirtualClock;
let store: MvccStore;
beforeEach(() => {
  clock = new VirtualClock();
  store = new MvccStore({ clock });
});

describe('MvccStore revisions and key-values', () => {
  it('gives every changing txn exactly one new revision and tracks create/mod revision and version', () => {
    expect(store.revision).toBe(0);
    const r1 = put(store, key('default', 'a'), cm('a', { v: '1' }));
    expect(r1).toMatchObject({ succeeded: true, revision: 1 });
    expect(r1.results[0]).toMatchObject({ createRevision: 1, modRevision: 1, version: 1 });
    put(store, key('default', 'b'), cm('b'));
    const r3 = put(store, key('default', 'a'), cm('a', { v: '2' }));
    expect(r3.results[0]).toMatchObject({ key: key('default', 'a'), createRevision: 1, modRevision: 3, version: 2 });
    expect(store.get(key('default', 'a'))?.value.data).toEqual({ v: '2' });

    const d = del(store, key('default', 'a'));
    expect(d.revision).toBe(4);
    expect(d.results[0]).toMatchObject({ createRevision: 1, modRevision: 4, version: 2 });
    expect(store.get(key('default', 'a'))).toBeUndefined();

    const again = put(store, key('default', 'a'), cm('a'));
    expect(again.results[0]).toMatchObject({ createRevision: 5, modRevision: 5, version: 1 });
  });

  it('treats a deep-equal put and a delete of a missing key as no-ops that create no revision', () => {
    const calls: number[] = [];
    store = new MvccStore({ clock, onCommit: (b) => calls.push(b.revision) });
    put(store, key('ns', 'a'), cm('a', { x: '1' }));
    const w = record(store, { afterRevision: 1 });

    const same = put(store, key('ns', 'a'), { data: { x: '1' }, metadata: { name: 'a' }, kind: 'ConfigMap', apiVersion: 'v1' });
    expect(same).toEqual({ succeeded: true, revision: 1, results: [undefined] });
    expect(del(store, key('ns', 'missing'))).toEqual({ succeeded: true, revision: 1, results: [undefined] });
    const noops = store.txn([], [
      { type: 'put', key: key('ns', 'a'), value: cm('a', { x: '1' }) },
      { type: 'delete', key: key('ns', 'zzz') },
    ]);
    expect(noops.revision).toBe(1);

    // A txn mixing a no-op and a real write: one revision holding only the real event.
    const mixed = store.txn([], [
      { type: 'put', key: key('ns', 'a'), value: cm('a', { x: '1' }) },
      { type: 'put', key: key('ns', 'b'), value: cm('b') },
    ]);
    expect(mixed.revision).toBe(2);
    expect(mixed.results[0]).toBeUndefined();
    expect(mixed.results[1]?.modRevision).toBe(2);
    clock.runDeferred();
    expect(w.summary()).toEqual([`2:PUT ${key('ns', 'b')}`]);
    expect(calls).toEqual([1, 2]);
  });

  it('compare-and-swap: all ops at one revision when every compare holds, nothing otherwise', () => {
    const a = key('ns', 'a');
    const b = key('ns', 'b');
    expect(store.txn([{ key: a, modRevision: 0 }], [{ type: 'put', key: a, value: cm('a') }]).succeeded).toBe(true);
    // Create-if-absent fails once the key exists; the failure reports the current kv.
    const dup = store.txn([{ key: a, modRevision: 0 }], [{ type: 'put', key: a, value: cm('a', { x: 'y' }) }]);
    expect(dup.succeeded).toBe(false);
    expect(dup.revision).toBe(1);
    expect(dup.results[0]?.modRevision).toBe(1);
    expect(store.get(a)?.value.data).toEqual({});

    const ok = store.txn(
      [{ key: a, modRevision: 1 }, { key: b, modRevision: 0 }],
      [
        { type: 'put', key: a, value: cm('a', { v: '2' }) },
        { type: 'put', key: b, value: cm('b') },
      ],
    );
    expect(ok.succeeded).toBe(true);
    expect(ok.revision).toBe(2);
    expect(store.get(a)?.modRevision).toBe(2);
    expect(store.get(b)?.modRevision).toBe(2);

    // One stale compare among several: nothing applies.
    const stale = store.txn(
      [{ key: a, modRevision: 2 }, { key: b, modRevision: 1 }],
      [
        { type: 'delete', key: a },
        { type: 'put', key: b, value: cm('b', { v: '3' }) },
      ],
    );
    expect(stale).toMatchObject({ succeeded: false, revision: 2 });
    expect(store.get(a)).toBeDefined();
    expect(store.get(b)?.value.data).toEqual({});
    expect(store.revision).toBe(2);
  });

  it('rejects two ops on one key in a txn, as etcd does', () => {
    const s = statusOf(() =>
      store.txn([], [
        { type: 'put', key: 'k', value: cm('a') },
        { type: 'delete', key: 'k' },
      ]),
    );
    expect(s).toEqual({ code: 400, reason: 'BadRequest', message: 'etcdserver: duplicate key given in txn request' });
    expect(store.revision).toBe(0);
  });

  it('ranges by directory and arbitrary prefix, sorted, and counts', () => {
    for (const [ns, name] of [['b', 'x'], ['a', 'z'], ['a', 'y'], ['ab', 'q']]) put(store, key(ns, name), cm(name));
    put(store, '/registry/core/secrets/a/s', cm('s'));
    expect(store.range(key('a', '')).kvs.map((kv) => kv.key)).toEqual([key('a', 'y'), key('a', 'z')]);
    expect(store.range('/registry/core/configmaps/a').kvs.map((kv) => kv.key)).toEqual([key('a', 'y'), key('a', 'z'), key('ab', 'q')]);
    expect(store.range('/registry/core/configmaps/').kvs).toHaveLength(4);
    expect(store.range('/registry/core/configmaps/').revision).toBe(5);
    expect(store.count('/registry/core/configmaps/')).toBe(4);
    expect(store.count('/registry/core/configmaps/a/')).toBe(2);
    expect(store.count('/registry/core/configmaps/a')).toBe(3);
    expect(store.count('/registry/')).toBe(5);
    expect(store.count('')).toBe(5);
    del(store, key('a', 'y'));
    expect(store.count('/registry/core/configmaps/a/')).toBe(1);
    expect(store.count('/registry/core/nothing/')).toBe(0);
    // A directory emptied by deletes ranges as empty now, and still as it was at an earlier revision.
    del(store, key('a', 'z'));
    expect(store.range(key('a', '')).kvs).toEqual([]);
    expect(store.range(key('a', ''), 6).kvs.map((kv) => kv.key)).toEqual([key('a', 'z')]);
    expect(store.range('/registry/core/nothing/')).toEqual({ kvs: [], revision: 7 });
  });

  it('reads at older revisions, undoing later puts, deletes and re-creates', () => {
    const a = key('ns', 'a');
    put(store, a, cm('a', { v: '1' })); // 1
    put(store, key('ns', 'b'), cm('b')); // 2
    put(store, a, cm('a', { v: '2' })); // 3
    del(store, key('ns', 'b')); // 4
    put(store, key('ns', 'c'), cm('c')); // 5
    del(store, a); // 6
    put(store, a, cm('a', { v: '3' })); // 7

    expect(store.get(a, 1)?.value.data).toEqual({ v: '1' });
    expect(store.get(a, 3)).toMatchObject({ modRevision: 3, version: 2 });
    expect(store.get(a, 6)).toBeUndefined();
    expect(store.get(a, 7)).toMatchObject({ createRevision: 7, version: 1 });
    expect(store.get(a, 0)).toBe(store.get(a));

    const names = (rev: number) => store.range('/registry/core/configmaps/ns/', rev).kvs.map((kv) => `${kv.key.slice(-1)}@${kv.modRevision}`);
    expect(names(0)).toEqual(['a@7', 'c@5']);
    expect(names(1)).toEqual(['a@1']);
    expect(names(2)).toEqual(['a@1', 'b@2']);
    expect(names(4)).toEqual(['a@3']);
    expect(names(5)).toEqual(['a@3', 'c@5']);
    expect(names(6)).toEqual(['c@5']);
    expect(store.range('/registry/', 2).revision).toBe(2);
  });

  it('restores from a snapshot and continues its revisions', () => {
    put(store, key('ns', 'a'), cm('a'));
    put(store, key('ns', 'a'), cm('a', { v: '2' }));
    put(store, key('ns', 'b'), cm('b'));
    const snapshot = { schemaVersion: 2, revision: store.revision, kvs: store.range('').kvs, meta: undefined };
    const restored = new MvccStore({ clock, snapshot });
    expect(restored.revision).toBe(3);
    expect(restored.compactRevision).toBe(3);
    expect(restored.get(key('ns', 'a'))).toMatchObject({ createRevision: 1, modRevision: 2, version: 2 });
    expect(restored.count('/registry/core/configmaps/ns/')).toBe(2);
    const r = put(restored, key('ns', 'a'), cm('a', { v: '3' }));
    expect(r.results[0]).toMatchObject({ createRevision: 1, modRevision: 4, version: 3 });
    expect(statusOf(() => restored.watch({ afterRevision: 2 }, () => {})).message).toBe('too old resource version: 2 (3)');
  });
});

describe('MvccStore watch', () => {
  it('delivers through clock.defer, never inside the write, in revision order, exactly once', () => {
    const w1 = record(store, { afterRevision: 0, prefix: '/registry/core/configmaps/' });
    const w2 = record(store, { afterRevision: 0 });
    put(store, key('ns', 'a'), cm('a'));
    expect(w1.batches).toHaveLength(0);
    put(store, key('ns', 'b'), cm('b'));
    put(store, '/registry/core/secrets/ns/s', cm('s'));
    clock.runDeferred();
    expect(w1.batches.map((b) => b.revision)).toEqual([1, 2]);
    expect(w2.batches.map((b) => b.revision)).toEqual([1, 2, 3]);
    del(store, key('ns', 'a'));
    clock.runDeferred();
    clock.runDeferred();
    expect(w1.summary()).toEqual([`1:PUT ${key('ns', 'a')}`, `2:PUT ${key('ns', 'b')}`, `4:DELETE ${key('ns', 'a')}`]);
    const deleted = w1.batches[2].events[0];
    expect(deleted.kv.modRevision).toBe(4);
    expect(deleted.prevKv?.modRevision).toBe(1);
    expect(deleted.kv.value).toBe(deleted.prevKv?.value);
  });

  it('uses one deferred task per watcher for a burst of writes', () => {
    record(store, { afterRevision: 0 });
    for (let i = 0; i < 50; i++) put(store, key('ns', `o${i}`), cm(`o${i}`));
    expect(clock.pending.deferred).toBe(1);
  });

  it('delivers a multi-object txn as one batch, filtered per watcher, skipping watchers it does not touch', () => {
    const all = record(store, { afterRevision: 0, prefix: '/registry/core/' });
    const ns1 = record(store, { afterRevision: 0, prefix: '/registry/core/configmaps/ns1/' });
    const other = record(store, { afterRevision: 0, prefix: '/registry/apps/' });
    store.txn([], [
      { type: 'put', key: key('ns1', 'a'), value: cm('a') },
      { type: 'put', key: key('ns2', 'b'), value: cm('b') },
      { type: 'put', key: key('ns1', 'c'), value: cm('c') },
    ]);
    clock.runDeferred();
    expect(all.summary()).toEqual([`1:PUT ${key('ns1', 'a')},PUT ${key('ns2', 'b')},PUT ${key('ns1', 'c')}`]);
    expect(ns1.summary()).toEqual([`1:PUT ${key('ns1', 'a')},PUT ${key('ns1', 'c')}`]);
    expect(other.batches).toHaveLength(0);
  });

  it('delivers one-object writes to the watchers of every enclosing directory, outermost first, as writes move between directories', () => {
    const order: string[] = [];
    const watchAs = (name: string, prefix: string) => store.watch({ afterRevision: 0, prefix }, (b) => order.push(`${b.revision} ${name}`));
    watchAs('ns1', '/registry/core/configmaps/ns1/');
    watchAs('core', '/registry/core/');
    watchAs('all', '');
    watchAs('web', '/registry/core/configmaps/ns1/web-');
    watchAs('configmaps', '/registry/core/configmaps/');
    put(store, key('ns1', 'web-1'), cm('web-1'));
    put(store, key('ns2', 'db-1'), cm('db-1'));
    put(store, key('ns1', 'db-2'), cm('db-2'));
    put(store, '/registry/apps/deployments/ns1/d', cm('d'));
    put(store, key('ns1', 'web-2'), cm('web-2'));
    clock.runDeferred();
    // Each watcher's first delivery is deferred in the order the first write reached them (root first).
    expect(order).toEqual([
      '1 all', '2 all', '3 all', '4 all', '5 all',
      '1 core', '2 core', '3 core', '5 core',
      '1 configmaps', '2 configmaps', '3 configmaps', '5 configmaps',
      '1 ns1', '3 ns1', '5 ns1',
      '1 web', '5 web',
    ]);
  });

  it('filters on a prefix that is not a directory', () => {
    const w = record(store, { afterRevision: 0, prefix: '/registry/core/configmaps/ns/web-' });
    put(store, key('ns', 'web-1'), cm('web-1'));
    put(store, key('ns', 'db-1'), cm('db-1'));
    put(store, key('ns', 'web-2'), cm('web-2'));
    clock.runDeferred();
    expect(w.batches.map((b) => b.revision)).toEqual([1, 3]);
  });

  it('replays history from an old revision, then continues live without gaps or duplicates', () => {
    for (let i = 1; i <= 5; i++) put(store, key('ns', `o${i}`), cm(`o${i}`));
    const w = record(store, { afterRevision: 2, prefix: '/registry/core/configmaps/' });
    put(store, key('ns', 'o6'), cm('o6'));
    clock.runDeferred();
    expect(w.batches.map((b) => b.revision)).toEqual([3, 4, 5, 6]);
    const fromNow = record(store, { afterRevision: 6 });
    clock.runDeferred();
    expect(fromNow.batches).toHaveLength(0);
  });

  it('cancel() stops delivery at once, including batches already queued and the rest of a running drain', () => {
    const w = record(store, { afterRevision: 0 });
    put(store, key('ns', 'a'), cm('a'));
    w.watch.cancel();
    clock.runDeferred();
    expect(w.batches).toHaveLength(0);
    expect(store.watcherCount).toBe(0);

    const seen: number[] = [];
    const self: { w?: StoreWatch } = {};
    self.w = store.watch({ afterRevision: 1 }, (b) => {
      seen.push(b.revision);
      self.w!.cancel();
    });
    put(store, key('ns', 'b'), cm('b'));
    put(store, key('ns', 'c'), cm('c'));
    clock.runDeferred();
    expect(seen).toEqual([2]);
    w.watch.cancel(); // idempotent
    expect(store.watcherCount).toBe(0);
  });

  it('lets a handler write: its own writes are delivered later, in order, outside the write', () => {
    const seen: number[] = [];
    let inTxn = false;
    store.watch({ afterRevision: 0, prefix: '/registry/core/configmaps/' }, (b) => {
      expect(inTxn).toBe(false);
      seen.push(b.revision);
      if (b.revision < 5) {
        inTxn = true;
        put(store, key('ns', `n${b.revision}`), cm('n'));
        inTxn = false;
      }
    });
    put(store, key('ns', 'start'), cm('start'));
    clock.runDeferred();
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('compaction: 410 with the exact text for watches and reads below it, history kept from it', () => {
    for (let i = 1; i <= 10; i++) put(store, key('ns', 'a'), cm('a', { i: String(i) }));
    store.compact(5);
    expect(store.compactRevision).toBe(5);
    expect(statusOf(() => store.watch({ afterRevision: 4 }, () => {}))).toEqual({
      code: 410,
      reason: 'Expired',
      message: 'too old resource version: 4 (5)',
    });
    expect(statusOf(() => store.get(key('ns', 'a'), 3)).message).toBe('too old resource version: 3 (5)');
    expect(statusOf(() => store.range('/registry/', 1)).code).toBe(410);
    expect(store.get(key('ns', 'a'), 5)?.value.data).toEqual({ i: '5' });
    const w = record(store, { afterRevision: 5 });
    clock.runDeferred();
    expect(w.batches.map((b) => b.revision)).toEqual([6, 7, 8, 9, 10]);
    // Compacting backwards is a no-op; beyond the head is an error.
    store.compact(3);
    expect(store.compactRevision).toBe(5);
    expect(statusOf(() => store.compact(11)).code).toBe(504);
  });

  it('future revision: 504 with the exact text', () => {
    put(store, key('ns', 'a'), cm('a'));
    expect(statusOf(() => store.watch({ afterRevision: 2 }, () => {}))).toEqual({
      code: 504,
      reason: 'Timeout',
      message: 'Timeout: Too large resource version: 2, current: 1',
    });
    expect(statusOf(() => store.get(key('ns', 'a'), 7)).message).toBe('Timeout: Too large resource version: 7, current: 1');
    expect(statusOf(() => store.range('', 2)).code).toBe(504);
  });

  it('keeps bounded history: compacts automatically and a watcher from before the window gets 410', () => {
    store = new MvccStore({ clock, historyRevisions: 100 });
    for (let i = 0; i < 200; i++) put(store, key('ns', `o${i % 7}`), cm('o', { i: String(i) }));
    expect(store.revision).toBe(200);
    expect(store.compactRevision).toBe(100);
    expect(statusOf(() => store.watch({ afterRevision: 1 }, () => {})).message).toBe('too old resource version: 1 (100)');
    const w = record(store, { afterRevision: 100 });
    clock.runDeferred();
    expect(w.batches).toHaveLength(100);
    expect(w.batches[0].revision).toBe(101);
  });

  it('a watch keeps receiving batches queued before a compaction', () => {
    const w = record(store, { afterRevision: 0 });
    for (let i = 0; i < 5; i++) put(store, key('ns', 'a'), cm('a', { i: String(i) }));
    store.compact(5);
    clock.runDeferred();
    expect(w.batches.map((b) => b.revision)).toEqual([1, 2, 3, 4, 5]);
  });

  it('terminates a slow consumer with a 410 and leaves others alone; it can resume from its last revision', () => {
    store = new MvccStore({ clock, maxPendingWatchEvents: 10 });
    const slowSeen: number[] = [];
    const errors: Status[] = [];
    store.watch({ afterRevision: 0 }, (b) => slowSeen.push(b.revision), (s) => errors.push(s));
    for (let i = 1; i <= 10; i++) put(store, key('ns', `o${i}`), cm('o'));
    // A fast watcher started now, drained before the next write.
    const fast = record(store, { afterRevision: 10 });
    put(store, key('ns', 'o11'), cm('o'));
    expect(store.watcherCount).toBe(1);
    clock.runDeferred();
    expect(slowSeen).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 410, reason: 'Expired', status: 'Failure' });
    expect(errors[0].message).toContain('unresponsiveness');
    expect(fast.batches.map((b) => b.revision)).toEqual([11]);

    const resumed = record(store, { afterRevision: 0 });
    clock.runDeferred();
    expect(resumed.batches).toHaveLength(11);
  });
});
