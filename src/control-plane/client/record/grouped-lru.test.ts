import { describe, expect, it } from 'vitest';
import { GroupedLru, GroupIndex, noSlot } from './grouped-lru';

/** Entries as group/key (reference 1 is the key), oldest first. */
function order(lru: GroupedLru): string[] {
  const out: string[] = [];
  for (let s = lru.oldest; s !== noSlot; s = lru.newer(s)) out.push(`${lru.ref(s, 0) as string}/${lru.ref(s, 1) as string}`);
  return out;
}

function find(lru: GroupedLru, group: string, key: string): number {
  for (let s = lru.first(group); s !== noSlot; s = lru.next(s)) if (lru.ref(s, 1) === key) return s;
  return noSlot;
}

function add(lru: GroupedLru, group: string, key: string): number {
  const s = lru.add(group);
  lru.setRef(s, 1, key);
  return s;
}

describe('GroupedLru', () => {
  it('finds entries by group and key, and keeps them in least-recently-used order', () => {
    const lru = new GroupedLru(2, 1);
    const a1 = add(lru, 'a', '1');
    const b1 = add(lru, 'b', '1');
    const a2 = add(lru, 'a', '2');
    expect(lru.size).toBe(3);
    expect(find(lru, 'a', '2')).toBe(a2);
    expect(find(lru, 'a', '1')).toBe(a1);
    expect(find(lru, 'b', '1')).toBe(b1);
    expect(find(lru, 'b', '2')).toBe(noSlot);
    expect(lru.first('c')).toBe(noSlot);
    expect(order(lru)).toEqual(['a/1', 'b/1', 'a/2']);
    lru.touch(a1);
    expect(order(lru)).toEqual(['b/1', 'a/2', 'a/1']);
    lru.touch(a1);
    expect(order(lru)).toEqual(['b/1', 'a/2', 'a/1']);
  });

  it('keeps numbers exactly, fractions included', () => {
    const lru = new GroupedLru(1, 2);
    const s = lru.add('g');
    lru.setNumber(s, 0, 24.000833333333333);
    lru.setNumber(s, 1, 1767225600700);
    expect(lru.number(s, 0)).toBe(24.000833333333333);
    expect(lru.number(s, 1)).toBe(1767225600700);
  });

  it('evicts the least recently used beyond the limit, forgets deleted entries and reuses their slots', () => {
    const lru = new GroupedLru(2, 0);
    const es = ['1', '2', '3', '4'].map((k) => add(lru, k === '4' ? 'x' : 'g', k));
    lru.touch(es[0]);
    lru.evictBeyond(2);
    expect(order(lru)).toEqual(['x/4', 'g/1']);
    expect(find(lru, 'g', '2')).toBe(noSlot);
    expect(find(lru, 'g', '1')).toBe(es[0]);
    lru.delete(es[0]);
    expect(lru.size).toBe(1);
    expect(order(lru)).toEqual(['x/4']);
    expect(lru.first('g')).toBe(noSlot);
    expect(lru.ref(es[0], 1)).toBeUndefined(); // released
    const reused = add(lru, 'y', '5');
    expect(es).toContain(reused);
    expect(order(lru)).toEqual(['x/4', 'y/5']);
    lru.delete(es[3]);
    lru.delete(reused);
    expect(lru.size).toBe(0);
    expect(lru.oldest).toBe(noSlot);
  });

  it('behaves as a Map-ordered LRU of (group, key) under random use, alone or sharing its group index', () => {
    const shared = new GroupIndex(2);
    const lrus = [new GroupedLru(2, 1), new GroupedLru(2, 1, { groups: shared, lane: 0 }), new GroupedLru(2, 1, { groups: shared, lane: 1 })];
    const models = lrus.map(() => new Map<string, number>()); // "group/key" → value, least recently used first
    // A seeded generator: the same sequence on every run.
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let step = 0; step < 9000; step++) {
      const which = rand(3);
      const lru = lrus[which];
      const model = models[which];
      const group = `g${rand(20)}`;
      const key = `k${rand(4)}`;
      const id = `${group}/${key}`;
      const op = rand(10);
      const s = find(lru, group, key);
      expect(s !== noSlot).toBe(model.has(id));
      if (op < 5) {
        if (s === noSlot) {
          const n = add(lru, group, key);
          lru.setNumber(n, 0, step);
          model.set(id, step);
        } else {
          lru.touch(s);
          lru.setNumber(s, 0, step);
          model.delete(id);
          model.set(id, step);
        }
        lru.evictBeyond(30);
        while (model.size > 30) model.delete(model.keys().next().value!);
      } else if (op < 7 && s !== noSlot) {
        lru.delete(s);
        model.delete(id);
      }
      expect(lru.size).toBe(model.size);
      if (step % 100 === 0) {
        for (let i = 0; i < lrus.length; i++) {
          expect(order(lrus[i])).toEqual([...models[i].keys()]);
          for (const [k, v] of models[i]) {
            const [g, kk] = k.split('/');
            expect(lrus[i].number(find(lrus[i], g, kk), 0)).toBe(v);
          }
        }
        const groups = new Set([...models[1].keys(), ...models[2].keys()].map((k) => k.split('/')[0]));
        expect(shared.size).toBe(groups.size);
      }
    }
  });

  it('holds at most what a shared index can name', () => {
    const lru = new GroupedLru(1, 0, { groups: new GroupIndex(2), lane: 1 });
    for (let i = 0; i < 0x7fff - 1; i++) lru.add(`g${i % 100}`);
    expect(lru.size).toBe(0x7fff - 1);
    expect(lru.first('g5')).not.toBe(noSlot);
    expect(() => lru.add('one more')).toThrow('holds at most 32766 entries');
  });
});
