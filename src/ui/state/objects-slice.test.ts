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

describe('objects slice: applyBatches', () => {
  it('applies several batches in order as one store update, giving each its objects just before it', () => {
    const store = createAppStore();
    store.getState().applyBatch('/configmaps', batch({ added: { 'default/a': cm('a', 2) } }, '2', true));
    const untouched = store.getState().resources['/configmaps'];
    let updates = 0;
    store.subscribe(() => updates++);
    const seen: string[] = [];
    store.getState().applyBatches(
      [
        { resourceKey: '/namespaces', batch: batch({ added: { default: ns('default') } }, '3', true) },
        { resourceKey: '/configmaps', batch: batch({ updated: { 'default/a': cm('a', 4) }, added: { 'default/b': cm('b', 4) } }, '4') },
        { resourceKey: '/configmaps', batch: batch({ removed: { 'default/b': cm('b', 5) } }, '5') },
      ],
      (item, before) => seen.push(`${item.resourceKey}@${item.batch.resourceVersion}: ${[...(before?.values() ?? [])].map((o) => `${o.metadata.name}${o.metadata.resourceVersion}`).join(',')}`),
    );
    expect(updates).toBe(1);
    expect(seen).toEqual(['/namespaces@3: ', '/configmaps@4: a2', '/configmaps@5: a4,b4']);
    const state = store.getState();
    expect([...state.resources['/configmaps'].objects.keys()]).toEqual(['default/a']);
    expect(state.resources['/configmaps'].objects.get('default/a')?.metadata.resourceVersion).toBe('4');
    expect(state.resources['/configmaps'].resourceVersion).toBe('5');
    // The published map of before was not written in place.
    expect(untouched.objects.get('default/a')?.metadata.resourceVersion).toBe('2');
    expect(untouched.objects.size).toBe(1);
  });

  it('a relist in the middle drops what came before it', () => {
    const store = createAppStore();
    store.getState().applyBatches([
      { resourceKey: '/configmaps', batch: batch({ added: { 'default/a': cm('a', 2) } }, '2', true) },
      { resourceKey: '/configmaps', batch: batch({ added: { 'default/b': cm('b', 3) } }, '3') },
      { resourceKey: '/configmaps', batch: batch({ added: { 'default/c': cm('c', 9) } }, '9', true) },
      { resourceKey: '/configmaps', batch: batch({ updated: { 'default/c': cm('c', 10) } }, '10') },
    ]);
    const view = store.getState().resources['/configmaps'];
    expect([...view.objects.keys()]).toEqual(['default/c']);
    expect(view.resourceVersion).toBe('10');
  });
});

describe('selectObjectRows across batches', () => {
  it('stays sorted like a full sort and keeps an unchanged resource out of the work', () => {
    const store = createAppStore();
    const { applyBatch } = store.getState();
    applyBatch('/namespaces', batch({ added: { default: ns('default'), zeta: ns('zeta') } }, '1', true));
    applyBatch('/configmaps', batch({ added: { 'default/m': cm('m', 2), 'default/c': cm('c', 3) } }, '3', true));
    applyBatch('/secrets', batch({ added: { 'default/s': { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default', uid: 's1', resourceVersion: '4' } } } }, '4', true));
    const first = selectObjectRows(store.getState());
    expect(first.map((r) => `${r.kind}/${r.name}`)).toEqual(['ConfigMap/c', 'ConfigMap/m', 'Namespace/default', 'Namespace/zeta', 'Secret/s']);
    applyBatch('/configmaps', batch({ added: { 'default/a': cm('a', 5) }, removed: { 'default/m': cm('m', 5) }, updated: { 'default/c': cm('c', 5) } }, '5'));
    const second = selectObjectRows(store.getState());
    expect(second.map((r) => `${r.kind}/${r.name}@${r.resourceVersion}`)).toEqual(['ConfigMap/a@5', 'ConfigMap/c@5', 'Namespace/default@1', 'Namespace/zeta@1', 'Secret/s@4']);
    // Rows of objects that did not change keep their identity.
    expect(second[2]).toBe(first[2]);
    expect(second[4]).toBe(first[4]);
    // A resource that disappears takes its rows with it.
    store.setState({ resources: { '/namespaces': store.getState().resources['/namespaces'] } });
    expect(selectObjectRows(store.getState()).map((r) => r.name)).toEqual(['default', 'zeta']);
  });
});
