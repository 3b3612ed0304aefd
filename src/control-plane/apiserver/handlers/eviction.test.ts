import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { StatusError, type Status } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import type { Client } from '../../client/client';
import { createCluster, type Cluster } from '../../cluster';

const clusters: Cluster[] = [];
afterEach(async () => {
  for (const c of clusters.splice(0)) await c.close();
});

async function setup() {
  const cluster = await createCluster({ seed: 11, controllers: ['serviceaccount-controller', 'disruption-controller'], nodes: 0, scheduler: false });
  clusters.push(cluster);
  // The serviceaccount controller creates "default/default", which pods need.
  cluster.runUntilIdle({ maxTimeMs: 60_000 });
  return { cluster, client: cluster.client, settle: () => cluster.runUntilIdle({ maxTimeMs: 60_000 }) };
}

function evict(client: Client, name: string, extra: Record<string, unknown> = {}, namespace = 'default') {
  return client.handle<Status>({
    verb: 'create',
    group: '',
    version: 'v1',
    resource: 'pods',
    subresource: 'eviction',
    namespace,
    name,
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, ...extra },
  });
}

function failure(fn: () => unknown): Status {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err.status;
    throw err;
  }
  throw new Error('expected a failure');
}

type PodState = { phase?: string; ready?: boolean; bound?: boolean };

/** A pod as a kubelet would have left it: bound to node-1, with the phase and Ready condition given. */
function runPod(client: Client, name: string, state: PodState = {}, labels: Record<string, string> = { app: 'web' }): void {
  const { phase = 'Running', ready = true, bound = true } = state;
  client.pods.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }], terminationGracePeriodSeconds: 30 },
  });
  if (bound) {
    client.handle({
      verb: 'create',
      group: '',
      version: 'v1',
      resource: 'pods',
      subresource: 'binding',
      namespace: 'default',
      name,
      body: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: 'default' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } },
    });
  }
  const live = client.pods.get(name, { namespace: 'default' });
  const conditions = [...(live.status?.conditions ?? []), { type: 'Ready', status: ready ? 'True' : 'False' }];
  client.pods.updateStatus({ ...live, status: { ...live.status, phase, conditions } });
}

function pdb(name: string, spec: Partial<PodDisruptionBudget['spec']>): KubeObject {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec } };
}

function getPod(client: Client, name: string): (Pod & KubeObject) | undefined {
  try {
    return client.pods.get(name, { namespace: 'default' });
  } catch {
    return undefined;
  }
}

describe('pods/eviction', () => {
  it('evicts a pod no budget covers: DisruptionTarget condition, then a graceful delete', async () => {
    const { client } = await setup();
    runPod(client, 'web-a');
    const res = evict(client, 'web-a');
    expect(res.code).toBe(201);
    expect(res.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', message: '', reason: '', code: 201 });
    const pod = getPod(client, 'web-a')!;
    expect(pod.metadata.deletionTimestamp).toBeDefined();
    expect(pod.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
    });
  });

  it('honours the Eviction deleteOptions', async () => {
    const { client } = await setup();
    runPod(client, 'web-a');
    evict(client, 'web-a', { deleteOptions: { gracePeriodSeconds: 0 } });
    expect(getPod(client, 'web-a')).toBeUndefined();
  });

  it('refuses evictions until the disruption controller has computed the budget', async () => {
    const { client, settle } = await setup();
    runPod(client, 'web-a');
    runPod(client, 'web-b');
    client.podDisruptionBudgets.create(pdb('web-pdb', { minAvailable: 1 }));
    expect(failure(() => evict(client, 'web-a'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web-pdb is still being processed by the server.' }], retryAfterSeconds: 10 },
      code: 429,
    });
    settle();
    expect(evict(client, 'web-a').code).toBe(201);
  });

  it('refuses an eviction that would violate the disruption budget, with the exact Status', async () => {
    const { client, settle } = await setup();
    runPod(client, 'web-a');
    runPod(client, 'web-b');
    client.podDisruptionBudgets.create(pdb('web-pdb', { minAvailable: 2 }));
    settle();
    const status = failure(() => evict(client, 'web-a'));
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web-pdb needs 2 healthy pods and has 2 currently' }] },
      code: 429,
    });
    const pod = getPod(client, 'web-a')!;
    expect(pod.metadata.deletionTimestamp).toBeUndefined();
    expect(pod.status?.conditions?.some((c) => c.type === 'DisruptionTarget')).toBe(false);
  });

  it('spends the budget: the first eviction is allowed and recorded, the second refused', async () => {
    const { cluster, client, settle } = await setup();
    runPod(client, 'web-a');
    runPod(client, 'web-b');
    client.podDisruptionBudgets.create(pdb('web-pdb', { minAvailable: 1 }));
    settle();
    expect(evict(client, 'web-a').code).toBe(201);
    const budget = client.podDisruptionBudgets.get('web-pdb', { namespace: 'default' });
    expect(budget.status).toMatchObject({ disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
    expect(Object.keys(budget.status?.disruptedPods ?? {})).toEqual(['web-a']);
    expect(budget.status?.conditions).toEqual([
      { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 1, lastTransitionTime: expect.any(String) },
    ]);
    expect(getPod(client, 'web-a')?.metadata.deletionTimestamp).toBeDefined();

    cluster.advance(1_000);
    const status = failure(() => evict(client, 'web-b'));
    expect(status.code).toBe(429);
    expect(status.details?.causes).toEqual([{ reason: 'DisruptionBudget', message: 'The disruption budget web-pdb needs 1 healthy pods and has 1 currently' }]);
  });

  it('uses the status a disruption controller computed', async () => {
    const { client } = await setup();
    runPod(client, 'web-a');
    const created = client.podDisruptionBudgets.create(pdb('web-pdb', { maxUnavailable: 1 }));
    client.podDisruptionBudgets.updateStatus({
      ...created,
      status: { observedGeneration: created.metadata.generation, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 3, expectedPods: 3 },
    });
    const status = failure(() => evict(client, 'web-a'));
    expect(status.details?.causes?.[0].message).toBe('The disruption budget web-pdb needs 3 healthy pods and has 1 currently');
  });

  it('computes maxUnavailable budgets from the pods’ controller scale', async () => {
    const { client, settle } = await setup();
    const rs = client.replicaSets.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid!, controller: true };
    for (const n of ['web-a', 'web-b']) {
      runPod(client, n);
      client.pods.patch(n, 'application/merge-patch+json', { metadata: { ownerReferences: [owner] } }, { namespace: 'default' });
    }
    // 3 expected, 1 may be unavailable → 2 must stay healthy; only 2 are: no disruption allowed.
    client.podDisruptionBudgets.create(pdb('web-pdb', { maxUnavailable: 1 }));
    settle();
    expect(failure(() => evict(client, 'web-a')).details?.causes?.[0].message).toBe('The disruption budget web-pdb needs 2 healthy pods and has 2 currently');
  });

  it('evicts an unready pod without spending a budget that is met', async () => {
    const { client, settle } = await setup();
    runPod(client, 'web-a');
    runPod(client, 'web-b');
    runPod(client, 'web-c', { ready: false });
    client.podDisruptionBudgets.create(pdb('web-pdb', { minAvailable: 2 }));
    settle();
    expect(evict(client, 'web-c').code).toBe(201);
    expect(getPod(client, 'web-c')?.metadata.deletionTimestamp).toBeDefined();
    expect(client.podDisruptionBudgets.get('web-pdb', { namespace: 'default' }).status?.disruptedPods).toBeUndefined();
  });

  it('deletes terminal and pending pods without consulting budgets', async () => {
    const { client } = await setup();
    runPod(client, 'done', { phase: 'Succeeded', ready: false });
    runPod(client, 'waiting', { phase: 'Pending', ready: false, bound: false });
    client.podDisruptionBudgets.create(pdb('web-pdb', { minAvailable: 5 }));
    expect(evict(client, 'done').code).toBe(201);
    expect(evict(client, 'waiting').code).toBe(201);
    expect(getPod(client, 'done')).toBeUndefined();
    expect(getPod(client, 'waiting')).toBeUndefined();
  });

  it('refuses a pod covered by two budgets', async () => {
    const { client } = await setup();
    runPod(client, 'web-a');
    client.podDisruptionBudgets.create(pdb('one', { minAvailable: 0 }));
    client.podDisruptionBudgets.create(pdb('two', { minAvailable: 0 }));
    const status = failure(() => evict(client, 'web-a'));
    expect(status.code).toBe(500);
    expect(status.message).toBe('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  });

  it('checks the body and the name', async () => {
    const { client } = await setup();
    runPod(client, 'web-a');
    expect(
      failure(() =>
        client.handle({
          verb: 'create',
          group: '',
          version: 'v1',
          resource: 'pods',
          subresource: 'eviction',
          namespace: 'default',
          name: 'web-a',
          body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other', namespace: 'default' } },
        }),
      ).message,
    ).toBe('name in URL does not match name in Eviction object');
    expect(failure(() => evict(client, 'missing')).message).toBe('pods "missing" not found');
    expect(failure(() => evict(client, 'web-a', { kind: 'Pod', apiVersion: 'v1' })).message).toBe('not a Eviction object: *core.Pod');
  });

  it('is a dry run when asked', async () => {
    const { client } = await setup();
    runPod(client, 'web-a');
    evict(client, 'web-a', { deleteOptions: { dryRun: ['All'] } });
    const pod = getPod(client, 'web-a')!;
    expect(pod.metadata.deletionTimestamp).toBeUndefined();
    expect(pod.status?.conditions?.some((c) => c.type === 'DisruptionTarget')).toBe(false);
  });

  it('is authorized as create on pods/eviction', async () => {
    const { client } = await setup();
    runPod(client, 'web-a');
    const alice = client.withUser({ username: 'alice', groups: ['system:authenticated'] });
    expect(failure(() => evict(alice, 'web-a')).message).toBe(
      'pods "web-a" is forbidden: User "alice" cannot create resource "pods/eviction" in API group "" in the namespace "default"',
    );
    client.roles.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'evictor', namespace: 'default' },
      rules: [{ apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] }],
    });
    client.roleBindings.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'alice-evicts', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'evictor' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    });
    expect(evict(alice, 'web-a').code).toBe(201);
  });
});
