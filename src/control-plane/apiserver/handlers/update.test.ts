import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../shared/api/types';
import { createCluster, type Cluster } from '../../cluster';
import { storedView } from '../storage/object-codec';

const clusters: Cluster[] = [];
afterEach(async () => {
  for (const c of clusters.splice(0)) await c.close();
});

const key = '/registry/core/pods/default/web';

async function withPod() {
  const cluster = await createCluster({ seed: 3, controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  clusters.push(cluster);
  cluster.runUntilIdle({ maxTimeMs: 60_000 });
  cluster.client.pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } }, { namespace: 'default' });
  // What an informer holds: the stored object's frozen view, its spec the stored one.
  const cached = () => storedView(cluster.store.get(key)!) as Pod & KubeObject;
  return { cluster, cached };
}

describe('PUT handing back the stored spec (the kind keeps it)', () => {
  it('writes a pod status, defaulting and admission leaving the kept spec alone', async () => {
    const { cluster, cached } = await withPod();
    const before = cached();
    const answer = cluster.client.pods.updateStatus({ ...before, status: { ...before.status, phase: 'Running', podIP: '10.0.0.5' } });
    expect(answer.status?.phase).toBe('Running');
    const after = cached();
    expect(after.spec).toBe(before.spec);
    expect(after.status?.podIP).toBe('10.0.0.5');
    expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
  });

  it('updates a pod’s labels through the main resource with the stored spec', async () => {
    const { cluster, cached } = await withPod();
    const before = cached();
    const answer = cluster.client.pods.update({ ...before, metadata: { ...before.metadata, labels: { app: 'web' } } });
    expect(answer.metadata?.labels).toEqual({ app: 'web' });
    expect(cached().spec).toBe(before.spec);
    // The spec still carries every default and admission change it was stored with.
    expect(answer.spec).toEqual(JSON.parse(JSON.stringify(before.spec)));
  });

  it('still refuses a spec change, from another pod’s stored spec', async () => {
    const { cluster, cached } = await withPod();
    cluster.client.pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'other', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'busybox' }] } }, { namespace: 'default' });
    const other = storedView(cluster.store.get('/registry/core/pods/default/other')!) as Pod & KubeObject;
    expect(() => cluster.client.pods.update({ ...cached(), spec: other.spec })).toThrow(/Forbidden: pod updates may not change fields other than/);
  });
});
