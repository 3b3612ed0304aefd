import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../shared/api/types';
import { TraceKind } from '../../../shared/protocol/trace';
import { createCluster, type Cluster } from '../../cluster';
import { PatchType } from '../../apiserver/types';
import { controllerManagerUser } from '../shared/controller';
import { SharedInformerFactory } from '../../informers/factory';
import { GarbageCollector } from './garbage-collector';

/** Runs the cluster until it is idle, or for at most a virtual minute. */
function settle(cluster: Cluster): void {
  cluster.runUntilIdle({ maxTimeMs: 60_000 });
}

const running: { cluster: Cluster; gcs: GarbageCollector[] }[] = [];

async function setup() {
  const cluster = await createCluster({ seed: 7, controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  const gc = startGC(cluster);
  const entry = { cluster, gcs: [gc] };
  running.push(entry);
  settle(cluster);
  return { cluster, client: cluster.client, gc, entry };
}

/** A garbage collector over its own informers, as a separate controller-manager process would run it. */
function startGC(cluster: Cluster): GarbageCollector {
  const client = cluster.client.withUser(controllerManagerUser);
  const informers = new SharedInformerFactory({ client, clock: cluster.clock, trace: cluster.trace });
  const gc = new GarbageCollector({ client, informers, registry: cluster.registry, clock: cluster.clock, trace: cluster.trace });
  informers.start();
  gc.run();
  stopInformers.set(gc, () => informers.shutdown());
  return gc;
}

const stopInformers = new Map<GarbageCollector, () => void>();

afterEach(async () => {
  for (const { cluster, gcs } of running.splice(0)) {
    for (const gc of gcs) {
      gc.shutDown();
      stopInformers.get(gc)?.();
    }
    await cluster.close();
  }
});

function replicaSet(name: string, replicas: number, namespace = 'default'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

type Owner = { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean };

function ownerRef(owner: KubeObject, extra: Partial<Owner> = {}): Owner {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name!, uid: owner.metadata.uid!, ...extra };
}

function pod(name: string, owners: Owner[], opts: { namespace?: string; app?: string; finalizers?: string[] } = {}): Pod & KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: opts.namespace ?? 'default',
      labels: opts.app ? { app: opts.app } : undefined,
      ownerReferences: owners.length ? owners : undefined,
      finalizers: opts.finalizers,
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };
}

function podNames(cluster: Cluster, namespace = 'default'): string[] {
  return cluster.client.pods
    .list({ namespace })
    .items.map((p) => p.metadata.name!)
    .sort();
}

function exists(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

describe('GarbageCollector on a cluster', () => {
  it('monitors every deletable resource but events', async () => {
    const { gc } = await setup();
    const monitored = gc.graphBuilder.monitoredResources();
    for (const r of ['/pods', 'apps/replicasets', 'apps/deployments', 'batch/jobs', '/configmaps', '/secrets', 'coordination.k8s.io/leases', 'discovery.k8s.io/endpointslices']) {
      expect(monitored).toContain(r);
    }
    expect(monitored).not.toContain('/events');
    expect(monitored).not.toContain('events.k8s.io/events');
    expect(monitored).not.toContain('/bindings');
  });

  it('deletes the dependents of an owner deleted in the background', async () => {
    const { cluster, client } = await setup();
    const rs = client.replicaSets.create(replicaSet('web', 2));
    for (const n of ['web-a', 'web-b']) client.pods.create(pod(n, [ownerRef(rs, { controller: true, blockOwnerDeletion: true })], { app: 'web' }));
    client.pods.create(pod('unrelated', []));
    settle(cluster);
    expect(podNames(cluster)).toEqual(['unrelated', 'web-a', 'web-b']);

    client.replicaSets.delete('web', { namespace: 'default', propagationPolicy: 'Background' });
    expect(exists(() => client.replicaSets.get('web', { namespace: 'default' }))).toBe(false);
    settle(cluster);
    expect(podNames(cluster)).toEqual(['unrelated']);
    const decisions = cluster.trace
      .recent()
      .filter((e) => e.kind === TraceKind.Custom && (e.data as { event?: string }).event === 'gc.decision' && (e.data as { action?: string }).action === 'delete');
    expect(decisions.map((e) => (e.data as { item: string }).item).filter((i) => i.includes('v1/Pod')).length).toBe(2);
  });

  it('keeps a foreground-deleted owner until its blocking dependents are gone', async () => {
    const { cluster, client } = await setup();
    const rs = client.replicaSets.create(replicaSet('fg', 3));
    const ref = ownerRef(rs, { controller: true, blockOwnerDeletion: true });
    client.pods.create(pod('fg-held', [ref], { app: 'fg', finalizers: ['example.com/hold'] }));
    client.pods.create(pod('fg-plain', [ref], { app: 'fg' }));
    // A dependent that does not block its owner's deletion.
    client.pods.create(pod('fg-nonblocking', [{ ...ref, blockOwnerDeletion: false }], { app: 'fg', finalizers: ['example.com/hold'] }));
    settle(cluster);

    client.replicaSets.delete('fg', { namespace: 'default', propagationPolicy: 'Foreground' });
    settle(cluster);
    const owner = client.replicaSets.get('fg', { namespace: 'default' });
    expect(owner.metadata.deletionTimestamp).toBeDefined();
    expect(owner.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(podNames(cluster)).toEqual(['fg-held', 'fg-nonblocking']);
    expect(client.pods.get('fg-held', { namespace: 'default' }).metadata.deletionTimestamp).toBeDefined();

    // The held pod goes: nothing blocks the owner any more.
    client.pods.patch('fg-held', PatchType.MergePatch, { metadata: { finalizers: null } }, { namespace: 'default' });
    settle(cluster);
    expect(exists(() => client.replicaSets.get('fg', { namespace: 'default' }))).toBe(false);
    expect(podNames(cluster)).toEqual(['fg-nonblocking']);
    expect(client.pods.get('fg-nonblocking', { namespace: 'default' }).metadata.deletionTimestamp).toBeDefined();
  });

  it('orphans dependents: they stay, without the reference to the deleted owner', async () => {
    const { cluster, client } = await setup();
    const rs = client.replicaSets.create(replicaSet('orph', 2));
    const other = client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other-owner', namespace: 'default' } });
    client.pods.create(pod('orph-a', [ownerRef(rs, { controller: true, blockOwnerDeletion: true })], { app: 'orph' }));
    client.pods.create(pod('orph-b', [ownerRef(rs, { controller: true, blockOwnerDeletion: true }), ownerRef(other)], { app: 'orph' }));
    settle(cluster);

    const res = client.replicaSets.delete('orph', { namespace: 'default', propagationPolicy: 'Orphan' }) as KubeObject;
    expect(res.metadata.finalizers).toEqual(['orphan']);
    settle(cluster);
    expect(exists(() => client.replicaSets.get('orph', { namespace: 'default' }))).toBe(false);
    expect(podNames(cluster)).toEqual(['orph-a', 'orph-b']);
    expect(client.pods.get('orph-a', { namespace: 'default' }).metadata.ownerReferences).toBeUndefined();
    expect(client.pods.get('orph-b', { namespace: 'default' }).metadata.ownerReferences).toEqual([ownerRef(other)]);
  });

  it('deletes a dependent whose owner never existed or has another uid', async () => {
    const { cluster, client } = await setup();
    const live = client.replicaSets.create(replicaSet('live', 0));
    client.pods.create(pod('ghost-child', [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'ghost', uid: 'no-such-uid' }]));
    client.pods.create(pod('wrong-uid-child', [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'live', uid: 'stale-uid' }]));
    client.pods.create(pod('good-child', [ownerRef(live)]));
    settle(cluster);
    expect(podNames(cluster)).toEqual(['good-child']);
  });

  it('removes only the dangling reference when another owner is solid', async () => {
    const { cluster, client } = await setup();
    const a = client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
    const b = client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'default' } });
    client.secrets.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default', ownerReferences: [ownerRef(a), ownerRef(b)] } });
    settle(cluster);
    client.configMaps.delete('a', { namespace: 'default' });
    settle(cluster);
    expect(client.secrets.get('s', { namespace: 'default' }).metadata.ownerReferences).toEqual([ownerRef(b)]);
  });

  it('does not delete dependents that have a valid owner besides one waiting for its dependents', async () => {
    const { cluster, client } = await setup();
    const rs1 = client.replicaSets.create(replicaSet('rs1', 0));
    const rs2 = client.replicaSets.create(replicaSet('rs2', 0));
    for (const n of ['both-a', 'both-b']) {
      client.pods.create(pod(n, [ownerRef(rs1, { blockOwnerDeletion: true }), ownerRef(rs2, { blockOwnerDeletion: true })]));
    }
    settle(cluster);
    client.replicaSets.delete('rs1', { namespace: 'default', propagationPolicy: 'Foreground' });
    settle(cluster);
    expect(exists(() => client.replicaSets.get('rs1', { namespace: 'default' }))).toBe(false);
    expect(podNames(cluster)).toEqual(['both-a', 'both-b']);
    for (const n of ['both-a', 'both-b']) {
      expect(client.pods.get(n, { namespace: 'default' }).metadata.ownerReferences).toEqual([ownerRef(rs2, { blockOwnerDeletion: true })]);
    }
  });

  it('treats a namespaced owner in another namespace as absent', async () => {
    const { cluster, client } = await setup();
    client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    const rs = client.replicaSets.create(replicaSet('owner', 0));
    settle(cluster);
    const child = client.pods.create(pod('cross', [ownerRef(rs)], { namespace: 'other' }));
    settle(cluster);
    expect(podNames(cluster, 'other')).toEqual([]);
    expect(client.replicaSets.get('owner', { namespace: 'default' }).metadata.uid).toBe(rs.metadata.uid);
    const warnings = client.events.list({ namespace: 'other' }).items.filter((e) => e.reason === 'OwnerRefInvalidNamespace');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'Pod', name: 'cross', namespace: 'other', uid: child.metadata.uid },
      message: `ownerRef [apps/v1/ReplicaSet, namespace: other, name: owner, uid: ${rs.metadata.uid}] does not exist in namespace "other"`,
    });
  });

  it('is not blocked by a dependency circle', async () => {
    const { cluster, client } = await setup();
    const p1 = client.pods.create(pod('pod1', []));
    const p2 = client.pods.create(pod('pod2', [ownerRef(p1, { blockOwnerDeletion: true })]));
    const p3 = client.pods.create(pod('pod3', [ownerRef(p2, { blockOwnerDeletion: true })]));
    client.pods.patch('pod1', PatchType.MergePatch, { metadata: { ownerReferences: [ownerRef(p3, { blockOwnerDeletion: true })] } }, { namespace: 'default' });
    settle(cluster);
    expect(podNames(cluster)).toEqual(['pod1', 'pod2', 'pod3']);
    client.pods.delete('pod1', { namespace: 'default', propagationPolicy: 'Foreground' });
    settle(cluster);
    expect(podNames(cluster)).toEqual([]);
  });

  it('cascades through custom resources', async () => {
    const { cluster, client } = await setup();
    client.customResourceDefinitions.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    settle(cluster);
    const widgets = client.resource({ group: 'example.com', version: 'v1', resource: 'widgets' });
    const owner = widgets.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'owner', namespace: 'default' } });
    widgets.create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'child', namespace: 'default', ownerReferences: [ownerRef(owner)] } });
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-child', namespace: 'default', ownerReferences: [ownerRef(owner)] } });
    settle(cluster);
    expect(widgets.list({ namespace: 'default' }).items.map((w) => w.metadata.name).sort()).toEqual(['child', 'owner']);

    widgets.delete('owner', { namespace: 'default', propagationPolicy: 'Foreground' });
    settle(cluster);
    expect(widgets.list({ namespace: 'default' }).items).toEqual([]);
    expect(exists(() => client.configMaps.get('cm-child', { namespace: 'default' }))).toBe(false);
  });

  it('converges after a restart: dependents of an owner deleted while it was down are collected', async () => {
    const { cluster, client, gc, entry } = await setup();
    const rs = client.replicaSets.create(replicaSet('down', 1));
    client.pods.create(pod('down-a', [ownerRef(rs, { controller: true })], { app: 'down' }));
    settle(cluster);
    gc.shutDown();
    stopInformers.get(gc)?.();
    client.replicaSets.delete('down', { namespace: 'default' });
    settle(cluster);
    expect(podNames(cluster)).toEqual(['down-a']);

    entry.gcs.push(startGC(cluster));
    settle(cluster);
    expect(podNames(cluster)).toEqual([]);
  });

  it('exposes its queues for the UI', async () => {
    const { gc } = await setup();
    expect(gc.queues().map((q) => q.name)).toEqual([
      'garbage_collector_attempt_to_delete',
      'garbage_collector_attempt_to_orphan',
      'garbage_collector_graph_changes',
    ]);
  });
});
