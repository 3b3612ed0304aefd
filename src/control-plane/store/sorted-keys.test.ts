import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SortedKeySet } from './sorted-keys';

function withPrefix(set: SortedKeySet, prefix: string): string[] {
  const out: string[] = [];
  set.forEachWithPrefix(prefix, (k) => out.push(k));
  return out;
}

describe('SortedKeySet', () => {
  it('ranges by prefix in order, across chunk splits', () => {
    const set = new SortedKeySet();
    // Insert in a scrambled order, enough keys to split chunks many times.
    const keys: string[] = [];
    for (let i = 0; i < 5000; i++) keys.push(`/registry/core/pods/ns${i % 7}/p${String((i * 7919) % 5000).padStart(5, '0')}`);
    for (const k of keys) set.add(k);
    expect(set.size).toBe(new Set(keys).size);
    const ns3 = withPrefix(set, '/registry/core/pods/ns3/');
    const expected = [...new Set(keys)].filter((k) => k.startsWith('/registry/core/pods/ns3/')).sort();
    expect(ns3).toEqual(expected);
    expect(set.countWithPrefix('/registry/core/pods/ns3/')).toBe(expected.length);
    expect(withPrefix(set, '/registry/core/pods/ns9/')).toEqual([]);
  });

  it('reports duplicates and missing keys', () => {
    const set = new SortedKeySet();
    expect(set.add('a')).toBe(true);
    expect(set.add('a')).toBe(false);
    expect(set.delete('b')).toBe(false);
    expect(set.delete('a')).toBe(true);
    expect(set.size).toBe(0);
    expect(withPrefix(set, '')).toEqual([]);
  });

  it('matches a sorted-array model under random adds and deletes', () => {
    const key = fc.stringMatching(/^[ab/]{0,6}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), key), { maxLength: 400 }), fc.array(key, { maxLength: 10 }), (ops, prefixes) => {
        const set = new SortedKeySet(2); // tiny chunks: splits and empty-chunk removal happen constantly
        const model = new Set<string>();
        for (const [add, k] of ops) {
          if (add) {
            expect(set.add(k)).toBe(!model.has(k));
            model.add(k);
          } else {
            expect(set.delete(k)).toBe(model.has(k));
            model.delete(k);
          }
        }
        expect(set.size).toBe(model.size);
        for (const p of ['', ...prefixes]) {
          const expected = [...model].filter((k) => k.startsWith(p)).sort();
          expect(withPrefix(set, p)).toEqual(expected);
          expect(set.countWithPrefix(p)).toBe(expected.length);
        }
      }),
      { numRuns: 200 },
    );
  });
});
