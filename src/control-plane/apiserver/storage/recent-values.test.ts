import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { toStored } from './object-codec';
import { frozenCopy, type SharedValues } from '../patch/json-value';
import { RecentValues, SharedSubtrees, ValuesByText, memberHash } from './recent-values';

/** value, or a frozen value with its JSON text the values know (what toStored does at a shared place). */
function intern<T>(values: SharedValues, value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  return (values.recall(value) ?? values.remember(frozenCopy(value))) as T;
}

describe('RecentValues', () => {
  it('hands back one frozen copy for values with the same JSON text', () => {
    const recent = new RecentValues(2);
    const a = { component: 'kubelet', host: 'node-1' };
    const first = intern(recent, a);
    expect(first).not.toBe(a); // the caller's object is never frozen
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual(a);
    expect(intern(recent, { component: 'kubelet', host: 'node-1' })).toBe(first);
  });

  it('keeps key order: a value with the same members in another order is its own', () => {
    const recent = new RecentValues(2);
    const first = intern(recent, { component: 'kubelet', host: 'node-1' });
    const swapped = intern(recent, { host: 'node-1', component: 'kubelet' });
    expect(swapped).not.toBe(first);
    expect(JSON.stringify(swapped)).toBe('{"host":"node-1","component":"kubelet"}');
  });

  it('remembers only the last few of one fingerprint, and a bounded number of fingerprints', () => {
    // The fingerprint reads a string's length and its last, second-to-last and middle characters: these three differ only in the first.
    const recent = new RecentValues(2);
    const a = intern(recent, { name: 'a-web-0' });
    const b = intern(recent, { name: 'b-web-0' });
    expect(memberHash(b, 0)).toBe(memberHash(a, 0));
    intern(recent, { name: 'c-web-0' });
    expect(intern(recent, { name: 'b-web-0' })).toBe(b);
    expect(intern(recent, { name: 'a-web-0' })).not.toBe(a);
    // Other fingerprints are groups of their own: a run of them does not push a value out of its group…
    const x = intern(recent, { name: 'web-x' });
    for (let i = 0; i < 20; i++) intern(recent, { name: `web-${i}`.padEnd(12, '-') });
    expect(intern(recent, { name: 'web-x' })).toBe(x);
    // …until there are too many groups.
    const few = new RecentValues(2, 4);
    const first = intern(few, { name: 'web-x' });
    for (let i = 0; i < 4; i++) intern(few, { name: `web-${i}`.padEnd(12 + i, '-') });
    expect(intern(few, { name: 'web-x' })).not.toBe(first);
  });

  it('fingerprints values with the same JSON text alike', () => {
    expect(memberHash({ type: 'Ready', status: 'True', skipped: undefined }, 0)).toBe(memberHash({ type: 'Ready', status: 'True' }, 0));
    expect(memberHash([{ ip: '10.0.0.1' }], 0)).toBe(memberHash([{ ip: '10.0.0.1' }], 0));
    expect(memberHash({ type: 'Ready', status: 'True' }, 0)).not.toBe(memberHash({ type: 'PodScheduled', status: 'True' }, 0));
  });
});

describe('SharedSubtrees', () => {
  const store = (shared: SharedSubtrees, obj: KubeObject, prev?: KubeObject) => toStored(obj, prev, shared.sharing);
  const pod = (uid: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `web-${uid}`, labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-1', controller: true }], uid },
    spec: { containers: [{ name: 'c' }], tolerations: [{ key: 'k', operator: 'Exists', tolerationSeconds: 300 }] },
  });
  const paths = [['metadata', 'labels'], ['metadata', 'ownerReferences'], ['spec', 'tolerations'], ['status']];

  it('stores the same JSON with the repeated subtrees shared, and leaves the object itself alone', () => {
    const shared = new SharedSubtrees(paths);
    const [a, b] = [pod('1'), pod('2')];
    const [textA, textB] = [JSON.stringify(a), JSON.stringify(b)];
    const [sa, sb] = [store(shared, a), store(shared, b)];
    expect(JSON.stringify(sa)).toBe(textA);
    expect(JSON.stringify(sb)).toBe(textB);
    expect(JSON.stringify(a)).toBe(textA);
    expect(Object.isFrozen(a.metadata.labels)).toBe(false);
    expect(sb.metadata.labels).toBe(sa.metadata.labels);
    expect(sb.metadata.ownerReferences).toBe(sa.metadata.ownerReferences);
    expect((sb.spec as any).tolerations).toBe((sa.spec as any).tolerations);
    // Elsewhere each object has its own copy.
    expect((sb.spec as any).containers).not.toBe((sa.spec as any).containers);
    expect((sb.spec as any).containers).toEqual((b.spec as any).containers);
    expect(Object.isFrozen(sb.metadata.ownerReferences![0])).toBe(true);
  });

  it('shares each element of an array on its own, and keeps the stored value a write leaves unchanged', () => {
    const shared = new SharedSubtrees([['status', 'conditions', '*'], ['status', 'containerStatuses', '*', 'lastState']]);
    const status = (name: string, t: string) => ({
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t }, { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      containerStatuses: [{ name, lastState: {} }],
    });
    const withStatus = (name: string, t: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, status: status(name, t) });
    const a = store(shared, withStatus('a', '2026-01-01T00:00:05Z'));
    const b = store(shared, withStatus('b', '2026-01-01T00:00:07Z'));
    expect(JSON.stringify(b)).toBe(JSON.stringify(withStatus('b', '2026-01-01T00:00:07Z')));
    const conds = (o: KubeObject) => (o.status as any).conditions;
    expect(conds(b)[1]).toBe(conds(a)[1]);
    expect(conds(b)[0]).not.toBe(conds(a)[0]);
    expect((b.status as any).containerStatuses[0].lastState).toBe((a.status as any).containerStatuses[0].lastState);
    // An update whose value equals the stored one's keeps the stored one (prev's), not a recent equal one.
    const prev = toStored(withStatus('c', '2026-01-01T00:00:09Z'));
    store(shared, withStatus('d', '2026-01-01T00:00:09Z'));
    const next = store(shared, withStatus('c', '2026-01-01T00:00:09Z'), prev);
    expect(next).toBe(prev);
    expect(conds(next)[0]).toBe(conds(prev)[0]);
    // A new array of the same length: its unchanged element is prev's, the changed one is shared.
    const moved = store(shared, withStatus('c', '2026-01-01T00:00:05Z'), prev);
    expect(conds(moved)[1]).toBe(conds(prev)[1]);
    expect(conds(moved)[0]).toBe(conds(a)[0]);
  });

  it('skips paths the object does not have', () => {
    const shared = new SharedSubtrees(paths);
    const bare: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: [] as never };
    expect(store(shared, bare)).toEqual(bare);
  });
});

describe('ValuesByText', () => {
  it('hands back one frozen copy per JSON text however many others came between', () => {
    const byText = new ValuesByText(100);
    const first = intern(byText, [{ ip: '192.168.49.2' }]);
    for (let i = 3; i < 60; i++) intern(byText, [{ ip: `192.168.49.${i}` }]);
    expect(intern(byText, [{ ip: '192.168.49.2' }])).toBe(first);
    expect(Object.isFrozen(first[0])).toBe(true);
  });

  it('serves a path of SharedSubtrees', () => {
    const shared = new SharedSubtrees([], [['status', 'hostIPs']]);
    const store = (obj: KubeObject) => toStored(obj, undefined, shared.sharing);
    const pod = (name: string, ip: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, status: { hostIPs: [{ ip }] } });
    const a = store(pod('a', '10.0.0.1'));
    store(pod('b', '10.0.0.2'));
    const c = store(pod('c', '10.0.0.1'));
    expect((c.status as any).hostIPs).toBe((a.status as any).hostIPs);
    expect(JSON.stringify(c)).toBe(JSON.stringify(pod('c', '10.0.0.1')));
  });
});
