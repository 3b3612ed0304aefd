import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { FakeReader } from '../admission/fake-reader';
import { authenticate } from '../authentication/authenticator';
import type { AuthorizationAttributes, UserInfo } from '../types';
import { Decision, defaultAdminUser } from '../types';
import { RBACAuthorizer, canI, rulesFor } from './authorizer';
import { bootstrapPolicy } from './bootstrap-policy';
import type { PolicyRule, Subject } from './policy';

const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

function role(namespace: string, name: string, rules: PolicyRule[]): KubeObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { namespace, name }, rules };
}
function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, labels }, rules };
}
function roleBinding(namespace: string, name: string, kind: 'Role' | 'ClusterRole', roleName: string, subjects: Subject[]): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { namespace, name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
    subjects,
  };
}
function clusterRoleBinding(name: string, roleName: string, subjects: Subject[]): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects,
  };
}
const user = (name: string): Subject => ({ kind: 'User', name, apiGroup: 'rbac.authorization.k8s.io' });

function can(authz: RBACAuthorizer, attrs: Omit<AuthorizationAttributes, 'user'>, who: UserInfo = alice): boolean {
  return authz.authorize({ ...attrs, user: who }).decision === Decision.Allow;
}

describe('RBACAuthorizer', () => {
  it('allows through a Role and RoleBinding in that namespace only, and names the binding in the reason', () => {
    const reader = new FakeReader([
      role('default', 'pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }]),
      roleBinding('default', 'read-pods', 'Role', 'pod-reader', [user('alice')]),
    ]);
    const authz = new RBACAuthorizer(reader);
    const result = authz.authorize({ user: alice, verb: 'list', group: '', resource: 'pods', namespace: 'default' });
    expect(result).toEqual({
      decision: Decision.Allow,
      reason: 'RBAC: allowed by RoleBinding "read-pods/default" of Role "pod-reader" to User "alice"',
    });
    expect(can(authz, { verb: 'delete', group: '', resource: 'pods', namespace: 'default', name: 'x' })).toBe(false);
    expect(can(authz, { verb: 'list', group: '', resource: 'pods', namespace: 'other' })).toBe(false);
    expect(can(authz, { verb: 'list', group: '', resource: 'pods' })).toBe(false); // all namespaces = cluster scope
    expect(can(authz, { verb: 'list', group: 'apps', resource: 'pods', namespace: 'default' })).toBe(false);
    expect(can(authz, { verb: 'list', group: '', resource: 'pods', namespace: 'default' }, { username: 'bob', groups: [] })).toBe(false);
  });

  it('grants a ClusterRole through a RoleBinding only inside the binding namespace', () => {
    const reader = new FakeReader([
      clusterRole('secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]),
      roleBinding('dev', 'read-secrets', 'ClusterRole', 'secret-reader', [user('alice')]),
    ]);
    const authz = new RBACAuthorizer(reader);
    expect(can(authz, { verb: 'get', group: '', resource: 'secrets', namespace: 'dev', name: 's' })).toBe(true);
    expect(can(authz, { verb: 'get', group: '', resource: 'secrets', namespace: 'prod', name: 's' })).toBe(false);
    expect(can(authz, { verb: 'get', group: '', resource: 'secrets', name: 's' })).toBe(false);
  });

  it('grants a ClusterRoleBinding everywhere, including the cluster scope, and matches groups', () => {
    const reader = new FakeReader([
      clusterRole('node-reader', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }]),
      clusterRoleBinding('ops-nodes', 'node-reader', [{ kind: 'Group', name: 'ops', apiGroup: 'rbac.authorization.k8s.io' }]),
    ]);
    const authz = new RBACAuthorizer(reader);
    const ops: UserInfo = { username: 'carol', groups: ['ops', 'system:authenticated'] };
    expect(authz.authorize({ user: ops, verb: 'list', group: '', resource: 'nodes' })).toEqual({
      decision: Decision.Allow,
      reason: 'RBAC: allowed by ClusterRoleBinding "ops-nodes" of ClusterRole "node-reader" to Group "ops"',
    });
    expect(can(authz, { verb: 'list', group: '', resource: 'nodes' })).toBe(false);
  });

  it('limits rules with resourceNames to the named objects', () => {
    const reader = new FakeReader([
      role('default', 'one-cm', [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-config'], verbs: ['get', 'update'] }]),
      roleBinding('default', 'b', 'Role', 'one-cm', [user('alice')]),
    ]);
    const authz = new RBACAuthorizer(reader);
    expect(can(authz, { verb: 'get', group: '', resource: 'configmaps', namespace: 'default', name: 'app-config' })).toBe(true);
    expect(can(authz, { verb: 'get', group: '', resource: 'configmaps', namespace: 'default', name: 'other' })).toBe(false);
    // A list has no name, so a resourceNames rule cannot allow it.
    expect(can(authz, { verb: 'list', group: '', resource: 'configmaps', namespace: 'default' })).toBe(false);
  });

  it('matches subresources exactly, and "*/scale" for any resource', () => {
    const reader = new FakeReader([
      role('default', 'logs', [
        { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
        { apiGroups: ['apps'], resources: ['*/scale'], verbs: ['update'] },
      ]),
      roleBinding('default', 'b', 'Role', 'logs', [user('alice')]),
    ]);
    const authz = new RBACAuthorizer(reader);
    expect(can(authz, { verb: 'get', group: '', resource: 'pods', subresource: 'log', namespace: 'default', name: 'p' })).toBe(true);
    expect(can(authz, { verb: 'get', group: '', resource: 'pods', namespace: 'default', name: 'p' })).toBe(false);
    expect(can(authz, { verb: 'get', group: '', resource: 'pods', subresource: 'status', namespace: 'default', name: 'p' })).toBe(false);
    expect(can(authz, { verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'default', name: 'd' })).toBe(true);
    expect(can(authz, { verb: 'update', group: 'apps', resource: 'deployments', namespace: 'default', name: 'd' })).toBe(false);
  });

  it('matches non-resource URLs exactly or by a "*" suffix, only from ClusterRoleBindings', () => {
    const reader = new FakeReader([
      clusterRole('health', [{ nonResourceURLs: ['/healthz', '/logs/*'], verbs: ['get'] }]),
      clusterRoleBinding('health', 'health', [user('alice')]),
    ]);
    const authz = new RBACAuthorizer(reader);
    expect(can(authz, { verb: 'get', path: '/healthz' })).toBe(true);
    expect(can(authz, { verb: 'get', path: '/healthz/etcd' })).toBe(false);
    expect(can(authz, { verb: 'get', path: '/logs/kube-apiserver.log' })).toBe(true);
    expect(can(authz, { verb: 'post', path: '/healthz' })).toBe(false);
  });

  it('identifies service accounts by username, defaulting the subject namespace to the binding namespace', () => {
    const reader = new FakeReader([
      role('ci', 'deployer', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }]),
      roleBinding('ci', 'b', 'Role', 'deployer', [{ kind: 'ServiceAccount', name: 'builder' }]),
      clusterRole('ns-reader', [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }]),
      clusterRoleBinding('all-sas', 'ns-reader', [{ kind: 'Group', name: 'system:serviceaccounts:ci', apiGroup: 'rbac.authorization.k8s.io' }]),
    ]);
    const authz = new RBACAuthorizer(reader);
    const sa = authenticate({ verb: 'get', group: '', version: 'v1', resource: 'pods' }, { username: 'system:serviceaccount:ci:builder', groups: [] });
    expect(sa.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated']);
    expect(authz.authorize({ user: sa, verb: 'create', group: 'apps', resource: 'deployments', namespace: 'ci' }).reason).toBe(
      'RBAC: allowed by RoleBinding "b/ci" of Role "deployer" to ServiceAccount "builder/ci"',
    );
    expect(can(authz, { verb: 'get', group: '', resource: 'namespaces', name: 'ci' }, sa)).toBe(true);
    const other = { username: 'system:serviceaccount:qa:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:qa'] };
    expect(can(authz, { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'ci' }, other)).toBe(false);
  });

  it('lets system:masters do anything without RBAC objects', () => {
    const authz = new RBACAuthorizer(new FakeReader());
    expect(authz.authorize({ user: defaultAdminUser, verb: 'delete', group: 'apps', resource: 'deployments', namespace: 'x' }).decision).toBe(
      Decision.Allow,
    );
    expect(can(authz, { verb: 'get', path: '/metrics' }, defaultAdminUser)).toBe(true);
  });

  it('reports bindings to missing roles in the reason and keeps looking at the others', () => {
    const reader = new FakeReader([
      roleBinding('default', 'dangling', 'Role', 'gone', [user('alice')]),
      roleBinding('default', 'dangling2', 'ClusterRole', 'gone-too', [user('alice')]),
    ]);
    const result = new RBACAuthorizer(reader).authorize({ user: alice, verb: 'get', group: '', resource: 'pods', namespace: 'default', name: 'p' });
    expect(result).toEqual({
      decision: Decision.NoOpinion,
      reason:
        'RBAC: [role.rbac.authorization.k8s.io "gone" not found, clusterrole.rbac.authorization.k8s.io "gone-too" not found]',
    });
  });

  it('aggregates ClusterRoles on the fly, transitively, and follows label changes', () => {
    const reader = new FakeReader([
      ...bootstrapPolicy(),
      clusterRole('widgets-view', [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list'] }], {
        'rbac.authorization.k8s.io/aggregate-to-view': 'true',
      }),
      roleBinding('default', 'alice-admin', 'ClusterRole', 'admin', [user('alice')]),
    ]);
    const authz = new RBACAuthorizer(reader);
    // admin ⊇ edit ⊇ view ⊇ widgets-view.
    expect(can(authz, { verb: 'list', group: 'example.com', resource: 'widgets', namespace: 'default' })).toBe(true);
    expect(can(authz, { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'default' })).toBe(true);
    expect(can(authz, { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default' })).toBe(true);
    expect(can(authz, { verb: 'create', group: 'example.com', resource: 'widgets', namespace: 'default' })).toBe(false);

    // A role that starts carrying the label joins at once (no controller needed).
    reader.put(
      clusterRole('widgets-edit', [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['create'] }], {
        'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
      }),
    );
    expect(can(authz, { verb: 'create', group: 'example.com', resource: 'widgets', namespace: 'default' })).toBe(true);
  });

  it('sees updated and deleted roles', () => {
    const reader = new FakeReader([
      role('default', 'r', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
      roleBinding('default', 'b', 'Role', 'r', [user('alice')]),
    ]);
    const authz = new RBACAuthorizer(reader);
    expect(can(authz, { verb: 'delete', group: '', resource: 'pods', namespace: 'default', name: 'p' })).toBe(false);
    reader.put(role('default', 'r', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] }]));
    expect(can(authz, { verb: 'delete', group: '', resource: 'pods', namespace: 'default', name: 'p' })).toBe(true);
    reader.remove({ group: 'rbac.authorization.k8s.io', resource: 'rolebindings' }, 'default', 'b');
    expect(can(authz, { verb: 'get', group: '', resource: 'pods', namespace: 'default', name: 'p' })).toBe(false);
  });

  it('re-reads only when the injected policy revision moves', () => {
    const reader = new FakeReader([
      role('default', 'r', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
      roleBinding('default', 'b', 'Role', 'r', [user('alice')]),
    ]);
    let revision = 1;
    const authz = new RBACAuthorizer(reader, { revision: () => revision });
    for (let i = 0; i < 100; i++) can(authz, { verb: 'get', group: '', resource: 'pods', namespace: 'default', name: 'p' });
    expect(reader.listCalls).toBe(4);
    reader.put(role('default', 'r', [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }]));
    expect(can(authz, { verb: 'list', group: '', resource: 'pods', namespace: 'default' })).toBe(false); // stale until the revision moves
    revision = 2;
    expect(can(authz, { verb: 'list', group: '', resource: 'pods', namespace: 'default' })).toBe(true);
    expect(reader.listCalls).toBe(8);
  });
});

describe('bootstrap policy', () => {
  const reader = new FakeReader(bootstrapPolicy());
  const authz = new RBACAuthorizer(reader);

  it('lets every authenticated user discover the API and review itself, nothing else', () => {
    const bob = authenticate({ verb: 'get', group: '', version: 'v1', resource: 'pods' }, { username: 'bob', groups: [] });
    expect(canI(authz, bob, { verb: 'get', path: '/api/v1' }).allowed).toBe(true);
    expect(canI(authz, bob, { verb: 'get', path: '/version' })).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
    });
    expect(canI(authz, bob, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }).allowed).toBe(true);
    expect(canI(authz, bob, { verb: 'list', group: '', resource: 'pods', namespace: 'default' })).toEqual({ allowed: false, reason: '' });
  });

  it('gives admin/edit/view their aggregated rules, view without secrets and edit without roles', () => {
    const byName = new Map(bootstrapPolicy().map((o) => [o.metadata.name, o]));
    const view = byName.get('view') as unknown as { rules: PolicyRule[] };
    const edit = byName.get('edit') as unknown as { rules: PolicyRule[] };
    const admin = byName.get('admin') as unknown as { rules: PolicyRule[] };
    expect(view.rules.length).toBe(10);
    expect(edit.rules.length).toBe(13 + 10);
    expect(admin.rules.length).toBe(2 + 13 + 10);
    expect(view.rules.some((r) => r.resources?.includes('secrets'))).toBe(false);
    expect(edit.rules.some((r) => r.resources?.includes('roles'))).toBe(false);
    expect(byName.get('cluster-admin')?.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'rbac-defaults' });
    expect(byName.get('edit')?.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    expect(byName.get('cluster-admin')).toMatchObject({
      kind: 'ClusterRoleBinding',
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }],
    });
  });

  it('lists the rules of a user for auth can-i --list', () => {
    const r = new FakeReader([...bootstrapPolicy(), roleBinding('default', 'v', 'ClusterRole', 'view', [user('alice')])]);
    const out = rulesFor(new RBACAuthorizer(r), alice, 'default');
    expect(out.nonResourceRules.some((x) => x.nonResourceURLs?.includes('/healthz'))).toBe(true);
    expect(out.resourceRules.some((x) => x.resources?.includes('selfsubjectrulesreviews'))).toBe(true);
    expect(out.resourceRules.some((x) => x.resources?.includes('deployments') && x.verbs.includes('list'))).toBe(true);
    expect(out.evaluationError).toBe('');
  });
});
