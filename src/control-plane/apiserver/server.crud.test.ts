import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { configMap, deployment, dryRun, newTestServer } from './handlers/test-harness';

type Deployment = KubeObject & { spec: { replicas: number; selector: { matchLabels: Record<string, string> }; template: any }; status?: any };

describe('create and get', () => {
  it('fills uid, creationTimestamp and resourceVersion, answers 201, and returns copies', () => {
    const t = newTestServer();
    const res = t.server.handle({ verb: 'create', ...t.target('v1', 'ConfigMap', 'default'), body: configMap('cfg', 'default', { data: { a: '1' } }) });
    expect(res.code).toBe(201);
    const cm = res.body as KubeObject;
    expect(cm.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(cm.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(cm.metadata.resourceVersion).toBe(String(t.store.revision));
    (cm as unknown as { data: Record<string, string> }).data.a = 'changed';
    expect((t.get('v1', 'ConfigMap', 'default', 'cfg') as { data?: Record<string, string> }).data).toEqual({ a: '1' });
    expect(t.store.get('/registry/core/configmaps/default/cfg')?.value.metadata.resourceVersion).toBeUndefined();
  });

  it('refuses a duplicate name with AlreadyExists', () => {
    const t = newTestServer();
    t.create(configMap('cfg'));
    const status = t.failure(() => t.create(configMap('cfg')));
    expect(status).toMatchObject({ code: 409, reason: 'AlreadyExists', message: 'configmaps "cfg" already exists' });
  });

  it('refuses resourceVersion on create with the storage error (500, reason "")', () => {
    const t = newTestServer();
    const obj = configMap('cfg');
    (obj.metadata as { resourceVersion?: string }).resourceVersion = '5';
    const status = t.failure(() => t.create(obj));
    expect(status).toMatchObject({ code: 500, reason: '', message: 'resourceVersion should not be set on objects to be created' });
    expect(t.store.get('/registry/core/configmaps/default/cfg')).toBeUndefined();
  });

  it('refuses an object whose namespace is not the request namespace', () => {
    const t = newTestServer();
    const status = t.failure(() =>
      t.server.handle({ verb: 'create', ...t.target('v1', 'ConfigMap', 'kube-system'), body: configMap('cfg', 'default') }),
    );
    expect(status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' });
  });

  it('generates names from generateName with the seeded rng', () => {
    const t = newTestServer();
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'web-', namespace: 'default' } };
    const a = t.create<KubeObject>(obj);
    const b = t.create<KubeObject>(obj);
    expect(a.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(b.metadata.name).not.toBe(a.metadata.name);
    const long = t.create<KubeObject>({ ...obj, metadata: { generateName: `${'x'.repeat(70)}-`, namespace: 'default' } });
    expect(long.metadata.name).toHaveLength(63);
    expect(long.metadata.name!.startsWith('x'.repeat(58))).toBe(true);
  });

  it('dry-run runs the pipeline but stores nothing', () => {
    const t = newTestServer();
    const before = t.store.revision;
    const res = t.server.handle({ verb: 'create', ...t.target('v1', 'ConfigMap', 'default'), body: configMap('dry'), options: dryRun });
    expect(res.code).toBe(201);
    expect((res.body as KubeObject).metadata.uid).toBeDefined();
    expect(t.store.revision).toBe(before);
    expect(t.failure(() => t.get('v1', 'ConfigMap', 'default', 'dry'))).toMatchObject({ code: 404, message: 'configmaps "dry" not found' });
    // Dry-run validation still refuses invalid objects.
    const bad = t.failure(() => t.create(configMap('Bad_Name'), dryRun));
    expect(bad.code).toBe(422);
  });

  it('reports strict field validation through the full pipeline, and warnings in Warn mode', () => {
    const t = newTestServer();
    const obj = { ...deployment('web'), spec: { ...(deployment('web').spec as object), replicaz: 3 } } as KubeObject;
    const status = t.failure(() => t.create(obj));
    expect(status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicaz"',
    });
    const res = t.server.handle({ verb: 'create', ...t.target('apps/v1', 'Deployment', 'default'), body: obj, options: { fieldValidation: 'Warn' } });
    expect(res.warnings).toEqual(['unknown field "spec.replicaz"']);
    expect((res.body as Deployment).spec).not.toHaveProperty('replicaz');
  });

  it('reports name and label validation with the real texts', () => {
    const t = newTestServer();
    const status = t.failure(() => t.create(configMap('My_Map')));
    expect(status.code).toBe(422);
    expect(status.message).toBe(
      `ConfigMap "My_Map" is invalid: metadata.name: Invalid value: "My_Map": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
    const labelled = configMap('ok', 'default', { metadata: { labels: { app: 'bad value!' } } });
    const labelStatus = t.failure(() => t.create(labelled));
    expect(labelStatus.message).toContain('metadata.labels: Invalid value: "bad value!": a valid label must be an empty string');
    expect(labelStatus.details?.causes?.[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.labels' });
  });

  it('refuses a kind the server does not serve', () => {
    const t = newTestServer();
    const status = t.failure(() =>
      t.server.handle({
        verb: 'create',
        group: 'batch',
        version: 'v1beta1',
        resource: 'cronjobs',
        namespace: 'default',
        body: { apiVersion: 'batch/v1beta1', kind: 'CronJob', metadata: { name: 'x' } },
      }),
    );
    expect(status.message).toBe('no matches for kind "CronJob" in version "batch/v1beta1"');
  });
});

describe('update', () => {
  it('answers a stale resourceVersion with the optimistic-lock conflict', () => {
    const t = newTestServer();
    const created = t.create(deployment('web')) as Deployment;
    t.update({ ...created, spec: { ...created.spec, replicas: 2 } });
    const status = t.failure(() => t.update({ ...created, spec: { ...created.spec, replicas: 3 } }));
    expect(status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('lets an update without resourceVersion through (unconditional) where the strategy allows it', () => {
    const t = newTestServer();
    const created = t.create(deployment('web')) as Deployment;
    const { resourceVersion: _rv, ...meta } = created.metadata;
    const updated = t.update({ ...created, metadata: meta, spec: { ...created.spec, replicas: 4 } }) as Deployment;
    expect(updated.spec.replicas).toBe(4);
    expect(Number(updated.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
  });

  it('refuses an update of a missing object with NotFound', () => {
    const t = newTestServer();
    const status = t.failure(() => t.update(configMap('ghost')));
    expect(status).toMatchObject({ code: 404, message: 'configmaps "ghost" not found' });
  });

  it('bumps generation on a spec change, not on a status write, and an identical write keeps the resourceVersion', () => {
    const t = newTestServer();
    const created = t.create(deployment('web')) as Deployment;
    expect(created.metadata.generation).toBe(1);
    const same = t.update(created) as Deployment;
    expect(same.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    expect(same.metadata.generation).toBe(1);
    const scaled = t.update({ ...created, spec: { ...created.spec, replicas: 3 } }) as Deployment;
    expect(scaled.metadata.generation).toBe(2);
    const withStatus = t.update({ ...scaled, status: { replicas: 3, observedGeneration: 2 } }, { subresource: 'status' }) as Deployment;
    expect(withStatus.metadata.generation).toBe(2);
    expect(withStatus.status).toEqual({ replicas: 3, observedGeneration: 2 });
  });

  it('keeps status and spec apart: the main resource ignores status, the status subresource ignores spec', () => {
    const t = newTestServer();
    const created = t.create({ ...deployment('web'), status: { replicas: 9 } }) as Deployment;
    expect(created.status).toBeUndefined();
    const viaMain = t.update({ ...created, status: { replicas: 5 } }) as Deployment;
    expect(viaMain.status).toBeUndefined();
    const viaStatus = t.update({ ...viaMain, spec: { ...viaMain.spec, replicas: 7 }, status: { replicas: 1 } }, { subresource: 'status' }) as Deployment;
    expect(viaStatus.spec.replicas).toBe(1);
    expect(viaStatus.status).toEqual({ replicas: 1 });
  });

  it('keeps creationTimestamp and uid from the stored object', () => {
    const t = newTestServer();
    const created = t.create(configMap('cfg'));
    t.clock.advance(60_000);
    const meta = { ...created.metadata, uid: undefined, creationTimestamp: '2020-01-01T00:00:00Z', labels: { a: 'b' } };
    const updated = t.update({ ...created, metadata: meta });
    expect(updated.metadata.uid).toBe(created.metadata.uid);
    expect(updated.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
  });

  it('refuses to change an immutable selector', () => {
    const t = newTestServer();
    const created = t.create(deployment('web')) as Deployment;
    const changed = {
      ...created,
      spec: {
        ...created.spec,
        selector: { matchLabels: { app: 'other' } },
        template: { ...created.spec.template, metadata: { labels: { app: 'other' } } },
      },
    };
    const status = t.failure(() => t.update(changed));
    expect(status.code).toBe(422);
    expect(status.message).toContain('spec.selector: Invalid value:');
    expect(status.message).toContain('field is immutable');
  });
});

describe('scale subresource', () => {
  it('reads and writes an autoscaling/v1 Scale', () => {
    const t = newTestServer();
    t.create(deployment('web', 2));
    const scale = t.server.handle({ verb: 'get', ...t.target('apps/v1', 'Deployment', 'default'), name: 'web', subresource: 'scale' }).body as any;
    expect(scale).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=web' },
    });
    const updated = t.server.handle({
      verb: 'update',
      ...t.target('apps/v1', 'Deployment', 'default'),
      name: 'web',
      subresource: 'scale',
      body: { ...scale, spec: { replicas: 5 } },
    }).body as any;
    expect(updated.spec.replicas).toBe(5);
    const d = t.get('apps/v1', 'Deployment', 'default', 'web') as Deployment;
    expect(d.spec.replicas).toBe(5);
    expect(d.metadata.generation).toBe(2);

    const stale = t.failure(() =>
      t.server.handle({ verb: 'update', ...t.target('apps/v1', 'Deployment', 'default'), name: 'web', subresource: 'scale', body: { ...scale, spec: { replicas: 6 } } }),
    );
    expect(stale.code).toBe(409);
    const negative = t.failure(() =>
      t.server.handle({ verb: 'update', ...t.target('apps/v1', 'Deployment', 'default'), name: 'web', subresource: 'scale', body: { spec: { replicas: -1 } } }),
    );
    expect(negative).toMatchObject({ code: 422, message: 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0' });
  });

  it('is absent where the kind has none', () => {
    const t = newTestServer();
    t.create(configMap('cfg'));
    const status = t.failure(() => t.server.handle({ verb: 'get', ...t.target('v1', 'ConfigMap', 'default'), name: 'cfg', subresource: 'scale' }));
    expect(status.code).toBe(404);
  });
});
