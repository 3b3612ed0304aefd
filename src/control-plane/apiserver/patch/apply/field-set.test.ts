import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FieldSet, fieldsV1ContainsAll, fieldsV1Empty, fieldsV1Encodes, fieldsV1Intersects, isCanonicalFieldsV1, mergeFieldsV1 } from './field-set';
import { fieldsV1Equal } from './managed-fields-intern';

describe('isCanonicalFieldsV1', () => {
  it('accepts exactly what toFieldsV1 emits, so an unchanged set may keep its document', () => {
    const set = FieldSet.of([
      ['f:metadata', 'f:labels'],
      ['f:metadata', 'f:labels', 'f:app'],
      ['f:spec', 'f:containers', 'k:{"name":"a"}'],
      ['f:spec', 'f:containers', 'k:{"name":"a"}', 'f:image'],
      ['f:spec', 'f:ports', 'i:2'],
      ['f:spec', 'f:ports', 'i:10'],
    ]);
    const doc = set.toFieldsV1();
    expect(isCanonicalFieldsV1(doc)).toBe(true);
    expect(isCanonicalFieldsV1(JSON.parse(JSON.stringify(doc)))).toBe(true);
  });

  it('refuses documents whose re-encoding would differ', () => {
    // keys out of order
    expect(isCanonicalFieldsV1({ 'f:spec': {}, 'f:metadata': {} })).toBe(false);
    expect(isCanonicalFieldsV1({ 'k:{"a":1}': {}, 'f:a': {} })).toBe(false);
    expect(isCanonicalFieldsV1({ 'i:10': {}, 'i:2': {} })).toBe(false);
    // "." alone (re-encoded as {}), "." not first, "." at the top, "." with content
    expect(isCanonicalFieldsV1({ 'f:a': { '.': {} } })).toBe(false);
    expect(isCanonicalFieldsV1({ 'f:a': { 'f:b': {}, '.': {} } })).toBe(false);
    expect(isCanonicalFieldsV1({ '.': {}, 'f:a': {} })).toBe(false);
    expect(isCanonicalFieldsV1({ 'f:a': { '.': { x: {} }, 'f:b': {} } })).toBe(false);
    // values that are not objects
    expect(isCanonicalFieldsV1({ 'f:a': 1 })).toBe(false);
    expect(isCanonicalFieldsV1({ 'f:a': [] })).toBe(false);
    expect(isCanonicalFieldsV1(null)).toBe(false);
  });
});

describe('FieldSet.intersects / containsAll', () => {
  const a = FieldSet.of([['f:spec', 'f:replicas'], ['f:metadata', 'f:labels', 'f:app']]);

  it('intersects only on a shared member path, not on a shared prefix', () => {
    expect(a.intersects(FieldSet.of([['f:spec', 'f:replicas']]))).toBe(true);
    expect(a.intersects(FieldSet.of([['f:spec', 'f:paused']]))).toBe(false);
    expect(a.intersects(FieldSet.of([['f:spec']]))).toBe(false);
    expect(a.intersects(new FieldSet())).toBe(false);
  });

  it('agrees with difference: a set missed by another is unchanged by subtracting it', () => {
    const other = FieldSet.of([['f:spec', 'f:paused'], ['f:metadata', 'f:labels', 'f:tier']]);
    expect(a.intersects(other)).toBe(false);
    expect(a.difference(other).toFieldsV1()).toEqual(a.toFieldsV1());
  });

  it('containsAll holds exactly when the union adds nothing', () => {
    const sub = FieldSet.of([['f:spec', 'f:replicas']]);
    const notSub = FieldSet.of([['f:spec', 'f:replicas'], ['f:spec', 'f:paused']]);
    expect(a.containsAll(sub)).toBe(true);
    expect(a.union(sub).toFieldsV1()).toEqual(a.toFieldsV1());
    expect(a.containsAll(notSub)).toBe(false);
    expect(a.containsAll(new FieldSet())).toBe(true);
  });
});

/** Path elements of every kind, an index past 9 among them (indices sort by number). */
const setElement = fc.constantFrom('f:a', 'f:b', 'f:spec', 'k:{"name":"x"}', 'v:"y"', 'i:2', 'i:10');

/** set with an empty child at each of the paths: set operations leave those where a child's members all went away. */
function withEmptyChildren(set: FieldSet, paths: readonly (readonly string[])[]): FieldSet {
  for (const path of paths) {
    let node = set;
    for (const pe of path) {
      let child = node.children.get(pe);
      if (!child) node.setChild(pe, (child = new FieldSet()));
      node = child;
    }
  }
  return set;
}

describe('toFieldsV1', () => {
  /** The straightforward encoding: every node sorted, emptiness asked of each child. */
  function reference(node: FieldSet, includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && (node.members.size > 0 || node.children.size > 0)) out['.'] = {};
    const rank = (pe: string) => ({ f: 0, k: 1, v: 2, i: 3 })[pe[0]] ?? 4;
    const keys = [...new Set([...node.members, ...node.children.keys()])].sort((a, b) =>
      rank(a) !== rank(b) ? rank(a) - rank(b) : rank(a) === 3 ? Number(a.slice(2)) - Number(b.slice(2)) : a < b ? -1 : a > b ? 1 : 0,
    );
    for (const pe of keys) {
      const child = node.children.get(pe);
      out[pe] = child && !child.empty() ? reference(child, node.members.has(pe)) : {};
    }
    return out;
  }

  it('matches the straightforward encoding, key order included, with empty children left in the trie', () => {
    const element = setElement;
    fc.assert(
      fc.property(fc.array(fc.array(element, { minLength: 1, maxLength: 4 }), { maxLength: 12 }), fc.array(fc.array(element, { minLength: 1, maxLength: 3 }), { maxLength: 3 }), (paths, emptyAt) => {
        const set = withEmptyChildren(FieldSet.of(paths), emptyAt);
        expect(JSON.stringify(set.toFieldsV1())).toBe(JSON.stringify(reference(set, false)));
      }),
    );
  });
});

describe('fieldsV1Intersects / fieldsV1ContainsAll / fieldsV1Empty', () => {
  // Documents of every shape fromFieldsV1 reads, canonical or not: "." marks anywhere, non-object values.
  const element = fc.constantFrom('f:a', 'f:b', 'k:{"name":"x"}', 'i:2');
  const doc: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.constant({}),
      fc.constantFrom(1, null, 'x', []),
      fc.dictionary(fc.oneof(element, fc.constant('.')), tie('node'), { maxKeys: 3 }),
    ),
  })).node;
  const set = fc.array(fc.array(element, { minLength: 1, maxLength: 3 }), { maxLength: 5 }).map((paths) => FieldSet.of(paths));

  it('answer what the decoded set answers, without decoding the document', () => {
    fc.assert(
      fc.property(doc, set, (d, s) => {
        const decoded = FieldSet.fromFieldsV1(d);
        expect(fieldsV1Intersects(d, s)).toBe(decoded.intersects(s));
        expect(fieldsV1ContainsAll(d, s)).toBe(decoded.containsAll(s));
        expect(fieldsV1Empty(d)).toBe(decoded.empty());
      }),
      { numRuns: 500 },
    );
  });

  it('read a member only where the document marks one', () => {
    const d = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } };
    expect(fieldsV1Intersects(d, FieldSet.of([['f:metadata', 'f:labels']]))).toBe(true);
    expect(fieldsV1Intersects(d, FieldSet.of([['f:metadata']]))).toBe(false);
    expect(fieldsV1Intersects(d, FieldSet.of([['f:spec', 'f:paused']]))).toBe(false);
    expect(fieldsV1ContainsAll(d, FieldSet.of([['f:spec', 'f:replicas'], ['f:metadata', 'f:labels', 'f:app']]))).toBe(true);
    expect(fieldsV1ContainsAll(d, FieldSet.of([['f:spec']]))).toBe(false);
    expect(fieldsV1Empty({ '.': {} })).toBe(true);
    expect(fieldsV1Empty(d)).toBe(false);
  });
});

describe('fieldsV1Encodes', () => {
  const element = setElement;
  const paths = (max: number) => fc.array(fc.array(element, { minLength: 1, maxLength: 4 }), { maxLength: max });
  const set = fc.tuple(paths(6), fc.array(fc.array(element, { minLength: 1, maxLength: 3 }), { maxLength: 2 })).map(([ps, emptyAt]) => withEmptyChildren(FieldSet.of(ps), emptyAt));

  it('says whether a document holds what toFieldsV1 emits for the set, in any key order', () => {
    const shuffled = (doc: unknown): unknown => {
      if (typeof doc !== 'object' || doc === null) return doc;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(doc).reverse()) out[k] = shuffled((doc as Record<string, unknown>)[k]);
      return out;
    };
    fc.assert(
      fc.property(set, set, fc.boolean(), (a, b, reverse) => {
        // b's document against a: equal sometimes (b built like a), mostly not.
        const doc = reverse ? shuffled(b.toFieldsV1()) : b.toFieldsV1();
        expect(fieldsV1Encodes(doc, a)).toBe(fieldsV1Equal(a.toFieldsV1(), doc));
        expect(fieldsV1Encodes(doc, b)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('tells apart a member, a member with children and a "." out of place', () => {
    const s = FieldSet.of([['f:status', 'f:phase'], ['f:status', 'f:conditions', 'k:{"type":"Ready"}', 'f:status']]);
    expect(fieldsV1Encodes(s.toFieldsV1(), s)).toBe(true);
    expect(fieldsV1Encodes({ 'f:status': { 'f:phase': {}, 'f:conditions': {} } }, s)).toBe(false);
    expect(fieldsV1Encodes({ 'f:status': { 'f:phase': {}, 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {} } } } }, s)).toBe(false);
    expect(fieldsV1Encodes({ 'f:status': { '.': {}, 'f:phase': {}, 'f:conditions': { 'k:{"type":"Ready"}': { 'f:status': {} } } } }, s)).toBe(false);
    expect(fieldsV1Encodes({ 'f:status': { 'f:phase': {}, 'f:conditions': { 'k:{"type":"Ready"}': { 'f:status': {} } } } }, s)).toBe(true);
    expect(fieldsV1Encodes({ 'f:status': { 'f:phase': {}, 'f:podIP': {}, 'f:conditions': { 'k:{"type":"Ready"}': { 'f:status': {} } } } }, s)).toBe(false);
  });
});

describe('mergeFieldsV1', () => {
  const element = setElement;
  const paths = (max: number) => fc.array(fc.array(element, { minLength: 1, maxLength: 4 }), { maxLength: max });
  /** A set as set operations leave them: some children empty. */
  const set = fc.tuple(paths(6), fc.array(fc.array(element, { minLength: 1, maxLength: 3 }), { maxLength: 2 })).map(([ps, emptyAt]) => withEmptyChildren(FieldSet.of(ps), emptyAt));

  it('gives what decoding, subtracting, adding and encoding give, sharing what it leaves alone', () => {
    fc.assert(
      fc.property(paths(10), fc.array(set, { maxLength: 2 }), fc.option(set, { nil: undefined }), (docPaths, minus, plus) => {
        const doc = FieldSet.of(docPaths).toFieldsV1();
        let expected = FieldSet.fromFieldsV1(doc);
        for (const m of minus) expected = expected.difference(m);
        if (plus) expected = expected.union(plus);
        const merged = mergeFieldsV1(doc, minus, plus);
        expect(JSON.stringify(merged)).toBe(JSON.stringify(expected.toFieldsV1()));
        expect(isCanonicalFieldsV1(merged)).toBe(true);
        // Untouched subtrees are doc's own objects.
        const touched = new Set<string>();
        for (const s of [...minus, ...(plus ? [plus] : [])]) for (const pe of [...s.members, ...s.children.keys()]) touched.add(pe);
        for (const key of Object.keys(doc)) if (!touched.has(key) && key in merged) expect(merged[key]).toBe(doc[key]);
      }),
      { numRuns: 3000 },
    );
  });

  it('returns the document itself when nothing changes', () => {
    const doc = FieldSet.of([['f:status', 'f:phase'], ['f:status', 'f:conditions', 'k:{"type":"Ready"}', 'f:status']]).toFieldsV1();
    expect(mergeFieldsV1(doc, [FieldSet.of([['f:spec', 'f:x']])], FieldSet.of([['f:status', 'f:phase']]))).toBe(doc);
  });
});
