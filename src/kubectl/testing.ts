// A small cluster for the kubectl command tests: kubelets on three nodes, no scheduler and only the
// serviceaccount controller, so each test decides which pods exist, where they run and who owns them.
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../shared/api/types';
import { parseManifests } from '../shared/lib/yaml';
import { createCluster, type Cluster } from '../control-plane/cluster';

export async function commandTestCluster(): Promise<Cluster> {
  const cluster = await createCluster({ seed: 3, controllers: ['serviceaccount-controller'], scheduler: false });
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

/** Creates the object from YAML (in "default") and returns it as stored. */
export function create(cluster: Cluster, yaml: string): KubeObject {
  const obj = parseManifests(yaml)[0].object as KubeObject;
  const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
  const rt = cluster.registry.forKind({ group, version, kind: obj.kind })!;
  return cluster.client.resource({ group, version, resource: rt.resource }).create(obj, { namespace: rt.namespaced ? (obj.metadata.namespace ?? 'default') : undefined });
}

export function pod(cluster: Cluster, name: string): Pod | undefined {
  try {
    return cluster.client.pods.get(name, { namespace: 'default' });
  } catch {
    return undefined;
  }
}

/** A running nginx pod on `node`, optionally owned by `owner` (its controller) and with extra spec YAML. */
export function podYaml(name: string, node: string, options: { owner?: KubeObject; volumes?: string; annotations?: string } = {}): string {
  const owner = options.owner
    ? `\n  ownerReferences:\n  - {apiVersion: ${options.owner.apiVersion}, kind: ${options.owner.kind}, name: ${options.owner.metadata.name}, uid: ${options.owner.metadata.uid}, controller: true}`
    : '';
  const annotations = options.annotations ? `\n  annotations: ${options.annotations}` : '';
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: {app: ${name}}${owner}${annotations}
spec:
  nodeName: ${node}
  containers:
  - {name: c, image: 'nginx:1.27'}${options.volumes ? `\n  volumes: ${options.volumes}` : ''}
`;
}
