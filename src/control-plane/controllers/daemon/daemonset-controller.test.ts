// The DaemonSet controller alone on an API server: no scheduler, no kubelets (the tests bind pods and report
// their status themselves), so every write seen is the controller's.
import type { ControllerRevision, DaemonSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { createCluster, type Cluster } from '../../cluster';
import { SharedInformerFactory } from '../../informers/factory';
import { bindPod, setPodRunning } from '../replicaset/testing';
import { controllerManagerUser } from '../shared/controller';
import { DaemonSetsController } from './daemonset-controller';
import { getTargetNodeName } from './daemonset-util';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function setup(nodes = ['node-1', 'node-2', 'node-3']) {
  // The serviceaccount controller makes the "default" ServiceAccount pods need to be admitted.
  cluster = await createCluster({ controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  const c = cluster;
  const client = c.client.withUser(controllerManagerUser);
  const informers = new SharedInformerFactory({ client, clock: c.clock, trace: c.trace });
  const dsc = new DaemonSetsController({ client, informers, clock: c.clock, trace: c.trace });
  informers.start();
  dsc.run();
  for (const n of nodes) addNode(c, n);
  c.runUntilIdle();
  const pods = () => c.client.pods.list({ namespace: 'default', labelSelector: 'app=agent' }).items;
  const live = () => pods().filter((p) => !p.metadata.deletionTimestamp);
  const byNode = () => new Map(live().map((p) => [getTargetNodeName(p), p]));
  const events = (reason: string) =>
    c.client.events
      .list({ namespace: 'default' })
      .items.filter((e) => e.reason === reason)
      .map((e) => e.message);
  const ds = () => c.client.daemonSets.get('agent', { namespace: 'default' });
  /**
   * Binds every pending pod where its affinity points and reports it Running and Ready (scheduler + kubelet),
   * then lets 10 ms pass (runUntilIdle would also run the controller's delayed requeues).
   */
  const runAll = (ready = true) => {
    for (const p of live()) {
      if (!p.spec?.nodeName) bindPod(c.client, p, getTargetNodeName(p));
      if (!p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === (ready ? 'True' : 'False'))) setPodRunning(c.client, p, c.clock.now(), ready);
    }
    c.advance(10);
  };
  return { c, dsc, pods, live, byNode, events, ds, runAll };
}

function addNode(c: Cluster, name: string, labels: Record<string, string> = {}): void {
  c.client.nodes.create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } } });
}

function daemonSet(extra: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'busybox:1.36', command: ['sleep', '3600'] }], ...podSpec } },
      ...extra,
    },
  };
}

function setImage(c: Cluster, image: string): void {
  c.client.daemonSets.patch('agent', 'application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'agent', image }] } } } }, { namespace: 'default' });
}

function failPod(c: Cluster, pod: Pod): void {
  const fresh = c.client.pods.get(pod.metadata!.name!, { namespace: 'default' });
  c.client.pods.updateStatus({ ...fresh, status: { ...fresh.status, phase: 'Failed', reason: 'NodeAffinity', message: 'Pod was rejected' } });
}

describe('DaemonSetsController', () => {
  it('creates one pending pod per node, pinned by affinity, once (expectations), with status counting them', async () => {
    const { c, pods, byNode, events, ds } = await setup();
    const created = c.client.daemonSets.create(daemonSet());
    c.runUntilIdle();
    c.advance(5_000);
    expect(pods()).toHaveLength(3);
    expect([...byNode().keys()].sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const p of pods()) {
      expect(p.spec?.nodeName).toBeUndefined();
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', name: 'agent', uid: created.metadata.uid, controller: true });
    }
    expect(events('SuccessfulCreate').sort()).toEqual(pods().map((p) => `Created pod: ${p.metadata.name}`).sort());
    // Pending pods count as scheduled (the controller placed them); none is ready.
    expect(ds().status).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 0, observedGeneration: 1, updatedNumberScheduled: 3, numberUnavailable: 3 });
  });

  it('reports ready and available pods, honouring minReadySeconds', async () => {
    const { c, ds, runAll } = await setup();
    c.client.daemonSets.create(daemonSet({ minReadySeconds: 10 }));
    c.runUntilIdle();
    runAll();
    expect(ds().status).toMatchObject({ numberReady: 3, numberUnavailable: 3 });
    expect(ds().status?.numberAvailable).toBeUndefined();
    c.advance(12_000);
    expect(ds().status).toMatchObject({ numberReady: 3, numberAvailable: 3 });
    expect(ds().status?.numberUnavailable).toBeUndefined();
  });

  it('deletes a failed daemon pod with a FailedDaemonPod warning and recreates it, backing off on repeated failures', async () => {
    const { c, byNode, events, runAll, dsc } = await setup(['node-1']);
    c.client.daemonSets.create(daemonSet());
    c.runUntilIdle();
    runAll();
    const first = byNode().get('node-1')!;
    failPod(c, first);
    c.runUntilIdle();
    expect(events('FailedDaemonPod')).toEqual([`Found failed daemon pod default/${first.metadata.name} on node node-1, will try to kill it`]);
    expect(events('SuccessfulDelete')).toEqual([`Deleted pod: ${first.metadata.name}`]);
    const second = byNode().get('node-1')!;
    expect(second.metadata.name).not.toBe(first.metadata.name);

    // It fails again at once: within the 1 s back-off nothing happens, then it is deleted (back-off now 2 s).
    // A terminal pod is deleted without grace.
    runAll();
    failPod(c, second);
    c.advance(100);
    expect(c.client.pods.list({ namespace: 'default' }).items.map((p) => p.metadata.name)).toContain(second.metadata.name);
    expect(events('FailedDaemonPod')).toHaveLength(1);
    c.advance(1_000);
    expect(c.client.pods.list({ namespace: 'default' }).items.map((p) => p.metadata.name)).not.toContain(second.metadata.name);
    expect(events('FailedDaemonPod')).toHaveLength(2);
    expect(byNode().get('node-1')?.metadata.name).not.toBe(second.metadata.name);
    const key = `${c.client.daemonSets.get('agent', { namespace: 'default' }).metadata.uid}/1/node-1`;
    expect(dsc.failedPodsBackoff.get(key)).toBe(2_000);
  });

  it('adds and removes pods as nodes are added, relabelled and tainted', async () => {
    const { c, byNode, runAll, ds } = await setup(['node-1', 'node-2']);
    c.client.daemonSets.create(daemonSet({}, { nodeSelector: { role: 'edge' } }));
    c.runUntilIdle();
    expect(byNode().size).toBe(0);
    expect(ds().status).toMatchObject({ desiredNumberScheduled: 0, currentNumberScheduled: 0 });
    c.client.nodes.patch('node-1', 'application/merge-patch+json', { metadata: { labels: { role: 'edge' } } });
    addNode(c, 'node-3', { role: 'edge' });
    c.runUntilIdle();
    expect([...byNode().keys()].sort()).toEqual(['node-1', 'node-3']);
    runAll();
    // Relabelled away: the pod must go.
    c.client.nodes.patch('node-1', 'application/merge-patch+json', { metadata: { labels: { role: null } } });
    c.runUntilIdle();
    expect([...byNode().keys()]).toEqual(['node-3']);
    // A NoExecute taint the pod does not tolerate: it goes too.
    c.client.nodes.patch('node-3', 'application/merge-patch+json', { spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } });
    c.runUntilIdle();
    expect(byNode().size).toBe(0);
  });

  it('deletes a never-scheduled pod whose node was deleted (Pod GC only collects bound pods) at its next sync', async () => {
    const { c, byNode, events } = await setup(['node-1', 'node-2']);
    c.client.daemonSets.create(daemonSet());
    c.runUntilIdle();
    const pending = byNode().get('node-2')!;
    c.client.nodes.delete('node-2');
    c.runUntilIdle();
    // There is no node-deletion handler: the pod waits for the DaemonSet's next sync (on a cluster, the
    // scheduler's failed attempt updates the pod; here a new node does it).
    expect(byNode().has('node-2')).toBe(true);
    addNode(c, 'node-3');
    c.runUntilIdle();
    expect([...byNode().keys()].sort()).toEqual(['node-1', 'node-3']);
    expect(events('SuccessfulDelete')).toEqual([`Deleted pod: ${pending.metadata.name}`]);
  });

  it('OnDelete: a template change replaces nothing until a pod is deleted; the replacement has the new revision', async () => {
    const { c, byNode, runAll, ds } = await setup(['node-1', 'node-2']);
    c.client.daemonSets.create(daemonSet({ updateStrategy: { type: 'OnDelete' } }));
    c.runUntilIdle();
    runAll();
    const before = byNode();
    setImage(c, 'busybox:1.37');
    c.runUntilIdle();
    c.advance(60_000);
    expect([...byNode().values()].map((p) => p.metadata.name).sort()).toEqual([...before.values()].map((p) => p.metadata.name).sort());
    expect(ds().status).toMatchObject({ observedGeneration: 2, desiredNumberScheduled: 2 });
    expect(ds().status?.updatedNumberScheduled).toBeUndefined();
    c.client.pods.delete(before.get('node-1')!.metadata.name!, { namespace: 'default', gracePeriodSeconds: 0 });
    c.runUntilIdle();
    const replacement = byNode().get('node-1')!;
    expect(replacement.spec?.containers[0].image).toBe('busybox:1.37');
    expect(replacement.metadata.labels!['controller-revision-hash']).not.toBe(before.get('node-1')!.metadata.labels!['controller-revision-hash']);
    expect(ds().status?.updatedNumberScheduled).toBe(1);
  });

  it('keeps ControllerRevisions: a rollback renumbers the matching revision, revisionHistoryLimit prunes unused ones', async () => {
    const { c } = await setup([]);
    c.client.daemonSets.create(daemonSet({ revisionHistoryLimit: 1 }));
    c.runUntilIdle();
    const revisions = () =>
      (c.client.controllerRevisions.list({ namespace: 'default' }).items as (ControllerRevision & KubeObject)[])
        .sort((a, b) => a.revision - b.revision)
        .map((r) => ({ name: r.metadata.name, revision: r.revision, image: (r.data as { spec: { template: { spec: { containers: { image: string }[] } } } }).spec.template.spec.containers[0].image }));
    const first = revisions();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ revision: 1, image: 'busybox:1.36' });
    const cr = c.client.controllerRevisions.get(first[0].name!, { namespace: 'default' }) as ControllerRevision & KubeObject;
    expect((cr.data as { spec: { template: Record<string, unknown> } }).spec.template.$patch).toBe('replace');
    expect(cr.metadata.labels).toEqual({ app: 'agent', 'controller-revision-hash': first[0].name!.slice('agent-'.length) });

    setImage(c, 'busybox:1.37');
    c.runUntilIdle();
    expect(revisions().map((r) => [r.revision, r.image])).toEqual([
      [1, 'busybox:1.36'],
      [2, 'busybox:1.37'],
    ]);
    // Back to 1.36: the old revision becomes current again as revision 3, no new object.
    setImage(c, 'busybox:1.36');
    c.runUntilIdle();
    expect(revisions().map((r) => [r.name, r.revision, r.image])).toEqual([
      [revisions()[0].name, 2, 'busybox:1.37'],
      [first[0].name, 3, 'busybox:1.36'],
    ]);
    // A third template: only one old revision may stay (no pods use any).
    setImage(c, 'busybox:1.35');
    c.runUntilIdle();
    expect(revisions().map((r) => [r.revision, r.image])).toEqual([
      [3, 'busybox:1.36'],
      [4, 'busybox:1.35'],
    ]);
  });

  it('adopts a matching orphan pod on a node instead of creating another', async () => {
    const { c, pods } = await setup(['node-1']);
    const orphan = c.client.pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stray', namespace: 'default', labels: { app: 'agent' } },
      spec: { nodeName: 'node-1', containers: [{ name: 'agent', image: 'busybox:1.36' }] },
    });
    const ds = c.client.daemonSets.create(daemonSet()) as DaemonSet & KubeObject;
    c.runUntilIdle();
    expect(pods().map((p) => p.metadata.name)).toEqual(['stray']);
    const adopted = c.client.pods.get('stray', { namespace: 'default' });
    expect(adopted.metadata.uid).toBe(orphan.metadata.uid);
    expect(adopted.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: ds.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  });
});
