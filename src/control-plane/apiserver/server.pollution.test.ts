// Prototype-pollution fuzz (api-semantics S2): "__proto__", "constructor" and "prototype" keys at random depths
// in every verb and patch type must stay plain data. Requests may be refused (with a Status); they may never
// change a prototype or fail with anything but a StatusError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StatusError } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import { PatchType, type ApiRequest } from './types';
import { configMap, newTestServer } from './handlers/test-harness';

const dangerousKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'a');

/** JSON text, so that "__proto__" members become own properties when parsed (as JSON.parse and YAML do). */
const jsonTree: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant('"yes"'),
    fc.integer({ min: -3, max: 3 }).map(String),
    fc.constant('null'),
    fc.array(tie('node'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
    fc.array(fc.tuple(dangerousKey, tie('node')), { maxLength: 4 }).map((kvs) => `{${kvs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).node as fc.Arbitrary<string>;

const objectTree = fc.array(fc.tuple(dangerousKey, jsonTree), { minLength: 1, maxLength: 4 }).map((kvs) => `{${kvs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);

function assertNoPollution(): void {
  const probe = {} as Record<string, unknown>;
  expect(probe.polluted).toBeUndefined();
  expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
  expect(typeof probe.toString).toBe('function');
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  expect(Object.prototype.hasOwnProperty.call(Array.prototype, 'polluted')).toBe(false);
}

function assertPlain(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    expect(Object.getPrototypeOf(value)).toBe(Array.prototype);
    value.forEach(assertPlain);
    return;
  }
  expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  for (const k of Object.keys(value)) assertPlain((value as Record<string, unknown>)[k]);
}

describe('prototype pollution', () => {
  it('never happens through any verb or patch type', () => {
    const t = newTestServer();
    t.create(configMap('target', 'default', { data: { keep: 'me' } }));
    const base = t.target('v1', 'ConfigMap', 'default');
    const verbs = fc.constantFrom('create', 'update', 'merge', 'strategic', 'json', 'apply', 'labels');

    fc.assert(
      fc.property(verbs, objectTree, objectTree, (verb, treeA, treeB) => {
        const a = JSON.parse(treeA) as Record<string, unknown>;
        const b = JSON.parse(treeB) as Record<string, unknown>;
        let req: ApiRequest;
        switch (verb) {
          case 'create':
            req = { verb: 'create', ...base, body: JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"fuzz-","annotations":${treeA}},"data":${treeB},"__proto__":${treeA}}`), options: { fieldValidation: 'Ignore' } };
            break;
          case 'update': {
            const current = t.get('v1', 'ConfigMap', 'default', 'target');
            req = { verb: 'update', ...base, name: 'target', body: { ...current, data: b, binaryData: a }, options: { fieldValidation: 'Warn' } };
            break;
          }
          case 'merge':
            req = { verb: 'patch', ...base, name: 'target', patchType: PatchType.MergePatch, body: JSON.parse(`{"data":${treeA},"metadata":{"labels":${treeB}},"constructor":${treeB}}`) };
            break;
          case 'strategic':
            req = { verb: 'patch', ...base, name: 'target', patchType: PatchType.StrategicMergePatch, body: JSON.parse(`{"data":${treeA},"metadata":{"annotations":${treeB},"__proto__":${treeA}}}`), options: { fieldValidation: 'Ignore' } };
            break;
          case 'json':
            req = {
              verb: 'patch',
              ...base,
              name: 'target',
              patchType: PatchType.JSONPatch,
              body: [
                { op: 'add', path: '/data/__proto__', value: a },
                { op: 'add', path: '/metadata/annotations', value: b },
                { op: 'replace', path: '/data/constructor', value: 'x' },
              ],
            };
            break;
          case 'apply':
            req = { verb: 'patch', ...base, name: 'applied', patchType: PatchType.ApplyPatch, body: JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"applied","namespace":"default","annotations":${treeB}},"data":${treeA}}`), options: { fieldManager: 'fuzz', force: true } };
            break;
          default:
            req = { verb: 'list', ...base, options: { labelSelector: Object.keys(a).map((k) => `${k.replace(/_/g, 'x')}`).join(',') } };
        }
        let result: unknown;
        try {
          result = t.server.handle(req).body;
        } catch (err) {
          if (!(err instanceof StatusError)) throw err;
          result = err.status;
        }
        assertNoPollution();
        assertPlain(result);
        for (const kv of t.store.range('/registry/core/configmaps/').kvs) assertPlain(kv.value);
      }),
      { numRuns: 300, seed: 4242 },
    );
    expect(t.get('v1', 'ConfigMap', 'default', 'target').metadata.name).toBe('target');
  });

  it('keeps a ConfigMap with __proto__ and constructor keys as data (B22)', () => {
    const t = newTestServer();
    const body = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b22","namespace":"default"},"data":{"__proto__":"x","constructor":"y"}}') as KubeObject;
    const created = t.create(body) as KubeObject & { data: Record<string, string> };
    expect(Object.keys(created.data)).toEqual(['__proto__', 'constructor']);
    expect(created.data.constructor).toBe('y');
    const got = t.get('v1', 'ConfigMap', 'default', 'b22') as KubeObject & { data: Record<string, string> };
    expect(JSON.stringify(got.data)).toBe('{"__proto__":"x","constructor":"y"}');
    assertNoPollution();
  });
});
