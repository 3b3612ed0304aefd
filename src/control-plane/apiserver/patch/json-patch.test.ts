import { describe, expect, it } from 'vitest';
import { JsonPatchError, applyJsonPatch, decodeJsonPatch, parsePointer } from './json-patch';

const apply = (doc: unknown, ops: unknown): unknown => applyJsonPatch(doc, decodeJsonPatch(ops));

describe('JSON patch (RFC 6902)', () => {
  it('parses pointers with ~0 and ~1 escapes', () => {
    expect(parsePointer('/metadata/annotations/example.com~1team')).toEqual(['metadata', 'annotations', 'example.com/team']);
    expect(parsePointer('/a~0b')).toEqual(['a~b']);
    expect(parsePointer('')).toEqual([]);
  });

  it('adds, removes, replaces, moves, copies and tests', () => {
    const doc = { spec: { replicas: 1, containers: [{ name: 'a' }, { name: 'b' }] }, metadata: { labels: { app: 'web' } } };
    const out = apply(doc, [
      { op: 'test', path: '/spec/replicas', value: 1 },
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'add', path: '/spec/containers/1', value: { name: 'mid' } },
      { op: 'add', path: '/spec/containers/-', value: { name: 'last' } },
      { op: 'remove', path: '/spec/containers/0' },
      { op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/copy' },
      { op: 'move', from: '/metadata/labels/app', path: '/metadata/labels/moved' },
    ]);
    expect(out).toEqual({
      spec: { replicas: 3, containers: [{ name: 'mid' }, { name: 'b' }, { name: 'last' }] },
      metadata: { labels: { copy: 'web', moved: 'web' } },
    });
    expect(doc.spec.replicas).toBe(1);
  });

  it('fails with json-patch.v4 texts', () => {
    const doc = { spec: { replicas: 1 } };
    expect(() => apply(doc, [{ op: 'test', path: '/spec/replicas', value: 2 }])).toThrow('testing value /spec/replicas failed: test failed');
    expect(() => apply(doc, [{ op: 'replace', path: '/spec/paused', value: true }])).toThrow(
      'replace operation does not apply: doc is missing key: /spec/paused: missing value',
    );
    expect(() => apply(doc, [{ op: 'add', path: '/status/x', value: 1 }])).toThrow('add operation does not apply: doc is missing path: "/status/x": missing value');
    expect(() => apply(doc, [{ op: 'remove', path: '/spec/x' }])).toThrow("error in remove for path: '/spec/x': Unable to remove nonexistent key: x: missing value");
    expect(() => apply(doc, [{ op: 'frobnicate', path: '/spec' }])).toThrow('Unexpected kind: frobnicate');
    expect(() => decodeJsonPatch({ op: 'add' })).toThrow(JsonPatchError);
  });

  it('keeps __proto__ as data', () => {
    const out = apply({ data: {} }, [{ op: 'add', path: '/data/__proto__', value: { polluted: 'yes' } }]) as { data: object };
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype);
    expect(Object.keys(out.data)).toEqual(['__proto__']);
  });
});
