import { afterEach, describe, expect, it } from 'vitest';
import type { Namespace } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../../shared/api/types';
import { createCluster, type Cluster } from '../../cluster';
import { SharedInformerFactory } from '../../informers/factory';
import { PatchType } from '../../apiserver/types';
import { controllerManagerUser } from '../shared/controller';
import { NamespaceController } from './namespace-controller';

const running: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const stop of running.splice(0)) await stop();
});

async function setup() {
  const cluster = await createCluster({ seed: 3, controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  const client = cluster.client.withUser(controllerManagerUser);
  const informers = new SharedInformerFactory({ client, clock: cluster.clock, trace: cluster.trace });
  const controller = new NamespaceController({ client, informers, registry: cluster.registry, clock: cluster.clock, trace: cluster.trace });
  informers.start();
  controller.run();
  running.push(async () => {
    controller.shutDown();
    informers.shutdown();
    await cluster.close();
  });
  cluster.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  settle(cluster);
  return { cluster, client: cluster.client, controller };
}

/** Runs the cluster until it is idle, or for at most a virtual minute. */
function settle(cluster: Cluster, maxTimeMs = 60_000): void {
  cluster.runUntilIdle({ maxTimeMs });
}

function namespace(cluster: Cluster, name = 'team'): Namespace | undefined {
  try {
    return cluster.client.namespaces.get(name);
  } catch {
    return undefined;
  }
}

function conditions(ns: Namespace | undefined): Record<string, { status: string; reason?: string; message?: string }> {
  const out: Record<string, { status: string; reason?: string; message?: string }> = {};
  for (const c of ns?.status?.conditions ?? []) out[c.type] = { status: c.status, reason: c.reason, message: c.message };
  return out;
}

function pod(name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'team', ...extra },
    spec: { containers: [{ name: 'c', image: 'nginx' }], terminationGracePeriodSeconds: 30 },
  };
}

describe('NamespaceController on a cluster', () => {
  it('deletes the content of a deleted namespace, then the namespace', async () => {
    const { cluster, client } = await setup();
    client.pods.create(pod('web'));
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team' } });
    client.deployments.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'app', namespace: 'team' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'x' } },
        template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    settle(cluster);

    const res = client.namespaces.delete('team') as Namespace;
    expect(res.status?.phase).toBe('Terminating');
    // Nothing happens before the 5 s deletion grace period.
    cluster.advance(4_000);
    expect(client.pods.list({ namespace: 'team' }).items).toHaveLength(1);
    settle(cluster);
    expect(client.pods.list({ namespace: 'team' }).items).toEqual([]);
    expect(client.configMaps.list({ namespace: 'team' }).items).toEqual([]);
    expect(client.deployments.list({ namespace: 'team' }).items).toEqual([]);
    expect(namespace(cluster)).toBeUndefined();
  });

  it('waits on content with finalizers and says so in its conditions', async () => {
    const { cluster, client } = await setup();
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: 'team', finalizers: ['example.com/hold'] } });
    client.namespaces.delete('team');
    settle(cluster);

    const ns = namespace(cluster);
    expect(ns?.status?.phase).toBe('Terminating');
    expect(ns?.spec?.finalizers).toEqual(['kubernetes']);
    expect(conditions(ns)).toEqual({
      NamespaceDeletionDiscoveryFailure: { status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
      NamespaceDeletionGroupVersionParsingFailure: { status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
      NamespaceDeletionContentFailure: { status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
      NamespaceContentRemaining: { status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' },
      NamespaceFinalizersRemaining: {
        status: 'True',
        reason: 'SomeFinalizersRemain',
        message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      },
    });
    expect(ns?.status?.conditions?.map((c) => c.type)).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);

    client.configMaps.patch('held', PatchType.MergePatch, { metadata: { finalizers: null } }, { namespace: 'team' });
    // The controller comes back 15/2 + 1 = 8 s after its last pass.
    settle(cluster);
    expect(namespace(cluster)).toBeUndefined();
  });

  it('requeues while pods terminate with their grace period, then reports what should not remain', async () => {
    const { cluster, client } = await setup();
    for (const name of ['a', 'b']) {
      client.pods.create(pod(name));
      // Bound pods delete gracefully: they stay Terminating until their kubelet confirms.
      client.handle({
        verb: 'create',
        group: '',
        version: 'v1',
        resource: 'pods',
        subresource: 'binding',
        namespace: 'team',
        name,
        body: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: 'team' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } },
      });
    }
    client.namespaces.delete('team');
    cluster.advance(6_000);
    const during = conditions(namespace(cluster));
    expect(during.NamespaceContentRemaining).toEqual({ status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: pods. has 2 resource instances' });
    expect(during.NamespaceFinalizersRemaining.status).toBe('False');
    expect(client.pods.list({ namespace: 'team' }).items.every((p) => p.metadata.deletionTimestamp)).toBe(true);

    // Past the grace period the pods have no reason to be there (no kubelet confirmed): a content failure.
    cluster.advance(40_000);
    const after = conditions(namespace(cluster));
    expect(after.NamespaceDeletionContentFailure).toEqual({
      status: 'True',
      reason: 'ContentDeletionFailed',
      message: 'Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: team for gvr: /v1, Resource=pods',
    });

    // The kubelet's final delete.
    for (const name of ['a', 'b']) client.pods.delete(name, { namespace: 'team', gracePeriodSeconds: 0 });
    settle(cluster, 120_000);
    expect(namespace(cluster)).toBeUndefined();
  });

  it('deletes custom resources in the namespace', async () => {
    const { cluster, client } = await setup();
    client.customResourceDefinitions.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    settle(cluster);
    const gadgets = client.resource({ group: 'example.com', version: 'v1', resource: 'gadgets' });
    gadgets.create({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', namespace: 'team' } });
    client.namespaces.delete('team');
    settle(cluster);
    expect(gadgets.list({ namespace: 'team' }).items).toEqual([]);
    expect(namespace(cluster)).toBeUndefined();
  });
});
