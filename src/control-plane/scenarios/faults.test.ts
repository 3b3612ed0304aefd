// Faults on a whole headless cluster (issue 4, parts 5 and 6): a node dies, every node dies, a node is cut
// off, the API server goes away, the controller manager or the scheduler crashes mid-rollout, an admin
// cordons and drains a node. Nothing is scripted: each outcome below is the components reacting on virtual
// time — the node lifecycle controller's grace period and taints, taint-based eviction after tolerationSeconds,
// the zone-disruption rule, the ReplicaSet controller's replacements, the kubelet's own reconciliation.
import { describe, expect, it } from 'vitest';
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1';
import { isStatusError } from '../../shared/api/status';
import { ClusterFaults } from '../faults/cluster-faults';
import type { TestCluster } from '../testing/test-cluster';
import { cordon, uncordon } from '../../kubectl/cordon';
import { drain } from '../../kubectl/drain';
import { RevisionMonitor, bootCluster, isPodReady, objectsOf, rolloutComplete } from './harness';

const webDeployment = (replicas: number, image = 'nginx:1.27', extra = '') => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: nginx, image: '${image}'}${extra}
`;

const unreachable = 'node.kubernetes.io/unreachable';

function pods(tc: TestCluster): Pod[] {
  return tc.client.pods.list({ namespace: 'default', labelSelector: 'app=web' }).items;
}

function live(tc: TestCluster): Pod[] {
  return pods(tc).filter((p) => !p.metadata?.deletionTimestamp);
}

function readyLive(tc: TestCluster): Pod[] {
  return live(tc).filter(isPodReady);
}

function node(tc: TestCluster, name: string): Node {
  return tc.client.nodes.get(name);
}

function readyStatus(n: Node): string | undefined {
  return n.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

function taint(n: Node, key: string, effect: Taint['effect']): Taint | undefined {
  return n.spec?.taints?.find((t) => t.key === key && t.effect === effect);
}

async function withWeb(replicas: number): Promise<{ tc: TestCluster; faults: ClusterFaults }> {
  const tc = await bootCluster();
  tc.apply(objectsOf(webDeployment(replicas)));
  tc.runUntil(() => readyLive(tc).length === replicas && rolloutComplete(tc.client.deployments.get('web', { namespace: 'default' })), 120_000, 'web ready');
  return { tc, faults: new ClusterFaults(tc.cluster) };
}

/** Every pod name is held by at most one live pod, and no more pods run than wanted (+ surge). */
function expectNoDuplicates(list: Pod[], max: number): void {
  const names = list.map((p) => p.metadata!.name!);
  expect(new Set(names).size).toBe(names.length);
  expect(list.filter((p) => !p.metadata?.deletionTimestamp).length).toBeLessThanOrEqual(max);
}

describe('killing a node', () => {
  it('goes Unknown after the grace period, evicts its pods after tolerationSeconds, replaces them elsewhere; a restart removes the stale pods', async () => {
    const { tc, faults } = await withWeb(3);
    const victim = pods(tc)[0].spec!.nodeName!;
    const onVictim = pods(tc).filter((p) => p.spec?.nodeName === victim);
    expect(onVictim.length).toBeGreaterThan(0);
    // DefaultTolerationSeconds gave every pod 300 s of tolerance for an unreachable node.
    expect(onVictim[0].spec?.tolerations).toContainEqual({ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });

    const killedAt = tc.clock.now();
    faults.killNode(victim);
    const traced = tc.trace.recent().filter((e) => e.component === 'faults');
    expect(traced.at(-1)?.data).toEqual({ event: 'fault', fault: 'kill-node', node: victim });

    // node-monitor-grace-period: 40 s after the last lease renewal (renewed every 10 s before the kill).
    tc.advance(29_000);
    expect(readyStatus(node(tc, victim))).toBe('True');
    tc.runUntil(() => readyStatus(node(tc, victim)) === 'Unknown', 60_000, 'Ready=Unknown');
    const unknownAfter = tc.clock.now() - killedAt;
    expect(unknownAfter).toBeGreaterThanOrEqual(30_000);
    expect(unknownAfter).toBeLessThanOrEqual(46_000);
    expect(node(tc, victim).status?.conditions?.find((c) => c.type === 'Ready')?.reason).toBe('NodeStatusUnknown');
    tc.runUntil(() => taint(node(tc, victim), unreachable, 'NoExecute') !== undefined, 30_000, 'unreachable:NoExecute');
    const taintedAt = Date.parse(taint(node(tc, victim), unreachable, 'NoExecute')!.timeAdded!);
    expect(taint(node(tc, victim), unreachable, 'NoSchedule')).toBeDefined();

    // Not evicted before tolerationSeconds …
    tc.clock.advanceTo(taintedAt + 299_000);
    for (const p of onVictim) expect(tc.client.pods.get(p.metadata!.name!, { namespace: 'default' }).metadata?.deletionTimestamp).toBeUndefined();
    // … and evicted right after.
    tc.runUntil(() => onVictim.every((p) => !!tc.client.pods.get(p.metadata!.name!, { namespace: 'default' }).metadata?.deletionTimestamp), 10_000, 'eviction');
    expect(tc.clock.now() - taintedAt).toBeLessThan(305_000);

    // Replacements run Ready on the surviving nodes.
    tc.runUntil(() => readyLive(tc).length === 3, 60_000, 'replacements Ready');
    expect(readyLive(tc).every((p) => p.spec?.nodeName !== victim)).toBe(true);

    // The dead kubelet cannot confirm the deletions: the evicted pods stay Terminating.
    tc.advance(10 * 60_000);
    for (const p of onVictim) expect(tc.client.pods.get(p.metadata!.name!, { namespace: 'default' }).metadata?.deletionTimestamp).toBeDefined();
    expectNoDuplicates(pods(tc), 3);

    // The node boots again: its kubelet re-registers, kills what the API server wants gone and deletes them.
    faults.restartNode(victim);
    tc.runUntil(() => pods(tc).length === 3 && readyStatus(node(tc, victim)) === 'True', 60_000, 'stale pods removed');
    expect(pods(tc).every((p) => p.spec?.nodeName !== victim && isPodReady(p))).toBe(true);
    tc.runUntil(() => !taint(node(tc, victim), unreachable, 'NoExecute') && !taint(node(tc, victim), unreachable, 'NoSchedule'), 30_000, 'taints removed');
    expect(tc.cluster.nodes.get(victim)!.podKeys()).toEqual([]);
    await tc.close();
  });

  it('a removed dead node: the pod GC deletes its orphaned pods', async () => {
    const { tc, faults } = await withWeb(3);
    const victim = pods(tc)[0].spec!.nodeName!;
    const stale = pods(tc).filter((p) => p.spec?.nodeName === victim).map((p) => p.metadata!.name!);
    faults.killNode(victim);
    tc.runUntil(() => readyLive(tc).length === 3 && readyLive(tc).every((p) => p.spec?.nodeName !== victim), 8 * 60_000, 'replacements');
    expect(pods(tc).filter((p) => stale.includes(p.metadata!.name!)).every((p) => !!p.metadata?.deletionTimestamp)).toBe(true);
    faults.removeNode(victim);
    expect(tc.client.nodes.list().items.map((n) => n.metadata.name)).not.toContain(victim);
    tc.runUntil(() => pods(tc).length === 3, 2 * 60_000, 'orphaned pods collected');
    expect(pods(tc).map((p) => p.metadata!.name)).not.toEqual(expect.arrayContaining(stale));
    await tc.close();
  });

  it('killing every node evicts nothing: all zones are fully disrupted', async () => {
    const { tc, faults } = await withWeb(3);
    const before = pods(tc).map((p) => p.metadata!.uid).sort();
    const names = tc.cluster.nodes.names();
    for (const n of names) faults.killNode(n);
    tc.advance(10 * 60_000);
    for (const n of names) {
      expect(readyStatus(node(tc, n))).toBe('Unknown');
      expect(taint(node(tc, n), unreachable, 'NoExecute')).toBeUndefined();
    }
    expect(pods(tc).map((p) => p.metadata!.uid).sort()).toEqual(before);
    expect(pods(tc).every((p) => !p.metadata?.deletionTimestamp)).toBe(true);
    // The controller did mark them NotReady (MarkPodsNotReady): nothing may route traffic to them.
    expect(pods(tc).every((p) => !isPodReady(p))).toBe(true);

    for (const n of names) faults.restartNode(n);
    tc.runUntil(() => readyLive(tc).length === 3, 2 * 60_000, 'pods Ready again');
    expect(pods(tc).map((p) => p.metadata!.uid).sort()).toEqual(before);
    await tc.close();
  });
});

describe('partitioning a node', () => {
  it('is a dead node to the control plane, but its containers keep running until the partition heals', async () => {
    const { tc, faults } = await withWeb(3);
    const victim = pods(tc)[0].spec!.nodeName!;
    const kubelet = tc.cluster.nodes.get(victim)!;
    const stale = pods(tc).filter((p) => p.spec?.nodeName === victim).map((p) => `default/${p.metadata!.name}`);
    faults.partitionNode(victim, true);
    tc.runUntil(() => readyStatus(node(tc, victim)) === 'Unknown', 60_000, 'Unknown');
    tc.runUntil(() => readyLive(tc).length === 3 && readyLive(tc).every((p) => p.spec?.nodeName !== victim), 8 * 60_000, 'evicted and replaced');
    // The API server says Terminating; the node, which cannot hear it, still runs the containers.
    expect(kubelet.podKeys()).toEqual(stale);
    const [ns, name] = stale[0].split('/');
    expect(kubelet.podStatus(ns, name)?.containerStatuses?.[0].state?.running).toBeDefined();
    expect(tc.client.pods.get(name, { namespace: ns }).metadata?.deletionTimestamp).toBeDefined();

    faults.partitionNode(victim, false);
    tc.runUntil(() => pods(tc).length === 3 && kubelet.podKeys().length === 0, 60_000, 'kubelet kills the deleted pods');
    tc.runUntil(() => readyStatus(node(tc, victim)) === 'True' && !taint(node(tc, victim), unreachable, 'NoExecute'), 60_000, 'node Ready');
    expect(readyLive(tc).length).toBe(3);
    await tc.close();
  });
});

describe('stopping the API server', () => {
  it('for 2 minutes: kubelets keep their pods running, controllers resync when it returns, no duplicate pods', async () => {
    const { tc, faults } = await withWeb(3);
    const monitor = new RevisionMonitor(tc, '/registry/core/pods/default/', (objects) => {
      const list = [...objects.values()] as Pod[];
      expectNoDuplicates(list, 5);
    });
    const before = new Map(tc.cluster.nodes.list().map((k) => [k.nodeName, k.podKeys()]));
    const restarts = () => tc.cluster.nodes.list().flatMap((k) => k.podKeys().map((key) => k.podStatus(...(key.split('/') as [string, string]))?.containerStatuses?.[0].restartCount));
    // The scale lands, then the server goes down before any controller hears of it.
    tc.client.deployments.patch('web', 'application/merge-patch+json', { spec: { replicas: 5 } }, { namespace: 'default' });
    faults.stopApiServer();
    let refused: unknown;
    try {
      tc.client.pods.list({ namespace: 'default' });
    } catch (err) {
      refused = err;
    }
    expect(isStatusError(refused) && refused.message).toBe('dial tcp 10.96.0.1:443: connect: connection refused');

    tc.advance(2 * 60_000);
    expect(new Map(tc.cluster.nodes.list().map((k) => [k.nodeName, k.podKeys()]))).toEqual(before);
    expect(restarts().every((r) => r === 0)).toBe(true);
    // Nothing was created meanwhile: the controllers could not even see the new spec.
    expect(tc.cluster.store.range('/registry/core/pods/default/').kvs.length).toBe(3);

    faults.startApiServer();
    tc.runUntil(() => readyLive(tc).length === 5 && rolloutComplete(tc.client.deployments.get('web', { namespace: 'default' })), 5 * 60_000, 'resynced');
    tc.advance(5 * 60_000);
    expect(live(tc).length).toBe(5);
    expect(readyLive(tc).length).toBe(5);
    expect(tc.client.replicaSets.list({ namespace: 'default' }).items.length).toBe(1);
    monitor.stop();
    expect(monitor.revisions).toBeGreaterThan(0);
    await tc.close();
  });
});

/** Changes the image, lets the rollout start, then crashes `component` every few seconds until it completes. */
async function rolloutWithCrashes(component: 'controller-manager' | 'scheduler'): Promise<void> {
  const { tc, faults } = await withWeb(4);
  let maxLive = 0;
  let minReady = Infinity;
  const monitor = new RevisionMonitor(tc, '/registry/core/pods/default/', (objects) => {
    const list = [...objects.values()] as Pod[];
    expectNoDuplicates(list, 5);
    maxLive = Math.max(maxLive, list.filter((p) => !p.metadata?.deletionTimestamp).length);
    minReady = Math.min(minReady, list.filter((p) => !p.metadata?.deletionTimestamp && isPodReady(p)).length);
  });
  tc.client.deployments.patch('web', 'application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } } }, { namespace: 'default' });
  const restart = () => (component === 'scheduler' ? faults.restartScheduler() : faults.restartControllerManager());
  let crashes = 0;
  const done = () => rolloutComplete(tc.client.deployments.get('web', { namespace: 'default' })) && readyLive(tc).length === 4 && pods(tc).length === 4;
  for (let i = 0; i < 40 && !done(); i++) {
    tc.advance(1_500);
    restart();
    crashes++;
  }
  tc.runUntil(done, 5 * 60_000, 'rollout complete');
  expect(crashes).toBeGreaterThan(1);
  expect(readyLive(tc).every((p) => p.spec?.containers[0].image === 'nginx:1.28')).toBe(true);
  const rss = tc.client.replicaSets.list({ namespace: 'default' }).items;
  expect(rss.length).toBe(2);
  expect(rss.filter((rs) => rs.spec?.template?.spec?.containers[0].image === 'nginx:1.27').map((rs) => rs.spec?.replicas)).toEqual([0]);
  // maxSurge 25% of 4 → 1, maxUnavailable 25% → 1, at every revision despite the crashes.
  expect(maxLive).toBeLessThanOrEqual(5);
  expect(minReady).toBeGreaterThanOrEqual(3);
  monitor.stop();
  await tc.close();
}

describe('crash-restarting a component mid-rollout', () => {
  it('the controller manager: it relists and converges with no duplicate pods', async () => {
    await rolloutWithCrashes('controller-manager');
  });

  it('the scheduler: it relists and converges with no duplicate pods', async () => {
    await rolloutWithCrashes('scheduler');
  });
});

describe('cordon and drain', () => {
  it('cordon: new pods avoid the node; uncordon lets them back', async () => {
    const { tc } = await withWeb(3);
    const client = tc.client;
    expect(cordon(client, 'node-1')).toEqual({ lines: [{ stream: 'stdout', text: 'node/node-1 cordoned' }], exitCode: 0 });
    expect(cordon(client, 'node-1').lines).toEqual([{ stream: 'stdout', text: 'node/node-1 already cordoned' }]);
    expect(node(tc, 'node-1').spec?.unschedulable).toBe(true);
    tc.runUntil(() => taint(node(tc, 'node-1'), 'node.kubernetes.io/unschedulable', 'NoSchedule') !== undefined, 30_000, 'unschedulable taint');
    const before = new Set(pods(tc).map((p) => p.metadata!.name));
    client.deployments.patch('web', 'application/merge-patch+json', { spec: { replicas: 9 } }, { namespace: 'default' });
    tc.runUntil(() => readyLive(tc).length === 9, 60_000, 'scaled');
    const added = pods(tc).filter((p) => !before.has(p.metadata!.name));
    expect(added.length).toBe(6);
    expect(added.every((p) => p.spec?.nodeName !== 'node-1')).toBe(true);

    expect(uncordon(client, 'node-1').lines).toEqual([{ stream: 'stdout', text: 'node/node-1 uncordoned' }]);
    expect(node(tc, 'node-1').spec?.unschedulable).toBeUndefined();
    tc.runUntil(() => taint(node(tc, 'node-1'), 'node.kubernetes.io/unschedulable', 'NoSchedule') === undefined, 30_000, 'taint removed');
    client.deployments.patch('web', 'application/merge-patch+json', { spec: { replicas: 12 } }, { namespace: 'default' });
    tc.runUntil(() => readyLive(tc).length === 12, 60_000, 'scaled again');
    // Least-allocated scoring sends the new pods to the emptiest node.
    expect(pods(tc).filter((p) => p.spec?.nodeName === 'node-1').length).toBeGreaterThan(1);
    await tc.close();
  });

  it('drain: evicts through the eviction API, respecting a PodDisruptionBudget; replacements land elsewhere', async () => {
    const { tc } = await withWeb(6);
    tc.apply(objectsOf(`
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  minAvailable: 5
  selector: {matchLabels: {app: web}}
`));
    const onNode1 = pods(tc).filter((p) => p.spec?.nodeName === 'node-1').map((p) => p.metadata!.name!);
    expect(onNode1.length).toBe(2);
    let minReady = Infinity;
    const run = drain({ client: tc.client, clock: tc.clock }, 'node-1');
    // The synchronous part printed at once; the rest comes as virtual time runs.
    const printedAtStart = run.lines.length;
    const seen: string[] = [];
    run.onLine((l) => seen.push(l.text));
    tc.runUntil(() => {
      minReady = Math.min(minReady, readyLive(tc).length);
      return run.done;
    }, 5 * 60_000, 'drain');
    const out = run.result!;
    expect(out.exitCode).toBe(0);
    const text = out.lines.map((l) => `${l.stream}: ${l.text}`);
    expect(text[0]).toBe('stdout: node/node-1 cordoned');
    expect(text.at(-1)).toBe('stdout: node/node-1 drained');
    for (const name of onNode1) {
      expect(text).toContain(`stdout: evicting pod default/${name}`);
      expect(text).toContain(`stdout: pod/${name} evicted`);
    }
    // The budget allowed one disruption at a time: the second eviction was refused (429) and retried.
    const refusal = text.find((l) => l.startsWith('stderr: error when evicting pods/'));
    expect(refusal).toMatch(/^stderr: error when evicting pods\/"web-[a-z0-9-]+" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\.$/);
    expect(printedAtStart).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(out.lines.slice(printedAtStart).map((l) => l.text));
    expect(minReady).toBeGreaterThanOrEqual(5);

    tc.runUntil(() => readyLive(tc).length === 6, 60_000, 'replacements');
    expect(pods(tc).every((p) => p.spec?.nodeName !== 'node-1')).toBe(true);
    expect(node(tc, 'node-1').spec?.unschedulable).toBe(true);
    await tc.close();
  });

  it('drain refuses a bare pod without --force, and evicts it with it', async () => {
    const { tc } = await withWeb(3);
    tc.apply(objectsOf(`
apiVersion: v1
kind: Pod
metadata: {name: bare, namespace: default}
spec:
  nodeName: node-2
  containers:
  - {name: c, image: 'nginx:1.27'}
`));
    const run = drain({ client: tc.client, clock: tc.clock }, 'node-2');
    expect(run.done).toBe(true);
    expect(run.result).toEqual({
      exitCode: 1,
      lines: [
        { stream: 'stdout', text: 'node/node-2 cordoned' },
        { stream: 'stderr', text: 'error: unable to drain node "node-2" due to error: cannot delete Pods that declare no controller (use --force to override): default/bare, continuing command...' },
        { stream: 'stderr', text: 'There are pending nodes to be drained:' },
        { stream: 'stderr', text: ' node-2' },
        { stream: 'stderr', text: 'error: cannot delete Pods that declare no controller (use --force to override): default/bare' },
      ],
    });
    const forced = drain({ client: tc.client, clock: tc.clock }, 'node-2', { force: true });
    tc.runUntil(() => forced.done, 2 * 60_000, 'forced drain');
    expect(forced.result!.exitCode).toBe(0);
    expect(forced.result!.lines.map((l) => l.text)).toEqual(
      expect.arrayContaining(['node/node-2 already cordoned', 'Warning: deleting Pods that declare no controller: default/bare', 'evicting pod default/bare', 'pod/bare evicted', 'node/node-2 drained']),
    );
    expect(tc.get('pod', 'default', 'bare')).toBeUndefined();
    await tc.close();
  });
});
