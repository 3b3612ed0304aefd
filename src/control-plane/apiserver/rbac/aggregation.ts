// ClusterRole aggregation, as pkg/controller/clusterroleaggregation computes it: the rules of every ClusterRole
// a selector picks (sorted by name, the role itself excluded), de-duplicated in order.
import { labelSelectorMatches } from '../../../shared/lib/labels';
import type { PolicyRule, RoleObject } from './policy';

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** equality.Semantic.DeepEqual on PolicyRules: nil and empty lists are equal. */
export function ruleEquals(a: PolicyRule, b: PolicyRule): boolean {
  return (
    sameList(a.verbs, b.verbs) &&
    sameList(a.apiGroups, b.apiGroups) &&
    sameList(a.resources, b.resources) &&
    sameList(a.resourceNames, b.resourceNames) &&
    sameList(a.nonResourceURLs, b.nonResourceURLs)
  );
}

function byName(a: RoleObject, b: RoleObject): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * One pass of the aggregation controller: the rules `role` should have given the rules the other ClusterRoles
 * have now. Returns undefined when the role has no aggregationRule (its rules are its own).
 */
export function aggregateClusterRoleRules(
  role: RoleObject,
  clusterRoles: readonly RoleObject[],
  rulesOf: (r: RoleObject) => readonly PolicyRule[] = (r) => r.rules ?? [],
): PolicyRule[] | undefined {
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (!role.aggregationRule) return undefined;
  const out: PolicyRule[] = [];
  const sorted = [...clusterRoles].sort(byName);
  for (const selector of selectors ?? []) {
    for (const other of sorted) {
      if (other.metadata.name === role.metadata.name) continue;
      if (!labelSelectorMatches(selector, other.metadata.labels)) continue;
      for (const rule of rulesOf(other)) {
        if (!out.some((r) => ruleEquals(r, rule))) out.push(rule);
      }
    }
  }
  return out;
}

/**
 * The rules the aggregation controller converges to, computed at once: aggregated roles that select other
 * aggregated roles (admin ← edit ← view) see those roles' aggregated rules. A cycle falls back to the stored
 * rules of the role already being computed. Lets authorization work without the controller running.
 */
export function effectiveClusterRoleRules(
  name: string,
  byRoleName: ReadonlyMap<string, RoleObject>,
  memo: Map<string, readonly PolicyRule[]> = new Map(),
): readonly PolicyRule[] | undefined {
  const all = [...byRoleName.values()];
  const inProgress = new Set<string>();
  const visit = (role: RoleObject): readonly PolicyRule[] => {
    const n = role.metadata.name ?? '';
    const cached = memo.get(n);
    if (cached) return cached;
    if (!role.aggregationRule || inProgress.has(n)) return role.rules ?? [];
    inProgress.add(n);
    const rules = aggregateClusterRoleRules(role, all, visit) ?? [];
    inProgress.delete(n);
    memo.set(n, rules);
    return rules;
  };
  const role = byRoleName.get(name);
  return role ? visit(role) : undefined;
}
