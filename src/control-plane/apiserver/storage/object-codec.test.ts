import { describe, expect, it } from 'vitest';
import type { KeyValue } from '../../store/types';
import type { KubeObject } from '../../../shared/api/types';
import { fromStored, storedView, toStored } from './object-codec';

const kv: KeyValue = {
  key: '/registry/configmaps/default/a',
  value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { k: 'v' } },
  createRevision: 3,
  modRevision: 7,
  version: 2,
};

describe('storedView', () => {
  it('has fromStored content, frozen, and is one object shared by every reader of the kv', () => {
    const view = storedView(kv);
    expect(view).toEqual(fromStored(kv));
    expect(view.metadata.resourceVersion).toBe('7');
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view.data)).toBe(true);
    expect(storedView(kv)).toBe(view);
    // The stored value itself keeps no resourceVersion.
    expect(kv.value.metadata.resourceVersion).toBeUndefined();
  });

  it('carries the revision asked for (a watcher that stops matching sees the last state at its revision)', () => {
    const later = storedView(kv, 9);
    expect(later.metadata.resourceVersion).toBe('9');
    expect(later).toEqual(fromStored(kv, 9));
  });
});

describe('toStored', () => {
  const pod = (phase: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', resourceVersion: '5', selfLink: '/x', labels: { app: 'a' } },
    spec: { containers: [{ name: 'c', image: 'i' }] },
    status: { phase },
  });

  it('is a frozen copy without resourceVersion and selfLink, leaving the written object as it was', () => {
    const obj = pod('Pending');
    const stored = toStored(obj);
    expect(stored).toEqual({ ...obj, metadata: { name: 'p', namespace: 'default', labels: { app: 'a' } } });
    expect(Object.keys(stored.metadata)).toEqual(['name', 'namespace', 'labels']);
    expect(Object.isFrozen(stored) && Object.isFrozen(stored.metadata) && Object.isFrozen(stored.spec)).toBe(true);
    expect(obj.metadata.resourceVersion).toBe('5');
    expect(Object.isFrozen(obj.spec)).toBe(false);
  });

  it('shares unchanged subtrees with the value it replaces', () => {
    const first = toStored(pod('Pending'));
    const second = toStored(pod('Running'), first);
    expect(second.spec).toBe(first.spec);
    expect(second.metadata).toBe(first.metadata);
    expect(second.status).toEqual({ phase: 'Running' });
  });
});

describe('storedView over a stored value', () => {
  it('shares the stored subtrees and owns only its top level and metadata', () => {
    const value = toStored({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', labels: { x: 'y' } }, data: { k: 'v' } });
    const stored: KeyValue = { key: '/registry/configmaps/b', value, createRevision: 2, modRevision: 4, version: 1 };
    const view = storedView(stored);
    expect(view).toEqual(fromStored(stored));
    expect(view.data).toBe(value.data);
    expect(view.metadata.labels).toBe(value.metadata.labels);
    expect(Object.keys(view.metadata)).toEqual(['name', 'labels', 'resourceVersion']);
    expect(value.metadata.resourceVersion).toBeUndefined();
  });

  it('views a pod-shaped value (apiVersion, kind, metadata, spec, status) with the same members in the same order', () => {
    const value = toStored({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { nodeName: 'n' }, status: { phase: 'Running' } });
    const stored: KeyValue = { key: '/registry/pods/default/p', value, createRevision: 2, modRevision: 5, version: 1 };
    const view = storedView(stored);
    expect(view).toEqual(fromStored(stored));
    expect(Object.keys(view)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(view.spec).toBe(value.spec);
    expect(view.status).toBe(value.status);
    expect(Object.isFrozen(view)).toBe(true);
    // Another order of the same members keeps that order.
    const reordered: KeyValue = { ...stored, key: '/registry/pods/default/q', value: { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'q' }, spec: {}, status: {} } };
    expect(Object.keys(storedView(reordered))).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  });

  it('freezes a stored value that was put without toStored before sharing it', () => {
    const raw: KeyValue = { key: '/registry/configmaps/c', value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } }, createRevision: 1, modRevision: 1, version: 1 };
    const view = storedView(raw);
    expect(Object.isFrozen(raw.value.data)).toBe(true);
    expect(() => {
      (view.data as Record<string, string>).k = 'changed';
    }).toThrow(TypeError);
  });
});
