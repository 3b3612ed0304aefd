import { describe, expect, it } from 'vitest';
import { createRng } from '../sim/rng';
import { numFeasibleNodesToFind, selectHost, truncateMessage } from './schedule-one';

describe('numFeasibleNodesToFind (percentageOfNodesToScore adaptive rule)', () => {
  it('searches small clusters whole and an adaptive share of large ones, at least 100 nodes', () => {
    expect(numFeasibleNodesToFind(undefined, 3)).toBe(3);
    expect(numFeasibleNodesToFind(undefined, 99)).toBe(99);
    expect(numFeasibleNodesToFind(undefined, 150)).toBe(100); // 49% of 150 = 73 → at least 100
    expect(numFeasibleNodesToFind(undefined, 1000)).toBe(420); // 50 − 1000/125 = 42%
    expect(numFeasibleNodesToFind(undefined, 5000)).toBe(500); // 10%
    expect(numFeasibleNodesToFind(undefined, 10000)).toBe(500); // floor of 5%
    expect(numFeasibleNodesToFind(100, 1000)).toBe(1000);
    expect(numFeasibleNodesToFind(30, 1000)).toBe(300);
  });
});

describe('selectHost', () => {
  it('picks the highest total; ties are broken at random, each with equal chance', () => {
    const rng = createRng(7);
    expect(selectHost({ names: ['a', 'b', 'c'], totals: Float64Array.from([10, 30, 20]) }, rng)).toBe('b');
    const picks = new Map<string, number>();
    const table = { names: ['a', 'b', 'c', 'd'], totals: Float64Array.from([50, 50, 10, 50]) };
    for (let i = 0; i < 3000; i++) {
      const h = selectHost(table, rng);
      picks.set(h, (picks.get(h) ?? 0) + 1);
    }
    expect(picks.has('c')).toBe(false);
    for (const n of ['a', 'b', 'd']) expect(picks.get(n)!).toBeGreaterThan(850);
  });

  it('is deterministic for a seed', () => {
    const table = { names: ['a', 'b', 'c'], totals: Float64Array.from([1, 1, 1]) };
    const run = () => {
      const rng = createRng(42);
      return Array.from({ length: 20 }, () => selectHost(table, rng)).join('');
    };
    expect(run()).toBe(run());
  });
});

describe('truncateMessage', () => {
  it('cuts messages over 1024 characters with " ..."', () => {
    const long = 'x'.repeat(2000);
    expect(truncateMessage(long)).toHaveLength(1024);
    expect(truncateMessage(long).endsWith(' ...')).toBe(true);
    expect(truncateMessage('short')).toBe('short');
  });
});
