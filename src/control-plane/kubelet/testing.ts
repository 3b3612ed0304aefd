// Test helpers for kubelet tests on a real cluster: a cluster with nodes, pods created and bound through the
// binding subresource (the scheduler is not part of these tests), events and statuses read back.
import type { Event, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../shared/api/types';
import { parseManifests } from '../../shared/lib/yaml';
import { createCluster, type Cluster } from '../cluster';
import { defaultNodeConfigs, type NodeConfig } from './node-config';
import { NodeSimulator } from './node-simulator';

export interface KubeletTestBed {
  cluster: Cluster;
  nodes: NodeSimulator;
  /** Creates the pod (YAML or object) in "default" and binds it to the node. */
  run(pod: string | KubeObject, node?: string): Pod;
  pod(name: string, namespace?: string): Pod | undefined;
  events(name: string, namespace?: string): Event[];
  close(): Promise<void>;
}

export async function kubeletTestBed(options: { nodes?: NodeConfig[]; seed?: number } = {}): Promise<KubeletTestBed> {
  const cluster = await createCluster({ seed: options.seed ?? 1, controllers: ['serviceaccount-controller', 'root-ca-certificate-publisher-controller'], nodes: 0, scheduler: false });
  // The default ServiceAccounts must exist before pods are admitted, and kube-root-ca.crt before their
  // kube-api-access volumes can be set up.
  cluster.runUntilIdle({ maxTimeMs: 1000 });
  const nodes = new NodeSimulator({ client: cluster.client, clock: cluster.clock, rng: cluster.rng, trace: cluster.trace, nodes: options.nodes ?? defaultNodeConfigs(1) });
  cluster.runUntil(() => nodes.list().every((k) => k.isRegistered), 5000);
  const client = cluster.client;
  return {
    cluster,
    nodes,
    run(input, node = nodes.names()[0]) {
      const obj = typeof input === 'string' ? (parseManifests(input)[0].object as KubeObject) : input;
      const namespace = obj.metadata?.namespace ?? 'default';
      const created = client.pods.create({ ...obj, metadata: { ...obj.metadata, namespace } });
      client.handle({
        verb: 'create',
        group: '',
        version: 'v1',
        resource: 'pods',
        subresource: 'binding',
        namespace,
        name: created.metadata.name,
        body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: created.metadata.name }, target: { apiVersion: 'v1', kind: 'Node', name: node } },
      });
      return client.pods.get(created.metadata.name!, { namespace });
    },
    pod(name, namespace = 'default') {
      try {
        return client.pods.get(name, { namespace });
      } catch {
        return undefined;
      }
    },
    events(name, namespace = 'default') {
      return client.events
        .list({ namespace })
        .items.filter((e) => e.involvedObject.name === name)
        .sort((a, b) => (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    },
    async close() {
      nodes.stop();
      await cluster.close();
    },
  };
}
