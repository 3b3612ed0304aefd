import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SortedKeySet } from './sorted-keys';

function withPrefix(set: SortedKeySet, prefix: string): string[] {
  const out: string[] = [];
  set.forEachWithPrefix(prefix, (k) => out.push(k));
  return out;
}

/** The key up to and including its last '/', as the store passes it. */
const dirOf = (key: string): string => key.slice(0, key.lastIndexOf('/') + 1);

describe('SortedKeySet', () => {
  it('ranges by prefix in order, across chunk splits', () => {
    const set = new SortedKeySet();
    // Insert in a scrambled order, enough keys to split chunks many times.
    const keys = new Set<string>();
    for (let i = 0; i < 5000; i++) keys.add(`/registry/core/pods/ns${i % 7}/p${String((i * 7919) % 5000).padStart(5, '0')}`);
    let n = 0;
    for (const k of keys) {
      set.insert(k, dirOf(k));
      // Ranges now and then: some keys are placed one by one, the rest merged in at the end.
      if (++n % 1000 === 0) expect(set.countWithPrefix('/registry/core/pods/ns3/')).toBeGreaterThan(0);
    }
    expect(set.size).toBe(keys.size);
    const ns3 = withPrefix(set, '/registry/core/pods/ns3/');
    const expected = [...keys].filter((k) => k.startsWith('/registry/core/pods/ns3/')).sort();
    expect(ns3).toEqual(expected);
    expect(set.countWithPrefix('/registry/core/pods/ns3/')).toBe(expected.length);
    expect(withPrefix(set, '/registry/core/pods/ns9/')).toEqual([]);
    expect(withPrefix(set, '')).toEqual([...keys].sort());
  });

  it('reports missing keys on delete, ordered or not yet', () => {
    const set = new SortedKeySet();
    set.insert('/a/x', '/a/');
    expect(set.delete('/a/y', '/a/')).toBe(false);
    expect(set.delete('/a/x', '/a/')).toBe(true);
    expect(set.delete('/a/x', '/a/')).toBe(false);
    expect(set.size).toBe(0);
    expect(withPrefix(set, '')).toEqual([]);
  });

  it('ranges over a directory and its neighbours without ordering unrelated ones', () => {
    const set = new SortedKeySet();
    for (const k of ['/r/events/ns/e2', '/r/events/ns/e1', '/r/pods/ns/p2', '/r/pods/ns-b/p1', '/r/pods/ns/p1']) set.insert(k, dirOf(k));
    // etcd's byte order: "ns-b/" sorts before "ns/".
    expect(withPrefix(set, '/r/pods/')).toEqual(['/r/pods/ns-b/p1', '/r/pods/ns/p1', '/r/pods/ns/p2']);
    expect(withPrefix(set, '/r/pods/ns')).toEqual(['/r/pods/ns-b/p1', '/r/pods/ns/p1', '/r/pods/ns/p2']);
    expect(withPrefix(set, '/r/events/ns/e')).toEqual(['/r/events/ns/e1', '/r/events/ns/e2']);
    expect(set.size).toBe(5);
  });

  it('matches a sorted-array model under random inserts, deletes and ranges', () => {
    const key = fc.stringMatching(/^[ab/]{0,6}$/);
    const op = fc.oneof(
      fc.tuple(fc.constant('insert' as const), key),
      fc.tuple(fc.constant('delete' as const), key),
      fc.tuple(fc.constant('range' as const), key),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), fc.array(key, { maxLength: 10 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4 }), (ops, prefixes, maxChunk, maxDirs) => {
        // Tiny chunks and few unordered directories: splits, empty-chunk removal and orderings happen constantly.
        const set = new SortedKeySet(maxChunk, maxDirs);
        const model = new Set<string>();
        const check = (p: string) => {
          const expected = [...model].filter((k) => k.startsWith(p)).sort();
          expect(withPrefix(set, p)).toEqual(expected);
          expect(set.countWithPrefix(p)).toBe(expected.length);
        };
        for (const [kind, k] of ops) {
          if (kind === 'insert') {
            if (!model.has(k)) set.insert(k, dirOf(k));
            model.add(k);
          } else if (kind === 'delete') {
            expect(set.delete(k, dirOf(k))).toBe(model.has(k));
            model.delete(k);
          } else {
            check(k);
          }
          expect(set.size).toBe(model.size);
        }
        for (const p of ['', ...prefixes]) check(p);
      }),
      { numRuns: 300 },
    );
  });
});
