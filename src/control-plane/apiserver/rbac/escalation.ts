// RBAC escalation prevention: nobody may grant permissions they do not hold. The checks of
// pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/storage.go, with Covers from
// component-helpers/auth/rbac/validation/policy_comparator.go and the message of ConfirmNoEscalation.
//
// Not an admission plugin: in Kubernetes this runs in the RBAC REST storage, after mutating admission and before
// validation and validating admission. The pipeline calls checkEscalation there for create/update of the four
// RBAC resources.
import { newForbidden, newInternalError, newNotFound } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { SystemGroup } from '../authentication/serviceaccount';
import type { AdmissionAttributes, Authorizer, ObjectReader, UserInfo } from '../types';
import { AdmissionOperation, Decision } from '../types';
import { RBACAuthorizer } from './authorizer';
import { type BindingObject, type PolicyRule, RbacGroup, ResourceAll, type RoleObject, VerbAll, APIGroupAll } from './policy';
import { RuleResolver, aggregateMessages } from './rule-resolver';

// ---------------------------------------------------------------- Covers

/** One verb, one group, one resource, at most one resourceName (or one URL and one verb) per rule. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if ((rule.resourceNames ?? []).length > 0) {
          for (const name of rule.resourceNames ?? []) {
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
          }
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function hasAll(set: readonly string[] | undefined, contains: readonly string[] | undefined): boolean {
  const owning = new Set(set ?? []);
  for (const e of contains ?? []) if (!owning.has(e)) return false;
  return true;
}

function resourceCoversAll(setResources: readonly string[] | undefined, covers: readonly string[] | undefined): boolean {
  const set = setResources ?? [];
  if (set.includes(ResourceAll) || hasAll(set, covers)) return true;
  for (const path of covers ?? []) {
    if (set.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!set.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  if (owner === sub) return true;
  return owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, ''));
}

function nonResourceURLsCoversAll(set: readonly string[] | undefined, covers: readonly string[] | undefined): boolean {
  for (const path of covers ?? []) {
    if (!(set ?? []).some((owner) => nonResourceURLCovers(owner, path))) return false;
  }
  return true;
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbMatches = (owner.verbs ?? []).includes(VerbAll) || hasAll(owner.verbs, sub.verbs);
  const groupMatches = (owner.apiGroups ?? []).includes(APIGroupAll) || hasAll(owner.apiGroups, sub.apiGroups);
  const resourceMatches = resourceCoversAll(owner.resources, sub.resources);
  const urlMatches = nonResourceURLsCoversAll(owner.nonResourceURLs, sub.nonResourceURLs);
  const ownerNames = owner.resourceNames ?? [];
  const nameMatches =
    (sub.resourceNames ?? []).length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames);
  return verbMatches && groupMatches && resourceMatches && nameMatches && urlMatches;
}

/** Whether ownerRules allow everything servantRules do, and the broken-down rules they do not. */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const servant of servantRules) {
    for (const sub of breakdownRule(servant)) {
      if (!ownerRules.some((o) => ruleCovers(o, sub))) missing.push(sub);
    }
  }
  return { covered: missing.length === 0, missing };
}

// ---------------------------------------------------------------- message

/** Go's %q on a []string: `["a" "b"]`. */
function quoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** rbacv1helpers.CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if ((r.apiGroups ?? []).length > 0) parts.push(`APIGroups:${quoteList(r.apiGroups ?? [])}`);
  if ((r.resources ?? []).length > 0) parts.push(`Resources:${quoteList(r.resources ?? [])}`);
  if ((r.nonResourceURLs ?? []).length > 0) parts.push(`NonResourceURLs:${quoteList(r.nonResourceURLs ?? [])}`);
  if ((r.resourceNames ?? []).length > 0) parts.push(`ResourceNames:${quoteList(r.resourceNames ?? [])}`);
  if ((r.verbs ?? []).length > 0) parts.push(`Verbs:${quoteList(r.verbs ?? [])}`);
  return `{${parts.join(', ')}}`;
}

/** CompactRules: single group+resource rules that differ only in verbs are merged. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const isSimple =
      (rule.resourceNames ?? []).length === 0 &&
      (rule.nonResourceURLs ?? []).length === 0 &&
      (rule.apiGroups ?? []).length === 1 &&
      (rule.resources ?? []).length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = `${(rule.apiGroups ?? [])[0]}\u0000${(rule.resources ?? [])[0]}`;
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...(rule.verbs ?? [])];
    else simple.set(key, { apiGroups: [...(rule.apiGroups ?? [])], resources: [...(rule.resources ?? [])], verbs: [...(rule.verbs ?? [])] });
  }
  return [...compacted, ...simple.values()];
}

/**
 * ConfirmNoEscalation: undefined when the user's rules in the namespace cover `rules`, else the message
 * `user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n…`.
 */
export function confirmNoEscalation(
  resolver: RuleResolver,
  user: UserInfo,
  namespace: string,
  rules: readonly PolicyRule[],
): string | undefined {
  const { rules: ownerRules, errors } = resolver.rulesFor(user, namespace);
  const { covered, missing } = covers(ownerRules, rules);
  if (covered) return undefined;
  // sets.NewString(...).List(): unique and sorted.
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.username)} (groups=${quoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (errors.length > 0) msg += `; resolution errors: [${aggregateMessages(errors)}]`;
  return msg;
}

// ---------------------------------------------------------------- the storage checks

const fullAuthority: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** rbacregistry.IsOnlyMutatingGCFields: the update only touches ownerReferences, finalizers or deletion fields. */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (!old) return false;
  const copy: KubeObject = {
    ...obj,
    metadata: {
      ...obj.metadata,
      ownerReferences: old.metadata.ownerReferences,
      finalizers: old.metadata.finalizers,
      selfLink: old.metadata.selfLink,
      deletionTimestamp: old.metadata.deletionTimestamp,
      deletionGracePeriodSeconds: old.metadata.deletionGracePeriodSeconds,
    },
  };
  return stableJson(copy) === stableJson(old);
}

function resolverFor(authorizer: Authorizer, reader: ObjectReader): RuleResolver {
  return authorizer instanceof RBACAuthorizer ? authorizer.resolver : new RuleResolver(reader);
}

function allowed(authorizer: Authorizer, attrs: Parameters<Authorizer['authorize']>[0]): boolean {
  return authorizer.authorize(attrs).decision === Decision.Allow;
}

/**
 * Throws the 403 (or 404 for a binding to a missing role) the RBAC storage returns when a create/update of a
 * Role, ClusterRole, RoleBinding or ClusterRoleBinding would grant permissions the user does not hold.
 * Members of system:masters, holders of `escalate` (roles) or `bind` (bindings) pass.
 */
export function checkEscalation(attrs: AdmissionAttributes, authorizer: Authorizer, reader: ObjectReader): void {
  const { group, resource } = attrs.resourceType;
  if (group !== RbacGroup || attrs.subresource) return;
  if (attrs.operation !== AdmissionOperation.Create && attrs.operation !== AdmissionOperation.Update) return;
  const obj = attrs.object;
  if (!obj) return;
  const user = attrs.user;
  if (user.groups.includes(SystemGroup.Privileged)) return; // EscalationAllowed
  const isUpdate = attrs.operation === AdmissionOperation.Update;
  const namespace = attrs.namespace;
  const gr = { group, resource };
  const name = obj.metadata.name ?? attrs.name;

  if (resource === 'roles' || resource === 'clusterroles') {
    // RoleEscalationAuthorized: the escalate verb on this role (the URL names it only for updates).
    const escalate = { user, verb: 'escalate', group, resource, namespace, name: isUpdate ? attrs.name : '' };
    if (allowed(authorizer, escalate)) return;
    if (isUpdate && isOnlyMutatingGCFields(obj, attrs.oldObject)) return;
    const resolver = resolverFor(authorizer, reader);
    const role = obj as RoleObject;
    const msg = confirmNoEscalation(resolver, user, namespace, role.rules ?? []);
    if (msg) throw newForbidden(gr, name, msg);
    if (resource === 'clusterroles') {
      const old = attrs.oldObject as RoleObject | undefined;
      const aggregationSet = role.aggregationRule !== undefined && role.aggregationRule !== null;
      const changed = isUpdate ? stableJson(role.aggregationRule ?? null) !== stableJson(old?.aggregationRule ?? null) : aggregationSet;
      if (changed && confirmNoEscalation(resolver, user, namespace, fullAuthority)) {
        throw newForbidden(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
    return;
  }

  if (resource === 'rolebindings' || resource === 'clusterrolebindings') {
    if (isUpdate && isOnlyMutatingGCFields(obj, attrs.oldObject)) return;
    const binding = obj as BindingObject;
    const roleRef = binding.roleRef ?? { apiGroup: '', kind: '', name: '' };
    // BindingAuthorized: the bind verb on the referenced role, in the binding's namespace.
    const roleResource = roleRef.kind === 'ClusterRole' ? 'clusterroles' : roleRef.kind === 'Role' ? 'roles' : undefined;
    if (roleResource) {
      const bind = { user, verb: 'bind', group: roleRef.apiGroup, resource: roleResource, namespace, name: roleRef.name };
      if (allowed(authorizer, bind)) return;
    }
    const resolver = resolverFor(authorizer, reader);
    const res = resolver.getRoleReferenceRules(roleRef, namespace);
    if ('error' in res) {
      // The storage-backed role getter answers with the registry's NotFound (plural resource).
      if (roleResource) throw newNotFound({ group: RbacGroup, resource: roleResource }, roleRef.name);
      throw newInternalError(res.error);
    }
    const msg = confirmNoEscalation(resolver, user, namespace, res.rules);
    if (msg) throw newForbidden(gr, name, msg);
  }
}
