// Chaos (issue 9, item 6; fault matrix F6, F7, F8, F11): realistic workloads — a Deployment scaled and rolled
// out, a StatefulSet with its headless Service, a Job, a DaemonSet, a ClusterIP Service — while nodes are
// killed, restarted and deleted, and the scheduler, the controller manager and the API server crash and come
// back, with virtual time passing between steps. Then every fault is healed and the clock runs until the
// cluster is quiescent, and:
//   - it converged: every workload is at its desired available count, no pod is Pending, none is Terminating;
//   - no pod is duplicated: a Deployment has exactly spec.replicas pods at rest (at most replicas + maxSurge
//     live at every revision), a StatefulSet's ordinals are 0…replicas-1 once each, a DaemonSet has one pod per
//     node, a Job never has more succeeded pods than completions;
//   - every ownerReference resolves (uid and name of a live object);
//   - the informer caches of the controller manager and the scheduler equal the store;
//   - the store revision never went back (checked at every revision and after every step).
//
// fast-check picks the steps from a fixed seed (deterministic in CI; a failure prints a replayable
// { seed, path }). A deeper local search: CRUNS=50 CSEED=7 CMAXLEN=20 npx vitest run src/control-plane/scenarios/chaos.test.ts
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DaemonSet, Deployment, StatefulSet } from 'kubernetes-types/apps/v1';
import type { Job } from 'kubernetes-types/batch/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { StatusReason, isStatusError } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import { ClusterFaults } from '../faults/cluster-faults';
import type { SharedInformer } from '../informers/shared-informer';
import type { TestCluster } from '../testing/test-cluster';
import { RevisionMonitor, bootCluster, isPodReady, objectsOf, rolloutComplete } from './harness';

const nodeNames = ['node-1', 'node-2', 'node-3', 'node-4'] as const;
const webImages = ['nginx:1.27', 'nginx:1.28'] as const;

const workloads = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: nginx, image: 'nginx:1.27', ports: [{containerPort: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: db, namespace: default}
spec:
  clusterIP: None
  selector: {app: db}
  ports: [{port: 6379, name: redis}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  serviceName: db
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      terminationGracePeriodSeconds: 10
      containers:
      - {name: redis, image: 'redis:7.4', ports: [{containerPort: 6379, name: redis}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers:
      - {name: agent, image: 'busybox:1.36', command: ['sh', '-c', 'sleep infinity']}
---
apiVersion: batch/v1
kind: Job
metadata: {name: pi, namespace: default}
spec:
  completions: 3
  parallelism: 2
  backoffLimit: 100
  template:
    metadata: {labels: {app: pi}}
    spec:
      restartPolicy: Never
      containers:
      - {name: pi, image: 'perl:5.34.0', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)']}
`;

type Step =
  | { op: 'scale-web'; replicas: number }
  | { op: 'image-web'; image: string }
  | { op: 'scale-db'; replicas: number }
  | { op: 'kill-node'; node: string }
  | { op: 'restart-node'; node: string }
  | { op: 'remove-node'; node: string }
  | { op: 'restart-controller-manager' }
  | { op: 'restart-scheduler' }
  | { op: 'stop-apiserver' }
  | { op: 'start-apiserver' };

interface TimedStep {
  step: Step;
  /** Virtual time to let pass after the step. */
  waitMs: number;
}

const node = fc.constantFrom(...nodeNames);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('scale-web' as const), replicas: fc.integer({ min: 0, max: 5 }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('image-web' as const), image: fc.constantFrom(...webImages) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('scale-db' as const), replicas: fc.integer({ min: 1, max: 4 }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('kill-node' as const), node }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('restart-node' as const), node }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('remove-node' as const), node }), weight: 1 },
  { arbitrary: fc.constant({ op: 'restart-controller-manager' as const }), weight: 2 },
  { arbitrary: fc.constant({ op: 'restart-scheduler' as const }), weight: 2 },
  { arbitrary: fc.constant({ op: 'stop-apiserver' as const }), weight: 1 },
  { arbitrary: fc.constant({ op: 'start-apiserver' as const }), weight: 1 },
);
const timedStepArb: fc.Arbitrary<TimedStep> = fc.record({
  step: stepArb,
  // Mostly short gaps (faults mid-rollout), sometimes long enough for the node lifecycle to evict.
  waitMs: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 5_000 }), weight: 3 }, { arbitrary: fc.integer({ min: 5_000, max: 400_000 }), weight: 1 }),
});

/** maxSurge 25% (the default), rounded up as Kubernetes rounds it. */
function maxSurge(replicas: number): number {
  return Math.ceil(replicas * 0.25);
}

class Chaos {
  webReplicas = 3;
  webImage: string = webImages[0];
  /** The most web replicas ever wanted: bounds its live pods at every revision (with maxSurge). */
  webMaxReplicas = 3;
  dbReplicas = 3;
  private readonly faults: ClusterFaults;
  private readonly dead = new Set<string>();
  private readonly removed = new Set<string>();
  private apiStopped = false;

  constructor(readonly tc: TestCluster) {
    this.faults = new ClusterFaults(tc.cluster);
  }

  apply(step: Step): void {
    const client = this.tc.client;
    const ns = { namespace: 'default' };
    try {
      switch (step.op) {
        case 'scale-web':
          client.deployments.patch('web', 'application/merge-patch+json', { spec: { replicas: step.replicas } }, ns);
          this.webReplicas = step.replicas;
          this.webMaxReplicas = Math.max(this.webMaxReplicas, step.replicas);
          return;
        case 'image-web':
          client.deployments.patch('web', 'application/strategic-merge-patch+json', { spec: { template: { spec: { containers: [{ name: 'nginx', image: step.image }] } } } }, ns);
          this.webImage = step.image;
          return;
        case 'scale-db':
          client.statefulSets.patch('db', 'application/merge-patch+json', { spec: { replicas: step.replicas } }, ns);
          this.dbReplicas = step.replicas;
          return;
        case 'kill-node':
          if (this.removed.has(step.node)) return;
          this.faults.killNode(step.node);
          this.dead.add(step.node);
          return;
        case 'restart-node':
          if (!this.dead.delete(step.node)) return;
          this.faults.restartNode(step.node);
          return;
        case 'remove-node':
          if (this.removed.has(step.node)) return;
          // Deleting the Node goes through the API server (kubectl delete node): refused while it is down.
          if (this.apiStopped) return;
          this.faults.removeNode(step.node);
          this.dead.delete(step.node);
          this.removed.add(step.node);
          return;
        case 'restart-controller-manager':
          this.faults.restartControllerManager();
          return;
        case 'restart-scheduler':
          this.faults.restartScheduler();
          return;
        case 'stop-apiserver':
          this.faults.stopApiServer();
          this.apiStopped = true;
          return;
        case 'start-apiserver':
          this.faults.startApiServer();
          this.apiStopped = false;
          return;
      }
    } catch (err) {
      // A user's request refused while the API server is down changes nothing, as for a real user.
      if (!this.apiStopped || !isStatusError(err, StatusReason.ServiceUnavailable)) throw err;
    }
  }

  /** Heals every fault: the API server serves, every killed node boots, every deleted node joins again. */
  heal(): void {
    if (this.apiStopped) this.faults.startApiServer();
    this.apiStopped = false;
    for (const name of this.dead) this.faults.restartNode(name);
    this.dead.clear();
    for (const name of this.removed) this.faults.addNode({ name });
    this.removed.clear();
  }

  /** Why the cluster is not (yet) converged, or undefined when it is. */
  divergence(): string | undefined {
    const client = this.tc.client;
    const ns = { namespace: 'default' };
    const nodes = client.nodes.list().items as Node[];
    if (nodes.length !== nodeNames.length) return `${nodes.length} nodes`;
    for (const n of nodes) {
      if (n.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True') return `node ${n.metadata?.name} not Ready`;
      if (n.spec?.taints?.length) return `node ${n.metadata?.name} tainted ${JSON.stringify(n.spec.taints)}`;
    }
    const pods = client.pods.list(ns).items as Pod[];
    for (const p of pods) {
      if (p.metadata?.deletionTimestamp) return `pod ${p.metadata.name} Terminating`;
      if (p.status?.phase === 'Pending') return `pod ${p.metadata?.name} Pending`;
      if (p.status?.phase === 'Failed') return `pod ${p.metadata?.name} Failed (${p.status.reason ?? ''})`;
    }
    const app = (name: string) => pods.filter((p) => p.metadata?.labels?.app === name);

    const web = client.deployments.get('web', ns) as Deployment;
    if (!rolloutComplete(web)) return `web: rollout not complete ${JSON.stringify(web.status)}`;
    const webPods = app('web');
    if (webPods.length !== this.webReplicas) return `web: ${webPods.length} pods for ${this.webReplicas} replicas`;
    if (webPods.some((p) => p.spec?.containers[0].image !== this.webImage || !isPodReady(p))) return 'web: a pod is not Ready or runs an old image';

    const db = client.statefulSets.get('db', ns) as StatefulSet;
    if ((db.status?.observedGeneration ?? 0) < (db.metadata?.generation ?? 0)) return 'db: generation not observed';
    if ((db.status?.availableReplicas ?? 0) !== this.dbReplicas || (db.status?.replicas ?? 0) !== this.dbReplicas) return `db: status ${JSON.stringify(db.status)}`;
    const ordinals = app('db')
      .map((p) => p.metadata!.name!)
      .sort();
    const wantOrdinals = Array.from({ length: this.dbReplicas }, (_, i) => `db-${i}`).sort();
    if (JSON.stringify(ordinals) !== JSON.stringify(wantOrdinals)) return `db: pods ${ordinals.join(',')}`;
    if (app('db').some((p) => !isPodReady(p))) return 'db: a pod is not Ready';

    const agent = client.daemonSets.get('agent', ns) as DaemonSet;
    if ((agent.status?.numberAvailable ?? 0) !== nodeNames.length || (agent.status?.desiredNumberScheduled ?? 0) !== nodeNames.length) return `agent: status ${JSON.stringify(agent.status)}`;
    const agentNodes = app('agent').map((p) => p.spec?.nodeName ?? '');
    if (new Set(agentNodes).size !== agentNodes.length || agentNodes.length !== nodeNames.length) return `agent: pods on ${agentNodes.join(',')}`;

    const job = client.jobs.get('pi', ns) as Job;
    if (!job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')) return `pi: not Complete ${JSON.stringify(job.status)}`;
    return undefined;
  }
}

/** The ownerReferences in the store, and those that do not name a live object by uid, kind and name. */
function ownerReferences(tc: TestCluster): { checked: number; dangling: string[] } {
  const all = tc.cluster.store.range('/registry/').kvs.map((kv) => kv.value as KubeObject);
  const byUid = new Map(all.map((o) => [o.metadata.uid, o]));
  const out: string[] = [];
  let checked = 0;
  for (const obj of all) {
    for (const ref of obj.metadata.ownerReferences ?? []) {
      checked++;
      const owner = byUid.get(ref.uid);
      if (!owner || owner.kind !== ref.kind || owner.metadata.name !== ref.name) out.push(`${obj.kind} ${obj.metadata.namespace ?? ''}/${obj.metadata.name} → ${ref.kind} ${ref.name} (${ref.uid})`);
    }
  }
  return { checked, dangling: out };
}

/** Differences between a component's informer caches and what the API server lists now. */
function informerDrift(tc: TestCluster, component: string, informers: readonly SharedInformer<KubeObject>[]): string[] {
  const out: string[] = [];
  for (const informer of informers) {
    if (!informer.hasSynced()) {
      out.push(`${component} ${informer.name}: not synced`);
      continue;
    }
    const listed = tc.client.resource(informer.gvr).list().items as KubeObject[];
    const want = new Map(listed.map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion]));
    const have = new Map(informer.indexer.list().map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o.metadata.resourceVersion]));
    for (const [key, rv] of want) if (have.get(key) !== rv) out.push(`${component} ${informer.name} ${key}: cache ${have.get(key) ?? 'missing'}, store ${rv}`);
    for (const key of have.keys()) if (!want.has(key)) out.push(`${component} ${informer.name} ${key}: in the cache, not in the store`);
  }
  return out;
}

/** The informers of the running controller manager and scheduler (private: a test reaches in to compare them). */
function componentInformers(tc: TestCluster): [string, SharedInformer<KubeObject>[]][] {
  type Factory = { informers(): SharedInformer<KubeObject>[] };
  const cm = (tc.cluster.controllerManager as unknown as { informers?: Factory }).informers?.informers() ?? [];
  const sched = (tc.cluster.scheduler as unknown as { ownInformers?: Factory } | undefined)?.ownInformers?.informers() ?? [];
  return [
    ['kube-controller-manager', cm],
    ['kube-scheduler', sched],
  ];
}

async function survivesChaos(steps: readonly TimedStep[], seed: number): Promise<void> {
  const tc = await bootCluster({ seed, nodes: nodeNames.length });
  tc.apply(objectsOf(workloads));
  const chaos = new Chaos(tc);
  tc.runUntil(() => chaos.divergence() === undefined, 10 * 60_000, 'workloads up before the chaos');

  const violations: string[] = [];
  const note = (v: string) => {
    if (violations.length < 8) violations.push(v);
  };
  let lastRevision = tc.cluster.store.revision;
  const monitor = new RevisionMonitor(tc, '/registry/', (objects, revision) => {
    if (revision <= lastRevision) note(`revision went from ${lastRevision} to ${revision}`);
    lastRevision = revision;
    let liveWeb = 0;
    for (const [key, obj] of objects) {
      if (!key.startsWith('/registry/core/pods/default/') || obj.metadata.deletionTimestamp) continue;
      if (obj.metadata.labels?.app === 'web') liveWeb++;
    }
    const bound = chaos.webMaxReplicas + maxSurge(chaos.webMaxReplicas);
    if (liveWeb > bound) note(`revision ${revision}: ${liveWeb} live web pods, at most ${bound}`);
  });
  try {
    let revision = tc.cluster.store.revision;
    for (const { step, waitMs } of steps) {
      chaos.apply(step);
      tc.advance(waitMs);
      expect(tc.cluster.store.revision).toBeGreaterThanOrEqual(revision);
      revision = tc.cluster.store.revision;
    }
    chaos.heal();
    // Long enough for anything: grace period + tolerationSeconds, pod GC, back-offs, rollouts, the Job.
    const settled = tc.cluster.runUntil(() => chaos.divergence() === undefined, 25 * 60_000);
    if (!settled) throw new Error(`did not converge: ${chaos.divergence()}`);
    // Quiescent: it stays converged and nothing keeps creating pods.
    const uids = podUids(tc);
    tc.advance(2 * 60_000);
    expect(chaos.divergence()).toBeUndefined();
    expect(podUids(tc)).toEqual(uids);
    const succeeded = tc.client.pods.list({ namespace: 'default', labelSelector: 'app=pi' }).items.filter((p) => p.status?.phase === 'Succeeded');
    expect(succeeded.length).toBeLessThanOrEqual(3);
    const refs = ownerReferences(tc);
    // Pods → ReplicaSet/StatefulSet/DaemonSet/Job, ReplicaSets → Deployment, EndpointSlices → Service, Leases → Node…
    expect(refs.checked).toBeGreaterThan(10);
    expect(refs.dangling).toEqual([]);
    for (const [component, informers] of componentInformers(tc)) {
      expect(informers.length, component).toBeGreaterThan(0);
      expect(informerDrift(tc, component, informers)).toEqual([]);
    }
    expect(violations).toEqual([]);
    expect(monitor.revisions).toBeGreaterThan(0);
  } finally {
    monitor.stop();
    await tc.close();
  }
}

function podUids(tc: TestCluster): string[] {
  return tc.client.pods
    .list({ namespace: 'default' })
    .items.map((p) => p.metadata!.uid!)
    .sort();
}

describe('chaos: workloads survive killed nodes and crashed components', () => {
  it('converges after a hand-picked storm: a node deleted mid-rollout, all nodes killed, every component crashed, the API server down', async () => {
    await survivesChaos(
      [
        { step: { op: 'image-web', image: 'nginx:1.28' }, waitMs: 1_000 },
        { step: { op: 'remove-node', node: 'node-2' }, waitMs: 2_000 },
        { step: { op: 'scale-db', replicas: 4 }, waitMs: 0 },
        { step: { op: 'kill-node', node: 'node-1' }, waitMs: 0 },
        { step: { op: 'kill-node', node: 'node-3' }, waitMs: 0 },
        { step: { op: 'kill-node', node: 'node-4' }, waitMs: 1_000 },
        { step: { op: 'restart-controller-manager' }, waitMs: 0 },
        { step: { op: 'restart-scheduler' }, waitMs: 0 },
        { step: { op: 'stop-apiserver' }, waitMs: 90_000 },
        { step: { op: 'scale-web', replicas: 5 }, waitMs: 0 },
        { step: { op: 'start-apiserver' }, waitMs: 360_000 },
        { step: { op: 'restart-node', node: 'node-1' }, waitMs: 5_000 },
      ],
      21,
    );
  }, 120_000);

  it('converges after one node is lost for good: its pods are evicted and replaced, then the node is deleted', async () => {
    await survivesChaos(
      [
        { step: { op: 'kill-node', node: 'node-2' }, waitMs: 400_000 },
        { step: { op: 'scale-web', replicas: 4 }, waitMs: 3_000 },
        { step: { op: 'remove-node', node: 'node-2' }, waitMs: 30_000 },
        { step: { op: 'restart-scheduler' }, waitMs: 1_000 },
      ],
      22,
    );
  }, 120_000);

  it('converges whatever the faults, for random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(timedStepArb, { minLength: 1, maxLength: Number(process.env.CMAXLEN ?? 8) }), fc.integer({ min: 1, max: 1_000 }), async (steps, seed) => {
        await survivesChaos(steps, seed);
      }),
      { seed: Number(process.env.CSEED ?? 20261123), numRuns: Number(process.env.CRUNS ?? 4), endOnFailure: true },
    );
  }, 600_000);
});
