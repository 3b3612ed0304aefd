import { describe, expect, it } from 'vitest';
import { applyMergePatch } from './json-merge-patch';

describe('applyMergePatch (RFC 7386)', () => {
  it('merges objects recursively, null deletes, arrays replace', () => {
    const target = { a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2, 3] };
    const out = applyMergePatch(target, { a: 'z', c: { f: null }, list: [4] });
    expect(out).toEqual({ a: 'z', c: { d: 'e' }, list: [4] });
    expect(target).toEqual({ a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2, 3] });
  });

  it('passes the RFC 7386 appendix examples', () => {
    const cases: [unknown, unknown, unknown][] = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [['a', 'b'], ['c', 'd'], ['c', 'd']],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ];
    for (const [target, patch, expected] of cases) expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('treats __proto__ as a plain key', () => {
    const patch = JSON.parse('{"metadata":{"__proto__":{"polluted":"yes"},"labels":{"__proto__":"x"}}}');
    const out = applyMergePatch({ metadata: {} }, patch) as { metadata: Record<string, unknown> };
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out.metadata)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(out.metadata, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"metadata":{"__proto__":{"polluted":"yes"},"labels":{"__proto__":"x"}}}');
  });
});
