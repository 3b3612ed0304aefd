// The API server's entry point into the registry: the strategy for a resource type. Built-ins with rules of their
// own get their strategy.go equivalent; every other built-in gets the generic strategy (ObjectMeta validation,
// status subresource handling); custom resources get the custom resource strategy of their CRD.
import type { ResourceType } from '../../../shared/api/resources';
import type { KubeObject } from '../../../shared/api/types';
import type { ResourceStrategy } from '../types';
import { customResourceDefinitionStrategy } from './apiextensions/customresourcedefinition/strategy';
import { controllerRevisionStrategy } from './apps/controllerrevision/strategy';
import { daemonSetStrategy } from './apps/daemonset/strategy';
import { deploymentStrategy } from './apps/deployment/strategy';
import { replicaSetStrategy } from './apps/replicaset/strategy';
import { statefulSetStrategy } from './apps/statefulset/strategy';
import { horizontalPodAutoscalerStrategy } from './autoscaling/horizontalpodautoscaler/strategy';
import { cronJobStrategy } from './batch/cronjob/strategy';
import { jobStrategy } from './batch/job/strategy';
import { leaseStrategy } from './coordination/lease/strategy';
import { configMapStrategy } from './core/configmap/strategy';
import { endpointsStrategy } from './core/endpoints/strategy';
import { coreEventStrategy, eventsV1EventStrategy } from './core/event/strategy';
import { limitRangeStrategy } from './core/limitrange/strategy';
import { namespaceStrategy } from './core/namespace/strategy';
import { nodeStrategy } from './core/node/strategy';
import { persistentVolumeStrategy } from './core/persistentvolume/strategy';
import { persistentVolumeClaimStrategy } from './core/persistentvolumeclaim/strategy';
import { validatePodBinding } from './core/pod/binding';
import { podStrategy } from './core/pod/strategy';
import { podTemplateStrategy } from './core/podtemplate/strategy';
import { replicationControllerStrategy } from './core/replicationcontroller/strategy';
import { resourceQuotaStrategy } from './core/resourcequota/strategy';
import { secretStrategy } from './core/secret/strategy';
import { serviceStrategy } from './core/service/strategy';
import { customResourceStrategy } from './customresource/strategy';
import { endpointSliceStrategy } from './discovery/endpointslice/strategy';
import { defineStrategy } from './generic/strategy';
import { ingressStrategy } from './networking/ingress/strategy';
import { ingressClassStrategy } from './networking/ingressclass/strategy';
import { networkPolicyStrategy } from './networking/networkpolicy/strategy';
import { podDisruptionBudgetStrategy } from './policy/poddisruptionbudget/strategy';
import { roleBindingStrategy, roleStrategy } from './rbac/strategy';
import { priorityClassStrategy } from './scheduling/priorityclass/strategy';
import { csiNodeStrategy, storageClassStrategy, volumeAttachmentStrategy } from './storage/strategy';

type Factory = (rt: ResourceType) => ResourceStrategy;

const RBAC = 'rbac.authorization.k8s.io';

const builtins: Record<string, Factory> = {
  '/pods': podStrategy,
  '/services': serviceStrategy,
  '/namespaces': namespaceStrategy,
  '/configmaps': configMapStrategy,
  '/secrets': secretStrategy,
  '/nodes': nodeStrategy,
  '/persistentvolumes': persistentVolumeStrategy,
  '/persistentvolumeclaims': persistentVolumeClaimStrategy,
  '/events': coreEventStrategy,
  '/limitranges': limitRangeStrategy,
  '/resourcequotas': resourceQuotaStrategy,
  '/replicationcontrollers': replicationControllerStrategy,
  '/podtemplates': podTemplateStrategy,
  '/endpoints': endpointsStrategy,
  '/bindings': (rt) => defineStrategy(rt, { validateSpec: validatePodBinding }),
  'apps/deployments': deploymentStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apps/controllerrevisions': controllerRevisionStrategy,
  'batch/jobs': jobStrategy,
  'batch/cronjobs': cronJobStrategy,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerStrategy,
  'policy/poddisruptionbudgets': podDisruptionBudgetStrategy,
  'networking.k8s.io/ingresses': ingressStrategy,
  'networking.k8s.io/ingressclasses': ingressClassStrategy,
  'networking.k8s.io/networkpolicies': networkPolicyStrategy,
  [`${RBAC}/roles`]: roleStrategy,
  [`${RBAC}/clusterroles`]: roleStrategy,
  [`${RBAC}/rolebindings`]: roleBindingStrategy,
  [`${RBAC}/clusterrolebindings`]: roleBindingStrategy,
  'storage.k8s.io/storageclasses': storageClassStrategy,
  'storage.k8s.io/volumeattachments': volumeAttachmentStrategy,
  'storage.k8s.io/csinodes': csiNodeStrategy,
  'coordination.k8s.io/leases': leaseStrategy,
  'discovery.k8s.io/endpointslices': endpointSliceStrategy,
  'events.k8s.io/events': eventsV1EventStrategy,
  'scheduling.k8s.io/priorityclasses': priorityClassStrategy,
  'apiextensions.k8s.io/customresourcedefinitions': customResourceDefinitionStrategy,
};

const cache = new WeakMap<ResourceType, ResourceStrategy>();

/**
 * The strategy for a resource type. For a custom resource pass its CustomResourceDefinition to get the scale
 * subresource from the CRD's replica and selector paths (without it, scale is left undefined for the caller to
 * fill). Strategies are stateless; built-in ones are cached per ResourceType.
 */
export function strategyFor(rt: ResourceType, crd?: KubeObject): ResourceStrategy {
  if (rt.custom) return customResourceStrategy(rt, crd);
  const cached = cache.get(rt);
  if (cached) return cached;
  const factory = builtins[`${rt.group}/${rt.resource}`];
  const strategy = factory ? factory(rt) : defineStrategy(rt, {});
  cache.set(rt, strategy);
  return strategy;
}
