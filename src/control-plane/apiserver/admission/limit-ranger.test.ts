import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';
import { LimitRanger } from './limit-ranger';

const pods = { group: '', resource: 'pods' };
const pvcs = { group: '', resource: 'persistentvolumeclaims' };

function limitRange(limits: Record<string, unknown>[], name = 'limits'): KubeObject {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { namespace: 'default', name }, spec: { limits } };
}
function pod(containers: Record<string, unknown>[], initContainers?: Record<string, unknown>[]): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', name: 'x' }, spec: { containers, initContainers } };
}

describe('LimitRanger', () => {
  const plugin = new LimitRanger();

  it('fills in default limits and requests and says so in the annotation', () => {
    const reader = new FakeReader([
      limitRange([{ type: 'Container', default: { cpu: '500m', memory: '512Mi' }, defaultRequest: { cpu: '250m', memory: '256Mi' } }]),
    ]);
    const p = pod([{ name: 'nginx', image: 'nginx', resources: { limits: { cpu: '1' } } }, { name: 'side', image: 'busybox' }]);
    plugin.admit(admissionAttrs(pods, p), fakeAdmissionContext(reader).ctx);
    const [nginx, side] = (p.spec as any).containers;
    expect(nginx.resources).toEqual({ limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '250m', memory: '256Mi' } });
    expect(side.resources).toEqual({ limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '250m', memory: '256Mi' } });
    expect(p.metadata.annotations).toEqual({
      'kubernetes.io/limit-ranger':
        'LimitRanger plugin set: cpu, memory request for container nginx; memory limit for container nginx; cpu, memory request for container side; cpu, memory limit for container side',
    });
  });

  it('defaults the limit to max and the request to the default limit when the range gives only max', () => {
    const reader = new FakeReader([limitRange([{ type: 'Container', max: { cpu: '2' } }])]);
    const p = pod([{ name: 'c' }]);
    plugin.admit(admissionAttrs(pods, p), fakeAdmissionContext(reader).ctx);
    expect((p.spec as any).containers[0].resources).toEqual({ limits: { cpu: '2' }, requests: { cpu: '2' } });
  });

  it('refuses containers above max with the v1.32 text', () => {
    const reader = new FakeReader([limitRange([{ type: 'Container', max: { cpu: '1' } }])]);
    const { ctx } = fakeAdmissionContext(reader);
    const p = pod([{ name: 'c', resources: { limits: { cpu: '2' }, requests: { cpu: '500m' } } }]);
    expect(() => plugin.validate(admissionAttrs(pods, p), ctx)).toThrow(
      'pods "x" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
    const noLimit = pod([{ name: 'c', resources: { requests: { cpu: '500m' } } }]);
    expect(() => plugin.validate(admissionAttrs(pods, noLimit), ctx)).toThrow(
      'pods "x" is forbidden: maximum cpu usage per Container is 1.  No limit is specified',
    );
  });

  it('aggregates several violations in brackets, in a stable order', () => {
    const reader = new FakeReader([
      limitRange([
        { type: 'Container', min: { cpu: '100m', memory: '64Mi' }, max: { memory: '1Gi' } },
        { type: 'Pod', max: { cpu: '1500m' } },
      ]),
    ]);
    const p = pod([
      { name: 'a', resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { cpu: '1', memory: '2Gi' } } },
      { name: 'b', resources: { requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '1', memory: '256Mi' } } },
    ]);
    expect(() => plugin.validate(admissionAttrs(pods, p), fakeAdmissionContext(reader).ctx)).toThrow(
      'pods "x" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum memory usage per Container is 1Gi, but limit is 2Gi, maximum cpu usage per Pod is 1500m, but limit is 2]',
    );
  });

  it('checks the limit/request ratio', () => {
    const reader = new FakeReader([limitRange([{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }])]);
    const p = pod([{ name: 'c', resources: { requests: { cpu: '100m' }, limits: { cpu: '500m' } } }]);
    expect(() => plugin.validate(admissionAttrs(pods, p), fakeAdmissionContext(reader).ctx)).toThrow(
      'pods "x" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000',
    );
  });

  it('lets pods inside the range through and ignores pod updates', () => {
    const reader = new FakeReader([limitRange([{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' } }])]);
    const { ctx } = fakeAdmissionContext(reader);
    const p = pod([{ name: 'c', resources: { requests: { cpu: '100m' }, limits: { cpu: '1000m' } } }]);
    expect(() => plugin.validate(admissionAttrs(pods, p), ctx)).not.toThrow();
    const big = pod([{ name: 'c', resources: { limits: { cpu: '4' } } }]);
    expect(() => plugin.validate(admissionAttrs(pods, big, { oldObject: big }), ctx)).not.toThrow();
  });

  it('enforces claim storage min and max on requests', () => {
    const reader = new FakeReader([limitRange([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }])]);
    const { ctx } = fakeAdmissionContext(reader);
    const claim = (storage: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { namespace: 'default', name: 'data' },
      spec: { resources: { requests: { storage } } },
    });
    expect(() => plugin.validate(admissionAttrs(pvcs, claim('20Gi')), ctx)).toThrow(
      'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
    );
    expect(() => plugin.validate(admissionAttrs(pvcs, claim('500Mi')), ctx)).toThrow(
      'persistentvolumeclaims "data" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
    );
    expect(() => plugin.validate(admissionAttrs(pvcs, claim('5Gi')), ctx)).not.toThrow();
  });
});
