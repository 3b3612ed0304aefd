import { describe, expect, it } from 'vitest';
import { createRng } from './rng';

describe('createRng', () => {
  it('repeats the same stream for the same seed and differs across seeds', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const sa = Array.from({ length: 10 }, () => a.next());
    expect(Array.from({ length: 10 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 10 }, () => c.next())).not.toEqual(sa);
    expect(sa.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('continues the stream from a saved state', () => {
    const a = createRng(7);
    a.next();
    a.next();
    const resumed = createRng(a.state());
    expect(Array.from({ length: 5 }, () => resumed.next())).toEqual(Array.from({ length: 5 }, () => a.next()));
  });

  it('draws integers in range, strings from the alphabet and v4-shaped UUIDs', () => {
    const r = createRng(1);
    const ints = Array.from({ length: 1000 }, () => r.int(6));
    expect(new Set(ints)).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(r.string(12, 'bcdfghjklmnpqrstvwxz2456789')).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{12}$/);
    const ids = new Set(Array.from({ length: 100 }, () => r.uuid()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('draws the same uids and names from a seed as it always has (histories depend on them)', () => {
    const r = createRng(3);
    expect([r.uuid(), r.string(5, 'bcdfghjklmnpqrstvwxz2456789'), r.uuid()]).toEqual([
      '071c7724-831b-47ce-a5b4-a8d80e4ec6b2',
      'mzbbq',
      '9ac99158-d677-49cd-ba5b-b7febafc018d',
    ]);
  });
});
