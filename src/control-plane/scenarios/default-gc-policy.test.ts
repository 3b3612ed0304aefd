// Scenario: a DELETE that names no propagation policy. Most kinds cascade in the background; batch/v1 Jobs and
// v1 ReplicationControllers keep their pre-GC default and orphan their pods (a Job delete also warns), as the
// v1.32 API server does. kubectl always names a policy (--cascade=background), so only raw API clients see this.
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster } from './harness';

const jobWarning =
  'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

const job = (name: string) => `
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: sleeper
        image: busybox:1.36
        command: ["sleep", "3600"]
`;

const rc = `
apiVersion: v1
kind: ReplicationController
metadata:
  name: web
spec:
  replicas: 2
  selector:
    app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
`;

describe('scenario: the default garbage-collection policy of a DELETE', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
  });
  afterEach(() => tc.close());

  const pods = (selector: string) => tc.client.pods.list({ namespace: 'default', labelSelector: selector }).items as Pod[];
  const del = (resource: string, group: string, name: string, options?: Record<string, unknown>) =>
    tc.cluster.apiserver.handle({ verb: 'delete', group, version: 'v1', resource, namespace: 'default', name, options });

  it('a Job deleted without a policy orphans its pods and warns', () => {
    tc.apply(job('keep'));
    tc.runUntil(() => pods('batch.kubernetes.io/job-name=keep').length === 1, 60_000, 'job pod');
    const res = del('jobs', 'batch', 'keep');
    expect(res.warnings).toEqual([jobWarning]);
    tc.runUntil(() => tc.get('job', 'default', 'keep') === undefined, 60_000, 'job gone');
    tc.settle(5_000);
    const [pod] = pods('batch.kubernetes.io/job-name=keep');
    expect(pod.metadata?.deletionTimestamp).toBeUndefined();
    expect(pod.metadata?.ownerReferences ?? []).toEqual([]);
  });

  it('a Job deleted with propagationPolicy=Background takes its pods along, without the warning', () => {
    tc.apply(job('gone'));
    tc.runUntil(() => pods('batch.kubernetes.io/job-name=gone').length === 1, 60_000, 'job pod');
    const res = del('jobs', 'batch', 'gone', { propagationPolicy: 'Background' });
    expect(res.warnings).toBeUndefined();
    tc.runUntil(() => pods('batch.kubernetes.io/job-name=gone').length === 0, 120_000, 'pods gone');
  });

  it('a ReplicationController deleted without a policy orphans its pods, silently', () => {
    tc.apply(rc);
    tc.runUntil(() => pods('app=web').length === 2, 60_000, 'rc pods');
    const res = del('replicationcontrollers', '', 'web');
    expect(res.warnings).toBeUndefined();
    tc.runUntil(() => tc.get('replicationcontroller', 'default', 'web') === undefined, 60_000, 'rc gone');
    tc.settle(5_000);
    expect(pods('app=web').map((p) => [p.metadata?.deletionTimestamp, p.metadata?.ownerReferences ?? []])).toEqual([
      [undefined, []],
      [undefined, []],
    ]);
  });
});
