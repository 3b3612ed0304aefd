import { describe, expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import { PatchType } from './types';
import { newTestServer } from './handlers/test-harness';
import { APIServer } from './server';
import { createRng } from '../sim/rng';

const shirtCRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'shirts.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt', shortNames: ['sh'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  color: { type: 'string' },
                  size: { type: 'string' },
                  replicas: { type: 'integer' },
                  sizes: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, stock: { type: 'integer' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

const shirt = (name: string, color = 'blue'): KubeObject => ({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name, namespace: 'default' }, spec: { color, size: 'M' } });

describe('custom resources', () => {
  it('are unknown before their CRD, served after it, and go with it', () => {
    const t = newTestServer();
    const before = t.failure(() =>
      t.server.handle({ verb: 'create', group: 'stable.example.com', version: 'v1', resource: 'shirts', namespace: 'default', body: shirt('a') }),
    );
    expect(before.message).toBe('no matches for kind "Shirt" in version "stable.example.com/v1"');

    t.create(shirtCRD);
    expect(t.registry.resolve('sh').map((r) => r.resource)).toEqual(['shirts']);
    const created = t.create(shirt('a'));
    expect(created.metadata.uid).toBeDefined();
    t.clock.runUntilIdle();
    const crd = t.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'shirts.stable.example.com') as KubeObject & {
      status: { conditions: { type: string; status: string }[]; acceptedNames: { kind: string } };
    };
    expect(crd.status.conditions.filter((c) => c.status === 'True').map((c) => c.type)).toEqual(['NamesAccepted', 'Established']);
    expect(crd.status.acceptedNames).toMatchObject({ plural: 'shirts', singular: 'shirt', kind: 'Shirt', listKind: 'ShirtList', shortNames: ['sh'] });
    expect(t.server.discovery().resources.find((r) => r.groupVersion === 'stable.example.com/v1')?.resources.map((r) => r.name)).toEqual([
      'shirts',
      'shirts/status',
      'shirts/scale',
    ]);

    const strict = t.failure(() => t.create({ ...shirt('b'), spec: { color: 'red', pattern: 'striped' } }));
    expect(strict.code).toBe(400);
    expect(strict.message).toContain('unknown field "spec.pattern"');

    const events: WatchEvent[] = [];
    t.watch('stable.example.com/v1', 'Shirt', 'default', { resourceVersion: String(t.store.revision) }, events);
    const res = t.remove('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'shirts.stable.example.com');
    expect((res.body as KubeObject).metadata.finalizers).toContain('customresourcecleanup.apiextensions.k8s.io');
    const terminating = t.failure(() => t.create(shirt('late')));
    expect(terminating.code).toBe(405);
    t.clock.runUntilIdle();
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['DELETED a']);
    expect(t.failure(() => t.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, 'shirts.stable.example.com')).code).toBe(404);
    expect(t.registry.resolve('shirts')).toEqual([]);
    const after = t.failure(() =>
      t.server.handle({ verb: 'get', group: 'stable.example.com', version: 'v1', resource: 'shirts', namespace: 'default', name: 'a' }),
    );
    expect(after).toMatchObject({ code: 404, message: 'the server could not find the requested resource' });
    const createAfter = t.failure(() =>
      t.server.handle({ verb: 'create', group: 'stable.example.com', version: 'v1', resource: 'shirts', namespace: 'default', body: shirt('c') }),
    );
    expect(createAfter.message).toBe('no matches for kind "Shirt" in version "stable.example.com/v1"');
  });

  it('takes merge and JSON patches and server-side apply, but not strategic merge patch', () => {
    const t = newTestServer();
    t.create(shirtCRD);
    t.create(shirt('a'));
    const merged = t.patch('stable.example.com/v1', 'Shirt', 'default', 'a', PatchType.MergePatch, { spec: { color: 'green' } }) as KubeObject & { spec: { color: string } };
    expect(merged.spec.color).toBe('green');
    const smp = t.failure(() => t.patch('stable.example.com/v1', 'Shirt', 'default', 'a', PatchType.StrategicMergePatch, { spec: { color: 'red' } }));
    expect(smp).toMatchObject({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
    const applied = t.server.handle({
      verb: 'patch',
      ...t.target('stable.example.com/v1', 'Shirt', 'default'),
      name: 'b',
      patchType: PatchType.ApplyPatch,
      body: { ...shirt('b'), spec: { sizes: [{ name: 's', stock: 1 }] } },
      options: { fieldManager: 'me' },
    });
    const fields = ((applied.body as KubeObject).metadata.managedFields![0].fieldsV1 as Record<string, any>)['f:spec']['f:sizes'];
    expect(Object.keys(fields)).toEqual(['k:{"name":"s"}']);
  });

  it('serves the scale subresource the CRD declares', () => {
    const t = newTestServer();
    t.create(shirtCRD);
    t.create({ ...shirt('a'), spec: { color: 'blue', replicas: 2 } });
    const scale = t.server.handle({ verb: 'get', ...t.target('stable.example.com/v1', 'Shirt', 'default'), name: 'a', subresource: 'scale' }).body;
    expect(scale).toMatchObject({ kind: 'Scale', spec: { replicas: 2 }, status: { replicas: 0, selector: '' } });
  });

  it('are registered again by a server built over the same store', () => {
    const t = newTestServer();
    t.create(shirtCRD);
    t.create(shirt('a'));
    t.registry.removeCustom({ group: 'stable.example.com', resource: 'shirts' });
    const restarted = new APIServer({ clock: t.clock, store: t.store, registry: t.registry, trace: { emit: () => 0 }, rng: createRng(1) });
    restarted.bootstrap();
    const got = restarted.handle({ verb: 'get', group: 'stable.example.com', version: 'v1', resource: 'shirts', namespace: 'default', name: 'a' });
    expect((got.body as KubeObject).metadata.name).toBe('a');
  });
});
