import { describe, expect, it } from 'vitest';
import { KeyedRecords, RecentList } from './recent-list';

describe('RecentList', () => {
  it('finds the most recent match, moves it to the front, and forgets the oldest beyond its capacity', () => {
    const l = new RecentList<{ n: number }>(2);
    const a = l.add({ n: 1 });
    const b = l.add({ n: 2 });
    expect(l.find((x) => x.n === 1)).toBe(a);
    l.add({ n: 3 }); // b is now the oldest and goes
    expect(l.find((x) => x.n === 2)).toBeUndefined();
    expect(l.find((x) => x.n === 1)).toBe(a);
    expect(b.n).toBe(2);
  });
});

describe('KeyedRecords', () => {
  it('gives one frozen record per combination under a key, and starts again when it holds too many keys', () => {
    const r = new KeyedRecords<{ k: string; v: string }>(2);
    const x = r.get('a', (e) => e.v === '1', () => ({ k: 'a', v: '1' }));
    expect(Object.isFrozen(x)).toBe(true);
    expect(r.get('a', (e) => e.v === '1', () => ({ k: 'a', v: '1' }))).toBe(x);
    r.get('b', () => false, () => ({ k: 'b', v: '1' }));
    r.get('c', () => false, () => ({ k: 'c', v: '1' })); // a third key: the table starts again
    expect(r.get('a', (e) => e.v === '1', () => ({ k: 'a', v: '1' }))).not.toBe(x);
  });

  it('finds and adds apart, under keys of any type, keeping the last perKey of a key', () => {
    const r = new KeyedRecords<{ v: number }, number>(8, 2);
    expect(r.find(1, () => true)).toBeUndefined();
    const one = r.add(1, { v: 1 });
    expect(Object.isFrozen(one)).toBe(true);
    r.add(1, { v: 2 });
    expect(r.find(1, (e) => e.v === 1)).toBe(one); // now the most recent of key 1
    r.add(1, { v: 3 }); // pushes out v 2, the least recent
    expect(r.find(1, (e) => e.v === 2)).toBeUndefined();
    expect(r.find(2, (e) => e.v === 1)).toBeUndefined();
  });
});
