// Storage trouble through the protocol: a full disk makes the refused write fail with etcd's NOSPACE error (and
// leaves nothing of it on disk), and the NOSPACE gate makes the keyspace read-only for everyone but deletes.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProtocolError } from '../shared/protocol/client';
import { IndexedDbPersistence } from '../control-plane/store/persistence/indexeddb-persistence';
import { NO_SPACE_MESSAGE } from '../control-plane/store/persistence/storage-errors';
import type { KubeList, KubeObject } from '../shared/api/types';
import { StorageAlarm } from '../shared/protocol/storage';
import { createHeadlessCluster } from './headless';
import { StorageHealth, gateWrites } from './storage-health';

const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
const create = (name: string) => ({ verb: 'create' as const, group: '', version: 'v1', resource: 'configmaps', namespace: 'default', body: cm(name) });

afterEach(() => {
  vi.restoreAllMocks();
});

async function statusOf(p: Promise<unknown>): Promise<{ code: number; message: string; reason: string }> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ProtocolError);
    return (err as ProtocolError).status as { code: number; message: string; reason: string };
  }
  throw new Error('the call succeeded');
}

describe('a full disk', () => {
  it('fails the write with a 500 "etcdserver: mvcc: database space exceeded" and saves nothing of it', async () => {
    const indexedDB = new IDBFactory();
    const persistence = new IndexedDbPersistence({ indexedDB, dbName: 'nospace' });
    const h = await createHeadlessCluster({ persistence, scheduler: false, nodes: 0, controllers: false });
    await h.client.call('api/request', create('kept'));
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const status = await statusOf(h.client.call('api/request', create('refused')));
    expect(status).toMatchObject({ code: 500, message: NO_SPACE_MESSAGE, reason: '' });
    vi.restoreAllMocks();
    persistence.close(); // the worker rolls back to the saved state
    h.server.close();
    h.client.close();

    const reopened = new IndexedDbPersistence({ indexedDB, dbName: 'nospace' });
    const again = await createHeadlessCluster({ persistence: reopened, scheduler: false, nodes: 0, controllers: false });
    try {
      const list = (await again.client.call('api/request', { verb: 'list', group: '', version: 'v1', resource: 'configmaps', namespace: 'default' })).body as KubeList;
      const names = list.items.map((o) => o.metadata.name);
      expect(names).toContain('kept');
      expect(names).not.toContain('refused');
    } finally {
      await again.close();
      reopened.close();
    }
  });

  it('read-only under the NOSPACE alarm: creates, updates and patches are refused for every client; reads, deletes and dry runs work', async () => {
    const h = await createHeadlessCluster({ scheduler: false, nodes: 0, controllers: false });
    const health = new StorageHealth();
    gateWrites(h.cluster.apiserver, health);
    try {
      await h.client.call('api/request', create('a'));
      health.raise(StorageAlarm.NoSpace);
      expect(health.status()).toMatchObject({ alarm: StorageAlarm.NoSpace });
      expect(await statusOf(h.client.call('api/request', create('b')))).toMatchObject({ code: 500, message: NO_SPACE_MESSAGE });
      // The in-process client (controllers, kubelets) goes through the same gate.
      const configMaps = h.cluster.client.resource({ group: '', version: 'v1', resource: 'configmaps' });
      expect(() => configMaps.create({ ...cm('c'), metadata: { name: 'c', namespace: 'default' } })).toThrow(NO_SPACE_MESSAGE);
      const patched = h.client.call('api/request', {
        verb: 'patch', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'a',
        patchType: 'application/merge-patch+json', body: { data: { a: '2' } },
      });
      expect((await statusOf(patched)).message).toBe(NO_SPACE_MESSAGE);
      const dry = await h.client.call('api/request', { ...create('d'), options: { dryRun: true } });
      expect(dry.code).toBe(201);
      const got = await h.client.call('api/request', { verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'a' });
      expect((got.body as KubeObject).data).toEqual({ a: '1' });
      const del = await h.client.call('api/request', { verb: 'delete', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'a' });
      expect(del.code).toBe(200);

      health.saved(); // a save went through: there is room again
      expect(health.status()).toEqual({});
      expect((await h.client.call('api/request', create('b'))).code).toBe(201);
    } finally {
      await h.close();
    }
  });

  it('a cleared database stays reported until a reset, and does not make the cluster read-only', () => {
    const health = new StorageHealth();
    health.raise(StorageAlarm.Cleared);
    health.raise(StorageAlarm.NoSpace);
    expect(health.status().alarm).toBe(StorageAlarm.Cleared);
    expect(health.status().message).toMatch(/storage was cleared/);
    expect(health.readOnly).toBe(false);
    health.saved();
    expect(health.status().alarm).toBe(StorageAlarm.Cleared);
    health.reset();
    expect(health.status()).toEqual({});
  });
});
