// RBAC object shapes and rule matching, as pkg/apis/rbac/v1/evaluation_helpers.go and
// plugin/pkg/auth/authorizer/rbac/rbac.go (RuleAllows) define them.
import type { GroupResource, KubeObject, LabelSelector } from '../../../shared/api/types';
import type { AuthorizationAttributes } from '../types';

export const RbacGroup = 'rbac.authorization.k8s.io';

export const RbacResource = {
  Roles: { group: RbacGroup, resource: 'roles' },
  ClusterRoles: { group: RbacGroup, resource: 'clusterroles' },
  RoleBindings: { group: RbacGroup, resource: 'rolebindings' },
  ClusterRoleBindings: { group: RbacGroup, resource: 'clusterrolebindings' },
} as const satisfies Record<string, GroupResource>;

export const VerbAll = '*';
export const APIGroupAll = '*';
export const ResourceAll = '*';
export const NonResourceAll = '*';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount' | string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole' | string;
  name: string;
}

export interface RoleObject extends KubeObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export interface BindingObject extends KubeObject {
  roleRef: RoleRef;
  subjects?: Subject[] | null;
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  for (const v of rule.verbs ?? []) if (v === VerbAll || v === verb) return true;
  return false;
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  for (const g of rule.apiGroups ?? []) if (g === APIGroupAll || g === group) return true;
  return false;
}

/** "pods", "pods/status", "*", and "*\/scale" for any resource's scale subresource. */
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ResourceAll || r === combinedResource) return true;
    if (!subresource) continue;
    if (r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  if (names.length === 0) return true;
  return names.includes(name);
}

/** Exact paths, "*", or a prefix ending in "*" ("/healthz/*"). */
export function nonResourceURLMatches(rule: PolicyRule, url: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === NonResourceAll || u === url) return true;
    if (u.endsWith('*') && url.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (attrs.path === undefined) {
    const subresource = attrs.subresource ?? '';
    const resource = attrs.resource ?? '';
    const combined = subresource ? `${resource}/${subresource}` : resource;
    return (
      verbMatches(rule, attrs.verb) &&
      apiGroupMatches(rule, attrs.group ?? '') &&
      resourceMatches(rule, combined, subresource) &&
      resourceNameMatches(rule, attrs.name ?? '')
    );
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}

export function rulesAllow(attrs: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
  for (const r of rules) if (ruleAllows(attrs, r)) return true;
  return false;
}
