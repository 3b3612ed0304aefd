import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { buildUidIndex, dependentsOf, groupByKind, ownerChain } from './relations';
import type { Fixture } from './headless.fixture';
import { keysNamed, nginxFixture } from './headless.fixture';

let f: Fixture;
beforeAll(async () => {
  f = await nginxFixture();
});
afterAll(async () => {
  await f.h.close();
});

describe('owner chain and dependents of the nginx Deployment', () => {
  it('walks a pod up to its Deployment, root first, each link resolved to its place in the store', () => {
    const index = buildUidIndex(f.store.getState().resources);
    const [rsKey] = keysNamed(f.store, 'apps/replicasets', 'nginx-');
    const [podKey] = keysNamed(f.store, '/pods', 'nginx-');
    const chain = ownerChain(f.get('/pods', podKey), index);
    expect(chain.map((l) => [l.ref.kind, l.owner?.resourceKey, l.owner?.key])).toEqual([
      ['Deployment', 'apps/deployments', 'default/nginx'],
      ['ReplicaSet', 'apps/replicasets', rsKey],
    ]);
    expect(chain[1].ref.controller).toBe(true);
    expect(ownerChain(f.get('apps/deployments', 'default/nginx'), index)).toEqual([]);
  });

  it('lists the Deployment’s ReplicaSet and the ReplicaSet’s three pods, grouped by kind', () => {
    const index = buildUidIndex(f.store.getState().resources);
    const deployment = f.get('apps/deployments', 'default/nginx');
    const deps = dependentsOf(deployment.metadata.uid, index);
    expect(deps.map((d) => d.object.kind)).toEqual(['ReplicaSet']);
    const pods = dependentsOf(deps[0].object.metadata.uid, index);
    expect(pods.map((p) => p.key).sort()).toEqual(keysNamed(f.store, '/pods', 'nginx-').sort());
    expect(groupByKind(pods).map((g) => [g.kind, g.items.length])).toEqual([['Pod', 3]]);
    expect(dependentsOf(pods[0].object.metadata.uid, index)).toEqual([]);
    expect(dependentsOf(undefined, index)).toEqual([]);
  });

  it('keeps an owner the page no longer has as an unresolved last link', () => {
    const resources = { ...f.store.getState().resources };
    delete resources['apps/deployments'];
    const [podKey] = keysNamed(f.store, '/pods', 'nginx-');
    const chain = ownerChain(f.get('/pods', podKey), buildUidIndex(resources));
    expect(chain.map((l) => [l.ref.kind, l.ref.name, !!l.owner])).toEqual([
      ['Deployment', 'nginx', false],
      ['ReplicaSet', chain[1].ref.name, true],
    ]);
  });

  it('stops at a cycle of ownerReferences instead of looping', () => {
    const a: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', uid: 'ua', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: 'ub', controller: true }] } };
    const b: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'default', uid: 'ub', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: 'ua', controller: true }] } };
    const index = buildUidIndex({ '/configmaps': { objects: new Map([['default/a', a], ['default/b', b]]), resourceVersion: '1' } });
    expect(ownerChain(a, index).map((l) => l.ref.name)).toEqual(['b']);
    expect(dependentsOf('ua', index).map((d) => d.key)).toEqual(['default/b']);
  });
});
