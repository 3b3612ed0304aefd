// Scenario: PodDisruptionBudgets on a whole cluster. The disruption controller computes each budget's status
// from the pods and their controllers' scale; pods/eviction spends it and refuses with the real 429; kubectl
// drain retries the refusal every 5 s and completes once replacements are ready elsewhere.
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatusError, type Status } from '../../shared/api/status';
import { kubectl } from '../../kubectl/cli/testing';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, eventsFor, isPodReady, podsOf } from './harness';

const deployment = (name: string, replicas: number, extra = '') => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${extra}
      containers: [{name: web, image: nginx:1.27}]
`;

const budget = (name: string, app: string, field: string) => `
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: ${name}}
spec:
  ${field}
  selector: {matchLabels: {app: ${app}}}
`;

function evict(tc: TestCluster, name: string): Status {
  try {
    return tc.client.handle<Status>({
      verb: 'create', group: '', version: 'v1', resource: 'pods', subresource: 'eviction', namespace: 'default', name,
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } },
    }).body;
  } catch (err) {
    if (err instanceof StatusError) return err.status;
    throw err;
  }
}

describe('scenario: PodDisruptionBudget', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
  });
  afterEach(() => tc.close());

  const pdb = (name: string) => tc.get('poddisruptionbudget', 'default', name) as PodDisruptionBudget | undefined;
  const readyPods = (app: string) => podsOf(tc, 'default', `app=${app}`).filter((p) => isPodReady(p) && !p.metadata?.deletionTimestamp);

  it('computes minAvailable status with the DisruptionAllowed condition', () => {
    tc.apply(deployment('web', 3));
    tc.apply(budget('web-pdb', 'web', 'minAvailable: 2'));
    tc.runUntil(() => pdb('web-pdb')?.status?.currentHealthy === 3, 60_000, 'pdb healthy');
    const s = pdb('web-pdb')!.status!;
    expect(s).toMatchObject({ currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1, observedGeneration: 1 });
    expect(s.conditions).toEqual([
      { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 1, lastTransitionTime: expect.any(String) },
    ]);
  });

  it('takes expectedPods from the Deployment scale for maxUnavailable and percentages', () => {
    tc.apply(deployment('web', 4));
    tc.apply(budget('by-max', 'web', 'maxUnavailable: "25%"'));
    tc.runUntil(() => readyPods('web').length === 4 && pdb('by-max')?.status?.currentHealthy === 4, 60_000, 'ready');
    expect(pdb('by-max')!.status).toMatchObject({ expectedPods: 4, desiredHealthy: 3, currentHealthy: 4, disruptionsAllowed: 1 });
    // Scale up: expectedPods follows the Deployment while the new pods are not ready yet.
    tc.client.deployments.patch('web', 'application/merge-patch+json', { spec: { replicas: 8 } }, { namespace: 'default' });
    tc.runUntil(() => pdb('by-max')?.status?.expectedPods === 8, 60_000, 'expected 8');
    tc.runUntil(() => pdb('by-max')?.status?.currentHealthy === 8, 60_000, 'healthy 8');
    expect(pdb('by-max')!.status).toMatchObject({ expectedPods: 8, desiredHealthy: 6, disruptionsAllowed: 2 });
  });

  it('fails safe when a selected pod has a controller without a scale (a Job)', () => {
    tc.apply(`apiVersion: batch/v1\nkind: Job\nmetadata: {name: sleeper}\nspec:\n  template:\n    metadata: {labels: {app: sleeper}}\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox, command: [sleep, "3600"]}]\n`);
    tc.apply(budget('job-pdb', 'sleeper', 'maxUnavailable: 1'));
    tc.runUntil(() => pdb('job-pdb')?.status?.conditions?.[0]?.reason === 'SyncFailed', 60_000, 'SyncFailed');
    const pod = podsOf(tc, 'default', 'app=sleeper')[0];
    expect(pdb('job-pdb')!.status!.disruptionsAllowed).toBe(0);
    expect(pdb('job-pdb')!.status!.conditions![0]).toMatchObject({ type: 'DisruptionAllowed', status: 'False', message: `found no controllers for pod "${pod.metadata!.name}"` });
    expect(eventsFor(tc, 'PodDisruptionBudget', 'job-pdb').map((e) => `${e.type} ${e.reason}: ${e.message}`)).toContain(
      `Warning CalculateExpectedPodCountFailed: Failed to calculate the number of expected pods: found no controllers for pod "${pod.metadata!.name}"`,
    );
  });

  it('warns about unmanaged pods and reports no matching pods', () => {
    tc.apply(`apiVersion: v1\nkind: Pod\nmetadata: {name: lone, labels: {app: lone}}\nspec:\n  containers: [{name: c, image: nginx}]\n`);
    tc.apply(budget('lone-pdb', 'lone', 'maxUnavailable: 1'));
    tc.apply(budget('empty-pdb', 'nothing', 'minAvailable: 1'));
    tc.runUntil(() => pdb('lone-pdb')?.status?.observedGeneration === 1 && pdb('empty-pdb')?.status?.observedGeneration === 1, 60_000, 'synced');
    expect(eventsFor(tc, 'PodDisruptionBudget', 'lone-pdb').map((e) => e.reason)).toContain('UnmanagedPods');
    expect(eventsFor(tc, 'PodDisruptionBudget', 'lone-pdb').find((e) => e.reason === 'UnmanagedPods')!.message).toBe(
      'Pods selected by this PodDisruptionBudget (selector: app=lone) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
    );
    expect(eventsFor(tc, 'PodDisruptionBudget', 'empty-pdb').map((e) => `${e.type} ${e.reason}: ${e.message}`)).toContain('Normal NoPods: No matching pods found');
    expect(pdb('empty-pdb')!.status).toMatchObject({ currentHealthy: 0, desiredHealthy: 1, expectedPods: 0, disruptionsAllowed: 0 });
    expect(pdb('empty-pdb')!.status!.conditions![0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
  });

  it('spends the budget on eviction, refuses the next with the real 429, and recovers when the replacement is ready', () => {
    tc.apply(deployment('web', 2));
    tc.apply(budget('web-pdb', 'web', 'minAvailable: 1'));
    tc.runUntil(() => pdb('web-pdb')?.status?.disruptionsAllowed === 1, 60_000, 'allowed 1');
    const [a, b] = readyPods('web').map((p) => p.metadata!.name!);
    expect(evict(tc, a).code).toBe(201);
    expect(tc.get('pod', 'default', a)?.status && (tc.get('pod', 'default', a) as Pod).status!.conditions!.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting',
    });
    // The server decremented the budget itself; the controller has not recounted yet, so currentHealthy is still 2.
    const refused = evict(tc, b);
    expect(refused).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web-pdb needs 1 healthy pods and has 2 currently' }] },
    });
    tc.advance(10);
    expect(pdb('web-pdb')!.status).toMatchObject({ currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 0 });
    expect(evict(tc, b).details!.causes![0].message).toBe('The disruption budget web-pdb needs 1 healthy pods and has 1 currently');
    // The replacement becomes ready: the budget allows one disruption again.
    tc.runUntil(() => pdb('web-pdb')?.status?.disruptionsAllowed === 1 && readyPods('web').length === 2, 120_000, 'replacement ready');
    expect(pdb('web-pdb')!.status!.disruptedPods).toBeUndefined();
  });

  it('counts an evicted pod that was not deleted as disrupted for 2 minutes, then warns NotDeleted', () => {
    tc.apply(deployment('web', 2));
    tc.apply(budget('web-pdb', 'web', 'minAvailable: 1'));
    tc.runUntil(() => pdb('web-pdb')?.status?.disruptionsAllowed === 1, 60_000, 'allowed 1');
    const victim = readyPods('web')[0].metadata!.name!;
    // An eviction the server approved but whose delete never happened.
    const live = tc.client.podDisruptionBudgets.get('web-pdb', { namespace: 'default' });
    const at = new Date(tc.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    tc.client.podDisruptionBudgets.updateStatus({ ...live, status: { ...live.status!, disruptedPods: { [victim]: at } } });
    tc.advance(1_000);
    expect(pdb('web-pdb')!.status).toMatchObject({ currentHealthy: 1, disruptionsAllowed: 0, disruptedPods: { [victim]: at } });
    expect(pdb('web-pdb')!.status!.conditions![0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
    tc.advance(2 * 60_000);
    expect(pdb('web-pdb')!.status!.disruptedPods).toBeUndefined();
    expect(pdb('web-pdb')!.status).toMatchObject({ currentHealthy: 2, disruptionsAllowed: 1 });
    expect(eventsFor(tc, 'Pod', victim).map((e) => `${e.type} ${e.reason}: ${e.message}`)).toContain(
      'Warning NotDeleted: Pod was expected by PDB default/default to be deleted but it wasn\'t',
    );
  });

  it('kubectl get and describe pdb', async () => {
    tc.apply(deployment('web', 3));
    tc.apply(budget('web-pdb', 'web', 'minAvailable: 2'));
    tc.runUntil(() => pdb('web-pdb')?.status?.disruptionsAllowed === 1, 60_000, 'allowed');
    const get = await kubectl(tc.cluster, 'kubectl get pdb');
    expect(get.stdout.split('\n')[0]).toMatch(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE$/);
    expect(get.stdout.split('\n')[1]).toMatch(/^web-pdb\s+2\s+N\/A\s+1\s+\d+s$/);
    const describe = await kubectl(tc.cluster, 'kubectl describe pdb web-pdb');
    expect(describe.stdout.split('Events:')[0]).toBe(
      [
        'Name:           web-pdb',
        'Namespace:      default',
        'Min available:  2',
        'Selector:       app=web',
        'Status:',
        '    Allowed disruptions:  1',
        '    Current:              3',
        '    Desired:              2',
        '    Total:                3',
        '',
      ].join('\n'),
    );
  });

  it('kubectl drain retries the refused eviction and completes as replacements become ready', async () => {
    // Both replicas on node-1: cordon the others while they are scheduled.
    await kubectl(tc.cluster, 'kubectl cordon node-2');
    await kubectl(tc.cluster, 'kubectl cordon node-3');
    tc.apply(deployment('web', 2));
    tc.apply(budget('web-pdb', 'web', 'minAvailable: 1'));
    tc.runUntil(() => pdb('web-pdb')?.status?.disruptionsAllowed === 1, 60_000, 'allowed 1');
    expect(readyPods('web').map((p) => p.spec!.nodeName)).toEqual(['node-1', 'node-1']);
    await kubectl(tc.cluster, 'kubectl uncordon node-2');
    await kubectl(tc.cluster, 'kubectl uncordon node-3');
    const names = readyPods('web').map((p) => p.metadata!.name!).sort();

    const run = await kubectl(tc.cluster, 'kubectl drain node-1 --ignore-daemonsets');
    expect(run.exitCode).toBe(0);
    const refusals = run.stderr.split('\n').filter((l) => l.includes('will retry after 5s'));
    expect(refusals.length).toBeGreaterThan(0);
    expect(names.map((n) => `error when evicting pods/"${n}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`)).toContain(refusals[0]);
    for (const n of names) expect(run.stdout).toContain(`pod/${n} evicted`);
    expect(run.stdout).toContain('node/node-1 drained');
    // Replacements run elsewhere; the budget is met again.
    tc.runUntil(() => readyPods('web').length === 2 && pdb('web-pdb')?.status?.disruptionsAllowed === 1, 60_000, 'replaced');
    expect(readyPods('web').every((p) => p.spec!.nodeName !== 'node-1')).toBe(true);
  });
});
