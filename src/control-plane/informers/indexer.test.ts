import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { Indexer, NamespaceIndex, NodeNameIndex, OwnerUidIndex } from './indexer';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from './keys';

function pod(ns: string, name: string, extra: { node?: string; owners?: string[]; labels?: Record<string, string> } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: ns,
      name,
      labels: extra.labels,
      ownerReferences: extra.owners?.map((uid) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${uid}`, uid })),
    },
    spec: extra.node ? { nodeName: extra.node } : {},
  };
}

describe('keys', () => {
  it('builds and splits namespace/name keys', () => {
    expect(metaNamespaceKeyFunc(pod('ns', 'a'))).toBe('ns/a');
    expect(metaNamespaceKeyFunc({ metadata: { name: 'node-1' } })).toBe('node-1');
    expect(splitMetaNamespaceKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitMetaNamespaceKey('node-1')).toEqual({ namespace: '', name: 'node-1' });
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow('unexpected key format: "a/b/c"');
  });
});

describe('Indexer', () => {
  it('indexes by namespace, owner uid and node name', () => {
    const idx = new Indexer();
    idx.upsert(pod('a', 'p1', { node: 'n1', owners: ['u1'] }));
    idx.upsert(pod('a', 'p2', { node: 'n2', owners: ['u1', 'u2'] }));
    idx.upsert(pod('b', 'p3'));
    expect(idx.indexKeys(NamespaceIndex, 'a').sort()).toEqual(['a/p1', 'a/p2']);
    expect(idx.indexKeys(OwnerUidIndex, 'u1').sort()).toEqual(['a/p1', 'a/p2']);
    expect(idx.indexKeys(OwnerUidIndex, 'u2')).toEqual(['a/p2']);
    expect(idx.byIndex(NodeNameIndex, 'n1').map((p) => p.metadata.name)).toEqual(['p1']);
    expect(idx.indexKeys(NodeNameIndex, 'n3')).toEqual([]);
    expect(idx.listIndexFuncValues(NodeNameIndex).sort()).toEqual(['n1', 'n2']);
  });

  it('moves index entries on update and removes them on delete', () => {
    const idx = new Indexer();
    idx.upsert(pod('a', 'p1'));
    const old = idx.upsert(pod('a', 'p1', { node: 'n1' }));
    expect(old?.spec).toEqual({});
    expect(idx.indexKeys(NodeNameIndex, 'n1')).toEqual(['a/p1']);
    idx.upsert(pod('a', 'p1', { node: 'n2' }));
    expect(idx.indexKeys(NodeNameIndex, 'n1')).toEqual([]);
    expect(idx.listIndexFuncValues(NodeNameIndex)).toEqual(['n2']);
    expect(idx.delete('a/p1')?.metadata.name).toBe('p1');
    expect(idx.delete('a/p1')).toBeUndefined();
    expect(idx.listIndexFuncValues(NamespaceIndex)).toEqual([]);
    expect(idx.size).toBe(0);
  });

  it('adds custom indexers over existing objects and rejects duplicate names', () => {
    const idx = new Indexer();
    idx.upsert(pod('a', 'p1', { labels: { app: 'web' } }));
    idx.upsert(pod('a', 'p2', { labels: { app: 'db' } }));
    idx.addIndexers({ app: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) });
    expect(idx.indexKeys('app', 'web')).toEqual(['a/p1']);
    idx.upsert(pod('a', 'p3', { labels: { app: 'web' } }));
    expect(idx.indexKeys('app', 'web').sort()).toEqual(['a/p1', 'a/p3']);
    expect(() => idx.addIndexers({ app: () => [] })).toThrow('indexer conflict: app');
    expect(() => idx.byIndex('nope', 'x')).toThrow('Index with name nope does not exist');
  });
});

describe('Indexer change tracking and list order', () => {
  it('records the keys changed under watched index values only, before and after each change', () => {
    const idx = new Indexer();
    const tracker = idx.trackChanges(OwnerUidIndex);
    idx.upsert(pod('a', 'p0', { owners: ['u1'] }));
    // Not watched yet: nothing recorded.
    tracker.watch('u1');
    expect([...tracker.take('u1')]).toEqual([]);
    idx.upsert(pod('a', 'p1', { owners: ['u1'] }));
    idx.upsert(pod('a', 'p2', { owners: ['u2'] }));
    // A status-like update keeps the index value but is still a change to the bucket's object.
    idx.upsert({ ...pod('a', 'p0', { owners: ['u1'] }), status: { phase: 'Running' } });
    expect([...tracker.take('u1')].sort()).toEqual(['a/p0', 'a/p1']);
    expect([...tracker.take('u1')]).toEqual([]);
    // Leaving the bucket (owner reference removed) and deletion are recorded under the old value.
    idx.upsert(pod('a', 'p1'));
    idx.delete('a/p0');
    expect([...tracker.take('u1')].sort()).toEqual(['a/p0', 'a/p1']);
    expect(tracker.isWatched('u2')).toBe(false);
    tracker.unwatch('u1');
    idx.upsert(pod('a', 'p3', { owners: ['u1'] }));
    expect([...tracker.take('u1')]).toEqual([]);
    idx.untrack(tracker);
    tracker.watch('u1');
    idx.upsert(pod('a', 'p4', { owners: ['u1'] }));
    expect([...tracker.take('u1')]).toEqual([]);
    expect(() => idx.trackChanges('nope')).toThrow('Index with name nope does not exist');
  });

  it('lists an index bucket in list() order, whenever each object joined the bucket', () => {
    const idx = new Indexer();
    idx.upsert(pod('a', 'p1'));
    idx.upsert(pod('a', 'p2', { node: 'n1' }));
    idx.upsert(pod('a', 'p3'));
    // p1 and p3 are bound after p2: the bucket itself holds p2, p3, p1.
    idx.upsert(pod('a', 'p3', { node: 'n1' }));
    idx.upsert(pod('a', 'p1', { node: 'n1' }));
    expect(idx.byIndex(NodeNameIndex, 'n1').map((p) => p.metadata.name)).toEqual(['p2', 'p3', 'p1']);
    expect(idx.byIndexInListOrder(NodeNameIndex, 'n1').map((p) => p.metadata.name)).toEqual(['p1', 'p2', 'p3']);
    // A deleted and recreated object goes to the end of list(), and of the ordered bucket.
    idx.delete('a/p1');
    idx.upsert(pod('a', 'p1', { node: 'n1' }));
    expect(idx.list().filter((p) => (p.spec as { nodeName?: string }).nodeName === 'n1').map((p) => p.metadata.name)).toEqual(['p2', 'p3', 'p1']);
    expect(idx.byIndexInListOrder(NodeNameIndex, 'n1').map((p) => p.metadata.name)).toEqual(['p2', 'p3', 'p1']);
  });

  it('orders a bucket by list() even when objects were recreated before the first ordered lookup', () => {
    const idx = new Indexer();
    for (const name of ['p1', 'p2', 'p3']) idx.upsert(pod('a', name));
    idx.delete('a/p1');
    idx.upsert(pod('a', 'p1'));
    for (const name of ['p3', 'p1', 'p2']) idx.upsert(pod('a', name, { node: 'n1' }));
    expect(idx.byIndexInListOrder(NodeNameIndex, 'n1').map((p) => p.metadata.name)).toEqual(['p2', 'p3', 'p1']);
    idx.upsert(pod('a', 'p0', { node: 'n1' }));
    idx.delete('a/p3');
    expect(idx.byIndexInListOrder(NodeNameIndex, 'n1').map((p) => p.metadata.name)).toEqual(['p2', 'p1', 'p0']);
  });

  it('keeps no index values per object: a replacement or deletion evaluates the index functions on the old object', () => {
    const idx = new Indexer({});
    const calls: string[] = [];
    idx.addIndexers({
      owners: (o) => {
        calls.push(`${o.metadata.name}:${(o.metadata.ownerReferences ?? []).map((r) => r.uid).join(',')}`);
        return (o.metadata.ownerReferences ?? []).map((r) => r.uid);
      },
    });
    idx.upsert(pod('a', 'p1', { owners: ['u1', 'u2'] }));
    idx.upsert(pod('a', 'p1', { owners: ['u2'] }));
    expect(calls).toEqual(['p1:u1,u2', 'p1:u1,u2', 'p1:u2']);
    expect(idx.indexKeys('owners', 'u1')).toEqual([]);
    expect(idx.indexKeys('owners', 'u2')).toEqual(['a/p1']);
    idx.upsert(pod('a', 'p1', { owners: ['u3', 'u4'] }));
    idx.delete('a/p1');
    expect(calls.slice(3)).toEqual(['p1:u2', 'p1:u3,u4', 'p1:u3,u4']);
    expect(idx.listIndexFuncValues('owners')).toEqual([]);
    // An index added later indexes the objects already there.
    idx.upsert(pod('a', 'p2', { node: 'n1' }));
    idx.addIndexers({ node: (o) => [(o.spec as { nodeName?: string }).nodeName ?? 'none'] });
    idx.upsert(pod('a', 'p2', { node: 'n2' }));
    expect(idx.indexKeys('node', 'n1')).toEqual([]);
    expect(idx.indexKeys('node', 'n2')).toEqual(['a/p2']);
  });

  it('keeps the default indexes right when an update leaves what they read unchanged, changes it, or is tracked', () => {
    const idx = new Indexer();
    const owners = Object.freeze([Object.freeze({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1' })]);
    const version = (node: string | undefined, refs: typeof owners | undefined, phase: string): KubeObject =>
      Object.freeze({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: Object.freeze({ namespace: 'a', name: 'p', ownerReferences: refs }),
        spec: Object.freeze(node ? { nodeName: node } : {}),
        status: Object.freeze({ phase }),
      }) as KubeObject;
    idx.upsert(version(undefined, owners, 'Pending'));
    idx.upsert(version('n1', owners, 'Pending'));
    idx.upsert(version('n1', owners, 'Running'));
    expect(idx.indexKeys(NodeNameIndex, 'n1')).toEqual(['a/p']);
    expect(idx.indexKeys(OwnerUidIndex, 'u1')).toEqual(['a/p']);
    expect(idx.indexKeys(NamespaceIndex, 'a')).toEqual(['a/p']);
    const tracker = idx.trackChanges(NodeNameIndex);
    tracker.watch('n1');
    idx.upsert(version('n1', owners, 'Succeeded'));
    expect([...tracker.take('n1')]).toEqual(['a/p']);
    idx.upsert(version('n2', undefined, 'Succeeded'));
    expect(idx.indexKeys(NodeNameIndex, 'n1')).toEqual([]);
    expect(idx.indexKeys(NodeNameIndex, 'n2')).toEqual(['a/p']);
    expect(idx.indexKeys(OwnerUidIndex, 'u1')).toEqual([]);
  });
});
