import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { TraceKind } from '../../../shared/protocol/trace';
import { createCluster, type Cluster } from '../../cluster';
import { SharedInformerFactory } from '../../informers/factory';
import { controllerManagerUser } from '../shared/controller';
import { getControllerOf } from '../shared/controller-utils';
import { ReplicaSetController } from './replica-set-controller';
import { bindPod, setPodRunning } from './testing';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function setup(kind?: 'ReplicaSet' | 'ReplicationController') {
  cluster = await createCluster({ controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  const c = cluster;
  const client = c.client.withUser(controllerManagerUser);
  const informers = new SharedInformerFactory({ client, clock: c.clock, trace: c.trace });
  const rsc = new ReplicaSetController({ client, informers, clock: c.clock, trace: c.trace, kind });
  informers.start();
  rsc.run();
  for (const n of ['node-1', 'node-2', 'node-3']) {
    c.client.nodes.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: n, labels: { 'kubernetes.io/hostname': n } } });
  }
  c.runUntilIdle();
  // Pods not being deleted (a bound pod deleted gracefully stays Terminating: there is no kubelet here).
  const pods = (selector = 'app=web') =>
    c.client.pods.list({ namespace: 'default', labelSelector: selector }).items.filter((p) => !p.metadata.deletionTimestamp);
  const events = (reason: string) =>
    c.client.events
      .list({ namespace: 'default' })
      .items.filter((e) => e.reason === reason)
      .map((e) => e.message);
  return { c, rsc, pods, events, informers, client };
}

function replicaSet(name: string, replicas: number, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
      ...extra,
    },
  };
}

describe('ReplicaSetController on a cluster', () => {
  it('creates N pods with controller owner references, generateName and SuccessfulCreate events, in slow-start batches', async () => {
    const { c, pods, events } = await setup();
    const rs = c.client.replicaSets.create(replicaSet('web', 5));
    c.runUntilIdle();
    const created = pods();
    expect(created).toHaveLength(5);
    for (const p of created) {
      expect(p.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
      expect(p.metadata.generateName).toBe('web-');
      expect(p.metadata.labels).toEqual({ app: 'web', tier: 'front' });
      expect(p.metadata.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
    const names = created.map((p) => `Created pod: ${p.metadata.name}`);
    expect(events('SuccessfulCreate').length).toBeGreaterThan(0);
    for (const m of events('SuccessfulCreate')) expect(names).toContain(m);
    const status = c.client.replicaSets.get('web', { namespace: 'default' }).status;
    expect(status).toMatchObject({ replicas: 5, fullyLabeledReplicas: 5, observedGeneration: 1 });
    expect(status?.readyReplicas).toBeUndefined();
    const manage = c.trace.recent().filter((e) => e.kind === TraceKind.Custom && e.data.event === 'replicaset.manageReplicas');
    expect(manage.map((e) => [e.data.action, e.data.count])).toEqual([['create', 5]]);
  });

  it('adopts a matching orphan and releases a pod whose labels stop matching', async () => {
    const { c, pods } = await setup();
    c.client.pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stray', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
    });
    const rs = c.client.replicaSets.create(replicaSet('web', 3));
    c.runUntilIdle();
    expect(pods()).toHaveLength(3);
    const stray = c.client.pods.get('stray', { namespace: 'default' });
    expect(getControllerOf(stray)).toMatchObject({ kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, blockOwnerDeletion: true });

    // Relabel one pod out of the selector: the RS releases it and creates a replacement.
    const victim = pods().find((p) => p.metadata.name !== 'stray')!;
    c.client.pods.patch(victim.metadata.name!, 'application/merge-patch+json', { metadata: { labels: { app: 'debug' } } }, { namespace: 'default' });
    c.runUntilIdle();
    expect(c.client.pods.get(victim.metadata.name!, { namespace: 'default' }).metadata.ownerReferences ?? []).toEqual([]);
    expect(pods()).toHaveLength(3);
    expect(pods().every((p) => getControllerOf(p)?.uid === rs.metadata.uid)).toBe(true);
  });

  it('scales down deleting unscheduled, then pending, then not-ready pods before ready ones', async () => {
    const { c, pods, events } = await setup();
    c.client.replicaSets.create(replicaSet('web', 5));
    c.runUntilIdle();
    const [a, b, d, e, f] = pods().sort((x, y) => x.metadata.name!.localeCompare(y.metadata.name!));
    // a: unscheduled; b: bound, Pending; d: Running not ready; e, f: Running and ready.
    for (const p of [b, d, e, f]) bindPod(c.client, p, p === e ? 'node-2' : 'node-1');
    setPodRunning(c.client, d, c.clock.now(), false);
    setPodRunning(c.client, e, c.clock.now(), true);
    setPodRunning(c.client, f, c.clock.now(), true);
    c.runUntilIdle();
    expect(c.client.replicaSets.get('web', { namespace: 'default' }).status).toMatchObject({ replicas: 5, readyReplicas: 2, availableReplicas: 2 });

    c.advance(1000);
    c.client.replicaSets.patch('web', 'application/merge-patch+json', { spec: { replicas: 2 } }, { namespace: 'default' });
    c.runUntilIdle();
    const left = pods().map((p) => p.metadata.name).sort();
    expect(left).toEqual([e.metadata.name, f.metadata.name].sort());
    const deleted = [a, b, d].map((p) => `Deleted pod: ${p.metadata.name}`);
    expect(events('SuccessfulDelete').length).toBeGreaterThan(0);
    for (const m of events('SuccessfulDelete')) expect(deleted).toContain(m);

    // Down to 1 of two ready pods: f shares node-1 with no other active pod now, e is alone on node-2 — equal
    // ranks; both ready at the same time, same restarts: the tie goes by uid in the same log2 age bucket.
    c.client.replicaSets.patch('web', 'application/merge-patch+json', { spec: { replicas: 1 } }, { namespace: 'default' });
    c.runUntilIdle();
    expect(pods()).toHaveLength(1);
    const status = c.client.replicaSets.get('web', { namespace: 'default' }).status;
    expect(status).toMatchObject({ replicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 3 });
  });

  it('replaces a pod that is deleted and does not double count a graceful deletion', async () => {
    const { c, rsc, pods } = await setup();
    c.client.replicaSets.create(replicaSet('web', 2));
    c.runUntilIdle();
    const before = pods().map((p) => p.metadata.uid);
    c.client.pods.delete(pods()[0].metadata.name!, { namespace: 'default', gracePeriodSeconds: 0 });
    c.runUntilIdle();
    const after = pods();
    expect(after).toHaveLength(2);
    expect(after.filter((p) => before.includes(p.metadata.uid))).toHaveLength(1);
    expect(rsc.expectations.satisfiedExpectations('default/web')).toBe(true);
  });

  it('reports availableReplicas only after minReadySeconds', async () => {
    const { c } = await setup();
    c.client.replicaSets.create(replicaSet('web', 1, { minReadySeconds: 10 }));
    c.runUntilIdle();
    const pod = c.client.pods.list({ namespace: 'default' }).items[0] as Pod;
    bindPod(c.client, pod, 'node-1');
    setPodRunning(c.client, pod, c.clock.now(), true);
    c.runUntilIdle({ maxTimeMs: 1000 });
    expect(c.client.replicaSets.get('web', { namespace: 'default' }).status).toMatchObject({ readyReplicas: 1 });
    expect(c.client.replicaSets.get('web', { namespace: 'default' }).status?.availableReplicas).toBeUndefined();
    c.advance(12_000);
    c.runUntilIdle({ maxTimeMs: 1000 });
    expect(c.client.replicaSets.get('web', { namespace: 'default' }).status).toMatchObject({ readyReplicas: 1, availableReplicas: 1 });
  });

  it('sets ReplicaFailure and a FailedCreate event when pods cannot be created, making one request per failed batch', async () => {
    const { c, events } = await setup();
    const quota = c.client.resourceQuotas.create({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'pods', namespace: 'default' },
      spec: { hard: { pods: '2' } },
    });
    // As the resourcequota-controller (not running here) would sync it: admission enforces status.hard.
    c.client.resourceQuotas.updateStatus({ ...quota, status: { hard: { pods: '2' }, used: { pods: '0' } } });
    c.runUntilIdle();
    c.client.replicaSets.create(replicaSet('web', 6));
    c.runUntilIdle({ maxTimeMs: 2000 });
    expect(c.client.pods.list({ namespace: 'default' }).items.length).toBeLessThanOrEqual(2);
    const status = c.client.replicaSets.get('web', { namespace: 'default' }).status;
    const cond = status?.conditions?.find((x) => x.type === 'ReplicaFailure');
    expect(cond).toMatchObject({ status: 'True', reason: 'FailedCreate' });
    expect(cond?.message).toContain('exceeded quota');
    expect(events('FailedCreate')[0]).toMatch(/^Error creating: pods ".*" is forbidden: exceeded quota/);
  });

  it('runs as the ReplicationController manager for kind ReplicationController', async () => {
    const { c, pods } = await setup('ReplicationController');
    const rc = c.client.replicationControllers.create({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'legacy', namespace: 'default' },
      spec: { replicas: 2, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    c.runUntilIdle();
    expect(pods()).toHaveLength(2);
    expect(pods().map((p) => getControllerOf(p))).toEqual([
      { apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: rc.metadata.uid, controller: true, blockOwnerDeletion: true },
      { apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', uid: rc.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(c.client.replicationControllers.get('legacy', { namespace: 'default' }).status).toMatchObject({ replicas: 2, fullyLabeledReplicas: 2 });
  });

  it('converges after a controller restart without duplicate pods', async () => {
    const { c, rsc, pods, client, informers } = await setup();
    c.client.replicaSets.create(replicaSet('web', 3));
    c.runUntilIdle();
    rsc.shutDown();
    informers.shutdown();
    c.client.replicaSets.patch('web', 'application/merge-patch+json', { spec: { replicas: 4 } }, { namespace: 'default' });
    c.runUntilIdle();
    expect(pods()).toHaveLength(3);
    // A new process: fresh informers (a relist) and empty expectations.
    const freshInformers = new SharedInformerFactory({ client, clock: c.clock, trace: c.trace });
    const again = new ReplicaSetController({ client, informers: freshInformers, clock: c.clock, trace: c.trace });
    freshInformers.start();
    again.run();
    c.runUntilIdle();
    expect(pods()).toHaveLength(4);
  });
});
