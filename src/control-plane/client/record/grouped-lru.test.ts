import { describe, expect, it } from 'vitest';
import { GroupedLru, smallInteger, type LruEntry } from './grouped-lru';

interface Entry extends LruEntry {
  group: string;
  key: string;
}

const entry = (group: string, key: string): Entry => ({ group, key, older: undefined, newer: undefined });

function order(lru: GroupedLru<Entry>): string[] {
  const out: string[] = [];
  for (let e = lru.oldest; e; e = e.newer as Entry | undefined) out.push(`${e.group}/${e.key}`);
  return out;
}

describe('GroupedLru', () => {
  it('finds entries by group and key, and keeps them in least-recently-used order', () => {
    const lru = new GroupedLru<Entry>((e) => e.group);
    const a1 = entry('a', '1');
    const a2 = entry('a', '2');
    const b1 = entry('b', '1');
    lru.add(a1);
    lru.add(b1);
    lru.add(a2);
    expect(lru.size).toBe(3);
    expect(lru.find('a', (e) => e.key === '2')).toBe(a2);
    expect(lru.find('b', (e) => e.key === '2')).toBeUndefined();
    expect(lru.find('c', () => true)).toBeUndefined();
    expect(order(lru)).toEqual(['a/1', 'b/1', 'a/2']);
    lru.touch(a1);
    expect(order(lru)).toEqual(['b/1', 'a/2', 'a/1']);
    lru.touch(a1);
    expect(order(lru)).toEqual(['b/1', 'a/2', 'a/1']);
  });

  it('evicts the least recently used beyond the limit and forgets deleted entries', () => {
    const lru = new GroupedLru<Entry>((e) => e.group);
    const es = ['1', '2', '3', '4'].map((k) => entry(k === '4' ? 'x' : 'g', k));
    for (const e of es) lru.add(e);
    lru.touch(es[0]);
    lru.evictBeyond(2);
    expect(order(lru)).toEqual(['x/4', 'g/1']);
    expect(lru.find('g', (e) => e.key === '2')).toBeUndefined();
    expect(lru.find('g', (e) => e.key === '1')).toBe(es[0]);
    lru.delete(es[0]);
    lru.delete(es[0]); // twice: nothing more
    expect(lru.size).toBe(1);
    expect(order(lru)).toEqual(['x/4']);
    expect(lru.find('g', () => true)).toBeUndefined();
    lru.delete(es[3]);
    expect(lru.size).toBe(0);
    expect(lru.oldest).toBeUndefined();
  });
});

describe('smallInteger', () => {
  it('is the same number, as an int32 when it is one', () => {
    for (const n of [0, 700, -5, 2 ** 31 - 1, 2 ** 31, 1767225600700, 0.5, -(2 ** 31)]) expect(smallInteger(n)).toBe(n);
  });
});
