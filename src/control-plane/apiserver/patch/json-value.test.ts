import { describe, expect, it } from 'vitest';
import { deepCopy, frozenCopy } from './json-value';

function isDeepFrozen(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  return Object.isFrozen(v) && Object.values(v).every(isDeepFrozen);
}

describe('frozenCopy', () => {
  it('copies like deepCopy (undefined members dropped, __proto__ kept as data) and freezes the copy', () => {
    const value = JSON.parse('{"a":{"b":[1,{"c":"x"}],"__proto__":{"p":1}},"d":null}') as Record<string, unknown>;
    (value.a as Record<string, unknown>).gone = undefined;
    const out = frozenCopy(value);
    expect(out).not.toBe(value);
    expect(JSON.stringify(out)).toBe(JSON.stringify(deepCopy(value)));
    expect(Object.keys(out.a as object)).toEqual(['b', '__proto__']);
    expect(Object.getPrototypeOf(out.a)).toBe(Object.prototype);
    expect(isDeepFrozen(out)).toBe(true);
    expect(Object.isFrozen(value)).toBe(false);
  });

  it('shares every subtree identical to prev and copies only the changed path', () => {
    const prev = frozenCopy({ spec: { containers: [{ name: 'c', image: 'i' }] }, status: { phase: 'Pending', conditions: [{ type: 'A' }] } });
    const next = deepCopy(prev);
    (next.status as { phase: string }).phase = 'Running';
    const out = frozenCopy(next, prev);
    expect(out).toEqual(next);
    expect(out).not.toBe(prev);
    expect(out.spec).toBe(prev.spec);
    expect(out.status).not.toBe(prev.status);
    expect(out.status.conditions).toBe(prev.status.conditions);
    expect(isDeepFrozen(out)).toBe(true);
  });

  it('returns prev itself when nothing changed', () => {
    const prev = frozenCopy({ a: { b: [1, 2] }, c: 'x' });
    expect(frozenCopy(deepCopy(prev), prev)).toBe(prev);
  });

  it('keeps the new key order: an object whose keys moved is not shared', () => {
    const prev = frozenCopy({ m: { a: 1, b: 2 } });
    const out = frozenCopy({ m: { b: 2, a: 1 } }, prev);
    expect(out.m).not.toBe(prev.m);
    expect(Object.keys(out.m)).toEqual(['b', 'a']);
  });

  it('notices removed, added and retyped members', () => {
    const prev = frozenCopy({ a: { x: 1, y: 2 }, b: [1, 2], c: { k: 1 } });
    const out = frozenCopy({ a: { x: 1 }, b: [1, 2, 3], c: [1] } as Record<string, unknown>, prev);
    expect(out).toEqual({ a: { x: 1 }, b: [1, 2, 3], c: [1] });
    expect(Array.isArray(out.c)).toBe(true);
    expect(isDeepFrozen(out)).toBe(true);
  });
});
