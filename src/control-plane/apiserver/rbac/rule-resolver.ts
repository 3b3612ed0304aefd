// Which PolicyRules apply to a user in a namespace: pkg/registry/rbac/validation/rule.go (DefaultRuleResolver).
// Reads the four RBAC resources through the ObjectReader and keeps an indexed snapshot until they change.
import type { KubeObject } from '../../../shared/api/types';
import { matchesServiceAccountUsername } from '../authentication/serviceaccount';
import type { ObjectReader, UserInfo } from '../types';
import { effectiveClusterRoleRules } from './aggregation';
import { type BindingObject, type PolicyRule, RbacGroup, RbacResource, type RoleObject, type RoleRef, type Subject } from './policy';

/** Called with each rule that applies (and where it comes from), or with a resolution error. Return false to stop. */
export type RuleVisitor = (source: string | undefined, rule: PolicyRule | undefined, err: string | undefined) => boolean;

export interface RuleResolverOptions {
  /**
   * A number that changes whenever any Role, ClusterRole, RoleBinding or ClusterRoleBinding changes (e.g. the
   * store's last modification revision of those keys). When given, the resolver re-reads only when it moves;
   * otherwise it lists the four resources per call and compares their count and newest resourceVersion.
   */
  revision?: () => number | string;
}

interface Snapshot {
  clusterRoleBindings: BindingObject[];
  roleBindingsByNamespace: Map<string, BindingObject[]>;
  roles: Map<string, RoleObject>; // "<ns>/<name>"
  clusterRoles: Map<string, RoleObject>;
  aggregatedRules: Map<string, readonly PolicyRule[]>;
}

const lowerKind: Record<string, string> = { Role: 'role', ClusterRole: 'clusterrole' };

/** The lister's NotFound: singular resource, as generated listers spell it. */
function listerNotFound(kind: string, name: string): string {
  return `${lowerKind[kind]}.${RbacGroup} "${name}" not found`;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') {
    return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  }
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

export function subjectAppliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      // Bindings may leave the namespace out for service accounts of their own namespace.
      const saNamespace = subject.namespace || namespace;
      if (!saNamespace) return false;
      return matchesServiceAccountUsername(saNamespace, subject.name, user.username);
    }
    default:
      return false;
  }
}

function firstApplyingSubject(user: UserInfo, subjects: readonly Subject[] | null | undefined, namespace: string): number {
  const list = subjects ?? [];
  for (let i = 0; i < list.length; i++) if (subjectAppliesToUser(user, list[i], namespace)) return i;
  return -1;
}

function byKey(a: KubeObject, b: KubeObject): number {
  const x = `${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`;
  const y = `${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Count and newest resourceVersion: any create, update or delete changes one of them (revisions only grow). */
function fingerprintOf(lists: KubeObject[][]): string | undefined {
  const parts: string[] = [];
  for (const list of lists) {
    let max = 0;
    for (const o of list) {
      const rv = Number(o.metadata.resourceVersion);
      if (!o.metadata.resourceVersion || !Number.isFinite(rv)) return undefined; // cannot tell: do not cache
      if (rv > max) max = rv;
    }
    parts.push(`${list.length}:${max}`);
  }
  return parts.join('|');
}

export class RuleResolver {
  private snapshot: Snapshot | undefined;
  private snapshotKey: string | undefined;

  constructor(
    private readonly reader: ObjectReader,
    private readonly options: RuleResolverOptions = {},
  ) {}

  private current(): Snapshot {
    if (this.options.revision) {
      const key = String(this.options.revision());
      if (this.snapshot && key === this.snapshotKey) return this.snapshot;
      this.snapshot = this.build(this.readAll());
      this.snapshotKey = key;
      return this.snapshot;
    }
    const lists = this.readAll();
    const key = fingerprintOf(lists);
    if (this.snapshot && key !== undefined && key === this.snapshotKey) return this.snapshot;
    this.snapshot = this.build(lists);
    this.snapshotKey = key;
    return this.snapshot;
  }

  private readAll(): KubeObject[][] {
    return [
      this.reader.list(RbacResource.ClusterRoleBindings),
      this.reader.list(RbacResource.RoleBindings),
      this.reader.list(RbacResource.Roles),
      this.reader.list(RbacResource.ClusterRoles),
    ];
  }

  private build([crbs, rbs, roles, clusterRoles]: KubeObject[][]): Snapshot {
    const roleBindingsByNamespace = new Map<string, BindingObject[]>();
    for (const rb of [...rbs].sort(byKey) as BindingObject[]) {
      const ns = rb.metadata.namespace ?? '';
      const list = roleBindingsByNamespace.get(ns);
      if (list) list.push(rb);
      else roleBindingsByNamespace.set(ns, [rb]);
    }
    return {
      clusterRoleBindings: [...crbs].sort(byKey) as BindingObject[],
      roleBindingsByNamespace,
      roles: new Map(roles.map((r) => [`${r.metadata.namespace ?? ''}/${r.metadata.name ?? ''}`, r as RoleObject])),
      clusterRoles: new Map(clusterRoles.map((r) => [r.metadata.name ?? '', r as RoleObject])),
      aggregatedRules: new Map(),
    };
  }

  /**
   * The rules a RoleBinding (namespace set) or ClusterRoleBinding (namespace "") grants through its roleRef.
   * ClusterRoles with an aggregationRule yield their aggregated rules even if no controller wrote them yet.
   */
  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string): { rules: readonly PolicyRule[] } | { error: string } {
    return this.roleRefRules(this.current(), roleRef, bindingNamespace);
  }

  private roleRefRules(s: Snapshot, roleRef: RoleRef, ns: string): { rules: readonly PolicyRule[] } | { error: string } {
    switch (roleRef.kind) {
      case 'Role': {
        const role = s.roles.get(`${ns}/${roleRef.name}`);
        if (!ns || !role) return { error: listerNotFound('Role', roleRef.name) };
        return { rules: role.rules ?? [] };
      }
      case 'ClusterRole': {
        const rules = effectiveClusterRoleRules(roleRef.name, s.clusterRoles, s.aggregatedRules);
        if (!rules) return { error: listerNotFound('ClusterRole', roleRef.name) };
        return { rules };
      }
      default:
        return { error: `unsupported role reference kind: ${JSON.stringify(roleRef.kind)}` };
    }
  }

  /** ClusterRoleBindings first, then the RoleBindings of the namespace, as VisitRulesFor does. */
  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    const s = this.current();
    for (const crb of s.clusterRoleBindings) {
      const i = firstApplyingSubject(user, crb.subjects, '');
      if (i < 0) continue;
      const res = this.roleRefRules(s, crb.roleRef, '');
      if ('error' in res) {
        if (!visitor(undefined, undefined, res.error)) return;
        continue;
      }
      const source = `ClusterRoleBinding ${JSON.stringify(crb.metadata.name ?? '')} of ${crb.roleRef.kind} ${JSON.stringify(crb.roleRef.name)} to ${describeSubject((crb.subjects ?? [])[i], '')}`;
      for (const rule of res.rules) if (!visitor(source, rule, undefined)) return;
    }
    if (!namespace) return;
    for (const rb of s.roleBindingsByNamespace.get(namespace) ?? []) {
      const i = firstApplyingSubject(user, rb.subjects, namespace);
      if (i < 0) continue;
      const res = this.roleRefRules(s, rb.roleRef, namespace);
      if ('error' in res) {
        if (!visitor(undefined, undefined, res.error)) return;
        continue;
      }
      const source = `RoleBinding ${JSON.stringify(`${rb.metadata.name ?? ''}/${namespace}`)} of ${rb.roleRef.kind} ${JSON.stringify(rb.roleRef.name)} to ${describeSubject((rb.subjects ?? [])[i], namespace)}`;
      for (const rule of res.rules) if (!visitor(source, rule, undefined)) return;
    }
  }

  /** Every rule that applies (possibly incomplete, with the resolution errors met). */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several de-duplicated in brackets. */
export function aggregateMessages(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0];
  const seen: string[] = [];
  for (const m of messages) if (!seen.includes(m)) seen.push(m);
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}
