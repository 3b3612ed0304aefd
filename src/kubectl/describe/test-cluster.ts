// A whole cluster (scheduler, controllers, three kubelets) for the describe/events/logs/exec/top tests, with
// objects created from YAML and the virtual clock under the test's control, and kubectl run against it with
// the simulated machines attached (clusterNodes: logs, exec, metrics).
import { createCluster, type Cluster } from '../../control-plane/cluster';
import type { KubeObject } from '../../shared/api/types';
import { parseManifests } from '../../shared/lib/yaml';
import { kubectl as runKubectl, type KubectlTestOptions, type KubectlTestResult } from '../cli/testing';
import { clusterNodes } from '../nodes-adapter';

/** A cluster whose nodes are up and whose default service account exists, at a known virtual time. */
export async function observedCluster(): Promise<Cluster> {
  const cluster = await createCluster({ seed: 11 });
  cluster.runUntil(() => {
    try {
      cluster.client.serviceAccounts.get('default', { namespace: 'default' });
    } catch {
      return false;
    }
    return cluster.client.nodes.list().items.length === 3;
  }, 60_000);
  return cluster;
}

/** Creates every document of the YAML (namespace "default" unless it says otherwise). */
export function createAll(cluster: Cluster, yaml: string): KubeObject[] {
  return parseManifests(yaml).map(({ object }) => {
    const obj = object as KubeObject;
    const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
    const rt = cluster.registry.forKind({ group, version, kind: obj.kind })!;
    return cluster.client.resource({ group, version, resource: rt.resource }).create(obj, { namespace: rt.namespaced ? (obj.metadata.namespace ?? 'default') : undefined });
  });
}

/** kubectl against the cluster with its simulated machines attached. */
export function kubectl(cluster: Cluster, line: string, options: KubectlTestOptions = {}): Promise<KubectlTestResult> {
  return runKubectl(cluster, line, { nodes: clusterNodes(cluster), ...options });
}

/** Go's time.RFC1123Z of a timestamp, as describe prints it (kubeplay's clock is UTC). */
export function rfc1123(ts: string | undefined): string {
  const d = new Date(Date.parse(ts ?? ''));
  return d.toUTCString().replace(/ GMT$/, ' +0000');
}
