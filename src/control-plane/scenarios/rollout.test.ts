// Scenario: changing a Deployment's image rolls it out. The bounds of the RollingUpdate strategy are checked on
// the state of the store at EVERY revision of the rollout (an etcd watch mirrors the pods and ReplicaSets):
//   non-terminating pods ≤ replicas + maxSurge,   ready non-terminating pods ≥ replicas − maxUnavailable.
// Then `kubectl rollout undo` (the client-side patch kubectl sends) brings the previous template back, and a
// Recreate Deployment never runs old and new pods side by side.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { rollbackTemplate } from '../controllers/deployment/rollback';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, condition, eventsFor, isPodReady, isTerminating, podsOf, RevisionMonitor, rolloutComplete } from './harness';

const PODS = '/registry/core/pods/default/';
const REPLICASETS = '/registry/apps/replicasets/default/';

function webDeployment(replicas: number, image: string, strategy?: object): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      ...(strategy ? { strategy } : {}),
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] } },
    },
  });
}

interface Bounds {
  maxPods: number;
  minReady: number;
  maxReplicaSum: number;
  revisions: number;
}

/** Watches every revision and records the extremes of the rollout's pod counts. */
function watchRollout(tc: TestCluster): { bounds: Bounds; stop(): Bounds } {
  const bounds: Bounds = { maxPods: 0, minReady: Infinity, maxReplicaSum: 0, revisions: 0 };
  const monitor = new RevisionMonitor(tc, '/registry/', (objects) => {
    let pods = 0;
    let ready = 0;
    let replicaSum = 0;
    for (const [key, obj] of objects) {
      if (key.startsWith(PODS) && obj.metadata?.labels?.app === 'web' && !isTerminating(obj)) {
        pods++;
        if (isPodReady(obj as Pod)) ready++;
      } else if (key.startsWith(REPLICASETS) && obj.metadata?.labels?.app === 'web') {
        replicaSum += (obj as ReplicaSet).spec?.replicas ?? 0;
      }
    }
    bounds.maxPods = Math.max(bounds.maxPods, pods);
    bounds.minReady = Math.min(bounds.minReady, ready);
    bounds.maxReplicaSum = Math.max(bounds.maxReplicaSum, replicaSum);
    bounds.revisions++;
  });
  return {
    bounds,
    stop() {
      monitor.stop();
      return bounds;
    },
  };
}

function setImage(tc: TestCluster, image: string): void {
  // kubectl set image deployment/web nginx=<image>: a strategic merge patch of the container.
  tc.client.deployments.patch(
    'web',
    'application/strategic-merge-patch+json',
    { spec: { template: { spec: { containers: [{ name: 'nginx', image }] } } } },
    { namespace: 'default' },
  );
}

function revisionOf(obj: { metadata?: { annotations?: Record<string, string> } } | undefined): string | undefined {
  return obj?.metadata?.annotations?.['deployment.kubernetes.io/revision'];
}

describe('scenario: rolling update', () => {
  let tc: TestCluster;
  afterEach(() => tc.close());

  const deployment = () => tc.get('deployment', 'default', 'web') as Deployment;
  const replicaSets = () => tc.list('replicasets', 'default') as ReplicaSet[];
  const rsWithImage = (image: string) => replicaSets().find((rs) => rs.spec?.template?.spec?.containers[0].image === image)!;
  const images = () => podsOf(tc, 'default', 'app=web').map((p) => p.spec?.containers[0].image);

  async function deployed(replicas: number, strategy?: object): Promise<void> {
    tc = await bootCluster();
    tc.apply(webDeployment(replicas, 'nginx:1.14.2', strategy));
    tc.runUntil(() => rolloutComplete(deployment()), 120_000, 'first rollout');
  }

  it('10 replicas, maxSurge 3 / maxUnavailable 2: bounds hold at every revision, old ReplicaSet ends at 0', async () => {
    await deployed(10, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } });
    const watch = watchRollout(tc);
    setImage(tc, 'nginx:1.16.1');
    tc.runUntil(() => rolloutComplete(deployment()) && podsOf(tc, 'default', 'app=web').length === 10, 300_000, 'rollout');
    const bounds = watch.stop();

    expect(bounds.revisions).toBeGreaterThan(100);
    expect(bounds.maxPods).toBeLessThanOrEqual(13);
    expect(bounds.minReady).toBeGreaterThanOrEqual(8);
    expect(bounds.maxReplicaSum).toBeLessThanOrEqual(13);
    // The controller uses the whole budget: it surges to 13 and goes down to 8 ready at once.
    expect(bounds.maxPods).toBe(13);
    expect(bounds.minReady).toBe(8);

    const d = deployment();
    const oldRS = rsWithImage('nginx:1.14.2');
    const newRS = rsWithImage('nginx:1.16.1');
    expect(oldRS.spec?.replicas).toBe(0);
    expect(oldRS.status?.replicas).toBe(0);
    expect(newRS.spec?.replicas).toBe(10);
    expect(revisionOf(d)).toBe('2');
    expect(revisionOf(oldRS)).toBe('1');
    expect(revisionOf(newRS)).toBe('2');
    expect(d.metadata?.generation).toBe(2);
    expect(d.status).toMatchObject({ observedGeneration: 2, replicas: 10, updatedReplicas: 10, readyReplicas: 10, availableReplicas: 10 });
    expect(condition(d.status?.conditions, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${newRS.metadata?.name}" has successfully progressed.`,
    });
    expect(images()).toEqual(Array(10).fill('nginx:1.16.1'));

    // The deployment controller's ScalingReplicaSet events tell the story step by step.
    const steps = eventsFor(tc, 'Deployment', 'web').map((e) => e.message);
    const newName = newRS.metadata!.name!;
    const oldName = oldRS.metadata!.name!;
    expect(steps[0]).toBe(`Scaled up replica set ${oldName} from 0 to 10`);
    expect(steps[1]).toBe(`Scaled up replica set ${newName} from 0 to 3`);
    expect(steps[2]).toBe(`Scaled down replica set ${oldName} from 10 to 8`);
    expect(steps.at(-1)).toMatch(new RegExp(`^Scaled (down replica set ${oldName} from \\d+ to 0|up replica set ${newName} from \\d+ to 10)$`));
    // Every scale-down event of the old ReplicaSet steps by at most maxUnavailable + maxSurge.
    for (const m of steps) {
      const down = new RegExp(`^Scaled down replica set ${oldName} from (\\d+) to (\\d+)$`).exec(m ?? '');
      if (down) expect(Number(down[1]) - Number(down[2])).toBeLessThanOrEqual(5);
    }
  });

  it('default 25%/25% on 4 replicas: at most 5 pods, at least 3 ready, at every revision', async () => {
    await deployed(4);
    expect(deployment().spec?.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    const watch = watchRollout(tc);
    setImage(tc, 'nginx:1.16.1');
    tc.runUntil(() => rolloutComplete(deployment()) && podsOf(tc, 'default', 'app=web').length === 4, 300_000, 'rollout');
    const bounds = watch.stop();
    // maxSurge 25% of 4 rounds up to 1; maxUnavailable 25% of 4 rounds down to 1.
    expect(bounds.maxPods).toBe(5);
    expect(bounds.minReady).toBe(3);
    expect(bounds.maxReplicaSum).toBe(5);
    expect(rsWithImage('nginx:1.14.2').spec?.replicas).toBe(0);
    expect(images()).toEqual(Array(4).fill('nginx:1.16.1'));
  });

  it('rollout undo returns to the previous template as revision 3, within the same bounds', async () => {
    await deployed(4);
    const firstRS = replicaSets()[0];
    const firstHash = firstRS.metadata?.labels?.['pod-template-hash'];
    setImage(tc, 'nginx:1.16.1');
    tc.runUntil(() => rolloutComplete(deployment()) && podsOf(tc, 'default', 'app=web').length === 4, 300_000, 'rollout to 1.16.1');
    expect(revisionOf(deployment())).toBe('2');

    // kubectl rollout undo deployment/web: find the previous revision's ReplicaSet, patch its template back.
    const result = rollbackTemplate(deployment(), replicaSets());
    expect(result).toMatchObject({ message: 'rolled back', skipped: false, revision: 1 });
    const watch = watchRollout(tc);
    tc.client.deployments.patch('web', 'application/json-patch+json', result.patch, { namespace: 'default' });
    tc.runUntil(() => rolloutComplete(deployment()) && podsOf(tc, 'default', 'app=web').length === 4, 300_000, 'undo');
    const bounds = watch.stop();
    expect(bounds.maxPods).toBeLessThanOrEqual(5);
    expect(bounds.minReady).toBeGreaterThanOrEqual(3);

    // The first ReplicaSet is the new one again: same name, same hash, the next revision, its history noted.
    const rss = replicaSets();
    expect(rss).toHaveLength(2);
    const back = rss.find((rs) => rs.metadata?.uid === firstRS.metadata?.uid)!;
    expect(back.spec?.replicas).toBe(4);
    expect(back.metadata?.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '3', 'deployment.kubernetes.io/revision-history': '1' });
    expect(rsWithImage('nginx:1.16.1').spec?.replicas).toBe(0);
    expect(revisionOf(deployment())).toBe('3');
    const pods = podsOf(tc, 'default', 'app=web');
    expect(pods.map((p) => p.spec?.containers[0].image)).toEqual(Array(4).fill('nginx:1.14.2'));
    expect(pods.every((p) => p.metadata?.labels?.['pod-template-hash'] === firstHash && isPodReady(p))).toBe(true);
    // The template went back without the hash label: the Deployment's own template never carries it.
    expect(deployment().spec?.template?.metadata?.labels).toEqual({ app: 'web' });

    // Undoing again goes back to 1.16.1 (revision 4); undo to the current template is skipped as kubectl says.
    expect(rollbackTemplate(deployment(), replicaSets(), 3)).toMatchObject({
      skipped: true,
      message: 'skipped rollback (current template already matches revision 3)',
    });
    tc.client.deployments.patch('web', 'application/json-patch+json', rollbackTemplate(deployment(), replicaSets()).patch, { namespace: 'default' });
    tc.runUntil(() => rolloutComplete(deployment()) && podsOf(tc, 'default', 'app=web').length === 4, 300_000, 'second undo');
    expect(revisionOf(deployment())).toBe('4');
    expect(images()).toEqual(Array(4).fill('nginx:1.16.1'));
  });
});

describe('scenario: Recreate', () => {
  let tc: TestCluster;
  afterEach(() => tc.close());

  it('kills every old pod before creating any new one', async () => {
    tc = await bootCluster();
    tc.apply(webDeployment(3, 'nginx:1.14.2', { type: 'Recreate' }));
    const deployment = () => tc.get('deployment', 'default', 'web') as Deployment;
    tc.runUntil(() => rolloutComplete(deployment()), 120_000, 'first rollout');

    let overlaps = 0;
    let minPods = Infinity;
    let sawNew = false;
    const monitor = new RevisionMonitor(tc, PODS, (objects) => {
      const web = [...objects.values()].filter((p) => p.metadata?.labels?.app === 'web') as Pod[];
      const oldAlive = web.filter((p) => p.spec?.containers[0].image === 'nginx:1.14.2' && !['Succeeded', 'Failed'].includes(p.status?.phase ?? ''));
      const fresh = web.filter((p) => p.spec?.containers[0].image === 'nginx:1.16.1');
      if (fresh.length > 0) sawNew = true;
      if (fresh.length > 0 && oldAlive.length > 0) overlaps++;
      minPods = Math.min(minPods, web.length);
    });
    tc.client.deployments.patch(
      'web',
      'application/strategic-merge-patch+json',
      { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.16.1' }] } } } },
      { namespace: 'default' },
    );
    tc.runUntil(() => rolloutComplete(deployment()) && podsOf(tc, 'default', 'app=web').length === 3, 300_000, 'recreate');
    monitor.stop();

    expect(sawNew).toBe(true);
    expect(overlaps).toBe(0);
    // There is a moment with no pod at all: the downtime Recreate accepts.
    expect(minPods).toBe(0);
    const rss = tc.list('replicasets', 'default') as ReplicaSet[];
    const oldRS = rss.find((rs) => rs.spec?.template?.spec?.containers[0].image === 'nginx:1.14.2')!;
    const newRS = rss.find((rs) => rs.spec?.template?.spec?.containers[0].image === 'nginx:1.16.1')!;
    expect(eventsFor(tc, 'Deployment', 'web').map((e) => e.message)).toEqual([
      `Scaled up replica set ${oldRS.metadata?.name} from 0 to 3`,
      `Scaled down replica set ${oldRS.metadata?.name} from 3 to 0`,
      `Scaled up replica set ${newRS.metadata?.name} from 0 to 3`,
    ]);
    expect(revisionOf(deployment())).toBe('2');
    expect(podsOf(tc, 'default', 'app=web').every((p) => p.status?.phase === 'Running' && isPodReady(p))).toBe(true);
  });
});
