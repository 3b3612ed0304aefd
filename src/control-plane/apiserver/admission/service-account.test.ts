import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { createRng } from '../../sim/rng';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';
import { ServiceAccountAdmission } from './service-account';

const pods = { group: '', resource: 'pods' };
const sa = (namespace: string, name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { namespace, name },
  ...extra,
});
function pod(spec: Record<string, unknown>, name = 'web'): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', name }, spec };
}

describe('ServiceAccount admission', () => {
  it('defaults the service account and mounts the projected token volume in every container', () => {
    const reader = new FakeReader([sa('default', 'default')]);
    const { ctx } = fakeAdmissionContext(reader);
    const rng = createRng(7);
    const plugin = new ServiceAccountAdmission(() => rng.next());
    const p = pod({
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [{ name: 'nginx', image: 'nginx', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      volumes: [{ name: 'data', emptyDir: {} }],
    });
    plugin.admit(admissionAttrs(pods, p), ctx);
    const spec = p.spec as Record<string, any>;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.serviceAccount).toBe('default');
    const volume = spec.volumes[1];
    expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume).toEqual({
      name: volume.name,
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
      },
    });
    const mount = { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }, mount]);
    expect(spec.initContainers[0].volumeMounts).toEqual([mount]);
  });

  it('gives every pod the same frozen projection (stored objects are frozen; one copy serves them all)', () => {
    const reader = new FakeReader([sa('default', 'default')]);
    const plugin = new ServiceAccountAdmission(() => 0.5);
    const [a, b] = [pod({ containers: [{ name: 'c' }] }, 'a'), pod({ containers: [{ name: 'c' }] }, 'b')];
    plugin.admit(admissionAttrs(pods, a), fakeAdmissionContext(reader).ctx);
    plugin.admit(admissionAttrs(pods, b), fakeAdmissionContext(reader).ctx);
    const projected = (p: KubeObject) => (p.spec as any).volumes[0].projected;
    expect(projected(a)).toBe(projected(b));
    expect(Object.isFrozen(projected(a).sources[1].configMap.items[0])).toBe(true);
  });

  it('draws the same name from the same seed, and prefers the context rng', () => {
    const reader = new FakeReader([sa('default', 'default')]);
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      const rng = createRng(42);
      const p = pod({ containers: [{ name: 'c' }] });
      new ServiceAccountAdmission(() => rng.next()).admit(admissionAttrs(pods, p), fakeAdmissionContext(reader).ctx);
      names.push((p.spec as any).volumes[0].name);
    }
    expect(names[0]).toBe(names[1]);
    const { ctx } = fakeAdmissionContext(reader);
    const fromCtx = createRng(42);
    const p = pod({ containers: [{ name: 'c' }] });
    new ServiceAccountAdmission(() => 0).admit(admissionAttrs(pods, p), { ...ctx, rng: fromCtx } as typeof ctx);
    expect((p.spec as any).volumes[0].name).toBe(names[0]);
  });

  it('does not mount when the pod or its service account opts out', () => {
    const reader = new FakeReader([sa('default', 'default'), sa('default', 'quiet', { automountServiceAccountToken: false })]);
    const { ctx } = fakeAdmissionContext(reader);
    const plugin = new ServiceAccountAdmission();
    const p1 = pod({ automountServiceAccountToken: false, containers: [{ name: 'c' }] });
    plugin.admit(admissionAttrs(pods, p1), ctx);
    expect((p1.spec as any).volumes).toBeUndefined();
    const p2 = pod({ serviceAccountName: 'quiet', containers: [{ name: 'c' }] });
    plugin.admit(admissionAttrs(pods, p2), ctx);
    expect((p2.spec as any).volumes).toBeUndefined();
    // The pod's own preference wins over the account's.
    const p3 = pod({ serviceAccountName: 'quiet', automountServiceAccountToken: true, containers: [{ name: 'c' }] });
    plugin.admit(admissionAttrs(pods, p3), ctx);
    expect((p3.spec as any).volumes).toHaveLength(1);
  });

  it('refuses pods whose service account does not exist', () => {
    const { ctx } = fakeAdmissionContext(new FakeReader());
    const plugin = new ServiceAccountAdmission();
    expect(() => plugin.admit(admissionAttrs(pods, pod({ containers: [{ name: 'c' }] }, 'x')), ctx)).toThrow(
      'pods "x" is forbidden: error looking up service account default/default: serviceaccount "default" not found',
    );
    expect(() => plugin.admit(admissionAttrs(pods, pod({ serviceAccountName: 'robot', containers: [] }, 'y')), ctx)).toThrow(
      'pods "y" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found',
    );
  });

  it('copies the account image pull secrets and keeps an existing token mount', () => {
    const reader = new FakeReader([sa('default', 'default', { imagePullSecrets: [{ name: 'regcred' }] })]);
    const { ctx } = fakeAdmissionContext(reader);
    const p = pod({
      containers: [{ name: 'c', volumeMounts: [{ name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }],
      volumes: [{ name: 'mine', emptyDir: {} }],
    });
    new ServiceAccountAdmission().admit(admissionAttrs(pods, p), ctx);
    expect((p.spec as any).imagePullSecrets).toEqual([{ name: 'regcred' }]);
    expect((p.spec as any).volumes).toEqual([{ name: 'mine', emptyDir: {} }]);
  });

  it('enforces mountable secrets when the account asks for it', () => {
    const reader = new FakeReader([
      sa('default', 'strict', { metadata: { namespace: 'default', name: 'strict', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }] }),
    ]);
    const { ctx } = fakeAdmissionContext(reader);
    const p = pod({ serviceAccountName: 'strict', containers: [{ name: 'c' }], volumes: [{ name: 's', secret: { secretName: 'other' } }] });
    expect(() => new ServiceAccountAdmission().validate(admissionAttrs(pods, p), ctx)).toThrow(
      'pods "web" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret',
    );
  });
});
