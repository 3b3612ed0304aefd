import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { WatchBatch } from '../../../shared/protocol/messages';
import { createAppStore } from '../../state/store';
import { makeSelectObjectGraph } from './graph-selectors';

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
