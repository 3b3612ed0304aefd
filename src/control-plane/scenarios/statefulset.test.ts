// Scenario: the web StatefulSet of the Kubernetes docs (nginx behind the headless Service "nginx") on a default
// 3-node cluster. Nothing is scripted: the statefulset controller creates web-0, web-1, web-2 in order, each
// after its predecessor is Running and Ready; kube-scheduler binds them, the kubelets start nginx. Ordering
// claims are checked at every store revision (RevisionMonitor), not just at the states a poll happens to see.
import type { ControllerRevision, StatefulSet } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { KubeObject } from '../../shared/api/types';
import { PatchType } from '../../shared/api/request';
import { ClusterFaults } from '../faults/cluster-faults';
import type { TestCluster } from '../testing/test-cluster';
import { RevisionMonitor, bootCluster, eventsFor, isPodReady, objectsOf } from './harness';

const headlessService = `
apiVersion: v1
kind: Service
metadata:
  name: nginx
  labels:
    app: nginx
spec:
  ports:
  - port: 80
    name: web
  clusterIP: None
  selector:
    app: nginx
`;

/** The docs' web StatefulSet without its volumeClaimTemplates (there is no PV provisioning yet). */
const webStatefulSet = (extra = '', image = 'registry.k8s.io/nginx-slim:0.24') => `
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: nginx
  serviceName: "nginx"
  replicas: 3${extra}
  template:
    metadata:
      labels:
        app: nginx
    spec:
      terminationGracePeriodSeconds: 10
      containers:
      - name: nginx
        image: ${image}
        ports:
        - containerPort: 80
          name: web
`;

const PodsPrefix = '/registry/core/pods/default/';

let tc: TestCluster | undefined;
afterEach(async () => {
  await tc?.close();
  tc = undefined;
});

function sts(c: TestCluster): StatefulSet {
  return c.client.statefulSets.get('web', { namespace: 'default' });
}

function pods(c: TestCluster): Pod[] {
  return c.client.pods.list({ namespace: 'default', labelSelector: 'app=nginx' }).items;
}

function podNames(c: TestCluster): string[] {
  return pods(c)
    .map((p) => p.metadata!.name!)
    .sort();
}

function pod(c: TestCluster, name: string): Pod | undefined {
  return c.get('pod', 'default', name) as Pod | undefined;
}

function revisions(c: TestCluster): ControllerRevision[] {
  return c.client.controllerRevisions.list({ namespace: 'default' }).items;
}

/** kubectl rollout status for a StatefulSet (RollingUpdate): every replica ready at the update revision. */
function rolledOut(s: StatefulSet): boolean {
  const want = s.spec?.replicas ?? 1;
  const st = s.status;
  if (!st || (st.observedGeneration ?? 0) < (s.metadata?.generation ?? 0)) return false;
  if ((st.readyReplicas ?? 0) < want) return false;
  const partition = s.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
  if (partition > 0) return (st.updatedReplicas ?? 0) >= want - partition;
  return st.updateRevision === st.currentRevision && (st.replicas ?? 0) === want;
}

function allReady(c: TestCluster, names: string[]): boolean {
  const ps = pods(c);
  return (
    ps.length === names.length &&
    names.every((n) => {
      const p = ps.find((x) => x.metadata?.name === n);
      return p !== undefined && !p.metadata?.deletionTimestamp && p.status?.phase === 'Running' && isPodReady(p);
    })
  );
}

function stsEvents(c: TestCluster, reason: string): string[] {
  return eventsFor(c, 'StatefulSet', 'web')
    .filter((e) => e.reason === reason)
    .map((e) => e.message ?? '');
}

function ordinalOf(key: string): number {
  return Number(/-(\d+)$/.exec(key)![1]);
}

function runningAndReady(p: KubeObject | undefined): boolean {
  return !!p && (p as Pod).status?.phase === 'Running' && isPodReady(p as Pod) && !p.metadata.deletionTimestamp;
}

/**
 * OrderedReady's invariant, at every revision: a pod of the set is only created when every lower ordinal exists
 * Running and Ready, and a pod is only deleted (for scale-down or update) when every higher ordinal in range is
 * Running and Ready or already gone (scale-down).
 */
function orderedReadyMonitor(c: TestCluster, violations: string[]): RevisionMonitor {
  const seen = new Set<string>();
  const deleting = new Set<string>();
  const monitor = new RevisionMonitor(c, PodsPrefix + 'web-', (objects) => {
    for (const [key, obj] of objects) {
      const ord = ordinalOf(key);
      if (!seen.has(obj.metadata.uid!)) {
        seen.add(obj.metadata.uid!);
        for (let i = 0; i < ord; i++) {
          if (!runningAndReady(objects.get(PodsPrefix + `web-${i}`))) violations.push(`web-${ord} created while web-${i} was not Running and Ready`);
        }
      }
      if (obj.metadata.deletionTimestamp && !deleting.has(obj.metadata.uid!)) {
        deleting.add(obj.metadata.uid!);
        for (const [otherKey, other] of objects) {
          if (ordinalOf(otherKey) > ord && other.metadata.deletionTimestamp) violations.push(`web-${ord} deleted while ${otherKey} was terminating`);
        }
      }
    }
  });
  // Pods that exist already were created before the monitor started.
  for (const obj of monitor.objects.values()) {
    seen.add(obj.metadata.uid!);
    if (obj.metadata.deletionTimestamp) deleting.add(obj.metadata.uid!);
  }
  return monitor;
}

describe('scenario: the web StatefulSet, OrderedReady', () => {
  it('creates web-0, then web-1 once web-0 is Ready, then web-2, with stable identities', async () => {
    tc = await bootCluster();
    const c = tc;
    const violations: string[] = [];
    const monitor = orderedReadyMonitor(c, violations);
    c.apply(objectsOf(headlessService + '---' + webStatefulSet()));
    // Before web-0 is Ready there is no web-1.
    c.runUntil(() => pod(c, 'web-0') !== undefined, 10_000, 'web-0 created');
    expect(podNames(c)).toEqual(['web-0']);
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2']) && rolledOut(sts(c)), 120_000, 'web ready');
    monitor.stop();
    expect(violations).toEqual([]);
    expect(monitor.revisions).toBeGreaterThan(10);

    const created = pods(c).sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
    const set = sts(c);
    const revision = set.status!.updateRevision!;
    expect(revision).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    for (const [i, p] of created.entries()) {
      expect(p.metadata?.name).toBe(`web-${i}`);
      expect(p.metadata?.generateName).toBe('web-');
      expect(p.metadata?.labels).toEqual({
        app: 'nginx',
        'statefulset.kubernetes.io/pod-name': `web-${i}`,
        'apps.kubernetes.io/pod-index': String(i),
        'controller-revision-hash': revision,
      });
      expect(p.spec?.hostname).toBe(`web-${i}`);
      expect(p.spec?.subdomain).toBe('nginx');
      expect(p.metadata?.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata!.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
    // Creation times follow readiness: web-(i+1) no earlier than web-i's Ready transition.
    for (let i = 1; i < 3; i++) {
      const prevReady = created[i - 1]!.status!.conditions!.find((x) => x.type === 'Ready')!.lastTransitionTime!;
      expect(Date.parse(created[i]!.metadata!.creationTimestamp!)).toBeGreaterThanOrEqual(Date.parse(prevReady));
    }
    expect(stsEvents(c, 'SuccessfulCreate')).toEqual([
      'create Pod web-0 in StatefulSet web successful',
      'create Pod web-1 in StatefulSet web successful',
      'create Pod web-2 in StatefulSet web successful',
    ]);
    expect(eventsFor(c, 'StatefulSet', 'web')[0]?.source?.component).toBe('statefulset-controller');

    // Status and the one ControllerRevision.
    expect(set.status).toEqual({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
      observedGeneration: 1,
    });
    const [rev, ...more] = revisions(c);
    expect(more).toEqual([]);
    expect(rev?.metadata?.name).toBe(revision);
    expect(rev?.revision).toBe(1);
    expect(rev?.metadata?.labels).toEqual({ app: 'nginx', 'controller.kubernetes.io/hash': revision.slice('web-'.length) });
    expect(rev?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', name: 'web', uid: set.metadata!.uid, controller: true });
    const template = (rev?.data as { spec: { template: Record<string, unknown> } }).spec.template;
    expect(template.$patch).toBe('replace');
    expect(template.spec).toMatchObject({ containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.24' }] });
  });

  it('scales up to 5 in order and down to 2 from the highest ordinal', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(headlessService + '---' + webStatefulSet()));
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2']), 120_000, 'web ready');
    const violations: string[] = [];
    const monitor = orderedReadyMonitor(c, violations);

    c.client.statefulSets.patch('web', PatchType.MergePatch, { spec: { replicas: 5 } }, { namespace: 'default' });
    c.runUntil(() => pod(c, 'web-3') !== undefined, 10_000, 'web-3 created');
    expect(pod(c, 'web-4')).toBeUndefined();
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2', 'web-3', 'web-4']) && sts(c).status?.readyReplicas === 5, 120_000, '5 ready');

    c.client.statefulSets.patch('web', PatchType.MergePatch, { spec: { replicas: 2 } }, { namespace: 'default' });
    c.runUntil(() => pod(c, 'web-4')?.metadata?.deletionTimestamp !== undefined, 10_000, 'web-4 terminating');
    // web-3 waits for web-4 to be gone.
    expect(pod(c, 'web-3')?.metadata?.deletionTimestamp).toBeUndefined();
    c.runUntil(() => allReady(c, ['web-0', 'web-1']) && sts(c).status?.replicas === 2, 120_000, 'scaled to 2');
    monitor.stop();
    expect(violations).toEqual([]);
    expect(stsEvents(c, 'SuccessfulDelete')).toEqual([
      'delete Pod web-4 in StatefulSet web successful',
      'delete Pod web-3 in StatefulSet web successful',
      'delete Pod web-2 in StatefulSet web successful',
    ]);
    expect(sts(c).status).toMatchObject({ replicas: 2, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 2 });
  });

  it('rolls an image update from web-2 down to web-0, respecting the partition', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(headlessService + '---' + webStatefulSet()));
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2']) && rolledOut(sts(c)), 120_000, 'web ready');
    const rev1 = sts(c).status!.currentRevision!;

    // A partition of 2: only ordinals ≥ 2 move to the new template.
    c.client.statefulSets.patch(
      'web',
      PatchType.StrategicMergePatch,
      {
        spec: {
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
          template: { spec: { containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.27' }] } },
        },
      },
      { namespace: 'default' },
    );
    c.runUntil(() => {
      const p = pod(c, 'web-2');
      return p?.metadata?.labels?.['controller-revision-hash'] !== rev1 && runningAndReady(p as KubeObject);
    }, 120_000, 'web-2 updated');
    c.settle(60_000);
    const rev2 = sts(c).status!.updateRevision!;
    expect(rev2).not.toBe(rev1);
    const revOf = (n: string) => pod(c, n)?.metadata?.labels?.['controller-revision-hash'];
    expect([revOf('web-0'), revOf('web-1'), revOf('web-2')]).toEqual([rev1, rev1, rev2]);
    expect(pod(c, 'web-2')?.spec?.containers[0]?.image).toBe('registry.k8s.io/nginx-slim:0.27');
    expect(pod(c, 'web-1')?.spec?.containers[0]?.image).toBe('registry.k8s.io/nginx-slim:0.24');
    expect(sts(c).status).toMatchObject({ currentRevision: rev1, updateRevision: rev2, currentReplicas: 2, updatedReplicas: 1, readyReplicas: 3 });
    // A pod below the partition that is deleted comes back at the current revision.
    c.client.pods.delete('web-0', { namespace: 'default' });
    c.runUntil(() => runningAndReady(pod(c, 'web-0') as KubeObject) && revOf('web-0') === rev1 && sts(c).status?.readyReplicas === 3, 120_000, 'web-0 back');
    expect(pod(c, 'web-0')?.spec?.containers[0]?.image).toBe('registry.k8s.io/nginx-slim:0.24');

    // Partition 0: web-1, then web-0.
    const violations: string[] = [];
    const monitor = orderedReadyMonitor(c, violations);
    const deletedBefore = stsEvents(c, 'SuccessfulDelete').length;
    c.client.statefulSets.patch('web', PatchType.MergePatch, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, { namespace: 'default' });
    c.runUntil(() => rolledOut(sts(c)) && allReady(c, ['web-0', 'web-1', 'web-2']) && sts(c).status?.currentRevision === rev2, 180_000, 'rolled out');
    monitor.stop();
    expect(violations).toEqual([]);
    expect(stsEvents(c, 'SuccessfulDelete').slice(deletedBefore)).toEqual([
      'delete Pod web-1 in StatefulSet web successful',
      'delete Pod web-0 in StatefulSet web successful',
    ]);
    expect(pods(c).map((p) => p.spec?.containers[0]?.image)).toEqual(Array(3).fill('registry.k8s.io/nginx-slim:0.27'));
    expect(sts(c).status).toMatchObject({ currentRevision: rev2, updateRevision: rev2, currentReplicas: 3, updatedReplicas: 3 });
    expect(
      revisions(c)
        .map((r) => [r.metadata?.name, r.revision])
        .sort((a, b) => Number(a[1]) - Number(b[1])),
    ).toEqual([
      [rev1, 1],
      [rev2, 2],
    ]);

    // Rolling back to the first template renumbers its revision instead of creating a third.
    c.client.statefulSets.patch(
      'web',
      PatchType.StrategicMergePatch,
      { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.24' }] } } } },
      { namespace: 'default' },
    );
    c.runUntil(() => rolledOut(sts(c)) && sts(c).status?.currentRevision === rev1 && allReady(c, ['web-0', 'web-1', 'web-2']), 180_000, 'rolled back');
    expect(
      revisions(c)
        .map((r) => [r.metadata?.name, r.revision])
        .sort((a, b) => Number(a[1]) - Number(b[1])),
    ).toEqual([
      [rev2, 2],
      [rev1, 3],
    ]);
  });

  it('cleans up revisions beyond revisionHistoryLimit', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(headlessService + '---' + webStatefulSet('\n  revisionHistoryLimit: 1').replace('replicas: 3', 'replicas: 1')));
    c.runUntil(() => allReady(c, ['web-0']) && rolledOut(sts(c)), 120_000, 'web ready');
    for (const tag of ['0.25', '0.26', '0.27']) {
      c.client.statefulSets.patch(
        'web',
        PatchType.StrategicMergePatch,
        { spec: { template: { spec: { containers: [{ name: 'nginx', image: `registry.k8s.io/nginx-slim:${tag}` }] } } } },
        { namespace: 'default' },
      );
      c.runUntil(() => rolledOut(sts(c)) && pod(c, 'web-0')?.spec?.containers[0]?.image?.endsWith(tag) === true && allReady(c, ['web-0']), 120_000, tag);
    }
    c.settle(30_000);
    // The live revision (current = update) plus one historic one.
    expect(revisions(c).map((r) => r.revision).sort()).toEqual([3, 4]);
  });

  it('OnDelete updates nothing until a pod is deleted', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(headlessService + '---' + webStatefulSet('\n  updateStrategy:\n    type: OnDelete')));
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2']) && sts(c).status?.readyReplicas === 3, 120_000, 'web ready');
    const rev1 = sts(c).status!.currentRevision!;
    c.client.statefulSets.patch(
      'web',
      PatchType.StrategicMergePatch,
      { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'registry.k8s.io/nginx-slim:0.27' }] } } } },
      { namespace: 'default' },
    );
    c.settle(120_000);
    const rev2 = sts(c).status!.updateRevision!;
    expect(rev2).not.toBe(rev1);
    expect(stsEvents(c, 'SuccessfulDelete')).toEqual([]);
    expect(pods(c).map((p) => p.metadata?.labels?.['controller-revision-hash'])).toEqual([rev1, rev1, rev1]);
    expect(sts(c).status).toMatchObject({ currentRevision: rev1, updateRevision: rev2, currentReplicas: 3, readyReplicas: 3 });
    expect(sts(c).status?.updatedReplicas).toBeUndefined();

    c.client.pods.delete('web-1', { namespace: 'default' });
    c.runUntil(() => runningAndReady(pod(c, 'web-1') as KubeObject) && pod(c, 'web-1')?.metadata?.labels?.['controller-revision-hash'] === rev2, 120_000, 'web-1 recreated');
    expect(pod(c, 'web-1')?.spec?.containers[0]?.image).toBe('registry.k8s.io/nginx-slim:0.27');
    c.settle(30_000);
    expect(sts(c).status).toMatchObject({ currentReplicas: 2, updatedReplicas: 1, currentRevision: rev1, updateRevision: rev2 });
  });
});

describe('scenario: non-cascading delete', () => {
  it('orphans the pods, and a new StatefulSet of the same name adopts them without restarting them', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(headlessService + '---' + webStatefulSet()));
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2']) && rolledOut(sts(c)), 120_000, 'web ready');
    const uids = pods(c).map((p) => p.metadata?.uid);
    c.client.statefulSets.delete('web', { namespace: 'default', propagationPolicy: 'Orphan' });
    c.runUntil(() => pods(c).every((p) => !p.metadata?.ownerReferences?.length), 60_000, 'pods orphaned');
    expect(pods(c).map((p) => p.metadata?.uid)).toEqual(uids);
    c.apply(objectsOf(webStatefulSet()));
    c.runUntil(() => pods(c).every((p) => p.metadata?.ownerReferences?.[0]?.uid === sts(c).metadata?.uid) && rolledOut(sts(c)), 60_000, 'pods adopted');
    expect(pods(c).map((p) => p.metadata?.uid)).toEqual(uids);
    expect(stsEvents(c, 'SuccessfulDelete')).toEqual([]);
    // The orphaned ControllerRevision is adopted too, and still names the pods' revision.
    expect(revisions(c)).toHaveLength(1);
    expect(revisions(c)[0]?.metadata?.ownerReferences?.[0]?.uid).toBe(sts(c).metadata?.uid);
    expect(sts(c).status?.currentRevision).toBe(pods(c)[0]?.metadata?.labels?.['controller-revision-hash']);
  });
});

describe('scenario: Parallel pod management', () => {
  it('creates every pod at once and deletes them at once', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(headlessService + '---' + webStatefulSet('\n  podManagementPolicy: Parallel')));
    c.runUntil(() => pods(c).length === 3, 10_000, 'pods created');
    // All three exist before any is ready.
    expect(pods(c).filter(isPodReady)).toEqual([]);
    expect(new Set(pods(c).map((p) => p.metadata?.creationTimestamp)).size).toBe(1);
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2']), 120_000, 'web ready');
    c.client.statefulSets.patch('web', PatchType.MergePatch, { spec: { replicas: 0 } }, { namespace: 'default' });
    c.runUntil(() => pods(c).filter((p) => p.metadata?.deletionTimestamp).length === 3, 10_000, 'all terminating');
    c.runUntil(() => pods(c).length === 0, 120_000, 'all gone');
    expect(stsEvents(c, 'SuccessfulDelete').sort()).toEqual([
      'delete Pod web-0 in StatefulSet web successful',
      'delete Pod web-1 in StatefulSet web successful',
      'delete Pod web-2 in StatefulSet web successful',
    ]);
  });
});

describe('scenario: stable identity across failures', () => {
  it('recreates a failed pod under the same name', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(headlessService + '---' + webStatefulSet()));
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2']), 120_000, 'web ready');
    const old = pod(c, 'web-1')!;
    c.client.pods.updateStatus({ ...old, status: { ...old.status, phase: 'Failed' } } as Pod & KubeObject, { namespace: 'default' });
    c.runUntil(() => {
      const p = pod(c, 'web-1');
      return p !== undefined && p.metadata?.uid !== old.metadata?.uid && runningAndReady(p as KubeObject);
    }, 120_000, 'web-1 recreated');
    expect(stsEvents(c, 'SuccessfulDelete')).toEqual(['delete Pod web-1 in StatefulSet web successful']);
    // The second create repeats the first's message: the recorder folds it into one Event with count 2.
    const createdWeb1 = eventsFor(c, 'StatefulSet', 'web').filter((e) => e.message === 'create Pod web-1 in StatefulSet web successful');
    expect(createdWeb1.map((e) => e.count)).toEqual([2]);
  });

  it('keeps web-1 Terminating on a dead node (at most one pod per identity) and recreates it once the node is out of service', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(headlessService + '---' + webStatefulSet()));
    c.runUntil(() => allReady(c, ['web-0', 'web-1', 'web-2']), 120_000, 'web ready');
    const old = pod(c, 'web-1')!;
    const victim = old.spec!.nodeName!;
    new ClusterFaults(c.cluster).killNode(victim);
    // node-monitor-grace-period, then 300 s of tolerationSeconds for node.kubernetes.io/unreachable: evicted.
    c.runUntil(() => pod(c, 'web-1')?.metadata?.deletionTimestamp !== undefined, 400_000, 'web-1 evicted');
    // Its kubelet is gone, so the deletion cannot finish: no second web-1 while the first may still run.
    c.advance(120_000);
    expect(pod(c, 'web-1')?.metadata?.uid).toBe(old.metadata?.uid);
    expect(sts(c).status?.readyReplicas).toBeLessThan(3);

    // Non-graceful node shutdown: the admin marks the node out of service; PodGC force-deletes its pods.
    const node = c.client.nodes.get(victim);
    c.client.nodes.update({
      ...node,
      spec: { ...node.spec, taints: [...(node.spec?.taints ?? []), { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }] },
    });
    c.runUntil(() => {
      const p = pod(c, 'web-1');
      return p !== undefined && p.metadata?.uid !== old.metadata?.uid && runningAndReady(p as KubeObject);
    }, 300_000, 'web-1 recreated');
    const fresh = pod(c, 'web-1')!;
    expect(fresh.spec?.nodeName).not.toBe(victim);
    expect(fresh.spec?.hostname).toBe('web-1');
    c.runUntil(() => sts(c).status?.readyReplicas === 3, 60_000, '3 ready');
  });
});

describe('scenario: volumeClaimTemplates (no PV controller yet)', () => {
  const manifest = (path: string) => readFileSync(`/work/shared/manifests/${path}`, 'utf8');

  it('the docs web StatefulSet creates www-web-0 before web-0, and web-0 waits for its claim', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(manifest('controllers/statefulset.yaml')));
    c.settle(60_000);
    const claim = c.get('pvc', 'default', 'www-web-0') as PersistentVolumeClaim | undefined;
    expect(claim).toBeDefined();
    expect(claim?.metadata?.labels).toEqual({ app: 'nginx' });
    expect(claim?.spec).toMatchObject({ accessModes: ['ReadWriteOnce'], storageClassName: 'my-storage-class', resources: { requests: { storage: '1Gi' } } });
    // Retain/Retain: the claim has no owner and outlives the set.
    expect(claim?.metadata?.ownerReferences).toBeUndefined();
    expect(claim?.status?.phase).toBe('Pending');
    const web0 = pod(c, 'web-0')!;
    expect(web0.spec?.volumes?.find((v) => v.name === 'www')).toEqual({ name: 'www', persistentVolumeClaim: { claimName: 'www-web-0' } });
    expect(Date.parse(web0.metadata!.creationTimestamp!)).toBeGreaterThanOrEqual(Date.parse(claim!.metadata!.creationTimestamp!));
    expect(stsEvents(c, 'SuccessfulCreate')).toEqual([
      'create Claim www-web-0 Pod web-0 in StatefulSet web success',
      'create Pod web-0 in StatefulSet web successful',
    ]);
    // No StorageClass "my-storage-class" and no PV: the scheduler cannot place web-0; OrderedReady waits.
    expect(web0.status?.phase).toBe('Pending');
    expect(web0.status?.conditions?.find((x) => x.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..',
    });
    expect(podNames(c)).toEqual(['web-0']);
    expect(sts(c).status).toMatchObject({ replicas: 1, availableReplicas: 0 });
  });

  it('keeps claims on scale-down by default and reuses them on scale-up', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(manifest('controllers/statefulset.yaml')));
    c.settle(10_000);
    const claimsBefore = c.client.persistentVolumeClaims.list({ namespace: 'default' }).items.map((p) => p.metadata.uid);
    expect(claimsBefore).toHaveLength(1);
    // web-0 never becomes Ready, so OrderedReady scale-down to 0 still deletes it (the first unhealthy pod).
    c.client.statefulSets.patch('web', PatchType.MergePatch, { spec: { replicas: 0 } }, { namespace: 'default' });
    c.runUntil(() => pods(c).length === 0, 60_000, 'web-0 gone');
    expect(c.client.persistentVolumeClaims.list({ namespace: 'default' }).items.map((p) => p.metadata.uid)).toEqual(claimsBefore);
    c.client.statefulSets.patch('web', PatchType.MergePatch, { spec: { replicas: 1 } }, { namespace: 'default' });
    c.runUntil(() => pod(c, 'web-0') !== undefined, 60_000, 'web-0 again');
    expect(c.client.persistentVolumeClaims.list({ namespace: 'default' }).items.map((p) => p.metadata.uid)).toEqual(claimsBefore);
  });

  it('persistentVolumeClaimRetentionPolicy Delete/Delete: claims are owned by the set in range and by the pod once scaled down', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(
      objectsOf(
        manifest('controllers/statefulset.yaml').replace(
          'replicas: 3 # by default is 1',
          'replicas: 2\n  podManagementPolicy: Parallel\n  persistentVolumeClaimRetentionPolicy:\n    whenDeleted: Delete\n    whenScaled: Delete',
        ),
      ),
    );
    c.settle(30_000);
    const set = sts(c);
    const claims = () => c.client.persistentVolumeClaims.list({ namespace: 'default' }).items.sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
    expect(claims().map((p) => p.metadata.name)).toEqual(['www-web-0', 'www-web-1']);
    for (const p of claims()) {
      expect(p.metadata.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata!.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
    // Scale to 1: web-1's claim passes to web-1 (then the garbage collector deletes it with the pod).
    c.client.statefulSets.patch('web', PatchType.MergePatch, { spec: { replicas: 1 } }, { namespace: 'default' });
    c.runUntil(() => claims().length === 1, 120_000, 'www-web-1 collected');
    expect(pod(c, 'web-1')).toBeUndefined();
    const remaining = claims()[0]!;
    expect(remaining.metadata.name).toBe('www-web-0');
    expect(remaining.metadata.ownerReferences?.map((r) => r.kind)).toEqual(['StatefulSet']);
    // Deleting the set deletes its pods and (whenDeleted: Delete) its claims.
    c.client.statefulSets.delete('web', { namespace: 'default' });
    c.runUntil(() => claims().length === 0 && pods(c).length === 0, 120_000, 'all collected');
  });

  it('the docs zookeeper and web manifests get their claims provisioned by the default class and run', async () => {
    tc = await bootCluster();
    const c = tc;
    c.apply(objectsOf(manifest('application/zookeeper/zookeeper.yaml')));
    c.apply('apiVersion: v1\nkind: Namespace\nmetadata: {name: docs}');
    c.apply(objectsOf(manifest('application/web/web.yaml')), { namespace: 'docs' });
    c.settle(60_000);
    const zk = c.client.statefulSets.get('zk', { namespace: 'default' });
    expect(zk.status?.replicas).toBe(3);
    expect(c.client.persistentVolumeClaims.list({ namespace: 'default' }).items.map((p) => [p.metadata.name, p.status?.phase])).toEqual([
      ['datadir-zk-0', 'Bound'],
      ['datadir-zk-1', 'Bound'],
      ['datadir-zk-2', 'Bound'],
    ]);
    expect((c.get('pod', 'default', 'zk-0') as Pod).spec?.subdomain).toBe('zk-hs');
    // web.yaml names no StorageClass: its claims get the default "standard", are provisioned when their pod is
    // scheduled, and the set comes up in order.
    const docsClaims = c.client.persistentVolumeClaims.list({ namespace: 'docs' }).items;
    expect(docsClaims.map((p) => [p.metadata.name, p.spec?.storageClassName, p.status?.phase])).toEqual([
      ['www-web-0', 'standard', 'Bound'],
      ['www-web-1', 'standard', 'Bound'],
    ]);
    expect(['web-0', 'web-1'].map((n) => (c.get('pod', 'docs', n) as Pod).status?.phase)).toEqual(['Running', 'Running']);
  });
});
