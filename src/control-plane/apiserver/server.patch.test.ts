import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { PatchType } from './types';
import { configMap, deployment, newTestServer } from './handlers/test-harness';

type Deployment = KubeObject & { spec: { replicas: number; template: { spec: { containers: { name: string; image: string }[] } } } };

describe('patch', () => {
  it('strategic merge patch merges containers by name', () => {
    const t = newTestServer();
    const d = deployment('web');
    (d.spec as Deployment['spec']).template.spec.containers.push({ name: 'sidecar', image: 'busybox' });
    t.create(d);
    const out = t.patch('apps/v1', 'Deployment', 'default', 'web', PatchType.StrategicMergePatch, {
      spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } },
    }) as Deployment;
    expect(out.spec.template.spec.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['web=nginx:1.28', 'sidecar=busybox']);
    expect(out.metadata.generation).toBe(2);
  });

  it('merge patch deletes with null and replaces lists', () => {
    const t = newTestServer();
    t.create(configMap('cfg', 'default', { data: { a: '1', b: '2' }, metadata: { labels: { x: 'y', z: 'w' } } }));
    const out = t.patch('v1', 'ConfigMap', 'default', 'cfg', PatchType.MergePatch, { data: { a: null }, metadata: { labels: { z: null } } }) as KubeObject & {
      data: Record<string, string>;
    };
    expect(out.data).toEqual({ b: '2' });
    expect(out.metadata.labels).toEqual({ x: 'y' });
  });

  it('JSON patch applies operations and answers a failed test with the generic 422', () => {
    const t = newTestServer();
    t.create(deployment('web', 1));
    const out = t.patch('apps/v1', 'Deployment', 'default', 'web', PatchType.JSONPatch, [
      { op: 'test', path: '/spec/replicas', value: 1 },
      { op: 'replace', path: '/spec/replicas', value: 4 },
    ]) as Deployment;
    expect(out.spec.replicas).toBe(4);
    const status = t.failure(() =>
      t.patch('apps/v1', 'Deployment', 'default', 'web', PatchType.JSONPatch, [{ op: 'test', path: '/spec/replicas', value: 1 }]),
    );
    expect(status).toMatchObject({ code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' });
  });

  it('reports unknown fields a patch introduces under strict validation', () => {
    const t = newTestServer();
    t.create(configMap('cfg'));
    const status = t.failure(() => t.patch('v1', 'ConfigMap', 'default', 'cfg', PatchType.MergePatch, { bogus: 1 }));
    expect(status.code).toBe(422);
    expect(status.message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": strict decoding error: unknown field "bogus"$/);
  });

  it('patches of a missing object are NotFound; a patch with a stale resourceVersion conflicts', () => {
    const t = newTestServer();
    expect(t.failure(() => t.patch('v1', 'ConfigMap', 'default', 'nope', PatchType.MergePatch, { data: { a: 'b' } }))).toMatchObject({
      code: 404,
      message: 'configmaps "nope" not found',
    });
    const cm = t.create(configMap('cfg'));
    t.patch('v1', 'ConfigMap', 'default', 'cfg', PatchType.MergePatch, { data: { a: 'b' } });
    const stale = t.failure(() =>
      t.patch('v1', 'ConfigMap', 'default', 'cfg', PatchType.MergePatch, { metadata: { resourceVersion: cm.metadata.resourceVersion }, data: { a: 'c' } }),
    );
    expect(stale.code).toBe(409);
  });

  it('patches status through the status subresource only', () => {
    const t = newTestServer();
    t.create(deployment('web'));
    const viaMain = t.patch('apps/v1', 'Deployment', 'default', 'web', PatchType.MergePatch, { status: { replicas: 3 } });
    expect(viaMain.status).toBeUndefined();
    const viaStatus = t.patch('apps/v1', 'Deployment', 'default', 'web', PatchType.MergePatch, { status: { replicas: 3 } }, { subresource: 'status' });
    expect(viaStatus.status).toEqual({ replicas: 3 });
  });
});

describe('server-side apply', () => {
  const apply = (t: ReturnType<typeof newTestServer>, obj: KubeObject, fieldManager: string, force?: boolean) =>
    t.server.handle({
      verb: 'patch',
      ...t.target(obj.apiVersion, obj.kind, obj.metadata.namespace),
      name: obj.metadata.name,
      patchType: PatchType.ApplyPatch,
      body: obj,
      options: { fieldManager, force },
    });

  it('creates on apply, records an Apply entry, and conflicts with another manager until forced', () => {
    const t = newTestServer();
    const created = apply(t, deployment('web', 1), 'kubectl-client-side-apply');
    expect(created.code).toBe(201);
    const obj = created.body as Deployment;
    expect(obj.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'kubectl-client-side-apply', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1' }),
    ]);
    const fields = obj.metadata.managedFields![0].fieldsV1 as Record<string, any>;
    expect(fields['f:spec']['f:replicas']).toEqual({});
    expect(fields['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}']).toMatchObject({ '.': {}, 'f:image': {}, 'f:name': {} });

    const status = t.failure(() => apply(t, deployment('web', 3), 'kubectl'));
    expect(status).toMatchObject({ code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply": .spec.replicas' });
    const forced = apply(t, deployment('web', 3), 'kubectl', true);
    expect(forced.code).toBe(200);
    expect((forced.body as Deployment).spec.replicas).toBe(3);
  });

  it('conflicts with an Update manager by name and apiVersion', () => {
    const t = newTestServer();
    t.create(deployment('web', 1), { fieldManager: 'kubectl-client-side-apply' });
    const status = t.failure(() => apply(t, deployment('web', 2), 'kubectl'));
    expect(status.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
  });

  it('requires a field manager and refuses force on other patch types', () => {
    const t = newTestServer();
    t.create(deployment('web'));
    const missing = t.failure(() =>
      t.server.handle({ verb: 'patch', ...t.target('apps/v1', 'Deployment', 'default'), name: 'web', patchType: PatchType.ApplyPatch, body: deployment('web') }),
    );
    expect(missing).toMatchObject({ code: 422, message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch' });
    const force = t.failure(() => t.patch('apps/v1', 'Deployment', 'default', 'web', PatchType.MergePatch, {}, { force: true }));
    expect(force.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  });

  it('refuses fields the schema does not declare', () => {
    const t = newTestServer();
    const bad = { ...deployment('web'), spec: { ...(deployment('web').spec as object), replicaz: 1 } } as KubeObject;
    const status = t.failure(() => apply(t, bad, 'kubectl'));
    expect(status).toMatchObject({ code: 400, message: 'failed to create typed patch object (apps/v1, Kind=Deployment): .spec.replicaz: field not declared in schema' });
  });

  it('an identical apply changes nothing', () => {
    const t = newTestServer();
    const first = apply(t, configMap('cfg', 'default', { data: { a: '1' } }), 'me').body as KubeObject;
    t.clock.advance(5_000);
    const again = apply(t, configMap('cfg', 'default', { data: { a: '1' } }), 'me').body as KubeObject;
    expect(again.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  });
});
