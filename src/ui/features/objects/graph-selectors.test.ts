import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { WatchBatch } from '../../../shared/protocol/messages';
import { createAppStore } from '../../state/store';
import { makeSelectObjectGraph, selectPodCountsOfOwner } from './graph-selectors';

const batch = (diff: Partial<WatchBatch['diff']>, rv: string): WatchBatch => ({
  diff: { added: {}, updated: {}, removed: {}, ...diff },
  resourceVersion: rv,
});
const rs: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web', namespace: 'default', uid: 'rs-1' },
};
const node: KubeObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1', uid: 'n-1' },
};
const pod = (name: string, extra: { nodeName?: string; phase?: string } = {}): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `u-${name}`,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web',
          uid: 'rs-1',
          controller: true,
        },
      ],
    },
    spec: {
      containers: [{ name: 'c', image: 'i' }],
      ...(extra.nodeName ? { nodeName: extra.nodeName } : {}),
    },
    status: { phase: extra.phase ?? 'Pending' },
  }) as KubeObject;

describe('makeSelectObjectGraph', () => {
  it('keeps the graph through status updates and rebuilds it when a pod is bound, added or removed', () => {
    const store = createAppStore();
    store.getState().applyBatch('apps/replicasets', batch({ added: { 'default/web': rs } }, '1'));
    store.getState().applyBatch('/nodes', batch({ added: { 'node-1': node } }, '2'));
    store.getState().applyBatch('/pods', batch({ added: { 'default/a': pod('a') } }, '3'));
    const select = makeSelectObjectGraph('default', new Set());
    const first = select(store.getState());
    expect(first.edges.map((e) => e.id)).toEqual(['apps/replicasets|default/web->/pods|default/a']);

    // A status update: same structure, same graph object.
    store.getState().applyBatch('/pods', batch({ updated: { 'default/a': pod('a', { phase: 'Running' }) } }, '4'));
    expect(select(store.getState())).toBe(first);

    // The binding adds the "runs on" edge.
    store.getState().applyBatch(
      '/pods',
      batch(
        {
          updated: {
            'default/a': pod('a', { nodeName: 'node-1', phase: 'Running' }),
          },
        },
        '5',
      ),
    );
    const bound = select(store.getState());
    expect(bound.edges.map((e) => e.id)).toContain('/pods|default/a->/nodes|node-1');

    store.getState().applyBatch('/pods', batch({ added: { 'default/b': pod('b') } }, '6'));
    const added = select(store.getState());
    expect(added.nodes.map((n) => n.id)).toContain('/pods|default/b');

    store.getState().applyBatch('/pods', batch({ removed: { 'default/a': pod('a') } }, '7'));
    expect(select(store.getState()).nodes.map((n) => n.id)).not.toContain('/pods|default/a');
  });
});

describe('selectPodCountsOfOwner', () => {
  const owned = (name: string, owner: string, phase: string) => {
    const p = pod(name, { phase });
    return { ...p, metadata: { ...p.metadata, ownerReferences: [{ ...p.metadata.ownerReferences![0], uid: owner }] } } as KubeObject;
  };

  it('follows adds, state changes, re-owning and removals batch by batch as a full count would', () => {
    const store = createAppStore();
    store.getState().applyBatch('/pods', { ...batch({ added: { 'default/a': owned('a', 'rs-1', 'Pending'), 'default/b': owned('b', 'rs-1', 'Pending') } }, '1'), relist: true, initial: true });
    expect(selectPodCountsOfOwner(store.getState(), 'rs-1')).toBe('Pending=2');

    store.getState().applyBatch('/pods', batch({ updated: { 'default/a': owned('a', 'rs-1', 'Succeeded') }, added: { 'default/c': owned('c', 'rs-2', 'Pending') } }, '2'));
    expect(selectPodCountsOfOwner(store.getState(), 'rs-1')).toBe('Pending=1,Succeeded=1');
    expect(selectPodCountsOfOwner(store.getState(), 'rs-2')).toBe('Pending=1');

    // Two updates between two reads: the second map's touched keys are relative to the first, so it recounts.
    store.getState().applyBatch('/pods', batch({ updated: { 'default/b': owned('b', 'rs-2', 'Failed') } }, '3'));
    store.getState().applyBatch('/pods', batch({ removed: { 'default/a': owned('a', 'rs-1', 'Succeeded') } }, '4'));
    expect(selectPodCountsOfOwner(store.getState(), 'rs-1')).toBe('');
    expect(selectPodCountsOfOwner(store.getState(), 'rs-2')).toBe('Pending=1,Failed=1');

    store.getState().applyBatch('/pods', batch({ removed: { 'default/b': owned('b', 'rs-2', 'Failed') } }, '5'));
    expect(selectPodCountsOfOwner(store.getState(), 'rs-2')).toBe('Pending=1');
  });
});

describe('makeSelectObjectGraph without a rebuild', () => {
  const owner = (uid: string, name: string): KubeObject => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: 'default', uid } });
  const member = (name: string, spec: { nodeName?: string; configMap?: string; ownerUid?: string; app?: string } = {}): KubeObject =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'default',
        uid: `u-${name}`,
        labels: { app: spec.app ?? 'web' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: spec.ownerUid ?? 'rs-1', controller: true }],
      },
      spec: {
        containers: [{ name: 'c', image: 'i', ...(spec.configMap ? { envFrom: [{ configMapRef: { name: spec.configMap } }] } : {}) }],
        volumes: [{ name: 'kube-api-access', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }] } }],
        ...(spec.nodeName ? { nodeName: spec.nodeName } : {}),
      },
    }) as KubeObject;
  const named = (kind: string, name: string, namespace?: string, extra: object = {}): KubeObject => ({ apiVersion: 'v1', kind, metadata: { name, uid: `${kind}-${name}`, ...(namespace ? { namespace } : {}) }, ...extra }) as KubeObject;

  it('gives the graph a full rebuild would give after every kind of pod change', () => {
    const store = createAppStore();
    const apply = (key: string, diff: Partial<WatchBatch['diff']>) => store.getState().applyBatch(key, batch(diff, '1'));
    apply('apps/replicasets', { added: { 'default/rs': owner('rs-1', 'rs'), 'default/small': owner('rs-2', 'small') } });
    apply('/nodes', { added: { 'node-1': named('Node', 'node-1'), 'node-2': named('Node', 'node-2') } });
    apply('/configmaps', { added: { 'default/kube-root-ca.crt': named('ConfigMap', 'kube-root-ca.crt', 'default'), 'default/settings': named('ConfigMap', 'settings', 'default') } });
    const pods: Record<string, KubeObject> = {};
    for (let i = 0; i < 25; i++) pods[`default/p${i}`] = member(`p${i}`, { nodeName: 'node-1' });
    apply('/pods', { added: pods });
    const select = makeSelectObjectGraph('default', new Set());
    const check = () => {
      const got = select(store.getState());
      const fresh = makeSelectObjectGraph('default', new Set())(store.getState());
      expect(got.signature).toBe(fresh.signature);
      expect(got.nodes).toEqual(fresh.nodes);
      expect(got.edges).toEqual(fresh.edges);
      return got;
    };
    const grouped = check();
    expect(grouped.nodes.map((n) => n.id)).toContain('pods:apps/replicasets|default/rs');

    // Kept: a pending pod, a pod bound to a Node the group runs on already, a binding there.
    apply('/pods', { added: { 'default/q1': member('q1'), 'default/q2': member('q2', { nodeName: 'node-1' }) } });
    expect(check()).toBe(grouped);
    apply('/pods', { updated: { 'default/q1': member('q1', { nodeName: 'node-1' }) } });
    expect(check()).toBe(grouped);

    // Rebuilt: a binding to another Node, a pod reading a ConfigMap, a pod of an owner not grouped, a removal.
    apply('/pods', { added: { 'default/q3': member('q3') } });
    apply('/pods', { updated: { 'default/q3': member('q3', { nodeName: 'node-2' }) } });
    expect(check().edges.map((e) => e.id)).toContain('pods:apps/replicasets|default/rs->/nodes|node-2');
    apply('/pods', { added: { 'default/q4': member('q4', { configMap: 'settings' }) } });
    expect(check().edges.map((e) => e.id)).toContain('pods:apps/replicasets|default/rs->/configmaps|default/settings');
    apply('/pods', { added: { 'default/s1': member('s1', { ownerUid: 'rs-2' }) } });
    expect(check().nodes.map((n) => n.id)).toContain('/pods|default/s1');
    apply('/pods', { removed: { 'default/s1': member('s1', { ownerUid: 'rs-2' }) } });
    expect(check().nodes.map((n) => n.id)).not.toContain('/pods|default/s1');

    // A Service selecting the group: its edge is drawn once, and later pods it selects keep the graph.
    apply('/services', { added: { 'default/web': named('Service', 'web', 'default', { spec: { selector: { app: 'web' } } }) } });
    const withService = check();
    expect(withService.edges.map((e) => e.id)).toContain('/services|default/web->pods:apps/replicasets|default/rs');
    apply('/pods', { added: { 'default/q5': member('q5', { nodeName: 'node-2' }) } });
    expect(check()).toBe(withService);
    // Relabelled out of the Service's selection: rebuilt (the Service may lose its edge).
    apply('/pods', { updated: { 'default/q5': member('q5', { nodeName: 'node-2', app: 'other' }) } });
    check();
  });
});

describe('makeSelectObjectGraph with ConfigMaps added to a group', () => {
  const cm = (name: string, namespace = 'default', extra: object = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, uid: `cm-${namespace}-${name}`, ...extra } }) as KubeObject;
  const cms = (names: string[], namespace = 'default') => Object.fromEntries(names.map((n) => [`${namespace}/${n}`, cm(n, namespace)]));
  const range = (from: number, to: number, prefix = 'm') => Array.from({ length: to - from }, (_, i) => `${prefix}${String(from + i).padStart(3, '0')}`);

  it('patches the group count as a rebuild would count it, and rebuilds when the group would change otherwise', () => {
    const store = createAppStore();
    const apply = (key: string, diff: Partial<WatchBatch['diff']>) => store.getState().applyBatch(key, batch(diff, '1'));
    apply('/configmaps', { added: cms(range(100, 130)) });
    const select = makeSelectObjectGraph('default', new Set());
    const check = () => {
      const got = select(store.getState());
      const fresh = makeSelectObjectGraph('default', new Set())(store.getState());
      expect(got.signature).toBe(fresh.signature);
      expect(got.nodes).toEqual(fresh.nodes);
      expect(got.edges).toEqual(fresh.edges);
      return got;
    };
    const built = check();
    expect(built.nodes.find((n) => n.id === 'objects:ConfigMap:default')?.count).toBe(30);
    // Later names, another namespace, the root CA: patched (the build's group index carried over, not rebuilt).
    apply('/configmaps', { added: { ...cms(range(130, 200)), ...cms(['x1'], 'other'), 'default/kube-root-ca.crt': cm('kube-root-ca.crt') } });
    const patched = check();
    expect(patched.nodes.find((n) => n.id === 'objects:ConfigMap:default')?.count).toBe(100);
    expect(patched.leafGroupFirst).toBe(built.leafGroupFirst);
    // A name that sorts first (the group moves to its place), one a pod uses, one with an owner: rebuilt.
    apply('/configmaps', { added: cms(['a000']) });
    expect(check().nodes.find((n) => n.id === 'objects:ConfigMap:default')?.count).toBe(101);
    apply('/pods', { added: { 'default/p': { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'p' }, spec: { volumes: [{ name: 'v', configMap: { name: 'z-used' } }] } } as KubeObject } });
    check();
    apply('/configmaps', { added: cms(['z-used']) });
    expect(check().nodes.map((n) => n.id)).toContain('/configmaps|default/z-used');
    apply('/configmaps', { added: { 'default/z-owned': cm('z-owned', 'default', { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'p' }] }) } });
    expect(check().nodes.map((n) => n.id)).toContain('/configmaps|default/z-owned');
    // Removals rebuild.
    apply('/configmaps', { removed: cms(range(100, 180)) });
    check();
  });
});
