// Scenario: ResourceQuota on a whole cluster. Admission charges a quota when an object is created and refuses
// what would exceed it; the resourcequota-controller recomputes status.used from the objects that exist, so a
// deleted pod gives its usage back and a new one is admitted.
import type { ResourceQuota } from 'kubernetes-types/core/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStatusError } from '../../shared/api/status';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster } from './harness';

function pod(name: string, cpu = '200m', extra = ''): string {
  return `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
${extra}
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests: {cpu: ${cpu}, memory: 64Mi}
      limits: {cpu: ${cpu}, memory: 64Mi}
`;
}

function errorText(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return err.status.message ?? '';
    throw err;
  }
  throw new Error('expected the request to be refused');
}

describe('scenario: ResourceQuota', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
  });
  afterEach(() => tc.close());

  const quota = (name = 'q') => tc.get('resourcequota', 'default', name) as ResourceQuota | undefined;

  it('fills status.hard and status.used of a new quota from the objects that already exist', () => {
    tc.apply(pod('before'));
    tc.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm0' }, data: { a: '1' } });
    tc.apply(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {pods: "2", requests.cpu: "1", limits.memory: 1Gi, configmaps: "5"}\n`);
    tc.runUntil(() => quota()?.status?.used !== undefined, 10_000, 'quota status');
    expect(quota()!.status).toEqual({
      hard: { configmaps: '5', 'limits.memory': '1Gi', pods: '2', 'requests.cpu': '1' },
      // kube-root-ca.crt is a ConfigMap too.
      used: { configmaps: String(tc.list('configmaps', 'default').length), 'limits.memory': '64Mi', pods: '1', 'requests.cpu': '200m' },
    });
  });

  it('refuses a pod past the quota with the real text, and admits one again once a deleted pod is given back', () => {
    tc.apply(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {pods: "2", requests.cpu: "1"}\n`);
    tc.runUntil(() => quota()?.status?.used !== undefined, 10_000, 'quota status');
    expect(quota()!.status!.used).toEqual({ pods: '0', 'requests.cpu': '0' });

    tc.apply(pod('a'));
    tc.apply(pod('b'));
    expect(quota()!.status!.used).toEqual({ pods: '2', 'requests.cpu': '400m' });
    tc.settle();
    // The controller's recalculation agrees with what admission charged.
    expect(quota()!.status!.used).toEqual({ pods: '2', 'requests.cpu': '400m' });

    expect(errorText(() => tc.apply(pod('x')))).toBe(
      'pods "x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    );

    tc.delete('pod', 'default', 'a');
    tc.runUntil(() => tc.get('pod', 'default', 'a') === undefined, 60_000, 'pod a gone');
    tc.runUntil(() => quota()?.status?.used?.pods === '1', 10_000, 'usage given back');
    expect(quota()!.status!.used).toEqual({ pods: '1', 'requests.cpu': '200m' });

    tc.apply(pod('x'));
    expect(quota()!.status!.used).toEqual({ pods: '2', 'requests.cpu': '400m' });
  });

  it('gives back the compute usage of a pod that finished, but keeps counting it as an object', () => {
    tc.apply(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {pods: "5", count/pods: "5", requests.cpu: "1"}\n`);
    tc.apply(pod('once', '300m', '  restartPolicy: Never'));
    const p = tc.get('pod', 'default', 'once')!;
    // The container exits 0: the pod Succeeds.
    tc.client.pods.updateStatus({ ...p, status: { ...(p.status ?? {}), phase: 'Succeeded' } } as never);
    tc.runUntil(() => quota()?.status?.used?.pods === '0', 10_000, 'succeeded pod given back');
    expect(quota()!.status!.used).toEqual({ 'count/pods': '1', pods: '0', 'requests.cpu': '0' });
  });

  it('copies a changed spec.hard to status.hard and admits up to the new limit', () => {
    tc.apply(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {pods: "1"}\n`);
    tc.apply(pod('a'));
    tc.settle();
    expect(quota()!.status).toEqual({ hard: { pods: '1' }, used: { pods: '1' } });
    expect(errorText(() => tc.apply(pod('b')))).toBe('pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');

    tc.apply(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {pods: "3", requests.memory: 1Gi}\n`);
    tc.runUntil(() => quota()?.status?.hard?.pods === '3', 10_000, 'status.hard updated');
    expect(quota()!.status).toEqual({ hard: { pods: '3', 'requests.memory': '1Gi' }, used: { pods: '1', 'requests.memory': '64Mi' } });
    tc.apply(pod('b'));
    tc.settle();
    expect(quota()!.status!.used).toEqual({ pods: '2', 'requests.memory': '128Mi' });
  });

  it('counts configmaps (the published kube-root-ca.crt too), under the legacy name and count/configmaps, and gives a deleted one back', () => {
    tc.apply(`apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n`);
    // As in a real cluster, the root CA publisher puts kube-root-ca.crt in every new namespace: it counts.
    tc.runUntil(() => tc.get('configmap', 'team-a', 'kube-root-ca.crt') !== undefined, 10_000, 'kube-root-ca.crt');
    tc.apply(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: objects, namespace: team-a}\nspec:\n  hard: {configmaps: "3", count/configmaps: "3", count/deployments.apps: "1"}\n`);
    const q = () => tc.get('resourcequota', 'team-a', 'objects') as ResourceQuota | undefined;
    tc.runUntil(() => q()?.status?.used !== undefined, 10_000, 'quota status');
    expect(q()!.status!.used).toEqual({ configmaps: '1', 'count/configmaps': '1', 'count/deployments.apps': '0' });

    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'team-a' }, data: { k: 'v' } });
    tc.apply(cm('one'));
    tc.apply(cm('two'));
    expect(errorText(() => tc.apply(cm('three')))).toBe(
      'configmaps "three" is forbidden: exceeded quota: objects, requested: configmaps=1,count/configmaps=1, used: configmaps=3,count/configmaps=3, limited: configmaps=3,count/configmaps=3',
    );
    tc.delete('configmap', 'team-a', 'one');
    tc.runUntil(() => q()?.status?.used?.configmaps === '2', 10_000, 'configmap given back');
    expect(q()!.status!.used).toEqual({ configmaps: '2', 'count/configmaps': '2', 'count/deployments.apps': '0' });
    tc.apply(cm('three'));
    expect(q()!.status!.used!.configmaps).toBe('3');
  });

  it('recalculates every quota on the 5-minute resync, repairing a tampered status.used', () => {
    tc.apply(`apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {secrets: "10"}\n`);
    tc.runUntil(() => quota()?.status?.used !== undefined, 10_000, 'quota status');
    const real = quota()!.status!.used!.secrets;
    const cur = quota()!;
    tc.client.resourceQuotas.updateStatus({ ...cur, status: { hard: cur.status!.hard, used: { secrets: '9' } } } as never);
    tc.advance(60_000);
    expect(quota()!.status!.used!.secrets).toBe('9');
    tc.advance(5 * 60_000);
    expect(quota()!.status!.used!.secrets).toBe(real);
  });
});
