import { describe, expect, it } from 'vitest';
import type { PlannedToken } from './tokens';
import { createTokenStore } from './token-store';

const token = (id: string, parkMs = 0): PlannedToken => ({ id, kind: 'request', label: id, tone: 'user', points: [{ x: 0, y: 0 }, { x: 1, y: 1 }], delayMs: 100, durationMs: 1000, parkMs, holdMs: 0, edge: 'request:user' });

describe('token store', () => {
  it('keeps each token for its delay, travel and park, then prunes it', () => {
    const t = createTokenStore();
    t.add({ tokens: [token('a'), token('b', 5000)], overflow: {}, reconciles: {} }, 0);
    expect(t.store.getState().tokens.map((x) => [x.id, x.until])).toEqual([
      ['a', 1100],
      ['b', 6100],
    ]);
    t.prune(1100);
    expect(t.store.getState().tokens.map((x) => x.id)).toEqual(['b']);
    t.prune(6100);
    expect(t.store.getState().tokens).toEqual([]);
  });

  it('adds up overflow per lane while it shows, counts pulses and remembers controllers seen', () => {
    const t = createTokenStore();
    t.add({ tokens: [], overflow: { 'request:kcm': 3 }, reconciles: { 'deployment-controller': 2 } }, 0, 7);
    t.add({ tokens: [], overflow: { 'request:kcm': 2 }, reconciles: { 'deployment-controller': 1, 'replicaset-controller': 1 } }, 1000);
    const s = t.store.getState();
    expect(s.overflow['request:kcm'].count).toBe(5);
    expect(s.pulses).toEqual({ 'deployment-controller': 2, 'replicaset-controller': 1 });
    expect(s.seen).toEqual(['deployment-controller', 'replicaset-controller']);
    expect(s.dropped.count).toBe(7);
    t.prune(10_000);
    expect(t.store.getState().overflow).toEqual({});
    expect(t.store.getState().dropped.count).toBe(0);
  });
});
