// Scenario: cascading deletion. Deleting a Deployment with each propagationPolicy, and deleting a whole
// namespace: the garbage collector follows the ownerReference graph (Deployment → ReplicaSet → Pod), the
// namespace controller empties a Terminating namespace, the kubelets stop the containers.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Namespace, Pod } from 'kubernetes-types/core/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStatusError } from '../../shared/api/status';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, isPodReady, podsOf, RevisionMonitor, rolloutComplete } from './harness';

function nginx(namespace = 'default'): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] } },
    },
  });
}

describe('scenario: cascading deletion of a Deployment', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
    tc.apply(nginx());
    tc.runUntil(() => rolloutComplete(tc.get('deployment', 'default', 'nginx') as Deployment), 60_000, 'deployment available');
  });
  afterEach(() => tc.close());

  const replicaSets = () => tc.list('replicasets', 'default') as ReplicaSet[];
  const pods = () => podsOf(tc, 'default', 'app=nginx');
  const nothingLeft = () => tc.get('deployment', 'default', 'nginx') === undefined && replicaSets().length === 0 && pods().length === 0;

  it('Background: the Deployment goes at once, the garbage collector then removes its ReplicaSet and pods', () => {
    const rsName = replicaSets()[0].metadata!.name!;
    const podNames = pods().map((p) => p.metadata!.name!);
    tc.client.deployments.delete('nginx', { namespace: 'default', propagationPolicy: 'Background' });
    expect(tc.get('deployment', 'default', 'nginx')).toBeUndefined();
    // Nothing has reacted yet: the dependents are still there, with their (now dangling) owner references.
    expect(replicaSets()).toHaveLength(1);

    tc.runUntil(nothingLeft, 60_000, 'dependents deleted');
    expect(tc.get('replicaset', 'default', rsName)).toBeUndefined();
    for (const name of podNames) expect(tc.get('pod', 'default', name)).toBeUndefined();
    // The kubelets stopped the containers on the way.
    const killing = tc.client.events.list({ namespace: 'default' }).items.filter((e) => e.reason === 'Killing');
    expect(killing.map((e) => e.involvedObject.name).sort()).toEqual([...podNames].sort());
  });

  it('Foreground: the Deployment waits, with the foregroundDeletion finalizer, until its dependents are gone', () => {
    // At every revision: a Deployment never disappears before its ReplicaSet, nor a ReplicaSet before its pods.
    let violations = 0;
    let deploymentGoneAt = 0;
    const monitor = new RevisionMonitor(tc, '/registry/', (objects, revision) => {
      const has = (prefix: string) => [...objects.keys()].some((k) => k.startsWith(prefix));
      const deployment = objects.has('/registry/apps/deployments/default/nginx');
      const rs = has('/registry/apps/replicasets/default/nginx-');
      const pod = has('/registry/core/pods/default/nginx-');
      if ((!deployment && rs) || (!rs && pod)) violations++;
      if (!deployment && !deploymentGoneAt) deploymentGoneAt = revision;
    });
    tc.client.deployments.delete('nginx', { namespace: 'default', propagationPolicy: 'Foreground' });
    const d = tc.get('deployment', 'default', 'nginx') as Deployment;
    expect(d.metadata?.deletionTimestamp).toBeDefined();
    expect(d.metadata?.deletionGracePeriodSeconds).toBe(0);
    expect(d.metadata?.finalizers).toEqual(['foregroundDeletion']);

    // The garbage collector deletes the ReplicaSet in the foreground too (it has dependents of its own).
    tc.runUntil(() => replicaSets().some((rs) => rs.metadata?.deletionTimestamp !== undefined), 10_000, 'ReplicaSet being deleted');
    const rs = replicaSets()[0];
    expect(rs.metadata?.finalizers).toEqual(['foregroundDeletion']);
    expect(tc.get('deployment', 'default', 'nginx')).toBeDefined();

    tc.runUntil(nothingLeft, 60_000, 'everything deleted');
    monitor.stop();
    expect(violations).toBe(0);
    expect(deploymentGoneAt).toBeGreaterThan(0);
  });

  it('Orphan: the ReplicaSet and its pods stay, released from the Deployment, and keep working', () => {
    const rs = replicaSets()[0];
    const podNames = pods()
      .map((p) => p.metadata!.name!)
      .sort();
    tc.client.deployments.delete('nginx', { namespace: 'default', propagationPolicy: 'Orphan' });
    const d = tc.get('deployment', 'default', 'nginx') as Deployment;
    expect(d.metadata?.finalizers).toEqual(['orphan']);
    tc.runUntil(() => tc.get('deployment', 'default', 'nginx') === undefined, 10_000, 'deployment deleted');
    tc.advance(30_000);

    const orphan = tc.get('replicaset', 'default', rs.metadata!.name!) as ReplicaSet;
    expect(orphan.metadata?.uid).toBe(rs.metadata?.uid);
    expect(orphan.metadata?.ownerReferences ?? []).toEqual([]);
    expect(orphan.metadata?.deletionTimestamp).toBeUndefined();
    expect(orphan.spec?.replicas).toBe(3);
    const left = pods();
    expect(left.map((p) => p.metadata!.name!).sort()).toEqual(podNames);
    for (const p of left) {
      // Pods keep their own owner, the ReplicaSet, which still exists.
      expect(p.metadata?.ownerReferences?.map((o) => [o.kind, o.uid, o.controller])).toEqual([['ReplicaSet', rs.metadata?.uid, true]]);
      expect(p.status?.phase).toBe('Running');
    }

    // The orphaned ReplicaSet still does its job: a deleted pod is replaced.
    tc.client.pods.delete(podNames[0], { namespace: 'default' });
    tc.runUntil(() => {
      const now = pods();
      return now.length === 3 && !now.some((p) => p.metadata?.name === podNames[0]) && now.every(isPodReady);
    }, 60_000, 'replacement pod');
  });
});

describe('scenario: deleting a namespace', () => {
  let tc: TestCluster;
  afterEach(() => tc.close());

  it('terminates its content, then removes the namespace', async () => {
    tc = await bootCluster();
    tc.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    tc.runUntil(() => tc.get('serviceaccount', 'team-a', 'default') !== undefined, 10_000, 'default ServiceAccount in team-a');
    tc.apply(nginx('team-a'));
    tc.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-a' }, data: { a: '1' } });
    tc.runUntil(() => rolloutComplete(tc.get('deployment', 'team-a', 'nginx') as Deployment), 60_000, 'deployment available');
    const podNames = podsOf(tc, 'team-a', 'app=nginx').map((p) => p.metadata!.name!);
    expect(podNames).toHaveLength(3);

    tc.client.namespaces.delete('team-a');
    const ns = tc.get('namespace', undefined, 'team-a') as Namespace;
    expect(ns.status?.phase).toBe('Terminating');
    expect(ns.metadata?.deletionTimestamp).toBeDefined();
    expect(ns.spec?.finalizers).toEqual(['kubernetes']);
    // NamespaceLifecycle admission: nothing new may be created in it.
    let forbidden: unknown;
    try {
      tc.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late', namespace: 'team-a' } });
    } catch (err) {
      forbidden = err;
    }
    expect(isStatusError(forbidden)).toBe(true);
    expect((forbidden as Error).message).toBe('configmaps "late" is forbidden: unable to create new content in namespace team-a because it is being terminated');

    tc.runUntil(() => tc.get('namespace', undefined, 'team-a') === undefined, 120_000, 'namespace removed');
    expect(tc.list('deployments', 'team-a')).toEqual([]);
    expect(tc.list('replicasets', 'team-a')).toEqual([]);
    expect(tc.list('pods', 'team-a')).toEqual([]);
    expect(tc.list('configmaps', 'team-a')).toEqual([]);
    expect(tc.list('serviceaccounts', 'team-a')).toEqual([]);
    // The pods' containers were stopped by their kubelets, not just erased from the store.
    const kubeletPods = tc.cluster.nodes.states().flatMap((s) => s.pods);
    for (const name of podNames) expect(kubeletPods).not.toContain(`team-a/${name}`);
    // Other namespaces are untouched.
    expect(tc.get('namespace', undefined, 'default')).toBeDefined();
  });

  it('shows the Terminating namespace conditions while content remains', async () => {
    tc = await bootCluster();
    tc.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    tc.runUntil(() => tc.get('serviceaccount', 'team-b', 'default') !== undefined, 10_000, 'default ServiceAccount in team-b');
    // A pod that ignores SIGTERM keeps the namespace Terminating for its grace period.
    tc.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'sleeper', namespace: 'team-b' },
      spec: { terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'] }] },
    });
    tc.runUntil(() => (tc.get('pod', 'team-b', 'sleeper') as Pod | undefined)?.status?.phase === 'Running', 30_000, 'sleeper running');
    tc.client.namespaces.delete('team-b');
    tc.runUntil(
      () => ((tc.get('namespace', undefined, 'team-b') as Namespace | undefined)?.status?.conditions?.length ?? 0) > 0,
      10_000,
      'namespace conditions',
    );
    const ns = tc.get('namespace', undefined, 'team-b') as Namespace;
    const byType = Object.fromEntries((ns.status?.conditions ?? []).map((c) => [c.type, c]));
    expect(byType.NamespaceContentRemaining).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: pods. has 1 resource instances',
    });
    expect(byType.NamespaceDeletionDiscoveryFailure).toMatchObject({ status: 'False', reason: 'ResourcesDiscovered' });
    expect(byType.NamespaceFinalizersRemaining).toMatchObject({ status: 'False', reason: 'ContentHasNoFinalizers' });
    const deletedAt = tc.clock.now();
    tc.runUntil(() => tc.get('namespace', undefined, 'team-b') === undefined, 120_000, 'namespace removed');
    // sleep ignores SIGTERM: the pod lives its 30 s grace period, then the namespace goes.
    expect(tc.clock.now() - deletedAt).toBeGreaterThanOrEqual(30_000);
  });
});
