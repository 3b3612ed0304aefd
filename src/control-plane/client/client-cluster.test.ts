// The client against the real API server: every method's request is one the server understands.
import { describe, expect, it } from 'vitest';
import type { Deployment } from 'kubernetes-types/apps/v1';
import { isStatusError, StatusReason } from '../../shared/api/status';
import type { WatchEvent } from '../../shared/api/types';
import { PatchType } from '../apiserver/types';
import { createCluster } from '../cluster';

const deployment = (name: string, replicas = 1): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default', labels: { app: name } },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
  },
});

describe('Client over the API server', () => {
  it('server-side apply stores the Go type’s zero times, owning only what the configuration names', async () => {
    const cluster = await createCluster({ controllers: false });
    const applied = cluster.client.deployments.apply(deployment('ssa'), { fieldManager: 'tool' });
    expect(applied.spec?.template.metadata?.creationTimestamp).toBeNull();
    const doc = applied.metadata.managedFields?.[0]?.fieldsV1 as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    expect(doc['f:spec']['f:template']['f:metadata']).not.toHaveProperty(['f:creationTimestamp']);
    expect(doc['f:spec']['f:template']['f:metadata']).toHaveProperty(['f:labels']);
    await cluster.close();
  });

  it('records each component’s writes under its User-Agent’s command, as kubectl shows managedFields', async () => {
    const cluster = await createCluster({ seed: 5, nodes: 1 });
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    cluster.client.deployments.create(deployment('web'));
    cluster.runUntil(() => cluster.client.pods.list({ namespace: 'default' }).items.some((p) => p.status?.phase === 'Running'), 120_000);
    const pod = cluster.client.pods.list({ namespace: 'default' }).items[0]!;
    expect(pod.metadata.managedFields?.map((m) => [m.manager, m.operation, m.subresource])).toEqual([
      ['kube-controller-manager', 'Update', undefined],
      ['kubelet', 'Update', 'status'],
    ]);
    // The admin client is kubectl's connection: a write with no --field-manager is kubectl's.
    const d = cluster.client.deployments.get('web', { namespace: 'default' });
    expect(d.metadata.managedFields?.map((m) => m.manager)).toEqual(['kubectl', 'kube-controller-manager']);
    // By-value times are null when unset, in the object and as fields its writers own (zero-times.ts).
    expect(pod.status?.conditions?.every((c) => c.lastProbeTime === null)).toBe(true);
    const kubelet = pod.metadata.managedFields?.find((m) => m.manager === 'kubelet')?.fieldsV1 as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    expect(kubelet['f:status']['f:conditions']['k:{"type":"Ready"}']).toHaveProperty(['f:lastProbeTime']);
    expect(d.spec?.template.metadata?.creationTimestamp).toBeNull();
    const byKubectl = d.metadata.managedFields?.find((m) => m.manager === 'kubectl')?.fieldsV1 as Record<string, Record<string, Record<string, Record<string, unknown>>>>;
    expect(byKubectl['f:spec']['f:template']['f:metadata']).toHaveProperty(['f:creationTimestamp']);
    const event = cluster.client.events.list({ namespace: 'default' }).items.find((e) => e.reason === 'Started')!;
    expect(event.eventTime).toBeNull();
    // A request's own fieldManager wins.
    cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: '1' } }, { fieldManager: 'mine' });
    expect(cluster.client.configMaps.get('c', { namespace: 'default' }).metadata.managedFields?.[0]?.manager).toBe('mine');
    await cluster.close();
  });

  it('creates, reads, updates, patches, applies, scales and deletes', async () => {
    const cluster = await createCluster({ controllers: false });
    const { client } = cluster;
    const created = client.deployments.create(deployment('web'));
    expect(created.metadata.uid).toBeDefined();
    expect(created.metadata.generation).toBe(1);

    const got = client.deployments.get('web', { namespace: 'default' });
    const updated = client.deployments.update({ ...got, spec: { ...got.spec!, replicas: 2 } });
    expect(updated.spec?.replicas).toBe(2);
    expect(updated.metadata.generation).toBe(2);

    const withStatus = client.deployments.updateStatus({ ...updated, status: { observedGeneration: 2, replicas: 0 } });
    expect(withStatus.status?.observedGeneration).toBe(2);
    expect(withStatus.metadata.generation).toBe(2);

    const patched = client.deployments.patch('web', PatchType.MergePatch, { metadata: { labels: { tier: 'front' } } }, { namespace: 'default' });
    expect(patched.metadata.labels).toEqual({ app: 'web', tier: 'front' });

    const scale = client.deployments.getScale('web', { namespace: 'default' });
    expect(scale.spec?.replicas).toBe(2);
    const scaled = client.deployments.updateScale('web', { ...scale, spec: { replicas: 5 } }, { namespace: 'default' });
    expect(scaled.spec?.replicas).toBe(5);
    expect(client.deployments.get('web', { namespace: 'default' }).spec?.replicas).toBe(5);

    const applied = client.configMaps.apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: '1' } },
      { fieldManager: 'test' },
    );
    expect(applied.data).toEqual({ a: '1' });
    expect(applied.metadata.managedFields?.[0]?.manager).toBe('test');

    const list = client.deployments.list({ namespace: 'default', labelSelector: 'tier=front' });
    expect(list.items.map((d) => d.metadata.name)).toEqual(['web']);
    expect(Number(list.metadata.resourceVersion)).toBe(cluster.store.revision);

    client.deployments.delete('web', { namespace: 'default' });
    expect(() => client.deployments.get('web', { namespace: 'default' })).toThrow('deployments.apps "web" not found');
    await cluster.close();
  });

  it('deletes collections by label, and dry-runs without storing', async () => {
    const cluster = await createCluster({ controllers: false });
    const { client } = cluster;
    for (const [name, app] of [['a', 'x'], ['b', 'x'], ['c', 'y']]) {
      client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { app } } });
    }
    const rev = cluster.store.revision;
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry', namespace: 'default' } }, { dryRun: true });
    expect(cluster.store.revision).toBe(rev);
    client.configMaps.deleteCollection({ namespace: 'default', labelSelector: 'app=x' });
    expect(client.configMaps.list({ namespace: 'default' }).items.map((c) => c.metadata.name)).toEqual(['c']);
    await cluster.close();
  });

  it('watches from a resourceVersion, and acts as another user with withUser', async () => {
    const cluster = await createCluster({ controllers: false });
    const { client } = cluster;
    const rv = client.configMaps.list({ namespace: 'default' }).metadata.resourceVersion!;
    const events: WatchEvent[] = [];
    const w = client.configMaps.watch({ namespace: 'default', resourceVersion: rv }, (batch) => events.push(...batch));
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w', namespace: 'default' } });
    cluster.runUntilIdle();
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'w']]);
    w.stop();

    const jane = client.withUser({ username: 'jane', groups: [] });
    let refused: unknown;
    try {
      jane.configMaps.list({ namespace: 'default' });
    } catch (err) {
      refused = err;
    }
    expect(isStatusError(refused, StatusReason.Forbidden)).toBe(true);
    expect((refused as Error).message).toBe(
      'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"',
    );
    await cluster.close();
  });
});
