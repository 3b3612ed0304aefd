import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../../shared/api/types';
import type { Typed } from '../../client/client';
import { createCluster, type Cluster } from '../../cluster';
import { SharedInformerFactory } from '../../informers/factory';
import { ReplicaSetController } from '../replicaset/replica-set-controller';
import { bindPod, setPodRunning } from '../replicaset/testing';
import { controllerManagerUser } from '../shared/controller';
import { getControllerOf } from '../shared/controller-utils';
import { DeploymentController } from './deployment-controller';
import { rollbackTemplate } from './rollback';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const ns = 'default';

/**
 * A cluster with the ReplicaSet and Deployment controllers, and a stand-in for the scheduler and kubelets:
 * kubelet() binds new pods, reports the chosen ones Running and Ready, and finishes terminating pods.
 */
async function setup() {
  cluster = await createCluster({ controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  const c = cluster;
  const client = c.client.withUser(controllerManagerUser);
  let informers!: SharedInformerFactory;
  let running: { shutDown(): void }[] = [];
  const startControllers = () => {
    informers = new SharedInformerFactory({ client, clock: c.clock, trace: c.trace });
    const rsc = new ReplicaSetController({ client, informers, clock: c.clock, trace: c.trace });
    const dc = new DeploymentController({ client, informers, clock: c.clock, trace: c.trace });
    informers.start();
    rsc.run();
    dc.run();
    running = [rsc, dc];
  };
  /** A controller-manager crash: caches, queues and expectations are lost; the new process relists. */
  const stopControllers = () => {
    for (const r of running) r.shutDown();
    informers.shutdown();
  };
  startControllers();
  for (const n of ['node-1', 'node-2', 'node-3']) c.client.nodes.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: n } });
  c.runUntilIdle();

  let nodeIndex = 0;
  /** One kubelet pass; ready(pod) says whether a pod's containers pass readiness. Returns whether it changed anything. */
  const kubelet = (ready: (pod: Pod) => boolean = () => true, maxReady = Infinity): boolean => {
    let changed = false;
    let readied = 0;
    for (const pod of c.client.pods.list({ namespace: ns }).items) {
      if (pod.metadata.deletionTimestamp) {
        c.client.pods.delete(pod.metadata.name!, { namespace: ns, gracePeriodSeconds: 0 });
        changed = true;
        continue;
      }
      if (!pod.spec?.nodeName) {
        bindPod(c.client, pod, `node-${(nodeIndex++ % 3) + 1}`);
        changed = true;
      }
      const isReady = pod.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True');
      if (pod.status?.phase !== 'Running' || (!isReady && ready(pod) && readied < maxReady)) {
        const r = ready(pod) && readied < maxReady;
        if (r) readied++;
        if (pod.status?.phase !== 'Running' || r) {
          setPodRunning(c.client, pod, c.clock.now(), r);
          changed = true;
        }
      }
    }
    return changed;
  };
  /** Runs controllers and the kubelet stand-in until nothing changes (one ready pod per pass when slow). */
  const settle = (ready?: (pod: Pod) => boolean, maxReadyPerPass = Infinity, maxPasses = 200): void => {
    for (let i = 0; i < maxPasses; i++) {
      c.runUntilIdle({ maxTimeMs: 5_000 });
      if (!kubelet(ready, maxReadyPerPass)) {
        c.runUntilIdle({ maxTimeMs: 5_000 });
        if (!kubelet(ready, maxReadyPerPass)) return;
      }
      c.advance(1000);
    }
  };
  const deployment = () => c.client.deployments.get('nginx-deployment', { namespace: ns });
  const replicaSets = () =>
    c.client.replicaSets
      .list({ namespace: ns })
      .items.sort((a, b) => Number(a.metadata.annotations?.['deployment.kubernetes.io/revision']) - Number(b.metadata.annotations?.['deployment.kubernetes.io/revision']));
  const events = (reason: string) =>
    c.client.events
      .list({ namespace: ns })
      .items.filter((e) => e.reason === reason)
      .map((e) => e.message);
  return { c, kubelet, settle, deployment, replicaSets, events, startControllers, stopControllers };
}

function nginxDeployment(replicas: number, extra: { strategy?: unknown; spec?: Record<string, unknown> } = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx-deployment', namespace: ns, labels: { app: 'nginx' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] } },
      ...(extra.strategy ? { strategy: extra.strategy } : {}),
      ...(extra.spec ?? {}),
    },
  };
}

function setImage(c: Cluster, image: string): void {
  c.client.deployments.patch(
    'nginx-deployment',
    'application/strategic-merge-patch+json',
    { spec: { template: { spec: { containers: [{ name: 'nginx', image }] } } } },
    { namespace: ns },
  );
}

function imageOf(p: { spec?: { containers?: { image?: string }[] } }): string | undefined {
  return p.spec?.containers?.[0]?.image;
}

describe('DeploymentController on a cluster', () => {
  it('creates its ReplicaSet with the pod-template-hash, revision annotations, pods, events and a complete status', async () => {
    const { c, settle, deployment, replicaSets, events } = await setup();
    const d = c.client.deployments.create(nginxDeployment(3));
    settle();
    const [rs] = replicaSets();
    const hash = rs.metadata.labels!['pod-template-hash'];
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(rs.metadata.name).toBe(`nginx-deployment-${hash}`);
    expect(rs.spec?.selector).toEqual({ matchLabels: { app: 'nginx', 'pod-template-hash': hash } });
    expect(rs.spec?.template?.metadata?.labels).toEqual({ app: 'nginx', 'pod-template-hash': hash });
    expect(rs.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    expect(getControllerOf(rs)).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx-deployment', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true });
    const pods = c.client.pods.list({ namespace: ns }).items;
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(new RegExp(`^nginx-deployment-${hash}-[a-z0-9]{5}$`));
      expect(getControllerOf(p)?.uid).toBe(rs.metadata.uid);
    }
    expect(events('ScalingReplicaSet')).toEqual([`Scaled up replica set nginx-deployment-${hash} from 0 to 3`]);
    const dep = deployment();
    expect(dep.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(dep.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(dep.status?.unavailableReplicas).toBeUndefined();
    const conds = Object.fromEntries((dep.status?.conditions ?? []).map((x) => [x.type, x]));
    expect(conds.Available).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    expect(conds.Progressing).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "nginx-deployment-${hash}" has successfully progressed.`,
    });
  });

  it('rolls out an image change within maxSurge 3 / maxUnavailable 2 at every store revision, then rollbackTemplate undoes it', async () => {
    const { c, settle, deployment, replicaSets, events } = await setup();
    c.client.deployments.create(nginxDeployment(10, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } } }));
    settle();
    expect(deployment().status?.availableReplicas).toBe(10);

    // Watch every pod change from here on and check the bounds after each store revision.
    const pods = new Map<string, Pod>();
    for (const p of c.client.pods.list({ namespace: ns }).items) pods.set(p.metadata.name!, p);
    const violations: string[] = [];
    let maxPods = 0;
    let minAvailable = Infinity;
    const check = (events: WatchEvent[]) => {
      for (const ev of events) {
        const p = ev.object as Typed<Pod>;
        if (ev.type === 'DELETED') pods.delete(p.metadata.name!);
        else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') pods.set(p.metadata.name!, p);
      }
      const live = [...pods.values()].filter((p) => !p.metadata?.deletionTimestamp);
      const available = live.filter((p) => p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')).length;
      maxPods = Math.max(maxPods, live.length);
      minAvailable = Math.min(minAvailable, available);
      if (live.length > 13) violations.push(`${live.length} pods`);
      if (available < 8) violations.push(`${available} available`);
    };
    const rv = c.client.pods.list({ namespace: ns }).metadata.resourceVersion;
    const watch = c.client.pods.watch({ namespace: ns, resourceVersion: rv }, check);

    setImage(c, 'nginx:1.16.1');
    // New pods become ready one per pass, so the rollout takes many steps.
    settle(undefined, 1);
    watch.stop();
    expect(violations).toEqual([]);
    expect(maxPods).toBe(13);
    expect(minAvailable).toBeGreaterThanOrEqual(8);

    const [oldRS, newRS] = replicaSets();
    expect(oldRS.spec?.replicas).toBe(0);
    expect(oldRS.status?.replicas).toBe(0);
    expect(oldRS.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(newRS.spec?.replicas).toBe(10);
    expect(newRS.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(imageOf(newRS.spec!.template!)).toBe('nginx:1.16.1');
    expect(deployment().metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(deployment().status).toMatchObject({ replicas: 10, updatedReplicas: 10, availableReplicas: 10 });
    expect(c.client.pods.list({ namespace: ns }).items.every((p) => imageOf(p) === 'nginx:1.16.1')).toBe(true);
    expect(events('ScalingReplicaSet')).toContain(`Scaled up replica set ${newRS.metadata.name} from 0 to 3`);
    expect(events('ScalingReplicaSet')).toContain(`Scaled down replica set ${oldRS.metadata.name} from 1 to 0`);

    // kubectl rollout undo: the previous template comes back; the old RS becomes the new one with revision 3.
    const undo = rollbackTemplate(deployment(), replicaSets());
    expect(undo.message).toBe('rolled back');
    expect(undo.revision).toBe(1);
    expect(imageOf(undo.template!)).toBe('nginx:1.14.2');
    expect(undo.template?.metadata?.labels).toEqual({ app: 'nginx' });
    c.client.deployments.patch('nginx-deployment', 'application/json-patch+json', undo.patch, { namespace: ns });
    settle();
    const after = c.client.replicaSets.get(oldRS.metadata.name!, { namespace: ns });
    expect(after.spec?.replicas).toBe(10);
    expect(after.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1' });
    expect(c.client.replicaSets.get(newRS.metadata.name!, { namespace: ns }).spec?.replicas).toBe(0);
    expect(deployment().metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(rollbackTemplate(deployment(), replicaSets(), 3).message).toBe('skipped rollback (current template already matches revision 3)');
  });

  it('Recreate scales the old ReplicaSet to 0 and waits for its pods to go before creating new pods', async () => {
    const { c, settle, replicaSets } = await setup();
    c.client.deployments.create(nginxDeployment(3, { strategy: { type: 'Recreate' } }));
    settle();
    const seen: string[] = [];
    const live = new Map<string, Pod>();
    for (const p of c.client.pods.list({ namespace: ns }).items) live.set(p.metadata.name!, p);
    const watch = c.client.pods.watch({ namespace: ns, resourceVersion: c.client.pods.list({ namespace: ns }).metadata.resourceVersion }, (evs) => {
      for (const ev of evs) {
        const p = ev.object as Typed<Pod>;
        if (ev.type === 'DELETED') live.delete(p.metadata.name!);
        else live.set(p.metadata.name!, p);
      }
      const images = new Set([...live.values()].map(imageOf));
      if (images.has('nginx:1.14.2') && images.has('nginx:1.16.1')) seen.push('old and new pods together');
    });
    setImage(c, 'nginx:1.16.1');
    settle();
    watch.stop();
    expect(seen).toEqual([]);
    const [oldRS, newRS] = replicaSets();
    expect(oldRS.spec?.replicas).toBe(0);
    expect(newRS.spec?.replicas).toBe(3);
    expect(c.client.pods.list({ namespace: ns }).items.map(imageOf)).toEqual(['nginx:1.16.1', 'nginx:1.16.1', 'nginx:1.16.1']);
  });

  it('does not roll out while paused, and rolls out on resume', async () => {
    const { c, settle, deployment, replicaSets } = await setup();
    c.client.deployments.create(nginxDeployment(2, { spec: { progressDeadlineSeconds: 600 } }));
    settle();
    c.client.deployments.patch('nginx-deployment', 'application/merge-patch+json', { spec: { paused: true } }, { namespace: ns });
    setImage(c, 'nginx:1.16.1');
    settle();
    expect(replicaSets()).toHaveLength(1);
    expect(c.client.pods.list({ namespace: ns }).items.every((p) => imageOf(p) === 'nginx:1.14.2')).toBe(true);
    expect(deployment().status?.conditions?.find((x) => x.type === 'Progressing')).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });
    // Scaling a paused deployment still works.
    c.client.deployments.patch('nginx-deployment', 'application/merge-patch+json', { spec: { replicas: 3 } }, { namespace: ns });
    settle();
    expect(replicaSets()[0].spec?.replicas).toBe(3);

    c.client.deployments.patch('nginx-deployment', 'application/merge-patch+json', { spec: { paused: false } }, { namespace: ns });
    settle();
    expect(replicaSets()).toHaveLength(2);
    expect(c.client.pods.list({ namespace: ns }).items.map(imageOf)).toEqual(['nginx:1.16.1', 'nginx:1.16.1', 'nginx:1.16.1']);
    expect(deployment().status?.conditions?.find((x) => x.type === 'Progressing')?.reason).toBe('NewReplicaSetAvailable');
  });

  it('reports ProgressDeadlineExceeded when new pods never become ready', async () => {
    const { c, settle, deployment, replicaSets } = await setup();
    c.client.deployments.create(nginxDeployment(2, { spec: { progressDeadlineSeconds: 30 } }));
    settle();
    setImage(c, 'nginx:1.999');
    // New pods run but never pass readiness; no other event happens: the deadline check is a queued resync.
    settle((p) => imageOf(p) !== 'nginx:1.999', Infinity, 5);
    const newRS = replicaSets()[1];
    expect(deployment().status?.conditions?.find((x) => x.type === 'Progressing')?.reason).toBe('ReplicaSetUpdated');
    c.advance(40_000);
    c.runUntilIdle({ maxTimeMs: 1000 });
    expect(deployment().status?.conditions?.find((x) => x.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: `ReplicaSet "${newRS.metadata.name}" has timed out progressing.`,
    });
    // maxUnavailable 25% of 2 rounds down to 0 and maxSurge up to 1: one new pod, both old pods kept.
    expect(replicaSets().map((rs) => rs.spec?.replicas)).toEqual([2, 1]);
    expect(deployment().status).toMatchObject({ replicas: 3, updatedReplicas: 1, availableReplicas: 2, unavailableReplicas: 1 });
  });

  it('keeps only revisionHistoryLimit old ReplicaSets', async () => {
    const { c, settle, replicaSets } = await setup();
    c.client.deployments.create(nginxDeployment(1, { spec: { revisionHistoryLimit: 1 } }));
    settle();
    for (const tag of ['1.16.1', '1.17.0', '1.18.0']) {
      setImage(c, `nginx:${tag}`);
      settle();
    }
    const rss = replicaSets();
    expect(rss.map((rs) => [imageOf(rs.spec!.template!), rs.spec?.replicas, rs.metadata.annotations?.['deployment.kubernetes.io/revision']])).toEqual([
      ['nginx:1.17.0', 0, '3'],
      ['nginx:1.18.0', 1, '4'],
    ]);
  });

  it('scales proportionally when resized in the middle of a rollout', async () => {
    const { c, settle, replicaSets, events } = await setup();
    // 25% of 10: surge 3 (rounded up), unavailable 2 (rounded down); of 20: 5 and 5.
    c.client.deployments.create(nginxDeployment(10, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } }));
    settle();
    setImage(c, 'nginx:1.16.1');
    // The new pods never become ready: the rollout stops at old 8, new 5 (13 pods, 8 available).
    settle((p) => imageOf(p) === 'nginx:1.14.2', Infinity, 10);
    expect(replicaSets().map((rs) => rs.spec?.replicas)).toEqual([8, 5]);
    c.client.deployments.patch('nginx-deployment', 'application/merge-patch+json', { spec: { replicas: 20 } }, { namespace: ns });
    settle((p) => imageOf(p) === 'nginx:1.14.2', Infinity, 10);
    // allowed 20 + 5 surge = 25, to add 25 − 13 = 12: old round(8 × 25 / 13) − 8 = +7, new min(round(5 × 25 / 13) − 5, 12 − 7) = +5.
    // Then no further rollout step: 25 pods − 15 minAvailable − 10 new unavailable = 0 may be scaled down.
    const [oldRS, newRS] = replicaSets();
    expect([oldRS.spec?.replicas, newRS.spec?.replicas]).toEqual([15, 10]);
    expect(oldRS.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/desired-replicas': '20', 'deployment.kubernetes.io/max-replicas': '25' });
    expect(events('ScalingReplicaSet')).toContain(`Scaled up replica set ${oldRS.metadata.name} from 8 to 15`);
  });

  it('adopts an orphaned ReplicaSet whose template matches and converges after a controller restart', async () => {
    const { c, settle, replicaSets, startControllers, stopControllers } = await setup();
    const d = c.client.deployments.create(nginxDeployment(2));
    settle();
    const rs = replicaSets()[0] as Typed<ReplicaSet>;
    // Orphan it (as `kubectl delete deployment --cascade=orphan` would leave it), then let the deployment re-adopt.
    c.client.replicaSets.patch(rs.metadata.name!, 'application/json-patch+json', [{ op: 'remove', path: '/metadata/ownerReferences' }], { namespace: ns });
    settle();
    expect(getControllerOf(c.client.replicaSets.get(rs.metadata.name!, { namespace: ns }))?.uid).toBe(d.metadata.uid);
    expect(replicaSets()).toHaveLength(1);
    expect(c.client.pods.list({ namespace: ns }).items).toHaveLength(2);
    const dep = c.client.deployments.get('nginx-deployment', { namespace: ns }) as Typed<Deployment>;
    expect(dep.status?.availableReplicas).toBe(2);

    // Crash the controllers, change the deployment meanwhile, restart: they relist and converge once.
    stopControllers();
    c.client.deployments.patch('nginx-deployment', 'application/merge-patch+json', { spec: { replicas: 4 } }, { namespace: ns });
    setImage(c, 'nginx:1.16.1');
    settle();
    expect(replicaSets()).toHaveLength(1);
    startControllers();
    settle();
    expect(replicaSets().map((x) => x.spec?.replicas)).toEqual([0, 4]);
    const pods = c.client.pods.list({ namespace: ns }).items;
    expect(pods.map(imageOf)).toEqual(['nginx:1.16.1', 'nginx:1.16.1', 'nginx:1.16.1', 'nginx:1.16.1']);
  });
});
