// The playground limits in a whole cluster (createCluster wires the PlaygroundLimits plugin with the store's
// usage): refusals leave nothing behind, deletes make room again, and refused events never break a controller.
import { afterEach, describe, expect, it } from 'vitest';
import { StatusError } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import type { ClusterOptions } from '../../cluster';
import type { LivePlaygroundLimits } from '../../config/live-playground-limits';
import type { PlaygroundLimits } from '../../config/playground-limits';
import { bootCluster, isPodReady, podsOf } from '../../scenarios/harness';
import type { TestCluster } from '../../testing/test-cluster';

let tc: TestCluster | undefined;
afterEach(async () => {
  await tc?.close();
  tc = undefined;
});

async function boot(limits?: Partial<PlaygroundLimits>): Promise<TestCluster> {
  const options: ClusterOptions & { limits?: Partial<PlaygroundLimits> } = { nodes: 1, ...(limits ? { limits } : {}) };
  tc = await bootCluster(options);
  return tc;
}

/** The cluster's live limits (Cluster.limits). */
function limitsOf(c: TestCluster): LivePlaygroundLimits {
  const limits = (c.cluster as { limits?: LivePlaygroundLimits }).limits;
  if (!limits) throw new Error('this cluster has no playground limits (cluster.ts does not wire them)');
  return limits;
}

function deployment(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10' }] } },
    },
  };
}

function refusal(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected the request to be refused');
}

describe('playground limits in a cluster', () => {
  it('refuses a 100,000-replica Deployment with a 403 naming the limit, and nothing is created', async () => {
    const c = await boot();
    const objectsBefore = c.cluster.store.count('');
    const err = refusal(() => c.apply(deployment('web', 100_000)));
    expect(err.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'deployments.apps "web" is forbidden: exceeded playground limit: replicas per workload, requested: spec.replicas=100000, limited: 5000',
    });
    c.advance(30_000);
    expect(c.list('deployments', 'default')).toEqual([]);
    expect(c.list('replicasets', 'default')).toEqual([]);
    expect(c.list('pods', 'default')).toEqual([]);
    expect(c.cluster.store.count('')).toBe(objectsBefore);
  });

  it('refuses scaling past the limit through the scale subresource and allows scaling within it', async () => {
    const c = await boot({ maxReplicasPerWorkload: 3 });
    c.apply(deployment('web', 1));
    const scale = c.client.deployments.getScale('web', { namespace: 'default' });
    expect(() => c.client.deployments.updateScale('web', { ...scale, spec: { replicas: 4 } }, { namespace: 'default' })).toThrow(
      'deployments.apps "web" is forbidden: exceeded playground limit: replicas per workload, requested: spec.replicas=4, limited: 3',
    );
    c.client.deployments.updateScale('web', { ...scale, spec: { replicas: 3 } }, { namespace: 'default' });
    c.runUntil(() => podsOf(c, 'default', 'app=web').filter((p) => isPodReady(p)).length === 3, 120_000, '3 ready pods');
  });

  it('refuses the object past the objects limit until a delete makes room; updates pass at the limit', async () => {
    const c = await boot();
    const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { a: '1' } });
    // Nothing runs between these synchronous requests, so the count is the plugin's.
    limitsOf(c).configure({ maxObjects: c.cluster.store.count('') + 1 });
    c.apply(cm('one'));
    const full = c.cluster.store.count('');
    const err = refusal(() => c.apply(cm('two')));
    expect(err.status).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(err.status.message).toBe(`configmaps "two" is forbidden: exceeded playground limit: objects, requested: 1, used: ${full}, limited: ${full}`);
    expect(c.get('configmap', 'default', 'two')).toBeUndefined();
    // An update (as kubectl apply sends it: a patch) passes at the limit.
    c.client.configMaps.patch('one', 'application/merge-patch+json', { data: { a: '2' } }, { namespace: 'default' });
    expect(c.get('configmap', 'default', 'one')?.data).toEqual({ a: '2' });
    c.delete('configmap', 'default', 'one');
    c.apply(cm('two'));
    expect(c.get('configmap', 'default', 'two')).toBeDefined();
  });

  it('drops events past the per-minute limit without stopping the rollout', async () => {
    const c = await boot();
    c.advance(61_000); // the boot's events leave the one-minute window
    limitsOf(c).configure({ maxEventsPerMinute: 2 });
    const eventsBefore = c.list('events', 'default').length;
    c.apply(deployment('web', 3));
    c.runUntil(() => podsOf(c, 'default', 'app=web').filter((p) => isPodReady(p)).length === 3, 120_000, '3 ready pods');
    // A rollout of 3 pods records a dozen events (ScalingReplicaSet, SuccessfulCreate, Scheduled, Pulled, …).
    expect(c.list('events', 'default').length - eventsBefore).toBeLessThanOrEqual(2);
    const view = limitsOf(c).view(c.clock.now());
    expect(view.limits.find((l) => l.key === 'maxEventsPerMinute')?.used).toBeLessThanOrEqual(2);
  });
});
