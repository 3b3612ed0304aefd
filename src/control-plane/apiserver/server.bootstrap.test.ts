import { describe, expect, it } from 'vitest';
import { newTestServer } from './handlers/test-harness';
import { TraceKind } from '../../shared/protocol/trace';

describe('bootstrap and discovery', () => {
  it('creates the standard namespaces and RBAC policy as system:apiserver, once', () => {
    const t = newTestServer();
    expect(t.list('v1', 'Namespace').items.map((n) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(t.get('v1', 'Namespace', undefined, 'default')).toMatchObject({ status: { phase: 'Active' }, spec: { finalizers: ['kubernetes'] } });
    const roles = t.list('rbac.authorization.k8s.io/v1', 'ClusterRole').items.map((r) => r.metadata.name);
    expect(roles).toEqual(expect.arrayContaining(['cluster-admin', 'admin', 'edit', 'view']));
    const creator = t.trace.find((e) => e.kind === TraceKind.ApiRequest);
    expect(creator?.data.user).toBe('system:apiserver');
    const revision = t.store.revision;
    t.server.bootstrap();
    expect(t.store.revision).toBe(revision);
  });

  it('describes groups and resources for kubectl api-resources', () => {
    const t = newTestServer();
    const d = t.server.discovery();
    expect(d.coreVersions.versions).toEqual(['v1']);
    expect(d.groups.groups.find((g) => g.name === 'apps')).toEqual({
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
    const apps = d.resources.find((r) => r.groupVersion === 'apps/v1')!;
    expect(apps.resources.find((r) => r.name === 'deployments')).toMatchObject({ singularName: 'deployment', namespaced: true, kind: 'Deployment', shortNames: ['deploy'] });
    expect(apps.resources.find((r) => r.name === 'deployments/scale')).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    const core = d.resources.find((r) => r.groupVersion === 'v1')!;
    expect(core.resources.map((r) => r.name)).toContain('pods/status');
  });
});
