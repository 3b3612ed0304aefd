import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { defaultAdmissionChain, defaultMutatingPlugins, defaultValidatingPlugins } from './chain';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';

describe('default admission chain', () => {
  it('runs the plugins in kube-apiserver order', () => {
    expect(defaultMutatingPlugins().map((p) => p.name)).toEqual([
      'NamespaceLifecycle',
      'LimitRanger',
      'ServiceAccount',
      'Priority',
      'DefaultTolerationSeconds',
      'DefaultStorageClass',
      'DefaultIngressClass',
    ]);
    expect(defaultValidatingPlugins().map((p) => p.name)).toEqual(['LimitRanger', 'ServiceAccount', 'Priority', 'ResourceQuota']);
  });

  it('turns a bare pod into what the API server stores, then charges the quota', () => {
    const reader = new FakeReader([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' }, status: { phase: 'Active' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'default', name: 'default' } },
      { apiVersion: 'v1', kind: 'LimitRange', metadata: { namespace: 'default', name: 'lr' }, spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '100m' } }] } },
      { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { namespace: 'default', name: 'q' }, spec: { hard: { 'requests.cpu': '1', pods: '5' } }, status: { hard: { 'requests.cpu': '1', pods: '5' }, used: { 'requests.cpu': '0', pods: '0' } } },
    ]);
    const env = fakeAdmissionContext(reader);
    const chain = defaultAdmissionChain(() => 0.5);
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', name: 'web' }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } };
    const attrs = admissionAttrs({ group: '', resource: 'pods' }, pod);
    for (const p of chain.mutating) if (p.handles(attrs.operation)) p.admit(attrs, env.ctx);
    for (const p of chain.validating) if (p.handles(attrs.operation)) p.validate(attrs, env.ctx);
    const spec = pod.spec as any;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.containers[0].resources).toEqual({ requests: { cpu: '100m' } });
    expect(spec.tolerations).toHaveLength(2);
    expect(spec.volumes[0].name).toBe('kube-api-access-rrrrr');
    env.apply();
    expect((reader.get({ group: '', resource: 'resourcequotas' }, 'default', 'q')?.status as any).used).toEqual({ pods: '1', 'requests.cpu': '100m' });
  });
});
