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
});
