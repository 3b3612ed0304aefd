// The kind registry: GVK ↔ resource, scope, short names, subresources. Built-ins mirror `kubectl api-resources`
// on a v1.32 cluster; custom resources are added and removed at run time when CRDs are established.
import type { GroupResource, GroupVersionKind } from './types';

export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  /** Plural, lower case: the path segment and the RBAC resource name. */
  resource: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  subresources: { status: boolean; scale: boolean };
  verbs: string[];
  /**
   * Other versions the same resource is served at (converted to and from this, the storage version), e.g.
   * autoscaling/v1 for HorizontalPodAutoscaler. forKind() with one of them returns a copy carrying that version.
   */
  alsoServedAt?: string[];
  /** Served but not stored as its own objects (e.g. none today); reserved for virtual resources. */
  custom?: boolean;
}

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

type Row = [
  group: string,
  version: string,
  kind: string,
  resource: string,
  namespaced: boolean,
  shortNames: string[],
  status: boolean,
  scale: boolean,
  categories?: string[],
];

// [group, version, kind, resource, namespaced, shortNames, status subresource, scale subresource, categories]
const builtinRows: Row[] = [
  ['', 'v1', 'Binding', 'bindings', true, [], false, false],
  ['', 'v1', 'ComponentStatus', 'componentstatuses', false, ['cs'], false, false],
  ['', 'v1', 'ConfigMap', 'configmaps', true, ['cm'], false, false],
  ['', 'v1', 'Endpoints', 'endpoints', true, ['ep'], false, false],
  ['', 'v1', 'Event', 'events', true, ['ev'], false, false],
  ['', 'v1', 'LimitRange', 'limitranges', true, ['limits'], false, false],
  ['', 'v1', 'Namespace', 'namespaces', false, ['ns'], true, false],
  ['', 'v1', 'Node', 'nodes', false, ['no'], true, false],
  ['', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, ['pvc'], true, false],
  ['', 'v1', 'PersistentVolume', 'persistentvolumes', false, ['pv'], true, false],
  ['', 'v1', 'Pod', 'pods', true, ['po'], true, false, ['all']],
  ['', 'v1', 'PodTemplate', 'podtemplates', true, [], false, false],
  ['', 'v1', 'ReplicationController', 'replicationcontrollers', true, ['rc'], true, true, ['all']],
  ['', 'v1', 'ResourceQuota', 'resourcequotas', true, ['quota'], true, false],
  ['', 'v1', 'Secret', 'secrets', true, [], false, false],
  ['', 'v1', 'ServiceAccount', 'serviceaccounts', true, ['sa'], false, false],
  ['', 'v1', 'Service', 'services', true, ['svc'], true, false, ['all']],
  ['apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', false, ['crd', 'crds'], true, false, ['api-extensions']],
  ['apps', 'v1', 'ControllerRevision', 'controllerrevisions', true, [], false, false],
  ['apps', 'v1', 'DaemonSet', 'daemonsets', true, ['ds'], true, false, ['all']],
  ['apps', 'v1', 'Deployment', 'deployments', true, ['deploy'], true, true, ['all']],
  ['apps', 'v1', 'ReplicaSet', 'replicasets', true, ['rs'], true, true, ['all']],
  ['apps', 'v1', 'StatefulSet', 'statefulsets', true, ['sts'], true, true, ['all']],
  ['autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true, ['hpa'], true, false, ['all']],
  ['batch', 'v1', 'CronJob', 'cronjobs', true, ['cj'], true, false, ['all']],
  ['batch', 'v1', 'Job', 'jobs', true, [], true, false, ['all']],
  ['coordination.k8s.io', 'v1', 'Lease', 'leases', true, [], false, false],
  ['discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', true, [], false, false],
  ['events.k8s.io', 'v1', 'Event', 'events', true, ['ev'], false, false],
  ['networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', false, [], false, false],
  ['networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, ['ing'], true, false],
  ['networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true, ['netpol'], false, false],
  ['policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, ['pdb'], true, false],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false, [], false, false],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false, [], false, false],
  ['rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true, [], false, false],
  ['rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true, [], false, false],
  ['scheduling.k8s.io', 'v1', 'PriorityClass', 'priorityclasses', false, ['pc'], false, false],
  ['storage.k8s.io', 'v1', 'CSIDriver', 'csidrivers', false, [], false, false],
  ['storage.k8s.io', 'v1', 'CSINode', 'csinodes', false, [], false, false],
  ['storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', false, ['sc'], false, false],
  ['storage.k8s.io', 'v1', 'VolumeAttachment', 'volumeattachments', false, [], true, false],
];

/** Verbs differ for a few resources, as on a real server. */
function verbsFor(group: string, resource: string): string[] {
  if (group === '' && resource === 'bindings') return ['create'];
  if (group === '' && resource === 'componentstatuses') return ['get', 'list'];
  return allVerbs;
}

export function singularOf(kind: string): string {
  return kind.toLowerCase();
}

/** Versions a v1.32 server still serves besides the storage version, converted on the way in and out. */
const alsoServedAt: Readonly<Record<string, string[]>> = {
  'autoscaling/horizontalpodautoscalers': ['v1'],
};

export const builtinResourceTypes: readonly ResourceType[] = builtinRows.map(
  ([group, version, kind, resource, namespaced, shortNames, status, scale, categories]) => ({
    group,
    version,
    kind,
    resource,
    singular: singularOf(kind),
    namespaced,
    shortNames,
    categories: categories ?? [],
    subresources: { status, scale },
    verbs: verbsFor(group, resource),
    ...(alsoServedAt[`${group}/${resource}`] ? { alsoServedAt: alsoServedAt[`${group}/${resource}`] } : {}),
  }),
);

/**
 * API versions a v1.32 server no longer serves, with the version that replaced them: a manifest using one
 * gets `no matches for kind "X" in version "Y"`, exactly as on the real server.
 */
export const removedApiVersions: Readonly<Record<string, string>> = {
  'extensions/v1beta1': 'apps/v1 or networking.k8s.io/v1',
  'apps/v1beta1': 'apps/v1',
  'apps/v1beta2': 'apps/v1',
  'batch/v1beta1': 'batch/v1',
  'policy/v1beta1': 'policy/v1',
  'autoscaling/v2beta1': 'autoscaling/v2',
  'autoscaling/v2beta2': 'autoscaling/v2',
  'networking.k8s.io/v1beta1': 'networking.k8s.io/v1',
  'rbac.authorization.k8s.io/v1beta1': 'rbac.authorization.k8s.io/v1',
  'storage.k8s.io/v1beta1': 'storage.k8s.io/v1',
  'apiextensions.k8s.io/v1beta1': 'apiextensions.k8s.io/v1',
  'discovery.k8s.io/v1beta1': 'discovery.k8s.io/v1',
  'events.k8s.io/v1beta1': 'events.k8s.io/v1',
  'coordination.k8s.io/v1beta1': 'coordination.k8s.io/v1',
  'scheduling.k8s.io/v1beta1': 'scheduling.k8s.io/v1',
};

/**
 * Looks kinds and resources up by every name kubectl accepts. Mutable only through addCustom/removeCustom,
 * which the CRD machinery calls when a CustomResourceDefinition becomes established or goes away.
 */
export class ResourceRegistry {
  private readonly byGvk = new Map<string, ResourceType>();
  private readonly byGroupResource = new Map<string, ResourceType>();
  private readonly listeners = new Set<() => void>();

  constructor(types: readonly ResourceType[] = builtinResourceTypes) {
    for (const t of types) this.index(t);
  }

  private index(t: ResourceType): void {
    this.byGvk.set(gvkKey(t), t);
    this.byGroupResource.set(grKey(t), t);
    for (const version of t.alsoServedAt ?? []) this.byGvk.set(gvkKey({ ...t, version }), { ...t, version });
  }

  all(): ResourceType[] {
    return [...this.byGroupResource.values()];
  }

  forKind(gvk: GroupVersionKind): ResourceType | undefined {
    return this.byGvk.get(gvkKey(gvk));
  }

  forGroupResource(gr: GroupResource): ResourceType | undefined {
    return this.byGroupResource.get(grKey(gr));
  }

  /** The resource at a requested version: the storage version's type, or a copy at another served version. */
  forGroupVersionResource(gvr: { group: string; version: string; resource: string }): ResourceType | undefined {
    const t = this.byGroupResource.get(grKey(gvr));
    if (!t) return undefined;
    if (t.version === gvr.version) return t;
    return t.alsoServedAt?.includes(gvr.version) ? { ...t, version: gvr.version } : undefined;
  }

  /** Group-less name resolution as kubectl does it: plural, singular, short name or kind, optionally "name.group". */
  resolve(name: string): ResourceType[] {
    const lower = name.toLowerCase();
    const dot = lower.indexOf('.');
    const base = dot < 0 ? lower : lower.slice(0, dot);
    const group = dot < 0 ? undefined : lower.slice(dot + 1);
    const out: ResourceType[] = [];
    for (const t of this.byGroupResource.values()) {
      if (group !== undefined && t.group !== group && !t.group.startsWith(`${group}.`)) continue;
      if (t.resource === base || t.singular === base || t.kind.toLowerCase() === base || t.shortNames.includes(base)) out.push(t);
    }
    // Prefer the core and apps groups where names collide (events in core vs events.k8s.io), as kubectl's priority does.
    return out.sort((a, b) => groupPriority(a.group) - groupPriority(b.group));
  }

  addCustom(t: ResourceType): void {
    this.index({ ...t, custom: true });
    this.notify();
  }

  removeCustom(gr: GroupResource): void {
    const t = this.byGroupResource.get(grKey(gr));
    if (!t?.custom) return;
    this.byGroupResource.delete(grKey(gr));
    this.byGvk.delete(gvkKey(t));
    this.notify();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }
}

function gvkKey(g: { group: string; version: string; kind: string }): string {
  return `${g.group}/${g.version}/${g.kind}`;
}

function grKey(g: { group: string; resource: string }): string {
  return `${g.group}/${g.resource}`;
}

function groupPriority(group: string): number {
  if (group === '') return 0;
  if (group === 'apps') return 1;
  if (!group.includes('.') || group.endsWith('.k8s.io')) return 2;
  return 3;
}
