// The default ClusterRoles and ClusterRoleBindings a v1.32 API server writes at start
// (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go; golden file testdata/cluster-roles.yaml),
// limited to the ones users meet: the user-facing roles and their aggregation, discovery, basic-user.
import type { KubeObject } from '../../../shared/api/types';
import { aggregateClusterRoleRules } from './aggregation';
import { type PolicyRule, RbacGroup, type RoleObject } from './policy';

const apiVersion = `${RbacGroup}/v1`;
const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const autoupdate = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

const Read = ['get', 'list', 'watch'];
const ReadWrite = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const Write = ['create', 'update', 'patch', 'delete', 'deletecollection'];

function rule(verbs: string[], apiGroups: string[], resources: string[]): PolicyRule {
  // The golden file lists verbs and resources sorted, as rbacv1helpers.NewRule(...).RuleOrDie() leaves them.
  return { apiGroups, resources: [...resources].sort(), verbs: [...verbs].sort() };
}

function urls(verbs: string[], nonResourceURLs: string[]): PolicyRule {
  return { nonResourceURLs: [...nonResourceURLs].sort(), verbs: [...verbs].sort() };
}

function clusterRole(name: string, rules: PolicyRule[] | undefined, extraLabels: Record<string, string> = {}, aggregateFrom?: string): RoleObject {
  const role: RoleObject = {
    apiVersion,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...bootstrapLabels, ...extraLabels }, annotations: { ...autoupdate } },
  };
  if (aggregateFrom) role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [aggregateFrom]: 'true' } }] };
  if (rules) role.rules = rules;
  return role;
}

function clusterRoleBinding(name: string, roleName: string, groups: string[]): KubeObject {
  return {
    apiVersion,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...bootstrapLabels }, annotations: { ...autoupdate } },
    roleRef: { apiGroup: RbacGroup, kind: 'ClusterRole', name: roleName },
    subjects: groups.map((g) => ({ apiGroup: RbacGroup, kind: 'Group', name: g })),
  };
}

const AggregateToAdmin = 'rbac.authorization.k8s.io/aggregate-to-admin';
const AggregateToEdit = 'rbac.authorization.k8s.io/aggregate-to-edit';
const AggregateToView = 'rbac.authorization.k8s.io/aggregate-to-view';

function aggregateToAdminRules(): PolicyRule[] {
  return [
    rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
    rule(ReadWrite, [RbacGroup], ['roles', 'rolebindings']),
  ];
}

function aggregateToEditRules(): PolicyRule[] {
  return [
    rule(Read, [''], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
    rule(['impersonate'], [''], ['serviceaccounts']),
    rule(Write, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
    rule(['create'], [''], ['pods/eviction']),
    rule(Write, [''], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(Write, ['apps'], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
    rule(Write, ['autoscaling'], ['horizontalpodautoscalers']),
    rule(Write, ['batch'], ['jobs', 'cronjobs']),
    rule(Write, ['extensions'], ['daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies']),
    rule(Write, ['policy'], ['poddisruptionbudgets']),
    rule(Write, ['networking.k8s.io'], ['networkpolicies', 'ingresses']),
    rule(ReadWrite, ['coordination.k8s.io'], ['leases']),
  ];
}

function aggregateToViewRules(): PolicyRule[] {
  return [
    rule(Read, [''], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
    rule(Read, [''], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
    // The view role can see namespaces; the rule is kept apart so edit and admin can aggregate it.
    rule(Read, [''], ['namespaces']),
    rule(Read, ['discovery.k8s.io'], ['endpointslices']),
    rule(Read, ['apps'], ['controllerrevisions', 'statefulsets', 'statefulsets/scale', 'statefulsets/status', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status']),
    rule(Read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
    rule(Read, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
    rule(Read, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale', 'networkpolicies']),
    rule(Read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
    rule(Read, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
  ];
}

/**
 * The bootstrap RBAC objects, cluster roles before bindings. admin, edit and view carry the rules the
 * aggregation controller gives them on a fresh cluster (admin ⊇ edit ⊇ view through their aggregate labels).
 */
export function bootstrapPolicy(): KubeObject[] {
  const roles: RoleObject[] = [
    clusterRole('admin', undefined, {}, AggregateToAdmin),
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    clusterRole('edit', undefined, { [AggregateToAdmin]: 'true' }, AggregateToEdit),
    clusterRole('system:aggregate-to-admin', aggregateToAdminRules(), { [AggregateToAdmin]: 'true' }),
    clusterRole('system:aggregate-to-edit', aggregateToEditRules(), { [AggregateToEdit]: 'true' }),
    clusterRole('system:aggregate-to-view', aggregateToViewRules(), { [AggregateToView]: 'true' }),
    clusterRole('system:basic-user', [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:discovery', [
      urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*']),
    ]),
    clusterRole('system:public-info-viewer', [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])]),
    clusterRole('view', undefined, { [AggregateToEdit]: 'true' }, AggregateToView),
  ];
  // What the aggregation controller writes, innermost first: view, then edit (which includes view), then admin.
  for (const name of ['view', 'edit', 'admin']) {
    const role = roles.find((r) => r.metadata.name === name);
    if (role) role.rules = aggregateClusterRoleRules(role, roles) ?? [];
  }
  const bindings = [
    clusterRoleBinding('cluster-admin', 'cluster-admin', ['system:masters']),
    clusterRoleBinding('system:basic-user', 'system:basic-user', ['system:authenticated']),
    clusterRoleBinding('system:discovery', 'system:discovery', ['system:authenticated']),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
  ];
  return [...roles, ...bindings];
}
