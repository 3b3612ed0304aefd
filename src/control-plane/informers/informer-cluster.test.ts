// Informers against the real API server and store: relisting after the server compacted past the watch.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { createCluster } from '../cluster';
import { SharedInformerFactory } from './factory';
import { NamespaceIndex, OwnerUidIndex, namespaceIndexers } from './indexer';
import { metaNamespaceKeyFunc } from './keys';
import { DeletedFinalStateUnknown } from './shared-informer';

const state = (objs: KubeObject[]) => objs.map((o) => `${metaNamespaceKeyFunc(o)}@${o.metadata.resourceVersion}`).sort();

describe('informers over the API server', () => {
  it('relists after a 410 when history was compacted while the watch was down, and converges', async () => {
    const cluster = await createCluster({ controllers: false, historyRevisions: 3 });
    const { client, clock } = cluster;
    const factory = new SharedInformerFactory({ client, clock, trace: cluster.trace });
    const informer = factory.configMaps;
    const deleted: string[] = [];
    informer.addEventHandler({ onDelete: (o) => deleted.push(o instanceof DeletedFinalStateUnknown ? `tombstone ${o.key}` : metaNamespaceKeyFunc(o)) });
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old', namespace: 'default' } });
    factory.start();
    expect(factory.waitForCacheSync(clock)).toBe(true);

    (informer as unknown as { reflector: { dropWatch(): void } }).reflector.dropWatch();
    client.configMaps.delete('old', { namespace: 'default' });
    for (let i = 0; i < 6; i++) {
      client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}`, namespace: 'default' } });
    }
    clock.runUntilIdle();

    expect(informer.listCount).toBe(2);
    expect(state(informer.lister.list())).toEqual(state(client.configMaps.list().items));
    expect(deleted).toEqual(['tombstone default/old']);
    const relist = cluster.trace.recent().find((e) => e.data.event === 'relist')!;
    expect(relist.data).toMatchObject({ during: 'watch', expired: true, code: 410 });
    expect(String(relist.data.message)).toMatch(/^too old resource version: \d+ \(\d+\)$/);
    factory.shutdown();
    await cluster.close();
  });

  it('keeps every informer of the factory in step with the server through a burst of writes', async () => {
    const cluster = await createCluster({ controllers: false });
    const { client, clock } = cluster;
    const factory = new SharedInformerFactory({ client, clock });
    const namespaces = factory.namespaces;
    const configMaps = factory.configMaps;
    factory.start();
    factory.waitForCacheSync(clock);
    for (let i = 0; i < 20; i++) {
      client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${i}` } });
      client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: `ns-${i}` } });
    }
    clock.runUntilIdle();
    expect(state(namespaces.lister.list())).toEqual(state(client.namespaces.list().items));
    expect(state(configMaps.lister.list())).toEqual(state(client.configMaps.list().items));
    expect(configMaps.lister.listNamespace('ns-3').map((c) => c.metadata.name)).toEqual(['c']);
    expect(factory.status().map((s) => [s.resource, s.synced, s.lists])).toEqual([
      ['namespaces', true, 1],
      ['configmaps', true, 1],
    ]);
    factory.shutdown();
    await cluster.close();
  });

  it("keeps only the namespace index when a component asks for client-go's default indexers", async () => {
    const cluster = await createCluster({ controllers: false });
    const { client, clock } = cluster;
    const full = new SharedInformerFactory({ client, clock });
    const lean = new SharedInformerFactory({ client, clock, baseIndexers: namespaceIndexers });
    const owned = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u-1' }] } };
    client.configMaps.create(owned as never, { namespace: 'default' });
    for (const f of [full, lean]) {
      void f.configMaps;
      f.start();
      f.waitForCacheSync(clock);
    }
    expect(full.configMaps.lister.byIndex(OwnerUidIndex, 'u-1').map((c) => c.metadata.name)).toEqual(['c']);
    expect(lean.configMaps.lister.byIndex(NamespaceIndex, 'default').map((c) => c.metadata.name)).toEqual(['c']);
    expect(() => lean.configMaps.lister.byIndex(OwnerUidIndex, 'u-1')).toThrow('Index with name ownerUid does not exist');
    full.shutdown();
    lean.shutdown();
    await cluster.close();
  });
});
