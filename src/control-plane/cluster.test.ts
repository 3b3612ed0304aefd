import 'fake-indexeddb/auto'; // idb checks instanceof IDBRequest and friends: the globals must exist
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import type { KubeObject } from '../shared/api/types';
import { TraceKind, type TraceEvent } from '../shared/protocol/trace';
import { createCluster, type Cluster } from './cluster';
import { IndexedDbPersistence } from './store/persistence/indexeddb-persistence';
import { MemoryPersistence } from './store/persistence/memory-persistence';
import type { Persistence } from './store/persistence/types';

const defaultNamespaces = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

function names(objs: KubeObject[]): string[] {
  return objs.map((o) => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name!)).sort();
}

/** Every object the store holds, by key, with the identity fields a reload must keep. */
function snapshotOf(cluster: Cluster): Record<string, { uid?: string; rv?: string; created?: string }> {
  const out: Record<string, { uid?: string; rv?: string; created?: string }> = {};
  for (const kv of cluster.store.range('/registry/').kvs) {
    out[kv.key] = { uid: kv.value.metadata.uid, rv: String(kv.modRevision), created: kv.value.metadata.creationTimestamp };
  }
  return out;
}

describe('createCluster', () => {
  it('boots a cluster with the default namespaces and the default service accounts', async () => {
    const cluster = await createCluster();
    expect(names(cluster.client.namespaces.list().items)).toEqual(defaultNamespaces);
    expect(cluster.controllerManager.isRunning).toBe(true);
    cluster.runUntilIdle();
    expect(names(cluster.client.serviceAccounts.list().items)).toEqual(defaultNamespaces.map((n) => `${n}/default`));
    expect(cluster.queues()).toContainEqual({ name: 'serviceaccount', queued: [], processing: 0, waiting: [], retries: [] });
    expect(cluster.controllers().map((c) => c.name)).toContain('deployment-controller');
    await cluster.close();
  });

  it('creates the default ServiceAccount in a new namespace, and again after it is deleted', async () => {
    const cluster = await createCluster();
    cluster.runUntilIdle();
    cluster.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    cluster.runUntilIdle();
    const sa = cluster.client.serviceAccounts.get('default', { namespace: 'team-a' });
    cluster.client.serviceAccounts.delete('default', { namespace: 'team-a' });
    cluster.runUntilIdle();
    const again = cluster.client.serviceAccounts.get('default', { namespace: 'team-a' });
    expect(again.metadata.uid).not.toBe(sa.metadata.uid);
    await cluster.close();
  });

  it('creates nothing in a terminating namespace', async () => {
    const cluster = await createCluster();
    cluster.runUntilIdle();
    cluster.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
    cluster.runUntilIdle();
    cluster.client.namespaces.delete('doomed');
    const ns = cluster.client.namespaces.get('doomed');
    expect(ns.status?.phase).toBe('Terminating');
    const accountsBefore = cluster.client.serviceAccounts.list({ namespace: 'doomed' }).items.length;
    cluster.client.serviceAccounts.delete('default', { namespace: 'doomed' });
    cluster.runUntilIdle();
    expect(accountsBefore).toBe(1);
    expect(cluster.client.serviceAccounts.list({ namespace: 'doomed' }).items).toEqual([]);
    await cluster.close();
  });

  it('runs no controllers when asked not to', async () => {
    const cluster = await createCluster({ controllers: false });
    cluster.runUntilIdle();
    expect(cluster.client.serviceAccounts.list().items).toEqual([]);
    expect(cluster.queues()).toEqual([]);
    await cluster.close();
  });

  it('is deterministic: the same seed and the same requests give the same uids', async () => {
    const run = async () => {
      const cluster = await createCluster({ seed: 42 });
      cluster.runUntilIdle();
      cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } });
      cluster.runUntilIdle();
      const snap = snapshotOf(cluster);
      await cluster.close();
      return snap;
    };
    expect(await run()).toEqual(await run());
  });

  it('traces the chain from a namespace write to the service account the controller creates', async () => {
    const cluster = await createCluster();
    cluster.runUntilIdle();
    // Leaves such as reconcile.end reach subscribers (the UI) but are not kept in the ring.
    const seen: TraceEvent[] = [];
    cluster.trace.subscribe((e) => seen.push(e));
    cluster.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'traced' } });
    cluster.runUntilIdle();
    const events = cluster.trace.recent();
    const create = events.find(
      (e) => e.kind === TraceKind.ApiRequest && e.data.resource === 'serviceaccounts' && e.data.namespace === 'traced',
    );
    expect(create).toBeDefined();
    const chain = cluster.trace.causeChain(create!.seq).map((e) => (e.kind === TraceKind.Custom ? String(e.data.event) : e.kind));
    expect(chain.slice(0, 5)).toEqual([
      TraceKind.ApiRequest,
      TraceKind.ReconcileStart,
      TraceKind.QueueGet,
      TraceKind.QueueAdd,
      'informer.delta',
    ]);
    expect(events.some((e) => e.kind === TraceKind.ReconcileEnd)).toBe(false);
    const end = seen.find((e) => e.kind === TraceKind.ReconcileEnd && e.data.key === 'traced')!;
    expect(end.data).toMatchObject({
      controller: 'serviceaccount-controller',
      outcome: 'success',
      writes: [{ verb: 'create', resource: 'serviceaccounts', namespace: 'traced', code: 201 }],
    });
    await cluster.close();
  });
});

/** Writes some state, closes, and restores it from the same storage; checks everything came back. */
async function roundTrip(open: () => Persistence, reopen: (first: Persistence) => Persistence) {
  const first = open();
  // No kubelets: a restarted kubelet re-registers and reports status, which would (rightly) write.
  const a = await createCluster({ persistence: first, seed: 9, nodes: 0 });
  a.runUntilIdle();
  a.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
  a.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-a' }, data: { k: 'v' } });
  a.runUntilIdle();
  a.advance(90_000);
  const before = snapshotOf(a);
  const time = a.clock.now();
  const revision = a.store.revision;
  const rngState = a.rng.state();
  await a.close();

  const second = reopen(first);
  const b = await createCluster({ persistence: second, seed: 123 /* ignored: the saved seed wins */, nodes: 0 });
  expect(b.clock.now()).toBe(time);
  expect(b.store.revision).toBe(revision);
  expect(b.rng.state()).toBe(rngState);
  expect(b.seed).toBe(9);
  expect(snapshotOf(b)).toEqual(before);
  expect(b.client.configMaps.get('settings', { namespace: 'team-a' }).data).toEqual({ k: 'v' });
  // Nothing to do on restore: the controllers find every default account in place.
  b.runUntilIdle();
  expect(b.store.revision).toBe(revision);
  // Revisions continue after the restored one.
  const created = b.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later', namespace: 'team-a' } });
  expect(Number(created.metadata.resourceVersion)).toBe(revision + 1);
  await b.close();
  return { first, second };
}

describe('createCluster with persistence', () => {
  it('restores objects, revisions, uids, time and the rng from MemoryPersistence', async () => {
    const persistence = new MemoryPersistence();
    await roundTrip(
      () => persistence,
      (p) => p,
    );
    persistence.close();
  });

  it('restores from IndexedDbPersistence (fake-indexeddb) across connections', async () => {
    const indexedDB = new IDBFactory();
    const { second } = await roundTrip(
      () => new IndexedDbPersistence({ indexedDB, dbName: 'cluster-test' }),
      (first) => {
        first.close();
        return new IndexedDbPersistence({ indexedDB, dbName: 'cluster-test' });
      },
    );
    second.close();
  });

  it('makes writes durable on flush()', async () => {
    const persistence = new MemoryPersistence();
    const cluster = await createCluster({ persistence });
    cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } });
    await cluster.flush();
    expect(persistence.durableRevision).toBe(cluster.store.revision);
    const loaded = await persistence.load();
    expect(loaded?.meta).toEqual({
      clockTime: cluster.clock.now(),
      rngState: cluster.rng.state(),
      seed: 1,
      settings: { nodeMonitorGracePeriodSeconds: 40, defaultTolerationSeconds: 300, imagePullSeconds: 0, nodeStatusUpdateFrequencySeconds: 10 },
    });
    await cluster.close();
    persistence.close();
  });
});

describe('faults on the control plane', () => {
  it('a crash-restarted controller manager relists and goes on converging without duplicates', async () => {
    const cluster = await createCluster();
    cluster.runUntilIdle();
    cluster.controllerManager.stop();
    cluster.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'while-down' } });
    cluster.runUntilIdle();
    expect(cluster.client.serviceAccounts.list({ namespace: 'while-down' }).items).toHaveLength(0);
    cluster.controllerManager.start();
    cluster.runUntilIdle();
    expect(names(cluster.client.serviceAccounts.list({ namespace: 'while-down' }).items)).toEqual(['while-down/default']);
    await cluster.close();
  });

  it('controllers recover when a stopped API server comes back', async () => {
    const cluster = await createCluster();
    cluster.runUntilIdle();
    cluster.endpoint.stop();
    cluster.advance(5_000);
    expect(() => cluster.client.namespaces.list()).toThrow('connection refused');
    cluster.endpoint.start();
    cluster.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'after-outage' } });
    cluster.advance(60_000); // the informers' relist back-off
    expect(names(cluster.client.serviceAccounts.list({ namespace: 'after-outage' }).items)).toEqual(['after-outage/default']);
    await cluster.close();
  });
});

describe('nodes', () => {
  it('boots three Ready worker nodes whose kubelets renew their leases', async () => {
    const cluster = await createCluster();
    cluster.advance(30_000);
    const nodes = cluster.client.nodes.list().items;
    expect(nodes.map((n) => n.metadata.name)).toEqual(['node-1', 'node-2', 'node-3']);
    for (const n of nodes) {
      expect(n.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
      expect(n.status?.allocatable?.pods).toBe('110');
    }
    const leases = cluster.client.leases.list({ namespace: 'kube-node-lease' }).items;
    expect(leases.map((l) => l.metadata.name)).toEqual(['node-1', 'node-2', 'node-3']);
    await cluster.close();
  });

  it('a restored cluster gets its kubelets back and its nodes stay Ready', async () => {
    const persistence = new MemoryPersistence();
    const a = await createCluster({ persistence, nodes: 2 });
    a.advance(20_000);
    await a.close();
    const b = await createCluster({ persistence, nodes: 2 });
    b.advance(120_000);
    expect(b.client.nodes.list().items.map((n) => n.status?.conditions?.find((c) => c.type === 'Ready')?.status)).toEqual(['True', 'True']);
    await b.close();
    persistence.close();
  });
});
