// The node lifecycle controller with the taint eviction controller on a real cluster, on virtual time. Kubelets
// are stand-ins that renew their Lease every 10 s (at t0+2 s, t0+12 s, …) until stopped; the controller's
// monitor runs at t0, t0+5 s, …. A kubelet stopped right after its renewal at t0+22 s is first missed by the
// pass at t0+25 s (its probe time), so the node goes Unknown at the first pass after t0+25 s+grace.
import { afterEach, describe, expect, it } from 'vitest';
import type { Event, Node, Taint } from 'kubernetes-types/core/v1';
import { PatchType } from '../../../shared/api/request';
import { createCluster, type Cluster } from '../../cluster';
import type { Typed } from '../../client/client';
import { SharedInformerFactory } from '../../informers/factory';
import { controllerManagerUser } from '../shared/controller';
import { NodeLifecycleController, type NodeLifecycleControllerOptions } from './node-lifecycle-controller';
import { LeaseKubelet, advance, advanceTo, getPod, runningPod } from './test-support';
import { TaintEvictionController } from './tainteviction/taint-eviction-controller';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

interface Setup {
  cluster: Cluster;
  t0: number;
  kubelets: LeaseKubelet[];
  nlc: NodeLifecycleController;
  tec: TaintEvictionController;
  informers: SharedInformerFactory;
  node(name: string): Typed<Node>;
  ready(name: string): string | undefined;
  taints(name: string): Taint[];
  /** Runs the clock to t0 + ms. */
  at(ms: number): void;
  events(reason: string): Event[];
}

async function setup(zones: string[], options: Partial<NodeLifecycleControllerOptions> = {}): Promise<Setup> {
  const c = await createCluster({ controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  cluster = c;
  const { client, clock, trace } = c;
  // Pods need the default ServiceAccount, which the controller manager creates once its caches sync.
  c.runUntil(() => client.serviceAccounts.list({ namespace: 'default' }).items.length > 0, 1_000);
  const t0 = clock.now();
  const kubelets = zones.map((zone, i) => new LeaseKubelet(client, clock, `node-${i + 1}`, zone));
  const controllerClient = client.withUser(controllerManagerUser);
  // The controllers' own process: informers over their own client, as the controller manager gives them.
  const informers = new SharedInformerFactory({ client: controllerClient, clock, trace });
  const nlc = new NodeLifecycleController({ client: controllerClient, informers, clock, trace, rng: c.rng, ...options });
  const tec = new TaintEvictionController({ client: controllerClient, informers, clock, trace });
  informers.start();
  // Let the lists run before starting, so the first monitor pass is at t0.
  clock.runDeferred();
  // Started as the controller manager starts controllers: through the BaseController.
  nlc.controller.run();
  tec.controller.run();
  clock.runDeferred();
  const node = (name: string) => client.nodes.get(name);
  return {
    cluster: c,
    t0,
    kubelets,
    nlc,
    tec,
    informers,
    node,
    ready: (name) => node(name).status?.conditions?.find((x) => x.type === 'Ready')?.status,
    taints: (name) => node(name).spec?.taints ?? [],
    at: (ms) => advanceTo(clock, t0 + ms),
    events: (reason) => client.events.list().items.filter((e) => e.reason === reason),
  };
}

const key = (t: Taint) => `${t.key}:${t.effect}`;

describe('NodeLifecycleController: node health', () => {
  it('keeps a node Ready until the grace period passes, then sets Unknown and taints it unreachable', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a']);
    runningPod(s.cluster.client, s.cluster.clock, 'web-abc', 'node-2');
    s.at(23_000);
    s.kubelets[1].stop(); // last renewal at t0+22 s

    s.at(22_000 + 40_000 - 1_000); // grace − 1 s after the last renewal
    expect(s.ready('node-2')).toBe('True');
    s.at(69_999); // the pass at t0+65 s is not yet past probe (t0+25 s) + 40 s
    expect(s.ready('node-2')).toBe('True');

    s.at(70_000);
    const conditions = s.node('node-2').status!.conditions!;
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      expect(conditions.find((x) => x.type === type)).toMatchObject({
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: '2026-01-01T00:01:10Z',
      });
    }
    // The other nodes are untouched.
    expect(s.ready('node-1')).toBe('True');
    expect(s.ready('node-3')).toBe('True');
    // NodeNotReady on the node, and on each of its pods, which are marked not Ready.
    expect(s.events('NodeNotReady').map((e) => [e.involvedObject.kind, e.type, e.message, e.source?.component])).toEqual([
      ['Node', 'Normal', 'Node node-2 status is now: NodeNotReady', 'node-controller'],
      ['Pod', 'Warning', 'Node is not ready', 'node-controller'],
    ]);
    expect(getPod(s.cluster.client, 'web-abc')!.status!.conditions!.find((x) => x.type === 'Ready')!.status).toBe('False');
    // TaintNodesByCondition reacts to the node update at once; the NoExecute taint waits for the next pass.
    expect(s.taints('node-2').map(key)).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);

    s.at(75_000);
    expect(s.taints('node-2').map(key)).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    s.at(75_100); // the tainting pass, 100 ms after the node was queued
    expect(s.taints('node-2').map(key)).toEqual(['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']);
    expect(s.taints('node-2')[1].timeAdded).toBe('2026-01-01T00:01:15Z');
    expect(s.events('RegisteredNode').map((e) => e.message).sort()).toEqual([
      'Node node-1 event: Registered Node node-1 in Controller',
      'Node node-2 event: Registered Node node-2 in Controller',
      'Node node-3 event: Registered Node node-3 in Controller',
    ]);
  });

  it('honours a configured grace period', async () => {
    const s = await setup(['zone-a'], { nodeMonitorGracePeriodMs: 50_000 });
    s.at(23_000);
    s.kubelets[0].stop();
    s.at(75_000 - 1); // probe t0+25 s + 50 s is not yet passed at the t0+75 s pass
    s.at(75_000);
    expect(s.ready('node-1')).toBe('True');
    s.at(80_000);
    expect(s.ready('node-1')).toBe('Unknown');
  });

  it('evicts a pod with the default 300 s toleration 300 s after the taint, not before', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a']);
    const { client, clock } = s.cluster;
    runningPod(client, clock, 'web-abc', 'node-2');
    runningPod(client, clock, 'web-def', 'node-1');
    expect(getPod(client, 'web-abc')!.spec!.tolerations).toContainEqual({
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    });
    s.at(23_000);
    s.kubelets[1].stop();
    s.cluster.runUntil(() => s.taints('node-2').some((t) => t.effect === 'NoExecute'), 120_000);
    const tainted = clock.now();

    advance(clock, 299_000);
    expect(getPod(client, 'web-abc')!.metadata.deletionTimestamp).toBeUndefined();
    advance(clock, 2_000);
    const evicted = getPod(client, 'web-abc')!;
    expect(evicted.metadata.deletionTimestamp).toBeDefined();
    expect(evicted.status!.conditions!.find((x) => x.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
    const eviction = s.events('TaintManagerEviction');
    expect(eviction.map((e) => [e.message, e.source?.component])).toEqual([['Marking for deletion Pod default/web-abc', 'taint-eviction-controller']]);
    expect(Date.parse(eviction[0].firstTimestamp!)).toBe(Math.floor((tainted + 300_000) / 1000) * 1000);
    // The pod on the healthy node stays.
    expect(getPod(client, 'web-def')!.metadata.deletionTimestamp).toBeUndefined();
  });

  it('taints not-ready when the kubelet reports Ready=False, swaps to unreachable when it goes silent, and clears when Ready', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a']);
    s.at(10_500);
    s.kubelets[1].postReady('False');
    s.cluster.clock.runDeferred();
    expect(s.taints('node-2').map(key)).toEqual(['node.kubernetes.io/not-ready:NoSchedule']);
    s.at(15_100); // seen False by the pass at t0+15 s, tainted 100 ms later
    expect(s.taints('node-2').map(key)).toEqual(['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);

    // The kubelet stops: Unknown, and the NoExecute taint is swapped at once on the next pass.
    s.at(23_000);
    s.kubelets[1].stop();
    s.cluster.runUntil(() => s.ready('node-2') === 'Unknown', 120_000);
    advance(s.cluster.clock, 5_000);
    expect(s.taints('node-2').map(key).sort()).toEqual(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);

    // It comes back Ready: both taints go.
    s.kubelets[1].postReady('True');
    advance(s.cluster.clock, 5_000);
    expect(s.ready('node-2')).toBe('True');
    expect(s.taints('node-2')).toEqual([]);
  });

  it('taints a cordoned node unschedulable and removes the taint when uncordoned', async () => {
    const s = await setup(['zone-a']);
    const { client, clock } = s.cluster;
    advance(clock, 1_000);
    client.nodes.patch('node-1', PatchType.StrategicMergePatch, { spec: { unschedulable: true } });
    clock.runDeferred();
    expect(s.taints('node-1')).toEqual([{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:01Z' }]);
    client.nodes.patch('node-1', PatchType.StrategicMergePatch, { spec: { unschedulable: null } });
    clock.runDeferred();
    expect(s.taints('node-1')).toEqual([]);
  });

  it('taints memory pressure as a NoSchedule condition taint', async () => {
    const s = await setup(['zone-a']);
    const { client, clock } = s.cluster;
    const node = client.nodes.get('node-1');
    const conditions = node.status!.conditions!.map((x) => (x.type === 'MemoryPressure' ? { ...x, status: 'True', reason: 'KubeletHasInsufficientMemory' } : x));
    client.nodes.updateStatus({ ...node, status: { ...node.status, conditions } });
    clock.runDeferred();
    expect(s.taints('node-1').map(key)).toEqual(['node.kubernetes.io/memory-pressure:NoSchedule']);
  });

  it('marks a pod bound later to an unhealthy node not Ready', async () => {
    const s = await setup(['zone-a', 'zone-a']);
    s.at(23_000);
    s.kubelets[1].stop();
    s.cluster.runUntil(() => s.ready('node-2') === 'Unknown', 120_000);
    runningPod(s.cluster.client, s.cluster.clock, 'late', 'node-2');
    s.cluster.clock.runDeferred();
    expect(getPod(s.cluster.client, 'late')!.status!.conditions!.find((x) => x.type === 'Ready')!.status).toBe('False');
  });

  it('is restartable: a new controller relists and converges on the same taints', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a']);
    const { client, clock, trace } = s.cluster;
    const informers = s.informers;
    s.at(23_000);
    s.kubelets[1].stop();
    s.cluster.runUntil(() => s.taints('node-2').some((t) => t.effect === 'NoExecute'), 120_000);
    s.nlc.shutDown();
    const before = clock.pending.timers;
    advance(clock, 60_000);
    expect(clock.pending.timers).toBeLessThanOrEqual(before);
    const next = new NodeLifecycleController({ client: client.withUser(controllerManagerUser), informers, clock, trace });
    clock.runDeferred();
    next.run();
    advance(clock, 10_200);
    expect(s.ready('node-2')).toBe('Unknown');
    expect(s.taints('node-2').map(key).sort()).toEqual(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
    expect(s.ready('node-1')).toBe('True');
    next.shutDown();
  });
});

describe('NodeLifecycleController: zone disruption', () => {
  function deletedPods(s: Setup): string[] {
    return s.cluster.client.pods
      .list()
      .items.filter((p) => p.metadata.deletionTimestamp)
      .map((p) => p.metadata.name!);
  }

  it('evicts nothing when every node of the cluster is down (3 of 3, one zone)', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a']);
    const { client, clock } = s.cluster;
    for (let i = 1; i <= 3; i++) runningPod(client, clock, `web-${i}`, `node-${i}`);
    s.at(23_000);
    for (const k of s.kubelets) k.stop();
    s.at(23_000 + 10 * 60_000);
    expect(['node-1', 'node-2', 'node-3'].map((n) => s.ready(n))).toEqual(['Unknown', 'Unknown', 'Unknown']);
    expect(['node-1', 'node-2', 'node-3'].flatMap((n) => s.taints(n).filter((t) => t.effect === 'NoExecute'))).toEqual([]);
    expect(deletedPods(s)).toEqual([]);
    expect(s.nlc.zones()).toEqual([{ zone: 'zone-a', state: 'FullDisruption', qps: 0, queued: ['node-1', 'node-2', 'node-3'] }]);
  });

  it('leaves master disruption mode when a node comes back, and then taints the others', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a']);
    s.at(23_000);
    for (const k of s.kubelets) k.stop();
    s.at(200_000);
    expect(s.nlc.zones()[0].state).toBe('FullDisruption');
    s.kubelets[0].resume();
    s.cluster.runUntil(() => s.ready('node-1') === 'True' && s.nlc.zones()[0].state === 'Normal', 30_000);
    const noExecute = () => ['node-2', 'node-3'].filter((n) => s.taints(n).some((t) => t.effect === 'NoExecute'));
    // Every node got a fresh grace period on the way out; the silent ones go Unknown again, then are tainted.
    s.cluster.runUntil(() => noExecute().length === 2, 5 * 60_000);
    expect(noExecute()).toEqual(['node-2', 'node-3']);
    expect(s.taints('node-1')).toEqual([]);
  });

  it('evicts nothing when every zone is fully disrupted (3 zones of 1 node)', async () => {
    const s = await setup(['zone-a', 'zone-b', 'zone-c']);
    const { client, clock } = s.cluster;
    for (let i = 1; i <= 3; i++) runningPod(client, clock, `web-${i}`, `node-${i}`);
    s.at(23_000);
    for (const k of s.kubelets) k.stop();
    s.at(23_000 + 10 * 60_000);
    expect(deletedPods(s)).toEqual([]);
  });

  it('evicts normally when 1 of 3 nodes is down, in one zone or in a zone of its own', async () => {
    for (const zones of [
      ['zone-a', 'zone-a', 'zone-a'],
      ['zone-a', 'zone-b', 'zone-c'],
    ]) {
      const s = await setup(zones);
      const { client, clock } = s.cluster;
      for (let i = 1; i <= 3; i++) runningPod(client, clock, `web-${i}`, `node-${i}`);
      s.at(23_000);
      s.kubelets[1].stop();
      s.at(23_000 + 10 * 60_000);
      expect(deletedPods(s)).toEqual(['web-2']);
      await s.cluster.close();
      cluster = undefined;
    }
  });

  it('stops tainting a small partially disrupted zone (3 of 5 nodes down)', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a', 'zone-a', 'zone-a']);
    s.at(23_000);
    for (const k of s.kubelets.slice(0, 3)) k.stop();
    s.at(23_000 + 5 * 60_000);
    expect(s.nlc.zones()[0]).toMatchObject({ state: 'PartialDisruption', qps: 0 });
    expect(['node-1', 'node-2', 'node-3'].flatMap((n) => s.taints(n).filter((t) => t.effect === 'NoExecute'))).toEqual([]);
  });

  it('taints a large partially disrupted zone at the secondary rate', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a', 'zone-a', 'zone-a'], { largeClusterSizeThreshold: 4 });
    s.at(23_000);
    for (const k of s.kubelets.slice(0, 3)) k.stop();
    const tainted = () => ['node-1', 'node-2', 'node-3'].filter((n) => s.taints(n).some((t) => t.effect === 'NoExecute')).length;
    s.cluster.runUntil(() => tainted() === 1, 120_000);
    const first = s.cluster.clock.now();
    expect(s.nlc.zones()[0]).toMatchObject({ state: 'PartialDisruption', qps: 0.01 });
    advanceTo(s.cluster.clock, first + 99_000);
    expect(tainted()).toBe(1);
    advanceTo(s.cluster.clock, first + 100_100);
    expect(tainted()).toBe(2);
  });

  it('paces NoExecute taints at 0.1 qps per zone', async () => {
    const s = await setup(['zone-a', 'zone-a', 'zone-a', 'zone-a', 'zone-a', 'zone-a', 'zone-a']);
    s.at(23_000);
    for (const k of s.kubelets.slice(0, 2)) k.stop(); // 2 of 7: Normal
    const taintTimes = () =>
      ['node-1', 'node-2']
        .map((n) => s.taints(n).find((t) => t.effect === 'NoExecute')?.timeAdded)
        .filter((x): x is string => x !== undefined)
        .sort();
    s.cluster.runUntil(() => taintTimes().length === 2, 120_000);
    const [a, b] = taintTimes().map((x) => Date.parse(x));
    expect(b - a).toBe(10_000);
  });
});
