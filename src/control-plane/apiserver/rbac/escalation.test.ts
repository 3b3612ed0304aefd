import { describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../../../shared/api/resources';
import { isStatusError } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { FakeReader } from '../admission/fake-reader';
import type { AdmissionAttributes, UserInfo } from '../types';
import { AdmissionOperation, defaultAdminUser } from '../types';
import { RBACAuthorizer } from './authorizer';
import { checkEscalation, compactRules, compactString, covers } from './escalation';

const registry = new ResourceRegistry();
const rt = (resource: string) => registry.forGroupResource({ group: 'rbac.authorization.k8s.io', resource })!;
const bob: UserInfo = { username: 'bob', groups: ['system:authenticated'] };

/** bob may manage roles and rolebindings in "dev" and read/create pods there. */
function world(): FakeReader {
  return new FakeReader([
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { namespace: 'dev', name: 'bob-role' },
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'create'] },
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'update', 'get'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { namespace: 'dev', name: 'bob' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'bob-role' },
      subjects: [{ kind: 'User', name: 'bob' }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { namespace: 'dev', name: 'deleter' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }],
    },
  ]);
}

function attrs(resource: string, object: KubeObject, user: UserInfo = bob, oldObject?: KubeObject): AdmissionAttributes {
  return {
    operation: oldObject ? AdmissionOperation.Update : AdmissionOperation.Create,
    resourceType: rt(resource),
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name ?? '',
    object,
    oldObject,
    user,
    dryRun: false,
  };
}

function messageOf(fn: () => void): { code: number; message: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    if (isStatusError(e)) return { code: e.status.code, message: e.status.message };
    throw e;
  }
}

describe('Covers and the message pieces', () => {
  it('breaks rules down and reports what is not covered', () => {
    const { covered, missing } = covers(
      [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: ['apps'], resources: ['*/scale'], verbs: ['*'] }],
      [{ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'delete'] }, { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['update'] }],
    );
    expect(covered).toBe(false);
    expect(missing.map(compactString)).toEqual([
      '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
      '{APIGroups:[""], Resources:["secrets"], Verbs:["delete"]}',
    ]);
    expect(compactRules(missing).map(compactString)).toEqual([
      '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
    ]);
  });

  it('needs owner resourceNames to include the servant ones, and URLs by prefix', () => {
    expect(covers([{ apiGroups: [''], resources: ['cm'], resourceNames: ['a'], verbs: ['get'] }], [{ apiGroups: [''], resources: ['cm'], verbs: ['get'] }]).covered).toBe(false);
    expect(covers([{ apiGroups: [''], resources: ['cm'], verbs: ['get'] }], [{ apiGroups: [''], resources: ['cm'], resourceNames: ['a'], verbs: ['get'] }]).covered).toBe(true);
    expect(covers([{ nonResourceURLs: ['/logs/*'], verbs: ['get'] }], [{ nonResourceURLs: ['/logs/x'], verbs: ['get'] }]).covered).toBe(true);
  });
});

describe('checkEscalation', () => {
  it('refuses a Role granting more than the user holds, with the real text', () => {
    const reader = world();
    const authz = new RBACAuthorizer(reader);
    const role: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { namespace: 'dev', name: 'too-much' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] }],
    };
    expect(messageOf(() => checkEscalation(attrs('roles', role), authz, reader))).toEqual({
      code: 403,
      message:
        'roles.rbac.authorization.k8s.io "too-much" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    });
    // Within bob's permissions it passes.
    const fine = { ...role, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
    expect(messageOf(() => checkEscalation(attrs('roles', fine), authz, reader))).toBeUndefined();
  });

  it('refuses a RoleBinding to a role with more permissions, unless the user may bind it', () => {
    const reader = world();
    const authz = new RBACAuthorizer(reader);
    const binding: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { namespace: 'dev', name: 'x' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deleter' },
      subjects: [{ kind: 'User', name: 'eve' }],
    };
    expect(messageOf(() => checkEscalation(attrs('rolebindings', binding), authz, reader))?.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "x" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    );
    reader.put({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { namespace: 'dev', name: 'binder' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['bind'], resourceNames: ['deleter'] }],
    });
    reader.put({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { namespace: 'dev', name: 'bob-binds' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'binder' },
      subjects: [{ kind: 'User', name: 'bob' }],
    });
    expect(messageOf(() => checkEscalation(attrs('rolebindings', binding), authz, reader))).toBeUndefined();
  });

  it('answers 404 for a binding to a missing role', () => {
    const reader = world();
    const binding: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { namespace: 'dev', name: 'x' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'nope' },
      subjects: [],
    };
    expect(messageOf(() => checkEscalation(attrs('rolebindings', binding), new RBACAuthorizer(reader), reader))).toEqual({
      code: 404,
      message: 'roles.rbac.authorization.k8s.io "nope" not found',
    });
  });

  it('lets the escalate verb, system:masters and GC-only updates through', () => {
    const reader = world();
    const authz = new RBACAuthorizer(reader);
    const role: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { namespace: 'dev', name: 'big', resourceVersion: '5' },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    };
    expect(messageOf(() => checkEscalation(attrs('roles', role, defaultAdminUser), authz, reader))).toBeUndefined();
    const withFinalizer = { ...role, metadata: { ...role.metadata, finalizers: ['x'] } };
    expect(messageOf(() => checkEscalation(attrs('roles', withFinalizer, bob, role), authz, reader))).toBeUndefined();
    expect(messageOf(() => checkEscalation(attrs('roles', role), authz, reader))?.code).toBe(403);
    reader.put({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'escalator' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }],
    });
    reader.put({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { namespace: 'dev', name: 'bob-escalates' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'escalator' },
      subjects: [{ kind: 'User', name: 'bob' }],
    });
    expect(messageOf(() => checkEscalation(attrs('roles', role), authz, reader))).toBeUndefined();
  });

  it('requires cluster-admin power for an aggregationRule', () => {
    const reader = world();
    reader.put({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bob-cr' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cr-admin' },
      subjects: [{ kind: 'User', name: 'bob' }],
    });
    reader.put({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'cr-admin' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create'] }],
    });
    const agg: KubeObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] },
    };
    expect(messageOf(() => checkEscalation(attrs('clusterroles', agg), new RBACAuthorizer(reader), reader))?.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
  });
});
