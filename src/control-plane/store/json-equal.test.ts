import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonEqual } from './json-equal';

describe('jsonEqual', () => {
  it('ignores key order and undefined-valued properties', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, x: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, x: undefined })).toBe(true);
  });

  it('tells different values apart', () => {
    expect(jsonEqual({ a: 1 }, { a: 2 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ a: [1] }, { a: [1, 1] })).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });

  it('agrees with canonical JSON serialisation', () => {
    const canonical = (v: unknown): string =>
      JSON.stringify(v, (_k, val: unknown) =>
        val && typeof val === 'object' && !Array.isArray(val)
          ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1)))
          : val,
      );
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(jsonEqual(a, b)).toBe(canonical(a) === canonical(b));
        expect(jsonEqual(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
