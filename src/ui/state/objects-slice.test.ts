import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { WatchBatch } from '../../shared/protocol/messages';
import { selectObjectRows } from './selectors';
import { createAppStore } from './store';

function cm(name: string, rv: number, uid = `uid-${name}`): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid, resourceVersion: String(rv), creationTimestamp: '2026-01-01T00:00:00Z' } };
}
const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid: `ns-${name}`, resourceVersion: '1' } });

function batch(partial: Partial<WatchBatch['diff']>, rv: string, relist = false): WatchBatch {
  const b: WatchBatch = { diff: { added: {}, updated: {}, removed: {}, ...partial }, resourceVersion: rv };
  if (relist) b.relist = true;
  return b;
}

describe('objects slice: applyBatch', () => {
  it('applies deltas per resource and keeps the reached resourceVersion', () => {
    const store = createAppStore();
    const { applyBatch } = store.getState();
    applyBatch('/configmaps', batch({ added: { 'default/a': cm('a', 2), 'default/b': cm('b', 3) } }, '3', true));
    applyBatch('/namespaces', batch({ added: { default: ns('default') } }, '1', true));
    applyBatch('/configmaps', batch({ updated: { 'default/a': cm('a', 4) }, removed: { 'default/b': cm('b', 5) } }, '5'));
    const state = store.getState();
    expect([...state.resources['/configmaps'].objects.keys()]).toEqual(['default/a']);
    expect(state.resources['/configmaps'].objects.get('default/a')?.metadata.resourceVersion).toBe('4');
    expect(state.resources['/configmaps'].resourceVersion).toBe('5');
    expect(state.resources['/namespaces'].objects.size).toBe(1);
  });

  it('replaces a resource wholesale on relist', () => {
    const store = createAppStore();
    store.getState().applyBatch('/configmaps', batch({ added: { 'default/a': cm('a', 2) } }, '2', true));
    store.getState().applyBatch('/configmaps', batch({ added: { 'default/c': cm('c', 9) } }, '9', true));
    expect([...store.getState().resources['/configmaps'].objects.keys()]).toEqual(['default/c']);
  });

  it('gives sorted rows and memoises them until a batch arrives', () => {
    const store = createAppStore();
    store.getState().applyBatch('/configmaps', batch({ added: { 'default/b': cm('b', 3), 'default/a': cm('a', 2) } }, '3', true));
    store.getState().applyBatch('/namespaces', batch({ added: { default: ns('default') } }, '1', true));
    const rows = selectObjectRows(store.getState());
    expect(rows.map((r) => `${r.kind}/${r.name}`)).toEqual(['ConfigMap/a', 'ConfigMap/b', 'Namespace/default']);
    expect(rows[0]).toMatchObject({ namespace: 'default', uid: 'uid-a', resourceVersion: '2', resourceKey: '/configmaps' });
    store.getState().setSim({ time: 1, paused: false, speed: 1, realtime: true });
    expect(selectObjectRows(store.getState())).toBe(rows);
    store.getState().applyBatch('/configmaps', batch({ removed: { 'default/a': cm('a', 4) } }, '4'));
    expect(selectObjectRows(store.getState()).map((r) => r.name)).toEqual(['b', 'default']);
  });
});
