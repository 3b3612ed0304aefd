// CustomResourceDefinitions and the custom resources they define.
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../../../shared/api/resources';
import type { KubeObject } from '../../../../shared/api/types';
import { strategyFor } from '../strategies';
import { create, invalidMessage, update } from '../test-harness';

type Obj = Record<string, any>;

function crd(extra: Obj = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', kind: 'CronTab', shortNames: ['ct'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object' } },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        },
      ],
      ...extra,
    },
  };
}

describe('CustomResourceDefinition', () => {
  it('defaults names and conversion and records the stored version', () => {
    const c = create('apiextensions.k8s.io', 'customresourcedefinitions', crd());
    const spec = c.spec as Obj;
    expect(spec.names.singular).toBe('crontab');
    expect(spec.names.listKind).toBe('CronTabList');
    expect(spec.conversion).toEqual({ strategy: 'None' });
    expect((c.status as Obj).storedVersions).toEqual(['v1']);
    expect(c.metadata.generation).toBe(1);
  });

  it('requires the name to be plural.group', () => {
    const bad = { ...crd(), metadata: { name: 'crontab.stable.example.com' } };
    expect(invalidMessage(() => create('apiextensions.k8s.io', 'customresourcedefinitions', bad))).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "crontab.stable.example.com" is invalid: metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group',
    );
  });

  it('requires exactly one storage version and a schema', () => {
    const versions = [
      { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v2', served: true, storage: false },
    ];
    expect(invalidMessage(() => create('apiextensions.k8s.io', 'customresourcedefinitions', crd({ versions })))).toBe(
      `CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: [spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required, spec.versions: Invalid value: ${JSON.stringify(versions)}: must have exactly one version marked as storage version]`,
    );
  });

  it('keeps group and plural fixed and scope fixed once established', () => {
    const c = create('apiextensions.k8s.io', 'customresourcedefinitions', crd());
    const established = { ...c, status: { ...(c.status as Obj), conditions: [{ type: 'Established', status: 'True' }] } };
    const next = { ...established, spec: { ...(c.spec as Obj), scope: 'Cluster' } };
    expect(invalidMessage(() => update('apiextensions.k8s.io', 'customresourcedefinitions', next, established))).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: spec.scope: Invalid value: "Cluster": field is immutable',
    );
  });
});

describe('custom resources', () => {
  const definition = crd();
  const rt: ResourceType = {
    group: 'stable.example.com',
    version: 'v1',
    kind: 'CronTab',
    resource: 'crontabs',
    singular: 'crontab',
    namespaced: true,
    shortNames: ['ct'],
    categories: [],
    subresources: { status: true, scale: true },
    verbs: [],
    custom: true,
  };
  const ct = (spec: Obj, status?: Obj): KubeObject => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-cron' }, spec, ...(status ? { status } : {}) });

  it('sets generation 1 and drops status on create', () => {
    const o = create('stable.example.com', 'crontabs', ct({ cronSpec: '* * * * */5' }, { phase: 'x' }), rt);
    expect(o.metadata.generation).toBe(1);
    expect(o.status).toBeUndefined();
  });

  it('bumps generation on spec changes but not on status or metadata changes', () => {
    const o = create('stable.example.com', 'crontabs', ct({ cronSpec: 'a' }), rt);
    expect(update('stable.example.com', 'crontabs', { ...o, spec: { cronSpec: 'b' } }, o, undefined, rt).metadata.generation).toBe(2);
    expect(update('stable.example.com', 'crontabs', { ...o, metadata: { ...o.metadata, labels: { a: 'b' } } }, o, undefined, rt).metadata.generation).toBe(1);
    const s = update('stable.example.com', 'crontabs', { ...o, metadata: { ...o.metadata, labels: { ignored: 'yes' } }, spec: { cronSpec: 'z' }, status: { replicas: 2 } }, o, 'status', rt);
    expect(s.status).toEqual({ replicas: 2 });
    expect(s.spec).toEqual({ cronSpec: 'a' });
    expect(s.metadata.labels).toBeUndefined();
    expect(s.metadata.generation).toBe(1);
  });

  it('uses the CRD scale paths and refuses unconditional updates', () => {
    const strategy = strategyFor(rt, definition);
    expect(strategy.allowUnconditionalUpdate).toBe(false);
    expect(strategy.scale?.selector(ct({}, { selector: 'app=cron' }))).toBe('app=cron');
    expect(strategy.scale?.specReplicasPath).toBe('.spec.replicas');
    // Without its CRD the strategy cannot know the paths and leaves scale to the caller.
    expect(strategyFor(rt).scale).toBeUndefined();
  });

  it('keeps "__proto__" fields as data through status writes (S2)', () => {
    const input = JSON.parse('{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"p"},"spec":{"a":1},"__proto__":{"polluted":true}}') as KubeObject;
    const o = create('stable.example.com', 'crontabs', input, rt);
    const s = update('stable.example.com', 'crontabs', { ...o, status: { ok: true } }, o, 'status', rt);
    expect(Object.getPrototypeOf(s)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(s, '__proto__')).toBe(true);
    expect(({} as Obj).polluted).toBeUndefined();
    expect(s.status).toEqual({ ok: true });
  });

  it('validates names as DNS subdomains', () => {
    expect(invalidMessage(() => create('stable.example.com', 'crontabs', { ...ct({}), metadata: { name: 'My_Cron' } }, rt))).toMatch(
      /^CronTab.stable.example.com "My_Cron" is invalid: metadata.name: Invalid value: "My_Cron": a lowercase RFC 1123 subdomain/,
    );
  });
});
