import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../types';
import { forbiddenError, forbiddenMessage } from './forbidden';

const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

describe('forbidden texts', () => {
  it('names the namespace for namespaced requests', () => {
    const err = forbiddenError({ user: alice, verb: 'list', group: '', resource: 'pods', namespace: 'default' });
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { group: '', kind: 'pods' },
      code: 403,
    });
  });

  it('says "at the cluster scope" without a namespace and qualifies the group resource', () => {
    const err = forbiddenError({ user: alice, verb: 'get', group: 'apps', resource: 'deployments', name: 'web' });
    expect(err.status.message).toBe(
      'deployments.apps "web" is forbidden: User "alice" cannot get resource "deployments" in API group "apps" at the cluster scope',
    );
    expect(err.status.details).toEqual({ name: 'web', group: 'apps', kind: 'deployments' });
  });

  it('puts the subresource into the resource of the message but not into the qualified resource', () => {
    const err = forbiddenError({ user: alice, verb: 'get', group: '', resource: 'pods', subresource: 'log', namespace: 'default', name: 'p' });
    expect(err.status.message).toBe(
      'pods "p" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "default"',
    );
  });

  it('describes non-resource requests by path', () => {
    expect(forbiddenMessage({ user: alice, verb: 'get', path: '/healthz' })).toBe('User "alice" cannot get path "/healthz"');
    expect(forbiddenError({ user: alice, verb: 'get', path: '/healthz' }).status.message).toBe(
      'forbidden: User "alice" cannot get path "/healthz"',
    );
  });

  it('HTML-escapes & < > in the message but not in the appended reason', () => {
    const err = forbiddenError(
      { user: { username: 'a<b>&c', groups: [] }, verb: 'get', group: '', resource: 'pods', namespace: 'default', name: 'p' },
      'RBAC: role.rbac.authorization.k8s.io "<x>" not found',
    );
    expect(err.status.message).toBe(
      'pods "p" is forbidden: User "a&lt;b&gt;&amp;c" cannot get resource "pods" in API group "" in the namespace "default": RBAC: role.rbac.authorization.k8s.io "<x>" not found',
    );
  });
});
