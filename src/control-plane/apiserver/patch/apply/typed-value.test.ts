import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { builtinSchemaHints } from '../list-types';
import { addedFieldsV1, compareValues, listMatching, matchesAddedFieldsV1 } from './typed-value';

const podHints = builtinSchemaHints('Pod');

/** The document a create recorded before addedFieldsV1: the added set of a comparison against nothing, encoded. */
function viaComparison(value: unknown, hints = podHints): string {
  return JSON.stringify(compareValues(undefined, value, hints).added.toFieldsV1());
}

describe('addedFieldsV1', () => {
  it('encodes a pod exactly as the added set of a comparison against nothing', () => {
    const pod = {
      metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' }, annotations: {}, ownerReferences: [{ uid: 'u1', kind: 'ReplicaSet', name: 'web-abc' }], finalizers: ['b', 'a', 'b'] },
      spec: {
        containers: [
          { name: 'web', image: 'nginx', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }], resources: {} },
          { name: 'side', image: 'busybox', command: ['sh', '-c'], unset: undefined },
        ],
        volumes: [],
        initContainers: [],
        tolerations: [{ key: 'x', operator: 'Exists' }, 'odd'],
        nodeSelector: null,
        securityContext: { runAsUser: undefined },
        restartPolicy: 'Always',
      },
      status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] },
    };
    expect(JSON.stringify(addedFieldsV1(pod, podHints))).toBe(viaComparison(pod));
  });

  it('gives {} for nothing and for an object without defined members', () => {
    expect(addedFieldsV1(undefined, podHints)).toEqual({});
    expect(addedFieldsV1({ a: undefined }, podHints)).toEqual({});
    expect(JSON.stringify(addedFieldsV1({ spec: {} }, podHints))).toBe(viaComparison({ spec: {} }));
  });

  it('agrees with the comparison on arbitrary JSON under pod field names', () => {
    fc.assert(
      fc.property(podLike, (obj) => {
        expect(JSON.stringify(addedFieldsV1(obj, podHints))).toBe(viaComparison(obj));
      }),
      { numRuns: 300 },
    );
  });
});

describe('compareValues', () => {
  it('pairs list items the same way item by item (short lists) as through maps', () => {
    const encode = (a: unknown, b: unknown): string => {
      const c = compareValues(a, b, podHints);
      return JSON.stringify([c.added.toFieldsV1(), c.modified.toFieldsV1(), c.removed.toFieldsV1()]);
    };
    const viaMaps = (a: unknown, b: unknown): string => {
      const saved = listMatching.smallLists;
      listMatching.smallLists = -1;
      try {
        return encode(a, b);
      } finally {
        listMatching.smallLists = saved;
      }
    };
    const conditions = (...types: string[]) => ({ status: { conditions: types.map((type, i) => ({ type, status: String(i) })) } });
    // Duplicate keys: the last item of a key is compared, in the order keys first appear.
    expect(encode(conditions('A', 'B', 'A'), conditions('B', 'C'))).toBe(viaMaps(conditions('A', 'B', 'A'), conditions('B', 'C')));
    const twice = { status: { conditions: [{ type: 'A', status: '1' }, { type: 'A', reason: 'x' }] } };
    const once = { status: { conditions: [{ type: 'A', status: '1' }] } };
    expect(encode(twice, once)).toBe(viaMaps(twice, once));
    expect(encode(once, twice)).toBe(viaMaps(once, twice));
    expect(encode(twice, once)).not.toBe(encode(once, once));
    fc.assert(
      fc.property(podLike, podLike, (a, b) => {
        expect(encode(a, b)).toBe(viaMaps(a, b));
      }),
      { numRuns: 500 },
    );
  });
});

describe('matchesAddedFieldsV1', () => {
  it('matches a document exactly when addedFieldsV1 would encode the same text', () => {
    fc.assert(
      fc.property(podLike, podLike, (a, b) => {
        const docB = addedFieldsV1(b, podHints);
        expect(matchesAddedFieldsV1(a, podHints, addedFieldsV1(a, podHints))).toBe(true);
        expect(matchesAddedFieldsV1(a, podHints, docB)).toBe(JSON.stringify(addedFieldsV1(a, podHints)) === JSON.stringify(docB));
      }),
      { numRuns: 500 },
    );
  });

  it('tells pods apart by their fields, not their values', () => {
    const pod = (labels: Record<string, string>, image: string) => ({ metadata: { labels }, spec: { containers: [{ name: 'web', image }] } });
    const doc = addedFieldsV1(pod({ app: 'web' }, 'nginx'), podHints);
    expect(matchesAddedFieldsV1(pod({ app: 'db' }, 'redis'), podHints, doc)).toBe(true);
    expect(matchesAddedFieldsV1(pod({ app: 'web', tier: 'x' }, 'nginx'), podHints, doc)).toBe(false);
    expect(matchesAddedFieldsV1({ metadata: { labels: { app: 'web' } } }, podHints, doc)).toBe(false);
  });
});

const { podLike } = (() => {
  const key = fc.constantFrom('metadata', 'labels', 'spec', 'containers', 'name', 'ports', 'containerPort', 'protocol', 'env', 'finalizers', 'x', 'y', 'data');
    const leaf = fc.oneof(fc.constantFrom('web', 'side', 1, 80, true, null, undefined), fc.string({ maxLength: 3 }));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('tree'), { maxLength: 4 }), fc.dictionary(key, tie('tree'), { maxKeys: 5 })),
    }));
    return { podLike: fc.dictionary(key, tree, { maxKeys: 5 }) };
})();
