import { describe, expect, it } from 'vitest';
import { isStatusError } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { FakeReader } from '../admission/fake-reader';
import { RBACAuthorizer } from '../rbac/authorizer';
import type { ApiRequest, UserInfo } from '../types';
import { defaultAdminUser } from '../types';
import { applyImpersonation, authenticate, impersonatedUser, impersonationChecks } from './authenticator';

const base: ApiRequest = { verb: 'list', group: '', version: 'v1', resource: 'pods', namespace: 'default' };

describe('authenticate', () => {
  it('acts as the current user when the request names none, keeping system:authenticated once', () => {
    expect(authenticate(base, defaultAdminUser)).toEqual({ username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
  });

  it('takes the request user and adds system:authenticated', () => {
    expect(authenticate({ ...base, user: { username: 'alice', groups: ['dev'] } }, defaultAdminUser)).toEqual({
      username: 'alice',
      groups: ['dev', 'system:authenticated'],
    });
  });

  it('gives system:anonymous system:unauthenticated instead', () => {
    expect(authenticate({ ...base, user: { username: 'system:anonymous', groups: [] } }, defaultAdminUser).groups).toEqual([
      'system:unauthenticated',
    ]);
  });
});

describe('impersonation', () => {
  const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

  it('checks the user, then each group, with the impersonate verb in the core group', () => {
    const req: ApiRequest = { ...base, impersonate: { username: 'bob', groups: ['dev', 'ops'] } };
    expect(impersonationChecks(req, alice)).toEqual([
      { user: alice, verb: 'impersonate', group: '', resource: 'users', name: 'bob' },
      { user: alice, verb: 'impersonate', group: '', resource: 'groups', name: 'dev' },
      { user: alice, verb: 'impersonate', group: '', resource: 'groups', name: 'ops' },
    ]);
    expect(impersonatedUser(req)).toEqual({ username: 'bob', groups: ['dev', 'ops', 'system:authenticated'] });
  });

  it('checks service accounts as namespaced serviceaccounts and gives them their groups', () => {
    const req: ApiRequest = { ...base, impersonate: { username: 'system:serviceaccount:ci:builder' } };
    expect(impersonationChecks(req, alice)).toEqual([
      { user: alice, verb: 'impersonate', group: '', resource: 'serviceaccounts', namespace: 'ci', name: 'builder' },
    ]);
    expect(impersonatedUser(req)?.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated']);
  });

  it('refuses with the filter text when the user may not impersonate, and switches user when allowed', () => {
    const reader = new FakeReader();
    const authz = new RBACAuthorizer(reader);
    const req: ApiRequest = { ...base, impersonate: { username: 'bob' } };
    let thrown: unknown;
    try {
      applyImpersonation(req, alice, authz);
    } catch (e) {
      thrown = e;
    }
    expect(isStatusError(thrown)).toBe(true);
    expect(isStatusError(thrown) && thrown.status.message).toBe(
      'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    expect(isStatusError(thrown) && thrown.status.code).toBe(403);

    const objects: KubeObject[] = [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'impersonator' },
        rules: [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'alice-impersonates' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonator' },
        subjects: [{ kind: 'User', name: 'alice' }],
      },
    ];
    for (const o of objects) reader.put(o);
    expect(applyImpersonation(req, alice, authz)).toEqual({ username: 'bob', groups: ['system:authenticated'] });
    expect(() => applyImpersonation({ ...base, impersonate: { username: 'bob', groups: ['system:masters'] } }, alice, authz)).toThrow(
      'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
  });

  it('does nothing without impersonation', () => {
    expect(applyImpersonation(base, alice, new RBACAuthorizer(new FakeReader()))).toBe(alice);
  });
});
