import type { ResourceQuota } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { createCluster, type Cluster } from '../../cluster';
import { SharedInformerFactory } from '../../informers/factory';
import { controllerManagerUser } from '../shared/controller';
import { objectCountGroupResource, ResourceQuotaController } from './resource-quota-controller';

const running: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const stop of running.splice(0)) await stop();
});

/** A cluster without nodes, with only the serviceaccount controller (pods need the default ServiceAccount) and this one. */
async function setup(start = true) {
  const cluster = await createCluster({ seed: 7, controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  const client = cluster.client.withUser(controllerManagerUser);
  const informers = new SharedInformerFactory({ client, clock: cluster.clock, trace: cluster.trace });
  const controller = new ResourceQuotaController({ client, informers, registry: cluster.registry, clock: cluster.clock, trace: cluster.trace });
  informers.start();
  if (start) controller.run();
  running.push(async () => {
    controller.shutDown();
    informers.shutdown();
    await cluster.close();
  });
  cluster.runUntilIdle({ maxTimeMs: 60_000 });
  return { cluster, controller };
}

function quota(cluster: Cluster, name = 'q'): ResourceQuota {
  return cluster.client.resourceQuotas.get(name, { namespace: 'default' });
}

function createQuota(cluster: Cluster, hard: Record<string, string>, name = 'q'): void {
  cluster.client.resourceQuotas.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'default' }, spec: { hard } });
}

function service(name: string, type: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: { type, selector: { app: name }, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] },
  };
}

describe('objectCountGroupResource', () => {
  it('splits count/<resource>.<group> at the first dot', () => {
    expect(objectCountGroupResource('count/deployments.apps')).toEqual({ group: 'apps', resource: 'deployments' });
    expect(objectCountGroupResource('count/widgets.example.com')).toEqual({ group: 'example.com', resource: 'widgets' });
    expect(objectCountGroupResource('count/secrets')).toEqual({ group: '', resource: 'secrets' });
    expect(objectCountGroupResource('pods')).toBeUndefined();
  });
});

describe('ResourceQuotaController', () => {
  it('puts a quota whose spec.hard is not in status on the priority queue, and a settled one on the primary queue', async () => {
    const { cluster, controller } = await setup(false);
    createQuota(cluster, { secrets: '4' });
    cluster.runUntilIdle({ maxTimeMs: 1000 });
    expect(controller.priorityController.queue.snapshot().queued).toEqual(['default/q']);
    expect(controller.controller.queue.snapshot().queued).toEqual([]);
    controller.run();
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    expect(quota(cluster).status).toEqual({ hard: { secrets: '4' }, used: { secrets: '0' } });
  });

  it('counts count/<resource>.<group> objects through a monitor it starts for the resource', async () => {
    const { cluster } = await setup();
    for (const name of ['a', 'b']) {
      cluster.client.deployments.create({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace: 'default' },
        spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      });
    }
    createQuota(cluster, { 'count/deployments.apps': '5', 'count/widgets.example.com': '1' });
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    // No API serves widgets.example.com: no evaluator, so no usage is reported for it.
    expect(quota(cluster).status).toEqual({ hard: { 'count/deployments.apps': '5', 'count/widgets.example.com': '1' }, used: { 'count/deployments.apps': '2' } });
    cluster.client.deployments.delete('a', { namespace: 'default' });
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    expect(quota(cluster).status?.used).toEqual({ 'count/deployments.apps': '1' });
  });

  it('gives services.nodeports back when a NodePort service becomes ClusterIP', async () => {
    const { cluster } = await setup();
    createQuota(cluster, { services: '5', 'services.nodeports': '4', 'services.loadbalancers': '1' });
    cluster.client.services.create(service('web', 'NodePort'));
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    // The default namespace's "kubernetes" Service counts too.
    expect(quota(cluster).status?.used).toEqual({ services: '2', 'services.loadbalancers': '0', 'services.nodeports': '2' });

    const live = cluster.client.services.get('web', { namespace: 'default' });
    cluster.client.services.update({ ...live, spec: { ...live.spec, type: 'ClusterIP', ports: live.spec!.ports!.map(({ nodePort: _n, ...p }) => p) } });
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    expect(quota(cluster).status?.used).toEqual({ services: '2', 'services.loadbalancers': '0', 'services.nodeports': '0' });
  });

  it('counts only the pods in its scopes (BestEffort vs NotBestEffort) and gives a deleted one back', async () => {
    const { cluster } = await setup();
    cluster.client.resourceQuotas.create({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'besteffort', namespace: 'default' },
      spec: { hard: { pods: '3' }, scopes: ['BestEffort'] },
    });
    cluster.client.resourceQuotas.create({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'burstable', namespace: 'default' },
      spec: { hard: { pods: '3', 'requests.cpu': '2' }, scopes: ['NotBestEffort'] },
    });
    const pod = (name: string, requests?: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx', ...(requests ? { resources: { requests } } : {}) }] },
    });
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    cluster.client.pods.create(pod('idle'));
    cluster.client.pods.create(pod('web', { cpu: '500m' }));
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    expect(quota(cluster, 'besteffort').status?.used).toEqual({ pods: '1' });
    expect(quota(cluster, 'burstable').status?.used).toEqual({ pods: '1', 'requests.cpu': '500m' });
    cluster.client.pods.delete('idle', { namespace: 'default', gracePeriodSeconds: 0 });
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    expect(quota(cluster, 'besteffort').status?.used).toEqual({ pods: '0' });
    expect(quota(cluster, 'burstable').status?.used).toEqual({ pods: '1', 'requests.cpu': '500m' });
  });

  it('writes status only when it changes', async () => {
    const { cluster } = await setup();
    createQuota(cluster, { configmaps: '3' });
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    const rv = quota(cluster).metadata!.resourceVersion;
    cluster.advance(11 * 60_000); // two full resyncs
    expect(quota(cluster).metadata!.resourceVersion).toBe(rv);
  });
});
