import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { findObject } from './find-object';
import type { ResourceObjects } from './objects-slice';

const view = (objs: Record<string, KubeObject>): ResourceObjects => ({ objects: new Map(Object.entries(objs)), resourceVersion: '1' });
const pod = (name: string, uid: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid } });
const node = (name: string, uid: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid } });

describe('findObject', () => {
  const resources = {
    '/pods': view({ 'default/a': pod('a', 'u-a'), 'default/b': pod('b', 'u-b') }),
    '/nodes': view({ 'node-1': node('node-1', 'u-n1') }),
    '/events': view({ 'default/e': { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default', uid: 'u-a' } } }),
  };

  it('finds by uid first, never an Event', () => {
    expect(findObject(resources, { kind: 'Pod', name: 'b', namespace: 'default', uid: 'u-a' })).toEqual({ resourceKey: '/pods', key: 'default/a' });
  });

  it('falls back to kind, namespace and name (a kubelet Event names its Node by name as uid)', () => {
    expect(findObject(resources, { kind: 'Node', name: 'node-1', uid: 'node-1' })).toEqual({ resourceKey: '/nodes', key: 'node-1' });
  });

  it('finds nothing for an object that is gone', () => {
    expect(findObject(resources, { kind: 'Pod', name: 'zzz', namespace: 'default', uid: 'u-z' })).toBeUndefined();
  });
});
