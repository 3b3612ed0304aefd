import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IndexedDbPersistence } from '../control-plane/store/persistence/indexeddb-persistence';
import type { KubeList, KubeObject } from '../shared/api/types';
import type { WatchBatch } from '../shared/protocol/messages';
import { createHeadlessCluster } from './headless';

const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' } as const;
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe('createHeadlessCluster', () => {
  it('creates, lists and deletes through the same client the page uses', async () => {
    const { client, close } = await createHeadlessCluster({ seed: 1 });
    try {
      const created = await client.call('api/request', {
        verb: 'create',
        ...configmaps,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo' }, data: { a: '1' } },
      });
      expect(created.code).toBe(201);
      const list = (await client.call('api/request', { verb: 'list', ...configmaps })).body as KubeList;
      expect(list.items.map((i) => i.metadata.name)).toContain('demo');

      const deleted = await client.call('api/request', { verb: 'delete', ...configmaps, name: 'demo' });
      expect(deleted.code).toBe(200);
      const after = (await client.call('api/request', { verb: 'list', ...configmaps })).body as KubeList;
      expect(after.items.map((i) => i.metadata.name)).not.toContain('demo');
      expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(list.metadata.resourceVersion));
    } finally {
      await close();
    }
  });

  it('delivers watch batches without anyone driving the clock (settle: deferred)', async () => {
    const { client, close } = await createHeadlessCluster({ seed: 1 });
    try {
      const batches: WatchBatch[] = [];
      const stop = client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'namespaces' }, (b) => batches.push(b));
      for (let i = 0; i < 50 && batches.length === 0; i++) await tick();
      expect(Object.keys(batches[0].diff.added).sort()).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
      await client.call('api/request', { verb: 'create', group: '', version: 'v1', resource: 'namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } });
      for (let i = 0; i < 50 && batches.length < 2; i++) await tick();
      expect(Object.keys(batches[1].diff.added)).toEqual(['team-a']);
      stop();
    } finally {
      await close();
    }
  });

  it('keeps acknowledged objects across a "reload" over IndexedDB (fake-indexeddb)', async () => {
    const indexedDB = new IDBFactory();
    const firstPersistence = new IndexedDbPersistence({ indexedDB, dbName: 'headless-test' });
    const first = await createHeadlessCluster({ seed: 4, persistence: firstPersistence });
    expect((await first.client.call('cluster/info')).persistence).toBe('indexeddb');
    const created = (
      await first.client.call('api/request', {
        verb: 'create',
        ...configmaps,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { k: 'v' } },
      })
    ).body as KubeObject;
    // The reply came after the write was durable: even dropping the connection now loses nothing.
    expect(firstPersistence.durableRevision).toBeGreaterThanOrEqual(Number(created.metadata.resourceVersion));
    await first.close();
    firstPersistence.close();

    const secondPersistence = new IndexedDbPersistence({ indexedDB, dbName: 'headless-test' });
    const second = await createHeadlessCluster({ persistence: secondPersistence });
    try {
      const got = (await second.client.call('api/request', { verb: 'get', ...configmaps, name: 'kept' })).body as KubeObject;
      expect(got.metadata.uid).toBe(created.metadata.uid);
      expect(got.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      expect(got.data).toEqual({ k: 'v' });
    } finally {
      await second.close();
      secondPersistence.close();
    }
  });
});
