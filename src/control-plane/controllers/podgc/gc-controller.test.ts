// The pod garbage collector on a real cluster: orphaned pods, terminated pods over the threshold, terminating
// pods on out-of-service nodes and unscheduled terminating pods.
import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { PatchType } from '../../../shared/api/request';
import type { WatchEvent } from '../../../shared/api/types';
import { createCluster, type Cluster } from '../../cluster';
import { SharedInformerFactory } from '../../informers/factory';
import { controllerManagerUser } from '../shared/controller';
import { LeaseKubelet, advance, getPod, runningPod } from '../nodelifecycle/test-support';
import { PodGCController, byEvictionAndCreationTimestamp, type PodGCControllerOptions } from './gc-controller';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function setup(options: Partial<PodGCControllerOptions> = {}) {
  const c = await createCluster({ controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  cluster = c;
  const { client, clock, trace } = c;
  c.runUntil(() => client.serviceAccounts.list({ namespace: 'default' }).items.length > 0, 1_000);
  const kubelets = ['node-1', 'node-2'].map((n) => new LeaseKubelet(client, clock, n, 'zone-a'));
  const controllerClient = client.withUser(controllerManagerUser);
  const informers = new SharedInformerFactory({ client: controllerClient, clock, trace });
  const gc = new PodGCController({ client: controllerClient, informers, clock, trace, ...options });
  informers.start();
  gc.controller.run();
  // The last state of every deleted pod, as a watch sees it.
  const deleted = new Map<string, Pod>();
  client.pods.watch({ namespace: 'default', resourceVersion: client.pods.list().metadata.resourceVersion }, (events: WatchEvent[]) => {
    for (const e of events) if (e.type === 'DELETED') deleted.set(e.object.metadata.name!, e.object as Pod);
  });
  const names = () => client.pods.list({ namespace: 'default' }).items.map((p) => p.metadata.name).sort();
  return { cluster: c, client, clock, gc, kubelets, deleted, names };
}

function finishedPod(s: Awaited<ReturnType<typeof setup>>, name: string, phase: 'Succeeded' | 'Failed', reason?: string) {
  const pod = runningPod(s.client, s.clock, name, 'node-1');
  s.client.pods.updateStatus({ ...pod, status: { ...pod.status, phase, reason } });
}

describe('PodGCController', () => {
  it('force-deletes pods of a node that has been gone for the quarantine time, marking them Failed first', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'orphan', 'node-2');
    runningPod(s.client, s.clock, 'kept', 'node-1');
    advance(s.clock, 1_000);
    s.client.nodes.delete('node-2');
    const gone = s.clock.now();
    // Passes at t0, +20 s, +40 s, …: the first one after the node went quarantines it for 40 s.
    s.cluster.runUntil(() => getPod(s.client, 'orphan') === undefined, 120_000);
    const after = s.clock.now() - gone;
    expect(after).toBeGreaterThanOrEqual(40_000);
    expect(after).toBeLessThanOrEqual(60_000 + 20_000);
    expect(s.names()).toEqual(['kept']);
    const last = s.deleted.get('orphan')!;
    expect(last.status!.phase).toBe('Failed');
    expect(last.status!.conditions!.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByPodGC',
      message: 'PodGC: node no longer exists',
    });
  });

  it('does not delete pods of a node that comes back within the quarantine', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'web', 'node-2');
    advance(s.clock, 1_000);
    const node = s.client.nodes.get('node-2');
    s.client.nodes.delete('node-2');
    advance(s.clock, 25_000);
    s.client.nodes.create({ ...node, metadata: { name: 'node-2', labels: node.metadata.labels } });
    advance(s.clock, 120_000);
    expect(s.names()).toEqual(['web']);
  });

  it('deletes terminated pods beyond the threshold, evicted and oldest first', async () => {
    const s = await setup({ terminatedPodThreshold: 2 });
    finishedPod(s, 'done-1', 'Succeeded');
    advance(s.clock, 1_000);
    finishedPod(s, 'done-2', 'Failed');
    advance(s.clock, 1_000);
    finishedPod(s, 'done-3', 'Succeeded');
    advance(s.clock, 1_000);
    finishedPod(s, 'evicted', 'Failed', 'Evicted');
    runningPod(s.client, s.clock, 'running', 'node-1');
    advance(s.clock, 20_000);
    expect(s.names()).toEqual(['done-2', 'done-3', 'running']);
    // Terminated pods are deleted as they are: their phase is not rewritten.
    expect(s.deleted.get('done-1')!.status!.phase).toBe('Succeeded');
  });

  it('sorts evicted pods first, then by creation time, then by name', () => {
    const pod = (name: string, created: string, reason?: string): Pod => ({
      metadata: { name, creationTimestamp: created },
      status: { phase: 'Failed', reason },
    });
    const pods = [pod('b', '2026-01-01T00:00:01Z'), pod('a', '2026-01-01T00:00:01Z'), pod('z', '2026-01-01T00:00:09Z', 'Evicted'), pod('c', '2026-01-01T00:00:00Z')];
    expect(pods.sort(byEvictionAndCreationTimestamp).map((p) => p.metadata!.name)).toEqual(['z', 'c', 'a', 'b']);
  });

  it('force-deletes terminating pods on a not-Ready node tainted out-of-service', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'stuck', 'node-2');
    runningPod(s.client, s.clock, 'stuck-too', 'node-1');
    s.client.pods.delete('stuck', { namespace: 'default' });
    s.client.pods.delete('stuck-too', { namespace: 'default' });
    s.kubelets[1].postReady('False');
    advance(s.clock, 30_000);
    expect(s.names()).toEqual(['stuck', 'stuck-too']); // terminating, waiting for kubelets
    s.client.nodes.patch('node-2', PatchType.StrategicMergePatch, {
      spec: { taints: [{ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }] },
    });
    advance(s.clock, 20_000);
    expect(s.names()).toEqual(['stuck-too']);
    expect(s.deleted.get('stuck')!.status!.phase).toBe('Failed');
  });

  it('marks unscheduled terminating pods Failed and force-deletes them', async () => {
    const s = await setup();
    s.client.pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pending', namespace: 'default', finalizers: ['example.com/hold'] },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    });
    s.client.pods.delete('pending', { namespace: 'default' });
    expect(getPod(s.client, 'pending')!.metadata.deletionTimestamp).toBeDefined();
    advance(s.clock, 20_000);
    // The finalizer holds it; the collector has done its part.
    expect(getPod(s.client, 'pending')!.status!.phase).toBe('Failed');
    s.client.pods.patch('pending', PatchType.MergePatch, { metadata: { finalizers: null } }, { namespace: 'default' });
    expect(getPod(s.client, 'pending')).toBeUndefined();
  });

  it('stops its loop on shutDown', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'orphan', 'node-2');
    s.gc.shutDown();
    s.client.nodes.delete('node-2');
    advance(s.clock, 5 * 60_000);
    expect(s.names()).toEqual(['orphan']);
  });
});
