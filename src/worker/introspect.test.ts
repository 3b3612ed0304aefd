// The page's introspection over a real cluster: the components snapshot (controllers and their queues, scheduler,
// kubelets, etcd, informers) under faults, the scheduler's per-node decisions, and "why does this exist?" — the
// causal chain from the admin's create of a Deployment to the create of one of its Pods — also through the protocol.
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import { createCluster } from '../control-plane/cluster';
import { WhyNote } from '../control-plane/introspection/why';
import { MemoryPersistence } from '../control-plane/store/persistence/memory-persistence';
import { isStatusError } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';
import type { ComponentsSnapshot, WhyResult } from '../shared/protocol/introspection';
import { TraceKind, type TraceEvent } from '../shared/protocol/trace';
import { createHeadlessCluster } from './headless';
import { describeComponents, schedulingDecisions, snapshotListCap, whyExists } from './introspect';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function cluster(options: Parameters<typeof createCluster>[0] = {}): Promise<Cluster> {
  const c = await createCluster({ seed: 1, ...options });
  open.push(() => c.close());
  return c;
}

function nginx(name = 'nginx', podSpec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }], ...podSpec } },
    },
  } as KubeObject;
}

const runningPods = (c: Cluster, app = 'nginx'): Pod[] =>
  c.client.pods.list({ namespace: 'default', labelSelector: `app=${app}` }).items.filter((p) => p.status?.phase === 'Running');

/** A cluster with the nginx Deployment created by the admin (the API server's current user) and its 3 pods Running. */
async function withNginx(options: Parameters<typeof createCluster>[0] = {}): Promise<{ c: Cluster; pods: Pod[] }> {
  const c = await cluster(options);
  c.runUntilIdle({ maxTimeMs: 5_000 });
  c.client.deployments.create(nginx() as never);
  expect(c.runUntil(() => runningPods(c).length === 3, 120_000)).toBe(true);
  return { c, pods: runningPods(c) };
}

/** A plain-JSON copy (what crosses the worker boundary). */
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function controller(snapshot: ComponentsSnapshot, name: string) {
  const found = snapshot.controllerManager.controllers.find((c) => c.name === name);
  if (!found) throw new Error(`no controller ${name} in ${snapshot.controllerManager.controllers.map((c) => c.name).join(', ')}`);
  return found;
}

describe('describeComponents', () => {
  it('shows every controller with its queues, the scheduler, one kubelet per node, etcd and the informers', async () => {
    const { c, pods } = await withNginx();
    const s = describeComponents(c);
    expect(json(s)).toEqual(s);
    expect(s.time).toBe(c.clock.now());
    expect(s.traceSeq).toBe(c.trace.lastSeq);
    expect(s.apiServer.serving).toBe(true);
    expect(s.etcd.revision).toBe(c.store.revision);
    expect(s.etcd.keys).toBe(c.store.range('/registry/').kvs.length);

    expect(s.controllerManager.running).toBe(true);
    expect(s.controllerManager.controllers.map((x) => x.name)).toEqual(c.controllers().map((x) => x.name));
    // (waiting may hold the deployment's progress-deadline check, an addAfter)
    expect(controller(s, 'deployment-controller').queues).toMatchObject([{ name: 'deployment', keys: [], depth: 0, processing: 0, retries: [] }]);
    expect(controller(s, 'replicaset-controller').queues.map((q) => q.name)).toEqual(['replicaset']);
    for (const ctrl of s.controllerManager.controllers) expect(ctrl.queues.length).toBeGreaterThan(0);

    expect(s.scheduler?.running).toBe(true);
    expect(s.scheduler?.counts).toEqual({ active: 0, backoff: 0, unschedulable: 0, inFlight: 0 });
    const last = s.scheduler?.lastDecision;
    expect(last?.result).toBe('Scheduled');
    expect(pods.map((p) => `default/${p.metadata?.name}`)).toContain(last?.pod);
    expect(last?.node).toBe(pods.find((p) => `default/${p.metadata?.name}` === last?.pod)?.spec?.nodeName);

    expect(s.kubelets.map((k) => k.node)).toEqual(['node-1', 'node-2', 'node-3']);
    for (const k of s.kubelets) {
      expect(k.running).toBe(true);
      expect(k.reachable).toBe(true);
      expect(k.pods).toBe(pods.filter((p) => p.spec?.nodeName === k.node).length);
    }
    expect(s.kubelets.reduce((n, k) => n + k.pods, 0)).toBe(3);

    const informer = (owner: string, resource: string) => s.informers.find((i) => i.owner === owner && i.resource === resource);
    expect(informer('kube-controller-manager', 'apps/deployments')).toEqual({ resource: 'apps/deployments', owner: 'kube-controller-manager', synced: true, items: 1 });
    expect(informer('kube-controller-manager', 'apps/replicasets')?.items).toBe(1);
    expect(informer('kube-controller-manager', 'pods')?.items).toBe(3);
    expect(informer('kube-scheduler', 'pods')).toEqual({ resource: 'pods', owner: 'kube-scheduler', synced: true, items: 3 });
    expect(informer('kube-scheduler', 'nodes')?.items).toBe(3);
  });

  it('follows the faults: a killed node, a partitioned node, a stopped API server and controller manager', async () => {
    const { c, pods } = await withNginx();
    const victim = pods[0].spec!.nodeName!;
    const other = ['node-1', 'node-2', 'node-3'].find((n) => n !== victim)!;
    c.nodes.kill(victim);
    c.nodes.partition(other, true);
    let s = describeComponents(c);
    expect(s.kubelets.find((k) => k.node === victim)).toEqual({ node: victim, running: false, reachable: true, pods: 0 });
    expect(s.kubelets.find((k) => k.node === other)).toMatchObject({ running: true, reachable: false });

    c.endpoint.stop();
    expect(describeComponents(c).apiServer.serving).toBe(false);
    c.endpoint.start();
    expect(describeComponents(c).apiServer.serving).toBe(true);

    c.controllerManager.stop();
    s = describeComponents(c);
    expect(s.controllerManager).toEqual({ running: false, controllers: [] });
    expect(s.informers.some((i) => i.owner === 'kube-controller-manager')).toBe(false);
    c.scheduler!.stop();
    expect(describeComponents(c).scheduler).toMatchObject({ running: false, counts: { active: 0, backoff: 0, unschedulable: 0, inFlight: 0 } });
  });

  it('caps the keys of a long work queue at 20 and counts them all', async () => {
    const c = await cluster();
    c.runUntilIdle({ maxTimeMs: 5_000 });
    const names = Array.from({ length: 25 }, (_, i) => `team-${String(i).padStart(2, '0')}`);
    for (const name of names) c.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    // Deferred after the watch deliveries the creates queued, so it runs once the keys are in the queues and
    // before any worker takes one.
    let s: ComponentsSnapshot | undefined;
    c.clock.defer(() => (s = describeComponents(c)));
    c.clock.runDeferred();
    const q = controller(s!, 'serviceaccount-controller').queues[0];
    expect(q.depth).toBe(25);
    expect(q.keys).toEqual(names.slice(0, snapshotListCap));
  });

  it('shows a failing key backing off in its queue', async () => {
    const c = await cluster();
    c.runUntilIdle({ maxTimeMs: 5_000 });
    // The ServiceAccount admission plugin refuses every pod of a missing service account: the ReplicaSet retries.
    c.client.deployments.create(nginx('robots', { serviceAccountName: 'robot' }) as never);
    c.advance(3_000);
    const q = controller(describeComponents(c), 'replicaset-controller').queues[0];
    const rs = c.client.replicaSets.list({ namespace: 'default' }).items[0];
    const key = `default/${rs.metadata?.name}`;
    expect(q.retries.find((r) => r.key === key)?.requeues).toBeGreaterThan(0);
    expect(q.waiting).toBe(1);
  });

  it('caps the scheduler queues at 20 with full counts, and shows the last (failed) attempt', async () => {
    const c = await cluster();
    c.runUntilIdle({ maxTimeMs: 5_000 });
    for (let i = 0; i < 30; i++) {
      c.client.pods.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `gpu-${i}`, namespace: 'default' },
        spec: { nodeSelector: { accelerator: 'gpu' }, containers: [{ name: 'c', image: 'nginx' }] },
      } as never);
    }
    c.advance(5_000);
    const s = describeComponents(c).scheduler!;
    expect(s.counts.unschedulable + s.counts.backoff + s.counts.active).toBe(30);
    expect(s.counts.unschedulable).toBeGreaterThan(snapshotListCap);
    expect(s.unschedulable).toHaveLength(snapshotListCap);
    expect(s.lastDecision).toMatchObject({ result: 'Unschedulable', feasibleNodes: 0, numAllNodes: 3 });
    expect(s.lastDecision?.message).toContain("didn't match Pod's node affinity/selector");
  });
});

describe('schedulingDecisions', () => {
  it("gives a scheduled pod's attempt: Scheduled on its node, one entry per node with the chosen one scored", async () => {
    const { c, pods } = await withNginx();
    const pod = pods[0];
    const decisions = schedulingDecisions(c, { namespace: 'default', name: pod.metadata!.name! });
    expect(json(decisions)).toEqual(decisions);
    expect(decisions.length).toBeGreaterThan(0);
    const d = decisions[decisions.length - 1];
    expect(d).toMatchObject({ pod: `default/${pod.metadata?.name}`, uid: pod.metadata?.uid, result: 'Scheduled', node: pod.spec?.nodeName, numAllNodes: 3 });
    expect(d.nodes.map((n) => n.node).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    expect(d.nodes.filter((n) => n.chosen).map((n) => n.node)).toEqual([pod.spec?.nodeName]);
    for (const n of d.nodes) {
      expect(n.filtered).toBeUndefined();
      expect(n.scores?.length).toBeGreaterThan(0);
      expect(n.total).toBe(n.scores!.reduce((sum, s) => sum + s.score * s.weight, 0));
    }
  });

  it('is empty for a pod never attempted and without a scheduler; names are required', async () => {
    const c = await cluster({ scheduler: false, nodes: 0 });
    expect(schedulingDecisions(c, { namespace: 'default', name: 'nope' })).toEqual([]);
    const withScheduler = await cluster();
    expect(schedulingDecisions(withScheduler, { namespace: 'default', name: 'nope' })).toEqual([]);
    expect(() => schedulingDecisions(withScheduler, { namespace: 'default', name: '' })).toThrow(/name is required/);
  });
});

/** Every event names the previous one as its cause. */
function expectConnected(chain: TraceEvent[]): void {
  for (let i = 1; i < chain.length; i++) expect(chain[i].cause, `${chain[i].kind} #${chain[i].seq}`).toBe(chain[i - 1].seq);
}

/** The store.commit the request at the end of the chain made, and the keys it wrote. */
function committedKeys(c: Cluster, request: TraceEvent): string[] {
  const commit = c.trace.recent(request.seq).find((e) => e.kind === TraceKind.StoreCommit && e.cause === request.seq);
  return ((commit?.data.events ?? []) as { key: string }[]).map((e) => e.key);
}

const podWhy = (c: Cluster, pod: Pod, uid = pod.metadata?.uid): WhyResult =>
  whyExists(c, { group: '', resource: 'pods', namespace: 'default', name: pod.metadata!.name!, uid });

describe('whyExists', () => {
  it("follows a Deployment's pod back to the admin's create, through the ReplicaSet's create", async () => {
    const { c, pods } = await withNginx();
    for (const pod of pods) {
      const why = podWhy(c, pod);
      expect(why.complete).toBe(true);
      expect(why.note).toBeUndefined();
      expect(json(why)).toEqual(why);
      const { chain } = why;
      expectConnected(chain);
      expect(chain[0]).toMatchObject({ kind: TraceKind.ApiRequest, data: { verb: 'create', resource: 'deployments', user: 'kubernetes-admin' } });
      expect(chain[0].cause).toBeUndefined();
      const last = chain[chain.length - 1];
      expect(last).toMatchObject({ kind: TraceKind.ApiRequest, data: { verb: 'create', resource: 'pods', user: 'system:kube-controller-manager' } });
      expect(committedKeys(c, last)).toEqual([`/registry/core/pods/default/${pod.metadata?.name}`]);

      const kinds = chain.map((e) => `${e.kind} ${e.component}`);
      const rsCreate = chain.findIndex((e) => e.kind === TraceKind.ApiRequest && e.data.resource === 'replicasets' && e.data.verb === 'create');
      expect(rsCreate).toBeGreaterThan(0);
      // admin create → commit → delivery to the controller manager → its informer → queue → deployment reconcile → RS create
      expect(kinds.slice(0, rsCreate + 1)).toEqual([
        'api.request apiserver',
        'store.commit etcd',
        'watch.delivery apiserver',
        'custom informer/deployments.apps',
        'queue.add workqueue/deployment',
        'queue.get workqueue/deployment',
        'reconcile.start deployment-controller',
        'api.request apiserver',
      ]);
      expect(chain[2].data).toMatchObject({ resource: 'deployments', group: 'apps', user: 'system:kube-controller-manager' });
      expect(chain.slice(rsCreate + 1).map((e) => `${e.kind} ${e.component}`)).toEqual([
        'store.commit etcd',
        'watch.delivery apiserver',
        'custom informer/replicasets.apps',
        'queue.add workqueue/replicaset',
        'queue.get workqueue/replicaset',
        'reconcile.start replicaset-controller',
        'api.request apiserver',
      ]);
    }
  });

  it("gives a user-created object's chain as the one request", async () => {
    const { c } = await withNginx();
    const d = c.client.deployments.get('nginx', { namespace: 'default' });
    const why = whyExists(c, { group: 'apps', resource: 'deployments', namespace: 'default', name: 'nginx', uid: d.metadata?.uid });
    expect(why.complete).toBe(true);
    expect(why.chain.map((e) => [e.kind, e.data.verb, e.data.resource, e.data.user])).toEqual([['api.request', 'create', 'deployments', 'kubernetes-admin']]);
    // Cluster-scoped objects ignore a namespace.
    c.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    const ns = whyExists(c, { group: '', resource: 'namespaces', namespace: 'ignored', name: 'team-a' });
    expect(ns.chain.map((e) => [e.data.verb, e.data.resource])).toEqual([['create', 'namespaces']]);
  });

  it('picks the incarnation by uid when an object was deleted and created again', async () => {
    const c = await cluster({ nodes: 0 });
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: '1' } };
    const first = c.client.configMaps.create(cm);
    c.client.configMaps.update({ ...first, data: { a: '2' } });
    c.client.configMaps.delete('settings', { namespace: 'default' });
    const second = c.client.configMaps.create(cm);
    c.client.configMaps.update({ ...second, data: { a: '3' } });
    const why = (uid?: string) => whyExists(c, { group: '', resource: 'configmaps', namespace: 'default', name: 'settings', uid });
    const oldChain = why(first.metadata?.uid).chain;
    const newChain = why(second.metadata?.uid).chain;
    expect(oldChain).toHaveLength(1);
    expect(newChain).toHaveLength(1);
    expect(oldChain[0].data.verb).toBe('create');
    expect(newChain[0].data.verb).toBe('create');
    expect(oldChain[0].seq).toBeLessThan(newChain[0].seq);
    expect(why().chain[0].seq).toBe(newChain[0].seq);
    // The same after the second one is gone too: the store's history tells which create made which uid.
    c.client.configMaps.delete('settings', { namespace: 'default' });
    expect(why(first.metadata?.uid).chain[0].seq).toBe(oldChain[0].seq);
    expect(why(second.metadata?.uid).chain[0].seq).toBe(newChain[0].seq);
    expect(why('no-such-uid')).toEqual({ chain: [], complete: false, note: WhyNote.NotFound });
  });

  it('says the trace no longer holds it after the trace is cleared or the cluster was restored', async () => {
    const persistence = new MemoryPersistence();
    const { c, pods } = await withNginx({ persistence });
    c.trace.clear();
    expect(podWhy(c, pods[0])).toEqual({ chain: [], complete: false, note: WhyNote.Forgotten });
    expect(WhyNote.Forgotten).toMatch(/no longer holds how this object was created/);
    await c.close();

    const restored = await cluster({ persistence });
    restored.runUntilIdle({ maxTimeMs: 1_000 });
    const pod = restored.client.pods.get(pods[1].metadata!.name!, { namespace: 'default' });
    expect(pod.metadata?.uid).toBe(pods[1].metadata?.uid);
    expect(podWhy(restored, pod)).toEqual({ chain: [], complete: false, note: WhyNote.Forgotten });
  });

  it('returns what is left of a chain whose start the trace has dropped, marked incomplete', async () => {
    const { c, pods } = await withNginx({ traceCapacity: 5_000 });
    const full = podWhy(c, pods[0]);
    expect(full.complete).toBe(true);
    // Later events push the admin's request (the oldest of the chain) out of the ring buffer.
    const root = full.chain[0].seq;
    while (c.trace.get(root)) c.trace.emit({ kind: TraceKind.Custom, component: 'test', data: {} });
    const cut = podWhy(c, pods[0]);
    expect(cut.complete).toBe(false);
    expect(cut.note).toBe(WhyNote.Truncated);
    expect(cut.chain).toEqual(full.chain.slice(1));
  });

  it('refuses unknown resources and missing names', async () => {
    const c = await cluster({ nodes: 0 });
    const status = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        if (isStatusError(err)) return err.status;
        throw err;
      }
      throw new Error('no error');
    };
    expect(status(() => whyExists(c, { group: '', resource: 'widgets', namespace: 'default', name: 'x' }))).toMatchObject({
      code: 400,
      message: 'the server doesn\'t have a resource type "widgets"',
    });
    expect(status(() => whyExists(c, { group: '', resource: 'pods', namespace: 'default', name: '' })).message).toBe('name is required');
    expect(status(() => whyExists(c, { group: '', resource: 'pods', name: 'x' })).message).toBe('namespace is required');
  });
});

describe('the watch.delivery trace event', () => {
  it('names the watcher and the commit it delivers', async () => {
    const { c } = await withNginx();
    const deliveries = c.trace.recent().filter((e) => e.kind === TraceKind.WatchDelivery && e.data.resource === 'pods');
    const users = new Set(deliveries.map((e) => e.data.user));
    for (const user of ['system:kube-controller-manager', 'system:kube-scheduler', 'system:node:node-1']) expect(users).toContain(user);
    const live = deliveries.filter((e) => e.cause !== undefined && c.trace.get(e.cause)?.kind === TraceKind.StoreCommit);
    expect(live.length).toBeGreaterThan(0);
    for (const e of live) expect(c.trace.get(e.cause!)?.data.revision).toBe(e.data.revision);
  });
});

describe('through the protocol', () => {
  it('answers sim/components, sim/decisions and trace/why', async () => {
    const h = await createHeadlessCluster({ seed: 1 });
    open.push(() => h.close());
    const { cluster: c, client } = h;
    c.runUntilIdle({ maxTimeMs: 5_000 });
    const applied = await client.call('api/apply', { manifest: JSON.stringify(nginx()) });
    expect(applied.outcomes.map((o) => o.ok && o.action)).toEqual(['created']);
    expect(c.runUntil(() => runningPods(c).length === 3, 120_000)).toBe(true);
    const pod = runningPods(c)[0];

    const components = await client.call('sim/components');
    expect(components.etcd.revision).toBe(c.store.revision);
    expect(components.kubelets).toHaveLength(3);
    expect(components.controllerManager.controllers.map((x) => x.name)).toContain('deployment-controller');

    const decisions = await client.call('sim/decisions', { namespace: 'default', name: pod.metadata!.name! });
    expect(decisions[decisions.length - 1]).toMatchObject({ result: 'Scheduled', node: pod.spec?.nodeName });

    const why = await client.call('trace/why', { group: '', resource: 'pods', namespace: 'default', name: pod.metadata!.name!, uid: pod.metadata?.uid });
    expect(why.complete).toBe(true);
    expect(why.chain[0].data).toMatchObject({ verb: 'create', resource: 'deployments', user: 'kubernetes-admin' });
    expect(why.chain[why.chain.length - 1].data).toMatchObject({ verb: 'create', resource: 'pods' });

    await expect(client.call('trace/why', { group: '', resource: 'widgets', name: 'x' })).rejects.toMatchObject({ status: { code: 400 } });
  });
});
