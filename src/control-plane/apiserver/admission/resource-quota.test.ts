import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';
import { ResourceQuotaAdmission, computeQuotaUsage } from './resource-quota';

const pods = { group: '', resource: 'pods' };
const quotasGR = { group: '', resource: 'resourcequotas' };

/** A quota as the resourcequota-controller left it: status.hard = spec.hard, status.used measured (default 0). */
function quota(name: string, hard: Record<string, string>, extra: Record<string, unknown> = {}, used: Record<string, string> = {}): KubeObject {
  const zero = Object.fromEntries(Object.keys(hard).map((k) => [k, '0']));
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { namespace: 'default', name }, spec: { hard, ...extra }, status: { hard, used: { ...zero, ...used } } };
}
function pod(name: string, resources?: Record<string, unknown>, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: 'default', name },
    spec: { containers: [{ name: 'nginx', image: 'nginx', resources }], ...spec },
  };
}

describe('ResourceQuota admission', () => {
  const plugin = new ResourceQuotaAdmission();

  it('charges the quota in a side write, from the usage the controller measured', () => {
    const reader = new FakeReader([quota('compute', { pods: '3', 'requests.cpu': '1' }, {}, { pods: '1', 'requests.cpu': '200m' }), pod('old', { requests: { cpu: '200m' } })]);
    const env = fakeAdmissionContext(reader);
    plugin.validate(admissionAttrs(pods, pod('new', { requests: { cpu: '300m' } })), env.ctx);
    expect(env.sideWrites.map((w) => [w.gr, w.namespace, w.name])).toEqual([[quotasGR, 'default', 'compute']]);
    env.apply();
    expect(reader.get(quotasGR, 'default', 'compute')?.status).toEqual({
      hard: { pods: '3', 'requests.cpu': '1' },
      used: { pods: '2', 'requests.cpu': '500m' },
    });
  });

  it('refuses with the exceeded-quota text, naming only the exceeded resources', () => {
    const reader = new FakeReader([
      quota('compute', { pods: '2', 'requests.memory': '1Gi' }, {}, { pods: '2', 'requests.memory': '512Mi' }),
    ]);
    const env = fakeAdmissionContext(reader);
    expect(() => plugin.validate(admissionAttrs(pods, pod('web', { requests: { memory: '256Mi' } })), env.ctx)).toThrow(
      'pods "web" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2',
    );
    expect(env.sideWrites).toHaveLength(0);
    const gen: KubeObject = { ...pod('', { requests: { memory: '768Mi' } }), metadata: { namespace: 'default', generateName: 'web-7d4b9-' } };
    expect(() => plugin.validate(admissionAttrs(pods, gen), env.ctx)).toThrow(
      'pods "web-7d4b9-" is forbidden: exceeded quota: compute, requested: pods=1,requests.memory=768Mi, used: pods=2,requests.memory=512Mi, limited: pods=2,requests.memory=1Gi',
    );
  });

  it('requires containers to state what a compute quota tracks', () => {
    const reader = new FakeReader([quota('compute', { 'limits.cpu': '2', 'limits.memory': '1Gi', 'requests.cpu': '1' })]);
    const p = {
      ...pod('web'),
      spec: { containers: [{ name: 'nginx', resources: { requests: { cpu: '100m' } } }, { name: 'sidecar' }] },
    };
    expect(() => plugin.validate(admissionAttrs(pods, p), fakeAdmissionContext(reader).ctx)).toThrow(
      'pods "web" is forbidden: failed quota: compute: must specify limits.cpu for: nginx,sidecar; limits.memory for: nginx,sidecar; requests.cpu for: sidecar',
    );
  });

  it('counts objects with count/<resource>.<group> and the legacy names', () => {
    const reader = new FakeReader([quota('objects', { 'count/deployments.apps': '1', configmaps: '5' }, {}, { 'count/deployments.apps': '1' })]);
    reader.put({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { namespace: 'default', name: 'a' } });
    const env = fakeAdmissionContext(reader);
    const dep: KubeObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { namespace: 'default', name: 'b' } };
    expect(() => plugin.validate(admissionAttrs({ group: 'apps', resource: 'deployments' }, dep), env.ctx)).toThrow(
      'deployments.apps "b" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    );
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'c' } };
    plugin.validate(admissionAttrs({ group: '', resource: 'configmaps' }, cm), env.ctx);
    env.apply();
    expect((reader.get(quotasGR, 'default', 'objects')?.status as any).used).toEqual({ configmaps: '1', 'count/deployments.apps': '1' });
  });

  it('applies scoped quotas only to the pods in scope', () => {
    const reader = new FakeReader([
      quota('best-effort', { pods: '1' }, { scopes: ['BestEffort'] }, { pods: '1' }),
      quota('gold', { pods: '5' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['gold'] }] } }),
    ]);
    reader.put(pod('be-1'));
    const env = fakeAdmissionContext(reader);
    expect(() => plugin.validate(admissionAttrs(pods, pod('be-2')), env.ctx)).toThrow(/exceeded quota: best-effort/);
    plugin.validate(admissionAttrs(pods, pod('burstable', { requests: { cpu: '100m' } })), env.ctx);
    expect(env.sideWrites).toHaveLength(0);
    plugin.validate(admissionAttrs(pods, pod('vip', { requests: { cpu: '100m' } }, { priorityClassName: 'gold' })), env.ctx);
    expect(env.sideWrites.map((w) => w.name)).toEqual(['gold']);
  });

  it('charges only the difference on update and skips dry runs', () => {
    const svc = (type: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { namespace: 'default', name: 's', resourceVersion: '7' },
      spec: { type, ports: [{ port: 80 }, { port: 443 }] },
    });
    const reader = new FakeReader([quota('svc', { services: '10', 'services.nodeports': '1' })]);
    const env = fakeAdmissionContext(reader);
    expect(() => plugin.validate(admissionAttrs({ group: '', resource: 'services' }, svc('NodePort'), { oldObject: svc('ClusterIP') }), env.ctx)).toThrow(
      'services "s" is forbidden: exceeded quota: svc, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
    );
    plugin.validate(admissionAttrs({ group: '', resource: 'services' }, svc('ClusterIP'), { dryRun: true }), env.ctx);
    expect(env.sideWrites).toHaveLength(0);
  });

  it('enforces nothing until the controller has synced status.hard, and refuses while usage is unknown', () => {
    const unsynced: KubeObject = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { namespace: 'default', name: 'new' }, spec: { hard: { pods: '0' } } };
    const env = fakeAdmissionContext(new FakeReader([unsynced]));
    plugin.validate(admissionAttrs(pods, pod('web')), env.ctx);
    expect(env.sideWrites).toHaveLength(0);
    // spec.hard grew a resource the controller has not measured yet.
    const partial = { ...quota('compute', { pods: '5' }), status: { hard: { pods: '5', 'requests.cpu': '2' }, used: { pods: '1' } } };
    expect(() => plugin.validate(admissionAttrs(pods, pod('web', { requests: { cpu: '100m' } })), fakeAdmissionContext(new FakeReader([partial])).ctx)).toThrow(
      'pods "web" is forbidden: status unknown for quota: compute, resources: pods,requests.cpu',
    );
  });

  it('computes usage as the quota controller would, leaving out finished pods', () => {
    const reader = new FakeReader([
      pod('running', { requests: { cpu: '250m', memory: '1Gi' }, limits: { cpu: '500m' } }),
      { ...pod('done', { requests: { cpu: '4' } }), status: { phase: 'Succeeded' } },
    ]);
    const q = quota('q', { pods: '10', 'count/pods': '10', 'requests.cpu': '8', 'limits.cpu': '8', 'requests.memory': '8Gi', secrets: '3' });
    const used = computeQuotaUsage(q, reader, Date.UTC(2026, 0, 1));
    const printable = Object.fromEntries([...used].map(([k, v]) => [k, String(v.unscaled * 10n ** BigInt(Math.max(v.exp, 0)))]));
    expect(Object.keys(printable).sort()).toEqual(['count/pods', 'limits.cpu', 'pods', 'requests.cpu', 'requests.memory', 'secrets']);
    expect(printable['count/pods']).toBe('2');
    expect(printable.pods).toBe('1');
    expect(printable.secrets).toBe('0');
  });
});

describe('ResourceQuota admission for claims', () => {
  it('charges storage overall and per storage class', () => {
    const reader = new FakeReader([
      quota('storage', { 'requests.storage': '10Gi', 'gold.storageclass.storage.k8s.io/requests.storage': '5Gi' }),
    ]);
    const env = fakeAdmissionContext(reader);
    const claim = (name: string, storage: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { namespace: 'default', name },
      spec: { storageClassName: 'gold', resources: { requests: { storage } } },
    });
    new ResourceQuotaAdmission().validate(admissionAttrs({ group: '', resource: 'persistentvolumeclaims' }, claim('a', '4Gi')), env.ctx);
    env.apply();
    expect(() => new ResourceQuotaAdmission().validate(admissionAttrs({ group: '', resource: 'persistentvolumeclaims' }, claim('b', '2Gi')), env.ctx)).toThrow(
      'persistentvolumeclaims "b" is forbidden: exceeded quota: storage, requested: gold.storageclass.storage.k8s.io/requests.storage=2Gi, used: gold.storageclass.storage.k8s.io/requests.storage=4Gi, limited: gold.storageclass.storage.k8s.io/requests.storage=5Gi',
    );
  });
});
