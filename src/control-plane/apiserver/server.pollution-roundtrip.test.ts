// Prototype pollution, every verb (issue 9, hostile input): "__proto__", "constructor" and "prototype" keys in
// labels, annotations, ConfigMap data, spec fields (typed maps, merge-keyed lists, preserve-unknown-fields trees)
// and delete options stay plain data through create, update, server-side apply, every patch type and delete with
// a body: no prototype changes, and what was written reads back as written.
// server.pollution.test.ts fuzzes random shapes for "nothing leaks"; this one checks the round trip per verb.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StatusError } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import { PatchType, type ApiRequest } from './types';
import { newTestServer, type TestServer } from './handlers/test-harness';

/** Keys JavaScript treats specially, and a few ordinary ones. */
const hostileKeys = ['__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'hasOwnProperty', 'valueOf', 'a'] as const;
/** Label and annotation keys must be qualified names: "__proto__" is not one (it starts with "_"). */
const labelKeys = hostileKeys.filter((k) => k !== '__proto__');
/** A value that would pollute if a "__proto__" key were ever assigned with [[Set]]. */
const pollutingValue = '{"polluted":"yes","toString":"no"}';

/** JSON text of a tree with hostile keys and no nulls (so a merge patch of it onto nothing is the tree itself). */
const treeJson: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('"yes"', '"<script>"', '1', 'true', pollutingValue),
    fc.array(tie('node'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
    fc.uniqueArray(fc.tuple(fc.constantFrom(...hostileKeys), tie('node')), { selector: ([k]) => k, maxLength: 4 }).map(
      (kvs) => `{${kvs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`,
    ),
  ),
})).node as fc.Arbitrary<string>;
const objectJson = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...hostileKeys), treeJson), { selector: ([k]) => k, minLength: 1, maxLength: 5 })
  .map((kvs) => `{${kvs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);

/** A string map as JSON text (JSON, so "__proto__" members are own properties as a decoded body has them). */
const stringMapJson = (keys: readonly string[]) =>
  fc
    .uniqueArray(fc.tuple(fc.constantFrom(...keys), fc.constantFrom('x', 'y', 'polluted', '1')), { selector: ([k]) => k, minLength: 1, maxLength: keys.length })
    .map((kvs) => `{${kvs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);

const widgetCRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.fuzz.example.com' },
  spec: {
    group: 'fuzz.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
      },
    ],
  },
};

/** JSON with sorted keys: equal for equal data whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function assertNoPollution(): void {
  const probe = {} as Record<string, unknown>;
  expect(probe.polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
  expect(typeof probe.toString).toBe('function');
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(objectPrototypeNames);
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(arrayPrototypeNames);
}
const objectPrototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
const arrayPrototypeNames = Object.getOwnPropertyNames(Array.prototype).sort();

/** Every object in the value is a plain object or array: no "__proto__" key became a prototype. */
function assertPlain(value: unknown, path = ''): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    expect(Object.getPrototypeOf(value), path).toBe(Array.prototype);
    value.forEach((v, i) => assertPlain(v, `${path}[${i}]`));
    return;
  }
  expect(Object.getPrototypeOf(value), path).toBe(Object.prototype);
  for (const k of Object.keys(value)) assertPlain((value as Record<string, unknown>)[k], `${path}.${k}`);
}

/** Each entry of `want` (a map, as JSON text) is in `got` as an own property with the same value. */
function expectEntries(got: unknown, want: string, what: string): void {
  expect(typeof got, what).toBe('object');
  const expected = JSON.parse(want) as Record<string, unknown>;
  for (const k of Object.keys(expected)) {
    expect(Object.hasOwn(got as object, k), `${what} has own key ${k}`).toBe(true);
    expect(canonical((got as Record<string, unknown>)[k]), `${what}.${k}`).toBe(canonical(expected[k]));
  }
}

const Verb = {
  Create: 'create',
  Update: 'update',
  ServerSideApply: 'server-side apply',
  JSONPatch: 'json-patch',
  MergePatch: 'merge-patch',
  StrategicMergePatch: 'strategic-merge-patch',
  DeleteWithBody: 'delete with body',
} as const;
type Verb = (typeof Verb)[keyof typeof Verb];

interface Input {
  verb: Verb;
  data: string;
  labels: string;
  annotations: string;
  tree: string;
  names: string[];
}

class Fuzz {
  private seq = 0;
  constructor(readonly t: TestServer) {}

  private handle(req: ApiRequest): unknown {
    const res = this.t.server.handle(req);
    assertPlain(res.body);
    return res.body;
  }

  private cm = (name: string) => ({ ...this.t.target('v1', 'ConfigMap', 'default'), name });
  private widget = (name: string) => ({ group: 'fuzz.example.com', version: 'v1', resource: 'widgets', namespace: 'default', name });
  private deploy = (name: string) => ({ ...this.t.target('apps/v1', 'Deployment', 'default'), name });

  private configMapJson(name: string, i: Input): string {
    return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","namespace":"default","labels":${i.labels},"annotations":${i.annotations}},"data":${i.data}}`;
  }
  private widgetJson(name: string, tree: string): string {
    return `{"apiVersion":"fuzz.example.com/v1","kind":"Widget","metadata":{"name":"${name}","namespace":"default"},"spec":{"tree":${tree}}}`;
  }

  /** The ConfigMap and Widget read back hold the input's keys as data. */
  private checkConfigMap(name: string, i: Input): void {
    const got = this.handle({ verb: 'get', ...this.cm(name) }) as KubeObject & { data?: unknown };
    expectEntries(got.data, i.data, 'data');
    expectEntries(got.metadata.labels, i.labels, 'labels');
    expectEntries(got.metadata.annotations, i.annotations, 'annotations');
    // A label selector finds it by a hostile label key.
    const [key, value] = Object.entries(JSON.parse(i.labels) as Record<string, string>)[0];
    const listed = this.handle({ verb: 'list', ...this.t.target('v1', 'ConfigMap', 'default'), options: { labelSelector: `${key}=${value}` } }) as { items: KubeObject[] };
    expect(listed.items.map((o) => o.metadata.name)).toContain(name);
  }
  private checkWidget(name: string, tree: string): void {
    const got = this.handle({ verb: 'get', ...this.widget(name) }) as KubeObject & { spec: { tree: unknown } };
    expect(Object.hasOwn(got.spec, 'tree')).toBe(true);
    expect(canonical(got.spec.tree)).toBe(canonical(JSON.parse(tree)));
  }

  run(i: Input): void {
    const n = ++this.seq;
    const name = `fuzz-${n}`;
    const body = (json: string) => JSON.parse(json) as KubeObject;
    switch (i.verb) {
      case Verb.Create:
        this.handle({ verb: 'create', ...this.cm(name), name: undefined, body: body(this.configMapJson(name, i)) });
        this.checkConfigMap(name, i);
        this.handle({ verb: 'create', ...this.widget(name), name: undefined, body: body(this.widgetJson(name, i.tree)) });
        this.checkWidget(name, i.tree);
        return;
      case Verb.Update: {
        this.handle({ verb: 'create', ...this.cm(name), name: undefined, body: body(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"}}`) });
        const current = this.handle({ verb: 'get', ...this.cm(name) }) as KubeObject;
        const next = body(this.configMapJson(name, i));
        next.metadata = { ...next.metadata, resourceVersion: current.metadata.resourceVersion };
        this.handle({ verb: 'update', ...this.cm(name), body: next });
        this.checkConfigMap(name, i);
        this.handle({ verb: 'create', ...this.widget(name), name: undefined, body: body(this.widgetJson(name, '{}')) });
        const w = this.handle({ verb: 'get', ...this.widget(name) }) as KubeObject;
        const nextW = body(this.widgetJson(name, i.tree));
        nextW.metadata = { ...nextW.metadata, resourceVersion: w.metadata.resourceVersion };
        this.handle({ verb: 'update', ...this.widget(name), body: nextW });
        this.checkWidget(name, i.tree);
        return;
      }
      case Verb.ServerSideApply: {
        const apply = (target: Pick<ApiRequest, 'group' | 'version' | 'resource' | 'namespace' | 'name'>, json: string, manager: string) =>
          this.handle({ verb: 'patch', ...target, patchType: PatchType.ApplyPatch, body: body(json), options: { fieldManager: manager, force: true } });
        // Created by one manager, then taken over field by field by another: both paths of the field manager.
        apply(this.cm(name), this.configMapJson(name, i), 'first');
        apply(this.cm(name), this.configMapJson(name, i), 'second');
        this.checkConfigMap(name, i);
        const got = this.handle({ verb: 'get', ...this.cm(name) }) as KubeObject;
        const fields = JSON.stringify(got.metadata.managedFields?.map((e) => e.fieldsV1));
        for (const k of Object.keys(JSON.parse(i.data) as object)) expect(fields).toContain(`"f:${k}"`);
        apply(this.widget(name), this.widgetJson(name, i.tree), 'first');
        this.checkWidget(name, i.tree);
        return;
      }
      case Verb.MergePatch:
      case Verb.StrategicMergePatch: {
        const patchType = i.verb === Verb.MergePatch ? PatchType.MergePatch : PatchType.StrategicMergePatch;
        this.handle({ verb: 'create', ...this.cm(name), name: undefined, body: body(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"}}`) });
        this.handle({ verb: 'patch', ...this.cm(name), patchType, body: JSON.parse(`{"data":${i.data},"metadata":{"labels":${i.labels},"annotations":${i.annotations}}}`) });
        this.checkConfigMap(name, i);
        if (patchType === PatchType.MergePatch) {
          this.handle({ verb: 'create', ...this.widget(name), name: undefined, body: body(this.widgetJson(name, '{}')) });
          this.handle({ verb: 'patch', ...this.widget(name), patchType, body: JSON.parse(`{"spec":{"tree":${i.tree}}}`) });
          this.checkWidget(name, i.tree);
        } else {
          this.strategicDeployment(name, i);
        }
        return;
      }
      case Verb.JSONPatch: {
        this.handle({ verb: 'create', ...this.cm(name), name: undefined, body: body(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","labels":{},"annotations":{}},"data":{}}`) });
        const ops: unknown[] = [];
        const add = (prefix: string, json: string) => {
          for (const [k, v] of Object.entries(JSON.parse(json) as Record<string, string>)) ops.push({ op: 'add', path: `${prefix}/${k}`, value: v });
        };
        add('/data', i.data);
        add('/metadata/labels', i.labels);
        add('/metadata/annotations', i.annotations);
        // test, copy and move address hostile keys too.
        const [first] = Object.keys(JSON.parse(i.data) as object);
        ops.push({ op: 'test', path: `/data/${first}`, value: (JSON.parse(i.data) as Record<string, string>)[first] });
        ops.push({ op: 'copy', from: `/data/${first}`, path: '/data/copied' }, { op: 'move', from: '/data/copied', path: '/data/moved' });
        this.handle({ verb: 'patch', ...this.cm(name), patchType: PatchType.JSONPatch, body: ops });
        this.checkConfigMap(name, i);
        const got = this.handle({ verb: 'get', ...this.cm(name) }) as KubeObject & { data: Record<string, string> };
        expect(got.data.moved).toBe((JSON.parse(i.data) as Record<string, string>)[first]);
        expect(Object.hasOwn(got.data, 'copied')).toBe(false);
        this.handle({ verb: 'create', ...this.widget(name), name: undefined, body: body(this.widgetJson(name, '{}')) });
        this.handle({ verb: 'patch', ...this.widget(name), patchType: PatchType.JSONPatch, body: [{ op: 'add', path: '/spec/tree', value: JSON.parse(i.tree) }] });
        this.checkWidget(name, i.tree);
        return;
      }
      case Verb.DeleteWithBody: {
        this.handle({ verb: 'create', ...this.cm(name), name: undefined, body: body(this.configMapJson(name, i)) });
        // If "__proto__" became the options' prototype, the inherited precondition (a wrong uid) would refuse it.
        const options = JSON.parse(
          `{"__proto__":{"preconditions":{"uid":"not-the-uid"},"polluted":"yes"},"preconditions":{"__proto__":{"uid":"not-the-uid"},"constructor":${i.tree}},"constructor":${i.tree},"prototype":${i.annotations}}`,
        ) as NonNullable<ApiRequest['options']>;
        this.handle({ verb: 'delete', ...this.cm(name), body: options, options });
        const gone = (() => {
          try {
            this.t.server.handle({ verb: 'get', ...this.cm(name) });
            return undefined;
          } catch (err) {
            if (!(err instanceof StatusError)) throw err;
            return err.status.code;
          }
        })();
        expect(gone).toBe(404);
        return;
      }
    }
  }

  /** A strategic merge patch whose merge keys (container names, env names) are hostile: lists merge by them. */
  private strategicDeployment(name: string, i: Input): void {
    const containers = i.names.map((c) => ({ name: c, image: 'nginx:1.27' }));
    this.handle({
      verb: 'create',
      ...this.deploy(name),
      name: undefined,
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default' }, spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers } } } },
    });
    const envNames = ['__proto__', 'constructor', 'prototype'];
    const patch = JSON.parse(
      `{"spec":{"template":{"metadata":{"annotations":${i.annotations}},"spec":{"nodeSelector":${i.labels},"containers":[${i.names
        .map((c) => `{"name":${JSON.stringify(c)},"env":[${envNames.map((e) => `{"name":"${e}","value":"${c}"}`).join(',')}]}`)
        .join(',')}],"$setElementOrder/containers":[${[...i.names].reverse().map((c) => `{"name":${JSON.stringify(c)}}`).join(',')}]}}}}`,
    ) as unknown;
    this.handle({ verb: 'patch', ...this.deploy(name), patchType: PatchType.StrategicMergePatch, body: patch });
    const got = this.handle({ verb: 'get', ...this.deploy(name) }) as KubeObject & {
      spec: { template: { metadata: { annotations?: unknown }; spec: { nodeSelector: unknown; containers: { name: string; env?: { name: string; value: string }[] }[] } } };
    };
    const tpl = got.spec.template;
    expectEntries(tpl.metadata.annotations, i.annotations, 'template annotations');
    expectEntries(tpl.spec.nodeSelector, i.labels, 'nodeSelector');
    // $setElementOrder reorders the merged list; every container got its env by merge key.
    expect(tpl.spec.containers.map((c) => c.name)).toEqual([...i.names].reverse());
    for (const c of tpl.spec.containers) expect(c.env).toEqual(envNames.map((e) => ({ name: e, value: c.name })));
  }
}

/** Container names are DNS labels: "constructor" and "prototype" are valid ones. */
const containerNames = fc.uniqueArray(fc.constantFrom('constructor', 'prototype', 'web'), { minLength: 1, maxLength: 3 });

describe('prototype pollution: every verb keeps hostile keys as data', () => {
  it('create, update, server-side apply, json/merge/strategic patches and delete with a body', () => {
    const t = newTestServer();
    t.create(widgetCRD);
    t.clock.runUntilIdle();
    const fuzz = new Fuzz(t);
    const input = fc.record({
      verb: fc.constantFrom(...Object.values(Verb)),
      data: stringMapJson(hostileKeys),
      labels: stringMapJson(labelKeys),
      annotations: stringMapJson(labelKeys),
      tree: objectJson,
      names: containerNames,
    });
    const seen = new Set<Verb>();
    fc.assert(
      fc.property(input, (i) => {
        seen.add(i.verb);
        fuzz.run(i);
        assertNoPollution();
      }),
      { numRuns: 250, seed: 9009 },
    );
    expect([...seen].sort()).toEqual(Object.values(Verb).sort());
    // The store holds plain data only.
    for (const kv of t.store.range('/registry/').kvs) assertPlain(kv.value);
  });

  it('refuses "__proto__" as a label or annotation key with the qualified-name text, and nothing leaks', () => {
    const t = newTestServer();
    for (const field of ['labels', 'annotations']) {
      const status = t.failure(() => t.create(JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bad","${field}":{"__proto__":"x"}}}`) as KubeObject));
      expect(status.code).toBe(422);
      expect(status.message).toContain(`metadata.${field}: Invalid value: "__proto__": name part must consist of alphanumeric characters`);
      assertNoPollution();
    }
  });
});
