import { describe, expect, it } from 'vitest';
import type { PresenceMap } from './presence';
import { isLeaving, nextDeparture, pruneDeparted, reconcilePresence } from './presence';

interface Item {
  id: string;
  v: number;
}
const key = (i: Item) => i.id;
const keys = (m: PresenceMap<Item>) => [...m.values()].map((p) => `${p.key}${isLeaving(p) ? ' (leaving)' : ''}`);

describe('presence bookkeeping', () => {
  const a = { id: 'a', v: 1 };
  const b = { id: 'b', v: 1 };
  const c = { id: 'c', v: 1 };

  it('keeps a removed item as a ghost with its last state, from when it went', () => {
    const first = reconcilePresence(new Map(), [a, b], key, 0);
    expect(keys(first)).toEqual(['a', 'b']);
    const second = reconcilePresence(first, [a, c], key, 100);
    expect(keys(second)).toEqual(['a', 'c', 'b (leaving)']);
    expect(second.get('b')).toEqual({ key: 'b', item: b, leavingSince: 100 });
    // Still gone later: it keeps its first leaving time, so it is not kept forever by new batches.
    expect(reconcilePresence(second, [a, c], key, 400).get('b')?.leavingSince).toBe(100);
  });

  it('keeps the identity of unchanged entries and replaces changed ones', () => {
    const first = reconcilePresence(new Map(), [a, b], key, 0);
    const a2 = { id: 'a', v: 2 };
    const second = reconcilePresence(first, [a2, b], key, 10);
    expect(second.get('b')).toBe(first.get('b'));
    expect(second.get('a')).not.toBe(first.get('a'));
    expect(second.get('a')?.item).toBe(a2);
  });

  it('brings back an item that reappears while leaving', () => {
    const leaving = reconcilePresence(reconcilePresence(new Map(), [a], key, 0), [], key, 50);
    expect(keys(leaving)).toEqual(['a (leaving)']);
    const back = reconcilePresence(leaving, [a], key, 100);
    expect(keys(back)).toEqual(['a']);
  });

  it('drops ghosts once they have been leaving for the duration and says when the next one goes', () => {
    const leaving = reconcilePresence(reconcilePresence(new Map(), [a, b, c], key, 0), [a], key, 100);
    const later = reconcilePresence(leaving, [], key, 300);
    expect(nextDeparture(later, 600)).toBe(700);
    expect(pruneDeparted(later, 699, 600)).toBe(later);
    const pruned = pruneDeparted(later, 700, 600);
    expect(keys(pruned)).toEqual(['a (leaving)']);
    expect(nextDeparture(pruned, 600)).toBe(900);
    expect(keys(pruneDeparted(pruned, 900, 600))).toEqual([]);
    expect(nextDeparture(reconcilePresence(new Map(), [a], key, 0), 600)).toBeUndefined();
  });
});
