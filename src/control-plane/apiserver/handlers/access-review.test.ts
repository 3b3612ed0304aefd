import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../cluster';
import { isStatusError } from '../../../shared/api/status';

let cluster: Cluster;
beforeEach(async () => {
  cluster = await createCluster({ controllers: false, scheduler: false, nodes: 0 });
});
afterEach(async () => {
  await cluster.close();
});

const review = (resource: string, body: unknown, extra: { namespace?: string; user?: { username: string; groups: string[] }; impersonate?: { username: string } } = {}) =>
  cluster.apiserver.handle({ verb: 'create', group: 'authorization.k8s.io', version: 'v1', resource, body, ...extra });

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe('authorization.k8s.io reviews', () => {
  it('SelfSubjectAccessReview answers about the requesting user, after impersonation', () => {
    const spec = { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } };
    const admin = review('selfsubjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec });
    expect(admin).toMatchObject({ code: 201, body: { kind: 'SelfSubjectAccessReview', metadata: { creationTimestamp: null }, spec, status: { allowed: true } } });
    const jane = review('selfsubjectaccessreviews', { spec }, { impersonate: { username: 'jane' } });
    expect((jane.body as { status: unknown }).status).toEqual({ allowed: false });
  });

  it('SubjectAccessReview answers about the user it names, with RBAC\'s reason', () => {
    cluster.client.clusterRoleBindings.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bob-view' },
      subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' },
    });
    const res = review('subjectaccessreviews', { spec: { user: 'bob', groups: ['system:authenticated'], resourceAttributes: { namespace: 'default', verb: 'list', group: 'apps', resource: 'deployments' } } });
    expect((res.body as { status: unknown }).status).toEqual({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "bob-view" of ClusterRole "view" to User "bob"' });
  });

  it('SelfSubjectRulesReview lists the rules: everything for system:masters, RBAC rules for others', () => {
    const admin = review('selfsubjectrulesreviews', { spec: { namespace: 'default' } }).body as { status: { resourceRules: unknown[]; nonResourceRules: unknown[] } };
    expect(admin.status.resourceRules[0]).toEqual({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    expect(admin.status.nonResourceRules[0]).toEqual({ verbs: ['*'], nonResourceURLs: ['*'] });
    const jane = review('selfsubjectrulesreviews', { spec: { namespace: 'default' } }, { impersonate: { username: 'jane' } }).body as { status: { resourceRules: { resources: string[] }[] } };
    expect(jane.status.resourceRules.map((r) => r.resources)).toContainEqual(['selfsubjectaccessreviews', 'selfsubjectrulesreviews']);
    expect(jane.status.resourceRules.some((r) => r.resources.includes('*'))).toBe(false);
  });

  it('validates the spec and allows only create', () => {
    const invalid = caught(() => review('selfsubjectaccessreviews', { spec: {} }));
    expect(isStatusError(invalid) && invalid.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      details: { kind: 'SelfSubjectAccessReview', causes: [{ field: 'spec.resourceAttributes' }] },
    });
    const noUser = caught(() => review('subjectaccessreviews', { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } }));
    expect(isStatusError(noUser) && noUser.status.message).toContain('spec.user: Invalid value: "": at least one of user or group must be specified');
    const get = caught(() => cluster.apiserver.handle({ verb: 'get', group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews', name: 'x' }));
    expect(isStatusError(get) && get.status.code).toBe(405);
  });

  it('a user RBAC does not let create reviews is refused with 403', () => {
    const err = caught(() => review('subjectaccessreviews', { spec: { user: 'x', resourceAttributes: { verb: 'get', resource: 'pods' } } }, { impersonate: { username: 'jane' } }));
    expect(isStatusError(err) && err.status.message).toBe(
      'subjectaccessreviews.authorization.k8s.io is forbidden: User "jane" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
    );
  });
});
