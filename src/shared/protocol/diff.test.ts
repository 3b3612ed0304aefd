import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import type { ObjectChange, ObjectDiff } from './diff';
import { applyDiff, changeFromWatchEvent, emptyDiff, fitsWithin, isEmptyDiff, objectKey, recordChange, squash, takeWithin } from './diff';

function cm(name: string, rv: number, namespace = 'default'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, resourceVersion: String(rv) } };
}

function diffOf(...changes: ObjectChange[]): ObjectDiff {
  const d = emptyDiff();
  for (const c of changes) recordChange(d, c);
  return d;
}

const added = (o: KubeObject): ObjectChange => ({ type: 'added', key: objectKey(o), object: o });
const updated = (o: KubeObject): ObjectChange => ({ type: 'updated', key: objectKey(o), object: o });
const removed = (o: KubeObject): ObjectChange => ({ type: 'removed', key: objectKey(o), object: o });

describe('objectKey', () => {
  it('is namespace/name for namespaced objects and name for cluster-scoped ones', () => {
    expect(objectKey(cm('a', 1, 'kube-system'))).toBe('kube-system/a');
    expect(objectKey({ metadata: { name: 'default' } })).toBe('default');
  });
});

describe('squash', () => {
  it('drops an object added then removed', () => {
    const out = squash(diffOf(added(cm('a', 2))), diffOf(removed(cm('a', 3))));
    expect(out).toEqual(emptyDiff());
    expect(isEmptyDiff(out)).toBe(true);
  });

  it('turns removed-then-added into an update carrying the new object', () => {
    const out = squash(diffOf(removed(cm('a', 2))), diffOf(added(cm('a', 3))));
    expect(out).toEqual({ added: {}, updated: { 'default/a': cm('a', 3) }, removed: {} });
  });

  it('keeps only the last of two updates', () => {
    const out = squash(diffOf(updated(cm('a', 2))), diffOf(updated(cm('a', 5))));
    expect(out.updated).toEqual({ 'default/a': cm('a', 5) });
  });

  it('keeps an added object added with its latest value', () => {
    const out = squash(diffOf(added(cm('a', 2))), diffOf(updated(cm('a', 3))));
    expect(out).toEqual({ added: { 'default/a': cm('a', 3) }, updated: {}, removed: {} });
  });

  it('turns updated-then-removed into removed with the final state', () => {
    const out = squash(diffOf(updated(cm('a', 2))), diffOf(removed(cm('a', 3))));
    expect(out).toEqual({ added: {}, updated: {}, removed: { 'default/a': cm('a', 3) } });
  });

  it('does not modify its arguments', () => {
    const a = diffOf(added(cm('a', 1)), updated(cm('b', 2)));
    const b = diffOf(removed(cm('a', 3)), removed(cm('b', 4)));
    const before = JSON.stringify([a, b]);
    squash(a, b);
    expect(JSON.stringify([a, b])).toBe(before);
  });

  // A model: a live set of objects and a random, consistent history of changes to it. Applying the squash of
  // two consecutive diffs must equal applying them one after the other, and no key may sit in two maps.
  it('applying squash(a, b) equals applying a then b (property)', () => {
    const names = ['a', 'b', 'c', 'd'];
    const step = fc.record({ name: fc.constantFrom(...names), op: fc.constantFrom('put', 'delete') });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.array(step, { maxLength: 12 }), fc.array(step, { maxLength: 6 }), (pre, s1, s2) => {
        let rv = 1;
        const live = new Map<string, KubeObject>();
        const run = (steps: typeof pre, diff?: ObjectDiff) => {
          for (const { name, op } of steps) {
            const key = `default/${name}`;
            const exists = live.has(key);
            if (op === 'put') {
              const o = cm(name, ++rv);
              live.set(key, o);
              if (diff) recordChange(diff, exists ? updated(o) : added(o));
            } else if (exists) {
              const o = cm(name, ++rv);
              live.delete(key);
              if (diff) recordChange(diff, removed(o));
            }
          }
        };
        run(pre);
        const start = new Map(live);
        const d1 = emptyDiff();
        run(s1, d1);
        const d2 = emptyDiff();
        run(s2, d2);
        const sequential = applyDiff(applyDiff(start, d1), d2);
        const squashed = squash(d1, d2);
        expect(applyDiff(start, squashed)).toEqual(sequential);
        expect(sequential).toEqual(live);
        const keys = [...Object.keys(squashed.added), ...Object.keys(squashed.updated), ...Object.keys(squashed.removed)];
        expect(new Set(keys).size).toBe(keys.length);
        // Nothing redundant: an added key was absent at the start, a removed or updated one was present.
        for (const k of Object.keys(squashed.added)) expect(start.has(k)).toBe(false);
        for (const k of Object.keys(squashed.removed)) expect(start.has(k)).toBe(true);
        for (const k of Object.keys(squashed.updated)) expect(start.has(k)).toBe(true);
      }),
    );
  });
});

describe('changeFromWatchEvent', () => {
  it('maps ADDED/MODIFIED/DELETED and ignores BOOKMARK', () => {
    expect(changeFromWatchEvent({ type: 'ADDED', object: cm('a', 1) })).toEqual(added(cm('a', 1)));
    expect(changeFromWatchEvent({ type: 'MODIFIED', object: cm('a', 2) })).toEqual(updated(cm('a', 2)));
    expect(changeFromWatchEvent({ type: 'DELETED', object: cm('a', 3) })).toEqual(removed(cm('a', 3)));
    expect(changeFromWatchEvent({ type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '9' } } })).toBeUndefined();
  });
});

describe('applyDiff', () => {
  it('returns a new map and leaves the input alone', () => {
    const start = new Map([['default/a', cm('a', 1)]]);
    const next = applyDiff(start, diffOf(removed(cm('a', 2)), added(cm('b', 3))));
    expect([...next.keys()]).toEqual(['default/b']);
    expect([...start.keys()]).toEqual(['default/a']);
  });
});

describe('takeWithin / fitsWithin', () => {
  const obj = (name: string, n: number): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { x: 'y'.repeat(n) } });
  const size = (_key: string, o: KubeObject) => JSON.stringify(o).length;

  it('takes removals, then additions, then updates, up to the budget, and leaves the rest pending', () => {
    const pending = { added: { a: obj('a', 100), b: obj('b', 100) }, updated: { u: obj('u', 100) }, removed: { r: obj('r', 10) } };
    const one = size('', obj('a', 100));
    const taken = takeWithin(pending, size('', obj('r', 10)) + one, size, true);
    expect(Object.keys(taken.diff.removed)).toEqual(['r']);
    expect(Object.keys(taken.diff.added)).toEqual(['a']);
    expect(taken.more).toBe(true);
    expect(Object.keys(pending.added)).toEqual(['b']);
    expect(Object.keys(pending.updated)).toEqual(['u']);
    expect(pending.removed).toEqual({});
    expect(fitsWithin(pending, 2 * one, size)).toBe(true);
    expect(fitsWithin(pending, 2 * one - 1, size)).toBe(false);
  });

  it('takes one oversized change only when asked to', () => {
    const pending = { added: { big: obj('big', 5_000) }, updated: {}, removed: {} };
    expect(isEmptyDiff(takeWithin(pending, 100, size, false).diff)).toBe(true);
    const taken = takeWithin(pending, 100, size, true);
    expect(Object.keys(taken.diff.added)).toEqual(['big']);
    expect(taken.more).toBe(false);
    expect(isEmptyDiff(pending)).toBe(true);
  });
});
