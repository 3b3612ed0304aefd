// The table behind the typed accessors (client.pods, informers.deployments, …): resource → group/version/kind,
// with the kubernetes-types type each one returns. Any other resource is reached with client.resource(gvr).
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1';
import type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { Lease } from 'kubernetes-types/coordination/v1';
import type {
  ConfigMap,
  Endpoints,
  Event,
  LimitRange,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodTemplate,
  ReplicationController,
  ResourceQuota,
  Secret,
  Service,
  ServiceAccount,
} from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Ingress, IngressClass, NetworkPolicy } from 'kubernetes-types/networking/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { GroupVersionResource } from '../../shared/api/types';

/** A resource with the object type it holds (a phantom: `type` is never set). */
export interface TypedResource<T> extends GroupVersionResource {
  kind: string;
  readonly type?: T;
}

function def<T>(group: string, version: string, resource: string, kind: string): TypedResource<T> {
  return { group, version, resource, kind };
}

export const typedResources = {
  configMaps: def<ConfigMap>('', 'v1', 'configmaps', 'ConfigMap'),
  endpoints: def<Endpoints>('', 'v1', 'endpoints', 'Endpoints'),
  events: def<Event>('', 'v1', 'events', 'Event'),
  limitRanges: def<LimitRange>('', 'v1', 'limitranges', 'LimitRange'),
  namespaces: def<Namespace>('', 'v1', 'namespaces', 'Namespace'),
  nodes: def<Node>('', 'v1', 'nodes', 'Node'),
  persistentVolumeClaims: def<PersistentVolumeClaim>('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim'),
  persistentVolumes: def<PersistentVolume>('', 'v1', 'persistentvolumes', 'PersistentVolume'),
  pods: def<Pod>('', 'v1', 'pods', 'Pod'),
  podTemplates: def<PodTemplate>('', 'v1', 'podtemplates', 'PodTemplate'),
  replicationControllers: def<ReplicationController>('', 'v1', 'replicationcontrollers', 'ReplicationController'),
  resourceQuotas: def<ResourceQuota>('', 'v1', 'resourcequotas', 'ResourceQuota'),
  secrets: def<Secret>('', 'v1', 'secrets', 'Secret'),
  serviceAccounts: def<ServiceAccount>('', 'v1', 'serviceaccounts', 'ServiceAccount'),
  services: def<Service>('', 'v1', 'services', 'Service'),
  controllerRevisions: def<ControllerRevision>('apps', 'v1', 'controllerrevisions', 'ControllerRevision'),
  daemonSets: def<DaemonSet>('apps', 'v1', 'daemonsets', 'DaemonSet'),
  deployments: def<Deployment>('apps', 'v1', 'deployments', 'Deployment'),
  replicaSets: def<ReplicaSet>('apps', 'v1', 'replicasets', 'ReplicaSet'),
  statefulSets: def<StatefulSet>('apps', 'v1', 'statefulsets', 'StatefulSet'),
  horizontalPodAutoscalers: def<HorizontalPodAutoscaler>('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
  cronJobs: def<CronJob>('batch', 'v1', 'cronjobs', 'CronJob'),
  jobs: def<Job>('batch', 'v1', 'jobs', 'Job'),
  leases: def<Lease>('coordination.k8s.io', 'v1', 'leases', 'Lease'),
  endpointSlices: def<EndpointSlice>('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice'),
  ingresses: def<Ingress>('networking.k8s.io', 'v1', 'ingresses', 'Ingress'),
  ingressClasses: def<IngressClass>('networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass'),
  networkPolicies: def<NetworkPolicy>('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy'),
  podDisruptionBudgets: def<PodDisruptionBudget>('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget'),
  clusterRoleBindings: def<ClusterRoleBinding>('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding'),
  clusterRoles: def<ClusterRole>('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole'),
  roleBindings: def<RoleBinding>('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding'),
  roles: def<Role>('rbac.authorization.k8s.io', 'v1', 'roles', 'Role'),
  priorityClasses: def<PriorityClass>('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass'),
  storageClasses: def<StorageClass>('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass'),
  customResourceDefinitions: def<CustomResourceDefinition>('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition'),
} as const;

export type TypedResourceName = keyof typeof typedResources;

/** The object type of a typed resource: ObjectOf<'pods'> is Pod. */
export type ObjectOf<K extends TypedResourceName> = (typeof typedResources)[K] extends TypedResource<infer T> ? T : never;
