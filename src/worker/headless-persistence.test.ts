// api/apply over IndexedDB (fake-indexeddb) end to end through the protocol: a call's reply comes once every
// revision it wrote is durable (group commit: one transaction per write cycle, not one per object), and a worker
// that dies right after a reply loses none of what the reply acknowledged.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexedDbPersistence } from '../control-plane/store/persistence/indexeddb-persistence';
import type { KubeList } from '../shared/api/types';
import { createHeadlessCluster } from './headless';

function configMaps(from: number, to: number): string {
  const docs: string[] = [];
  for (let i = from; i < to; i++) docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  index: "${i}"\n`);
  return docs.join('---\n');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('api/apply over IndexedDB', () => {
  it('replies once the whole call is durable, in far fewer transactions than objects; a crash after the reply loses none of it', async () => {
    const indexedDB = new IDBFactory();
    const persistence = new IndexedDbPersistence({ indexedDB, dbName: 'apply-test' });
    const first = await createHeadlessCluster({ seed: 5, persistence, scheduler: false, nodes: 0 });
    let writes = 0;
    const original = IDBDatabase.prototype.transaction;
    vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, stores, mode, options) {
      if (mode === 'readwrite') writes++;
      return original.call(this, stores, mode, options);
    });
    const replies = await Promise.all([
      first.client.call('api/apply', { manifest: configMaps(0, 200) }),
      first.client.call('api/apply', { manifest: configMaps(200, 400) }),
    ]);
    expect(replies.flatMap((r) => r.outcomes).filter((o) => o.ok)).toHaveLength(400);
    const acknowledged = first.cluster.store.revision;
    expect(persistence.durableRevision).toBeGreaterThanOrEqual(acknowledged);
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThan(20);
    vi.restoreAllMocks();

    // The worker dies: its persistence is gone without a flush (queued writes, if any, are dropped).
    persistence.close();
    first.server.close();
    first.client.close();

    const reopened = new IndexedDbPersistence({ indexedDB, dbName: 'apply-test' });
    const second = await createHeadlessCluster({ persistence: reopened, scheduler: false, nodes: 0 });
    try {
      expect(second.cluster.store.revision).toBeGreaterThanOrEqual(acknowledged);
      const list = (await second.client.call('api/request', { verb: 'list', group: '', version: 'v1', resource: 'configmaps', namespace: 'default' })).body as KubeList;
      expect(list.items.filter((o) => o.metadata.name?.startsWith('cm-')).map((o) => o.data)).toEqual(
        Array.from({ length: 400 }, (_, i) => ({ index: String(i) })).sort((a, b) => (`cm-${a.index}` < `cm-${b.index}` ? -1 : 1)),
      );
    } finally {
      await second.close();
      reopened.close();
    }
  });
});
