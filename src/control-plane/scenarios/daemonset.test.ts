// Scenario: the Kubernetes docs' DaemonSet (fluentd-elasticsearch in kube-system, /work/shared/manifests/
// controllers/daemonset.yaml) on a headless three-node cluster, with every component running: the DaemonSet
// controller creates one pod per eligible node pinned by node affinity, the scheduler binds it, the kubelet
// runs it. Nodes come and go, get tainted, relabelled and killed; the template changes under RollingUpdate
// with maxUnavailable and with maxSurge. Each outcome is what a v1.32 cluster shows.
import { readFileSync } from 'node:fs';
import type { ControllerRevision, DaemonSet } from 'kubernetes-types/apps/v1';
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { ClusterFaults } from '../faults/cluster-faults';
import type { TestCluster } from '../testing/test-cluster';
import { RevisionMonitor, bootCluster, eventsFor, isPodReady, objectsOf } from './harness';

const manifest = readFileSync('/work/shared/manifests/controllers/daemonset.yaml', 'utf8');
const NS = 'kube-system';
const DS = 'fluentd-elasticsearch';

let tc: TestCluster | undefined;
afterEach(async () => {
  await tc?.close();
  tc = undefined;
});

const daemonSet = (c: TestCluster) => c.client.daemonSets.get(DS, { namespace: NS });
const allPods = (c: TestCluster) => c.client.pods.list({ namespace: NS, labelSelector: `name=${DS}` }).items;
const livePods = (c: TestCluster) => allPods(c).filter((p) => !p.metadata.deletionTimestamp);
const runningReady = (p: Pod) => p.status?.phase === 'Running' && isPodReady(p);
const nodeNames = (c: TestCluster) => c.client.nodes.list().items.map((n) => n.metadata.name!).sort();
const podNodes = (pods: Pod[]) => pods.map((p) => p.spec?.nodeName ?? '').sort();

/** Every node in `nodes` runs exactly one live, Running and Ready daemon pod, and no other node runs one. */
function settledOn(c: TestCluster, nodes: string[]): boolean {
  const live = livePods(c);
  return live.length === nodes.length && live.every(runningReady) && JSON.stringify(podNodes(live)) === JSON.stringify([...nodes].sort());
}

/** The status once the controller has caught up with `nodes` Ready daemon pods. */
function statusSettled(c: TestCluster, desired: number): boolean {
  const s = daemonSet(c).status;
  return s?.desiredNumberScheduled === desired && s.currentNumberScheduled === desired && s.numberReady === desired && (s.numberAvailable ?? 0) === desired;
}

async function withFluentd(): Promise<TestCluster> {
  const c = await bootCluster();
  tc = c;
  c.apply(objectsOf(manifest));
  c.runUntil(() => settledOn(c, nodeNames(c)) && statusSettled(c, 3), 120_000, 'one Ready fluentd pod per node');
  return c;
}

function patchDaemonSet(c: TestCluster, patch: unknown): void {
  c.client.daemonSets.patch(DS, 'application/strategic-merge-patch+json', patch, { namespace: NS });
}

function patchNode(c: TestCluster, name: string, patch: unknown): void {
  c.client.nodes.patch(name, 'application/strategic-merge-patch+json', patch, {});
}

function addTaint(c: TestCluster, name: string, taint: Taint): void {
  const node = c.client.nodes.get(name);
  c.client.nodes.update({ ...node, spec: { ...node.spec, taints: [...(node.spec?.taints ?? []), taint] } });
}

describe('the docs fluentd-elasticsearch DaemonSet', () => {
  it('runs one pod per node, named <ds>-xxxxx, pinned by node affinity, with the automatic tolerations', async () => {
    const c = await withFluentd();
    const pods = allPods(c);
    expect(pods).toHaveLength(3);
    expect(podNodes(pods)).toEqual(['node-1', 'node-2', 'node-3']);
    const ds = daemonSet(c);
    const revisions = c.client.controllerRevisions.list({ namespace: NS }).items as ControllerRevision[];
    expect(revisions).toHaveLength(1);
    const hash = revisions[0].metadata!.labels!['controller-revision-hash'];
    expect(revisions[0].metadata!.name).toBe(`${DS}-${hash}`);
    expect(revisions[0].revision).toBe(1);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^fluentd-elasticsearch-[a-z0-9]{5}$/);
      expect(p.metadata.generateName).toBe('fluentd-elasticsearch-');
      // As on a real cluster: the template generation from the deprecated.daemonset.template.generation annotation.
      expect(p.metadata.labels).toEqual({ name: DS, 'controller-revision-hash': hash, 'pod-template-generation': '1' });
      expect(p.metadata.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'DaemonSet', name: DS, uid: ds.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
      // ReplaceDaemonSetPodNodeNameNodeAffinity: the default scheduler binds it to exactly that node.
      expect(p.spec?.affinity).toEqual({
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec!.nodeName] }] }],
          },
        },
      });
      // The template's toleration first, then the DaemonSet pod tolerations, forever (no tolerationSeconds:
      // DefaultTolerationSeconds does not add its 300 s ones either).
      expect(p.spec?.tolerations).toEqual([
        { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
      ]);
    }
    const created = eventsFor(c, 'DaemonSet', DS, NS).filter((e) => e.reason === 'SuccessfulCreate');
    expect(created.map((e) => e.message).sort()).toEqual(pods.map((p) => `Created pod: ${p.metadata.name}`).sort());
    expect(created.every((e) => e.source?.component === 'daemonset-controller' && e.type === 'Normal')).toBe(true);
    // The scheduler's own event: bound where the affinity points.
    for (const p of pods) {
      const scheduled = eventsFor(c, 'Pod', p.metadata.name!, NS).find((e) => e.reason === 'Scheduled');
      expect(scheduled?.message).toBe(`Successfully assigned kube-system/${p.metadata.name} to ${p.spec!.nodeName}`);
    }
    expect(ds.status).toEqual({
      currentNumberScheduled: 3,
      numberMisscheduled: 0,
      desiredNumberScheduled: 3,
      numberReady: 3,
      observedGeneration: 1,
      updatedNumberScheduled: 3,
      numberAvailable: 3,
    });
  });

  it('follows the nodes: a new node gets a pod, a removed node loses it (Pod GC), status counts along', async () => {
    const c = await withFluentd();
    const faults = new ClusterFaults(c.cluster);
    const added = faults.addNode();
    expect(added).toBe('node-4');
    c.runUntil(() => settledOn(c, ['node-1', 'node-2', 'node-3', 'node-4']) && statusSettled(c, 4), 120_000, 'a fourth pod');
    expect(daemonSet(c).status).toMatchObject({ desiredNumberScheduled: 4, currentNumberScheduled: 4, numberReady: 4, updatedNumberScheduled: 4, numberAvailable: 4 });

    const onNode2 = livePods(c).find((p) => p.spec?.nodeName === 'node-2')!;
    faults.removeNode('node-2');
    // No DaemonSet reaction to a deleted node: its pod stays until Pod GC has seen the node missing for 40 s.
    c.advance(20_000);
    expect(c.get('pod', NS, onNode2.metadata.name!)).toBeDefined();
    c.runUntil(() => c.get('pod', NS, onNode2.metadata.name!) === undefined, 120_000, 'pod GC of the removed node\'s pod');
    c.runUntil(() => statusSettled(c, 3), 60_000, 'status back to 3');
    expect(settledOn(c, ['node-1', 'node-3', 'node-4'])).toBe(true);
    expect(daemonSet(c).status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, numberMisscheduled: 0 });
  });

  it('honours taints: NoSchedule keeps a running pod (misscheduled) but starts none; NoExecute removes it', async () => {
    const c = await withFluentd();
    const faults = new ClusterFaults(c.cluster);
    const before = livePods(c).find((p) => p.spec?.nodeName === 'node-1')!;
    addTaint(c, 'node-1', { key: 'dedicated', value: 'db', effect: 'NoSchedule' });
    c.runUntil(() => daemonSet(c).status?.numberMisscheduled === 1, 60_000, 'node-1 counted misscheduled');
    c.advance(30_000);
    // The pod stays: NoSchedule never evicts.
    expect(c.get('pod', NS, before.metadata.name!)?.metadata?.deletionTimestamp).toBeUndefined();
    expect(daemonSet(c).status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberMisscheduled: 1, numberReady: 2 });

    // A new node with the same taint gets no pod.
    const tainted = faults.addNode({ taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] });
    c.runUntil(() => c.client.nodes.list().items.some((n) => n.metadata.name === tainted && n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')), 60_000, 'the tainted node Ready');
    c.advance(30_000);
    expect(livePods(c).some((p) => p.spec?.nodeName === tainted)).toBe(false);
    expect(daemonSet(c).status).toMatchObject({ desiredNumberScheduled: 2, numberMisscheduled: 1 });

    // NoExecute: the pod must go (the controller deletes it; taint eviction would too).
    addTaint(c, 'node-1', { key: 'dedicated', value: 'db', effect: 'NoExecute' });
    c.runUntil(() => c.get('pod', NS, before.metadata.name!) === undefined, 120_000, 'the pod on node-1 removed');
    c.runUntil(() => statusSettled(c, 2) && daemonSet(c).status?.numberMisscheduled === 0, 60_000, 'status 2, none misscheduled');
    expect(podNodes(livePods(c))).toEqual(['node-2', 'node-3']);

    // Tolerating the taints in the template brings pods to both tainted nodes.
    patchDaemonSet(c, { spec: { template: { spec: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } } } });
    c.runUntil(() => settledOn(c, ['node-1', 'node-2', 'node-3', tainted]) && statusSettled(c, 4), 240_000, 'pods on the tainted nodes');
  });

  it('restricts to nodes matching the nodeSelector, and follows relabelling', async () => {
    const c = await withFluentd();
    patchNode(c, 'node-2', { metadata: { labels: { disktype: 'ssd' } } });
    patchDaemonSet(c, { spec: { template: { spec: { nodeSelector: { disktype: 'ssd' } } } } });
    // The pods on node-1 and node-3 are deleted; while they terminate (30 s grace) they still count as
    // misscheduled, as on a real cluster.
    c.runUntil(() => settledOn(c, ['node-2']) && statusSettled(c, 1), 240_000, 'only node-2 keeps a pod');
    // Then the template change rolls node-2's pod (the terminating pods counted as unavailable until gone).
    c.runUntil(
      () => allPods(c).length === 1 && settledOn(c, ['node-2']) && daemonSet(c).status?.numberMisscheduled === 0 && daemonSet(c).status?.updatedNumberScheduled === 1,
      240_000,
      'the others terminated, node-2 updated',
    );
    expect(daemonSet(c).status).toMatchObject({ desiredNumberScheduled: 1, numberMisscheduled: 0, updatedNumberScheduled: 1, observedGeneration: 2 });
    const deleted = eventsFor(c, 'DaemonSet', DS, NS).filter((e) => e.reason === 'SuccessfulDelete');
    expect(deleted.length).toBeGreaterThanOrEqual(3);
    expect(deleted.every((e) => /^Deleted pod: fluentd-elasticsearch-[a-z0-9]{5}$/.test(e.message ?? ''))).toBe(true);

    // Relabel: node-3 gains the label (a pod appears), node-2 loses it (its pod goes).
    patchNode(c, 'node-3', { metadata: { labels: { disktype: 'ssd' } } });
    c.runUntil(() => settledOn(c, ['node-2', 'node-3']) && statusSettled(c, 2), 120_000, 'a pod on node-3');
    patchNode(c, 'node-2', { metadata: { labels: { disktype: null } } });
    c.runUntil(() => settledOn(c, ['node-3']) && statusSettled(c, 1), 120_000, 'node-2 loses its pod');
  });

  it('is never evicted from a dead node: the pod stays bound past the eviction timeout and runs again after a restart', async () => {
    const c = await withFluentd();
    const faults = new ClusterFaults(c.cluster);
    const victim = livePods(c).find((p) => p.spec?.nodeName === 'node-3')!;
    faults.killNode('node-3');
    const node3 = () => c.client.nodes.get('node-3') as Node;
    c.runUntil(() => (node3().spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute'), 120_000, 'node-3 unreachable');
    // Far beyond the 300 s every other pod tolerates.
    c.advance(10 * 60_000);
    const stayed = c.get('pod', NS, victim.metadata.name!) as Pod | undefined;
    expect(stayed).toBeDefined();
    expect(stayed!.metadata?.deletionTimestamp).toBeUndefined();
    expect(stayed!.spec?.nodeName).toBe('node-3');
    // Marked not ready by the node lifecycle controller, but not evicted, and not replaced.
    expect(isPodReady(stayed!)).toBe(false);
    expect(allPods(c)).toHaveLength(3);
    // The taint-eviction controller saw it tolerate the unreachable taint forever: nothing was scheduled.
    const key = `${NS}/${victim.metadata.name}`;
    const evictions = c.trace.recent().filter((e) => e.component === 'taint-eviction-controller' && e.data.pod === key);
    expect(evictions.filter((e) => e.data.event === 'EvictionScheduled' || e.data.event === 'Evicting')).toEqual([]);
    expect(eventsFor(c, 'Pod', victim.metadata.name!, NS).filter((e) => e.reason === 'TaintManagerEviction')).toEqual([]);
    // unreachable:NoSchedule is not tolerated: the node no longer "should run" a new pod, but the running one
    // may continue (its NoExecute taint is tolerated), so it counts as misscheduled.
    expect(daemonSet(c).status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberMisscheduled: 1, numberReady: 2 });

    faults.restartNode('node-3');
    c.runUntil(() => settledOn(c, ['node-1', 'node-2', 'node-3']) && statusSettled(c, 3), 240_000, 'node-3 back with its pod');
    expect(livePods(c).find((p) => p.spec?.nodeName === 'node-3')!.metadata.name).toBe(victim.metadata.name);
  });

  it('rolls an image update one node at a time with maxUnavailable 1', async () => {
    const c = await withFluentd();
    const oldHash = livePods(c)[0].metadata.labels!['controller-revision-hash'];
    let worst = Infinity;
    const monitor = new RevisionMonitor(c, `/registry/core/pods/${NS}/`, (objects) => {
      const ready = new Set<string>();
      for (const o of objects.values()) {
        const p = o as unknown as Pod;
        if (p.metadata?.labels?.name !== DS || p.metadata.deletionTimestamp || !isPodReady(p)) continue;
        ready.add(p.spec?.nodeName ?? '');
      }
      worst = Math.min(worst, ready.size);
    });
    patchDaemonSet(c, { spec: { template: { spec: { containers: [{ name: DS, image: 'k8s.gcr.io/fluentd-elasticsearch:1.21' }] } } } });
    c.runUntil(
      () => settledOn(c, nodeNames(c)) && livePods(c).every((p) => p.spec?.containers[0].image === 'k8s.gcr.io/fluentd-elasticsearch:1.21') && statusSettled(c, 3) && daemonSet(c).status?.updatedNumberScheduled === 3,
      600_000,
      'rollout done',
    );
    monitor.stop();
    // Never more than one node without a Ready pod.
    expect(worst).toBe(2);
    const newHash = livePods(c)[0].metadata.labels!['controller-revision-hash'];
    expect(newHash).not.toBe(oldHash);
    const revisions = (c.client.controllerRevisions.list({ namespace: NS }).items as ControllerRevision[]).sort((a, b) => a.revision! - b.revision!);
    expect(revisions.map((r) => [r.revision, r.metadata!.labels!['controller-revision-hash']])).toEqual([
      [1, oldHash],
      [2, newHash],
    ]);
    expect(daemonSet(c).status).toMatchObject({ observedGeneration: 2, updatedNumberScheduled: 3, numberAvailable: 3, numberMisscheduled: 0 });
    expect(daemonSet(c).status?.numberUnavailable).toBeUndefined();
  });

  it("surges with maxSurge 1: each node's new pod is Ready before its old pod is deleted", async () => {
    const c = await withFluentd();
    patchDaemonSet(c, { spec: { updateStrategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } } });
    c.settle();
    let minReadyNodes = Infinity;
    let maxPodsOnANode = 0;
    const monitor = new RevisionMonitor(c, `/registry/core/pods/${NS}/`, (objects) => {
      const ready = new Set<string>();
      const perNode = new Map<string, number>();
      for (const o of objects.values()) {
        const p = o as unknown as Pod;
        if (p.metadata?.labels?.name !== DS || p.metadata.deletionTimestamp) continue;
        const n = p.spec?.nodeName ?? (p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0].matchFields?.[0].values?.[0] ?? '');
        perNode.set(n, (perNode.get(n) ?? 0) + 1);
        if (isPodReady(p)) ready.add(n);
      }
      minReadyNodes = Math.min(minReadyNodes, ready.size);
      maxPodsOnANode = Math.max(maxPodsOnANode, ...perNode.values());
    });
    patchDaemonSet(c, { spec: { template: { spec: { containers: [{ name: DS, image: 'k8s.gcr.io/fluentd-elasticsearch:1.21' }] } } } });
    c.runUntil(
      () => settledOn(c, nodeNames(c)) && livePods(c).every((p) => p.spec?.containers[0].image === 'k8s.gcr.io/fluentd-elasticsearch:1.21') && daemonSet(c).status?.updatedNumberScheduled === 3,
      600_000,
      'surge rollout done',
    );
    monitor.stop();
    // Every node kept a Ready pod throughout; a node ran old and new side by side.
    expect(minReadyNodes).toBe(3);
    expect(maxPodsOnANode).toBe(2);
  });
});
