import { describe, expect, it } from 'vitest';
import type { Pod, Volume } from 'kubernetes-types/core/v1';
import { podSyncPeriodMs, serviceAccountToken, VolumeContentStore, type ObjectData } from './volume-contents';

describe('VolumeContentStore', () => {
  const pod: Pod = {
    metadata: { name: 'web', namespace: 'default', uid: 'u1', labels: { app: 'web' } },
    spec: {
      nodeName: 'node-1',
      containers: [{ name: 'c' }],
      volumes: [
        { name: 'config', configMap: { name: 'cfg' } },
        { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }, { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }] } },
      ],
    },
  };
  const volume = (name: string): Volume => pod.spec!.volumes!.find((v) => v.name === name)!;

  it('keeps each generation a sync wrote, oldest first, with its files in the order written', () => {
    let data: ObjectData = { data: { a: '1', b: '2' }, changedAt: 0 };
    const ctx = { objects: (kind: string, _ns: string, name: string) => (kind === 'configmap' && name === 'cfg' ? data : undefined), allocatable: {} };
    const store = new VolumeContentStore();
    store.mounted(pod, 1000, ctx);
    expect(store.mountedAt('u1')).toBe(1000);
    const first = store.versions(pod, volume('config'), 2000, ctx);
    expect(first.map((v) => [v.at, [...v.files].map(([p, f]) => [p, f.content, f.mode])])).toEqual([[1000, [['a', '1', 0o644], ['b', '2', 0o644]]]]);
    data = { data: { b: '3' }, changedAt: 5000 };
    const later = store.versions(pod, volume('config'), 1000 + 2 * podSyncPeriodMs, ctx);
    expect(later.map((v) => [v.at, Object.fromEntries([...v.files].map(([p, f]) => [p, f.content]))])).toEqual([
      [1000, { a: '1', b: '2' }],
      [1000 + 2 * podSyncPeriodMs, { b: '3' }],
    ]);
    // Asked again, the same generations (nothing written twice).
    expect(store.versions(pod, volume('config'), 1000 + 2 * podSyncPeriodMs, ctx)).toHaveLength(2);
  });

  it('makes the token lazily and shows downward API files as the pod is now', () => {
    const ctx = { objects: () => undefined, allocatable: {} };
    const store = new VolumeContentStore();
    store.mounted(pod, 1000, ctx);
    const [v] = store.versions({ ...pod, metadata: { ...pod.metadata, labels: { app: 'api' } } }, volume('token'), 2000, ctx);
    expect([...v!.files.keys()]).toEqual(['token', 'labels']);
    expect(v!.files.get('labels')!.content).toBe('app="api"');
    expect(v!.files.get('token')!.content.split('.')).toHaveLength(3);
  });

  it('keeps what the pods of a template wrote once, each token still its own pod\'s', () => {
    const ctx = { objects: (kind: string, _ns: string, name: string) => (kind === 'configmap' && name === 'cfg' ? { data: { a: '1' }, changedAt: 0 } : undefined), allocatable: {} };
    const store = new VolumeContentStore();
    const other: Pod = { ...pod, metadata: { ...pod.metadata, name: 'web-2', uid: 'u2' } };
    store.mounted(pod, 1000, ctx);
    store.mounted(other, 3500, ctx);
    expect(store.mountedAt('u1')).toBe(1000);
    expect(store.mountedAt('u2')).toBe(3500);
    const generations = (s: VolumeContentStore, uid: string) => (s as unknown as { pods: Map<string, { generations: unknown }> }).pods.get(uid)!.generations;
    expect(generations(store, 'u2')).toBe(generations(store, 'u1'));
    const [mine] = store.versions(pod, volume('token'), 5000, ctx);
    const [theirs] = store.versions(other, volume('token'), 5000, ctx);
    expect(mine!.files.get('token')!.content).toBe(serviceAccountToken(pod, 1000, 3607));
    expect(theirs!.files.get('token')!.content).toBe(serviceAccountToken(other, 3500, 3607));
    expect(store.versions(other, volume('config'), 5000, ctx)[0]!.files.get('a')!.content).toBe('1');
    store.forget('u1');
    expect(store.mountedAt('u1')).toBeUndefined();
    expect(store.versions(other, volume('token'), 5000, ctx)).toHaveLength(1);
  });

  it('pods mounted together share their mount until a sync rewrites one of them', () => {
    let data: ObjectData = { data: { a: '1' }, changedAt: 0 };
    const ctx = { objects: (kind: string, _ns: string, name: string) => (kind === 'configmap' && name === 'cfg' ? data : undefined), allocatable: {} };
    const store = new VolumeContentStore();
    const other: Pod = { ...pod, metadata: { ...pod.metadata, name: 'web-2', uid: 'u2' } };
    store.mounted(pod, 1000, ctx);
    store.mounted(other, 1000, ctx);
    const mount = (uid: string) => (store as unknown as { pods: Map<string, unknown> }).pods.get(uid);
    expect(mount('u2')).toBe(mount('u1'));
    data = { data: { a: '2' }, changedAt: 2000 };
    expect(store.versions(pod, volume('config'), 1000 + podSyncPeriodMs, ctx)).toHaveLength(2);
    expect(mount('u2')).not.toBe(mount('u1'));
    expect(store.versions(other, volume('config'), 1000 + podSyncPeriodMs - 1, ctx)).toHaveLength(1);
    expect(store.versions(pod, volume('config'), 1000 + podSyncPeriodMs, ctx).map((v) => v.files.get('a')!.content)).toEqual(['1', '2']);
  });
});
