import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonEqual } from './json-equal';

describe('jsonEqual', () => {
  it('agrees with comparing JSON.stringify of both values', () => {
    const json = fc.jsonValue();
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(jsonEqual(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
        expect(jsonEqual(a, structuredClone(a))).toBe(true);
      }),
    );
  });

  it('follows JSON on key order, undefined members, NaN and toJSON', () => {
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([undefined], [null])).toBe(true);
    expect(jsonEqual({ n: NaN }, { n: null })).toBe(true);
    expect(jsonEqual({ d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' })).toBe(true);
    expect(jsonEqual({ d: new Date(0) }, { d: new Date(1) })).toBe(false);
    expect(jsonEqual({ kind: 'ReplicaSet', name: 'web', uid: 'u1', controller: true }, { kind: 'ReplicaSet', name: 'web', uid: 'u2', controller: true })).toBe(false);
    expect(jsonEqual(null, null)).toBe(true);
    expect(jsonEqual({}, [])).toBe(false);
  });
});
