import { describe, expect, it } from 'vitest';
import { DecisionResult, DecisionStore, feasibleNames, materialize, newDecisionRecord, packExact, positionsArray, recordScores, type DecisionRecord } from './decisions';
import type { ScoreTable } from './framework/runtime';

function base(pod: string, attempt = 1): Omit<DecisionRecord, 'filtered' | 'feasible' | 'plugins' | 'weights' | 'raw' | 'normalized' | 'totals'> {
  return { pod, uid: `uid-${pod}`, attempt, cycle: attempt, time: 0, result: DecisionResult.Scheduled, numAllNodes: 3, evaluatedNodes: 3, feasibleNodes: 3 };
}

function table(raw: number[][], scores: number[][], weights: number[]): ScoreTable {
  const n = raw[0].length;
  const totals = new Float64Array(n);
  scores.forEach((col, i) => col.forEach((s, j) => (totals[j] += s * weights[i])));
  return {
    names: Array.from({ length: n }, (_, j) => `node-${j}`),
    plugins: raw.map((_, i) => `Plugin${i}`),
    weights,
    raw: raw.map((c) => Float64Array.from(c)),
    scores: scores.map((c) => Uint8Array.from(c)),
    totals,
  };
}

describe('packExact', () => {
  it('picks the narrowest typed array that holds every value exactly', () => {
    expect(packExact([[0, 100, 255]], 3)).toBeInstanceOf(Uint8Array);
    expect(packExact([[-5, 100]], 2)).toBeInstanceOf(Int8Array);
    expect(packExact([[0, 300]], 2)).toBeInstanceOf(Uint16Array);
    expect(packExact([[-1, 300]], 2)).toBeInstanceOf(Int16Array);
    expect(packExact([[-1, 70_000]], 2)).toBeInstanceOf(Int32Array);
    expect(packExact([[0, 2 ** 40]], 2)).toBeInstanceOf(Float64Array);
    expect(packExact([[0, 0.5]], 2)).toBeInstanceOf(Float64Array);
    expect(packExact([[1, NaN]], 2)).toBeInstanceOf(Float64Array);
    // -0 would read back as 0 from an integer array.
    const negZero = packExact([[1, -0]], 2);
    expect(Object.is(negZero[1], -0)).toBe(true);
  });

  it('lays columns out one after the other and reads back the same numbers', () => {
    const cols = [Float64Array.from([1, 2, 3]), Float64Array.from([-7, 1.25, 9])];
    const packed = packExact(cols, 3);
    expect([...packed]).toEqual([1, 2, 3, -7, 1.25, 9]);
  });

  it('reads only the first n values of longer typed columns, whatever their type', () => {
    const cols = [Int16Array.from([7, 100, 300, 999]), Float64Array.from([-2, 4, 8, 0.5])];
    const packed = packExact(cols, 3);
    expect(packed).toBeInstanceOf(Int16Array);
    expect([...packed]).toEqual([7, 100, 300, -2, 4, 8]);
  });
});

describe('packExact into shared slabs', () => {
  it('gives every packed array room of its own, however many are made and of whatever size', () => {
    const kept: { packed: ArrayLike<number>; want: number[] }[] = [];
    for (let k = 0; k < 3000; k++) {
      // Sizes from 1 to ~100,000 bytes (the largest get buffers of their own), types from Uint8 to Float64.
      const n = 1 + ((k * 7919) % (k % 97 === 0 ? 12_000 : 700));
      const want = Array.from({ length: n }, (_, j) => (k % 5 === 0 ? (k + j) / 4 : k % 3 === 0 ? -((k + j) % 30_000) : (k * 31 + j) % 250));
      kept.push({ packed: packExact([want], n), want });
    }
    for (const { packed, want } of kept) expect(Array.from(packed)).toEqual(want);
    const positions = [positionsArray(5, 10), positionsArray(3, 70_000)];
    positions[0].set([4, 3, 2, 1, 0]);
    positions[1].set([69_999, 0, 65_536]);
    expect([...positions[0]]).toEqual([4, 3, 2, 1, 0]);
    expect([...positions[1]]).toEqual([69_999, 0, 65_536]);
    for (const { packed, want } of kept.slice(-5)) expect(Array.from(packed)).toEqual(want);
  });
});

describe('packExact of byte columns', () => {
  it('packs Uint8Array columns alone into a Uint8Array without reading them, and with others by their values', () => {
    const bytes = [Uint8Array.from([0, 255, 7, 9]), Uint8Array.from([1, 2, 3, 4])];
    const packed = packExact(bytes, 3);
    expect(packed).toBeInstanceOf(Uint8Array);
    expect([...packed]).toEqual([0, 255, 7, 1, 2, 3]);
    // Beside a negative value the bytes' own range decides: 255 does not fit an Int8Array.
    const mixed = packExact([Uint8Array.from([200]), Float64Array.from([-1])], 1);
    expect(mixed).toBeInstanceOf(Int16Array);
    expect([...mixed]).toEqual([200, -1]);
    expect(packExact([Uint8Array.from([100]), Float64Array.from([-1])], 1)).toBeInstanceOf(Int8Array);
  });
});

describe('recordScores and materialize', () => {
  it('give back every raw score, normalized score, weight and total of the table', () => {
    const t = table(
      [
        [12, 40, 3],
        [-3, 0.5, 1_000_000],
      ],
      [
        [30, 100, 0],
        [0, 50, 100],
      ],
      [1, 2],
    );
    const rec = newDecisionRecord(base('default/a'));
    rec.feasible = t.names;
    recordScores(rec, t);
    rec.node = 'node-1';
    const store = new DecisionStore(4);
    store.add(rec);
    const d = store.lastDecision('default/a')!;
    expect(d.nodes).toEqual([
      { node: 'node-0', scores: [{ plugin: 'Plugin0', raw: 12, score: 30, weight: 1 }, { plugin: 'Plugin1', raw: -3, score: 0, weight: 2 }], total: 30 },
      { node: 'node-1', scores: [{ plugin: 'Plugin0', raw: 40, score: 100, weight: 1 }, { plugin: 'Plugin1', raw: 0.5, score: 50, weight: 2 }], total: 200, chosen: true },
      { node: 'node-2', scores: [{ plugin: 'Plugin0', raw: 3, score: 0, weight: 1 }, { plugin: 'Plugin1', raw: 1_000_000, score: 100, weight: 2 }], total: 200 },
    ]);
  });

  it('names the feasible nodes from their positions in a node list as from their names', () => {
    const t = table([[1, 2, 3]], [[10, 20, 30]], [1]);
    const list = ['node-2', 'x', 'node-0', 'node-1'].map((name) => ({ name }));
    const byName = newDecisionRecord(base('default/p'));
    byName.feasible = t.names;
    recordScores(byName, t);
    const byPosition = newDecisionRecord(base('default/q'));
    byPosition.feasible = { nodes: list, at: Uint16Array.from([2, 3, 0]) };
    recordScores(byPosition, t);
    expect(feasibleNames(byPosition.feasible)).toEqual(['node-0', 'node-1', 'node-2']);
    expect(materialize(byPosition)).toEqual({ ...materialize(byName), pod: 'default/q', uid: 'uid-default/q' });
  });

  it('keeps the totals of a table without score plugins (every node scores 1)', () => {
    const rec = newDecisionRecord(base('default/b'));
    rec.feasible = ['n1', 'n2'];
    recordScores(rec, { names: ['n1', 'n2'], plugins: [], weights: [], raw: [], scores: [], totals: new Float64Array(2).fill(1) });
    const store = new DecisionStore(4);
    store.add(rec);
    expect(store.lastDecision('default/b')!.nodes).toEqual([
      { node: 'n1', scores: [], total: 1 },
      { node: 'n2', scores: [], total: 1 },
    ]);
  });

  it('lists feasible nodes without scores when scoring did not run', () => {
    const rec = newDecisionRecord(base('default/c'));
    rec.feasible = ['only'];
    rec.node = 'only';
    const store = new DecisionStore(4);
    store.add(rec);
    expect(store.lastDecision('default/c')!.nodes).toEqual([{ node: 'only', chosen: true }]);
  });
});

describe('DecisionStore', () => {
  it('keeps the most recent attempts up to its capacity, per pod and across pods', () => {
    const store = new DecisionStore(3, 2);
    for (const [pod, attempt] of [['ns/a', 1], ['ns/b', 1], ['ns/a', 2], ['ns/a', 3], ['ns/c', 1]] as const) store.add(newDecisionRecord(base(pod, attempt)));
    expect(store.recent(10).map((d) => `${d.pod}#${d.attempt}`)).toEqual(['ns/c#1', 'ns/a#3', 'ns/a#2']);
    expect(store.decisions('ns/a').map((d) => d.attempt)).toEqual([2, 3]);
    expect(store.decisions('ns/b')).toEqual([]);
  });
});
