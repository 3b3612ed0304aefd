import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from './same-json';

describe('sameJson', () => {
  it('agrees with comparing JSON.stringify texts', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 2 }), fc.constantFrom(0, -0, NaN, Infinity), fc.constantFrom('a', 'b', '')),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', '1'), tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
        expect(sameJson(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts key order and skips undefined members as JSON does', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson({ a: [1, { c: 'x' }] }, { a: [1, { c: 'y' }] })).toBe(false);
  });

  it('agrees with JSON.stringify on any JSON value', () => {
    const json = fc.jsonValue();
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
        expect(sameJson(a, structuredClone(a))).toBe(true);
      }),
    );
  });

  it('follows JSON on NaN, toJSON and identity fields', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson({ n: NaN }, { n: null })).toBe(true);
    expect(sameJson({ d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' })).toBe(true);
    expect(sameJson({ d: new Date(0) }, { d: new Date(1) })).toBe(false);
    expect(sameJson({ kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true }, { kind: 'ReplicaSet', name: 'web', uid: 'u2', controller: true })).toBe(false);
    expect(sameJson(null, null)).toBe(true);
    expect(sameJson({}, [])).toBe(false);
  });
});
