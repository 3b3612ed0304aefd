// "Export cluster": every object a user made, as one `kind: List` that "Import" (api/apply, through the API
// server's validation) re-creates in a fresh cluster. Left out is what the cluster makes by itself and would make
// again: Events, Nodes and Leases, objects a controller owns (Pods of a ReplicaSet, EndpointSlices…), the
// bootstrap RBAC, system namespaces and their contents, service-account tokens, dynamically provisioned volumes.
// Server-set metadata (uid, resourceVersion, timestamps, managedFields) and status are stripped, as on any create.
import type { ApiRequest, ApiResponse } from '../control-plane/apiserver/types';
import { Verb } from '../control-plane/apiserver/types';
import type { ResourceRegistry, ResourceType } from '../shared/api/resources';
import type { KubeList, KubeObject } from '../shared/api/types';
import { toYaml } from '../shared/lib/yaml';
import type { ClusterExport } from '../shared/protocol/storage';

export interface ExportableCluster {
  readonly apiserver: { handle(req: ApiRequest): ApiResponse };
  readonly registry: ResourceRegistry;
}

/** Made again by every fresh cluster, or by the components themselves. */
const skippedResources = new Set(['events', 'nodes', 'leases', 'endpoints', 'endpointslices', 'componentstatuses']);
const systemNamespaces = new Set(['kube-system', 'kube-public', 'kube-node-lease']);
/** Installed by every new cluster (as kind installs its "standard" class), so a fresh cluster exports nothing. */
const clusterDefaults = new Set(['StorageClass/standard', 'IngressClass/nginx', 'CSIDriver/hostpath.csi.kubeplay.io']);
/** Created first so the objects that live in them, or use them, apply cleanly. */
const firstKinds = ['Namespace', 'CustomResourceDefinition', 'PriorityClass', 'StorageClass', 'ServiceAccount', 'ConfigMap', 'Secret'];

export function exportCluster(cluster: ExportableCluster): ClusterExport {
  const items: KubeObject[] = [];
  const seen = new Set<string>();
  for (const rt of cluster.registry.all()) {
    const id = `${rt.group}/${rt.resource}`;
    if (seen.has(id) || !rt.verbs.includes('list') || skippedResources.has(rt.resource) || rt.custom) continue;
    seen.add(id);
    for (const obj of listAll(cluster, rt)) if (isUserObject(obj)) items.push(forCreate(obj, rt));
  }
  items.sort((a, b) => rank(a.kind) - rank(b.kind));
  const list = { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items };
  return { yaml: toYaml(list), count: items.length };
}

function listAll(cluster: ExportableCluster, rt: ResourceType): KubeObject[] {
  const res = cluster.apiserver.handle({ verb: Verb.List, group: rt.group, version: rt.version, resource: rt.resource });
  const list = res.body as KubeList | undefined;
  const apiVersion = rt.group ? `${rt.group}/${rt.version}` : rt.version;
  // Lists carry their items without apiVersion/kind (as the real server does); an exported item needs them.
  return (list?.items ?? []).map((o) => ({ ...o, apiVersion, kind: rt.kind }));
}

export function isUserObject(obj: KubeObject): boolean {
  const m = obj.metadata ?? {};
  const name = m.name ?? '';
  if (m.namespace && systemNamespaces.has(m.namespace)) return false;
  if (obj.kind === 'Namespace' && (systemNamespaces.has(name) || name === 'default')) return false;
  if (m.ownerReferences?.some((r) => r.controller)) return false;
  if (name.startsWith('system:') || m.labels?.['kubernetes.io/bootstrapping'] === 'rbac-defaults') return false;
  if (obj.kind === 'Service' && m.namespace === 'default' && name === 'kubernetes') return false;
  if (obj.kind === 'ServiceAccount' && name === 'default') return false;
  // Kubernetes reserves the system- prefix of PriorityClasses; the rest are what every new kubeplay cluster installs.
  if (obj.kind === 'PriorityClass' && name.startsWith('system-')) return false;
  if (clusterDefaults.has(`${obj.kind}/${name}`)) return false;
  if (obj.kind === 'ConfigMap' && name === 'kube-root-ca.crt') return false;
  if (obj.kind === 'Secret' && (obj as { type?: string }).type === 'kubernetes.io/service-account-token') return false;
  if (obj.kind === 'PersistentVolume' && m.annotations?.['pv.kubernetes.io/provisioned-by']) return false;
  if (m.deletionTimestamp) return false;
  return true;
}

/** The object as a client would send it on create. */
function forCreate(obj: KubeObject, rt: ResourceType): KubeObject {
  const { status: _status, metadata, ...rest } = obj as KubeObject & { status?: unknown };
  const { uid: _u, resourceVersion: _rv, creationTimestamp: _c, generation: _g, managedFields: _mf, selfLink: _s, ...meta } = metadata as Record<string, unknown>;
  const annotations = { ...((meta.annotations as Record<string, string> | undefined) ?? {}) };
  delete annotations['kubectl.kubernetes.io/last-applied-configuration'];
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  else delete meta.annotations;
  if (!rt.namespaced) delete meta.namespace;
  return { ...rest, metadata: meta } as KubeObject;
}

function rank(kind: string): number {
  const i = firstKinds.indexOf(kind);
  return i === -1 ? firstKinds.length : i;
}
