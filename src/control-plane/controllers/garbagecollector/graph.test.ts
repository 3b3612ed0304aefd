import { describe, expect, it } from 'vitest';
import { GraphNode, ReferenceCache, getAlternateOwnerIdentity, partitionDependents, referencesDiffs, referenceString, type ObjectReference } from './graph';

const rs = (name: string, uid: string) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid });
const ref = (r: ReturnType<typeof rs>, namespace: string): ObjectReference => ({ ...r, namespace });

describe('dependency graph helpers', () => {
  it('referencesDiffs finds added, removed and changed references by uid', () => {
    const a = rs('a', '1');
    const b = { ...rs('b', '2'), blockOwnerDeletion: true };
    const c = rs('c', '3');
    const { added, removed, changed } = referencesDiffs([a, b], [{ ...b, blockOwnerDeletion: false }, c]);
    expect(added).toEqual([c]);
    expect(removed).toEqual([a]);
    expect(changed).toEqual([{ oldRef: b, newRef: { ...b, blockOwnerDeletion: false } }]);
  });

  it('blockingDependents lists only dependents whose reference blocks the owner', () => {
    const owner = new GraphNode({ identity: ref(rs('o', 'u-o'), 'ns') });
    const blocking = new GraphNode({ identity: { apiVersion: 'v1', kind: 'Pod', name: 'p1', uid: 'p1', namespace: 'ns' }, owners: [{ ...rs('o', 'u-o'), blockOwnerDeletion: true }] });
    const free = new GraphNode({ identity: { apiVersion: 'v1', kind: 'Pod', name: 'p2', uid: 'p2', namespace: 'ns' }, owners: [rs('o', 'u-o')] });
    owner.addDependent(blocking);
    owner.addDependent(free);
    expect(owner.blockingDependents()).toEqual([blocking]);
  });

  it('partitionDependents splits by coordinates and namespace', () => {
    const owner = ref(rs('o', 'u'), 'ns');
    const good = new GraphNode({ identity: { apiVersion: 'v1', kind: 'Pod', name: 'good', uid: 'g', namespace: 'ns' }, owners: [rs('o', 'u')] });
    const otherName = new GraphNode({ identity: { apiVersion: 'v1', kind: 'Pod', name: 'bad', uid: 'b', namespace: 'ns' }, owners: [rs('x', 'u')] });
    const otherNs = new GraphNode({ identity: { apiVersion: 'v1', kind: 'Pod', name: 'far', uid: 'f', namespace: 'elsewhere' }, owners: [rs('o', 'u')] });
    const { matching, nonmatching } = partitionDependents([good, otherName, otherNs], owner);
    expect(matching).toEqual([good]);
    expect(nonmatching).toEqual([otherName, otherNs]);
    // The first alternate sorting after the absent identity (same namespace, name "x" > "o").
    expect(getAlternateOwnerIdentity(nonmatching, owner)).toEqual(ref(rs('x', 'u'), 'ns'));
  });

  it('ReferenceCache evicts the least recently used entry', () => {
    const cache = new ReferenceCache(2);
    const r1 = ref(rs('a', '1'), 'ns');
    const r2 = ref(rs('b', '2'), 'ns');
    const r3 = ref(rs('c', '3'), 'ns');
    cache.add(r1);
    cache.add(r2);
    expect(cache.has(r1)).toBe(true);
    cache.add(r3);
    expect(cache.has(r2)).toBe(false);
    expect(cache.has(r1)).toBe(true);
    expect(cache.has(r3)).toBe(true);
  });

  it('prints references as the GC logs them', () => {
    expect(referenceString(ref(rs('web', 'u1'), 'default'))).toBe('[apps/v1/ReplicaSet, namespace: default, name: web, uid: u1]');
  });
});
