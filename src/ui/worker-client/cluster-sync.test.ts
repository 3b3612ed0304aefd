// The batch applier: batches of every subscription that arrive between two frames reach the store together, in
// arrival order, on the frame; the object history sees each with the objects as they were just before it.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { WatchBatch } from '../../shared/protocol/messages';
import { createObjectHistory } from '../state/object-history';
import { createAppStore } from '../state/store';
import { createBatchApplier } from './cluster-sync';

const cm = (name: string, rv: number, uid = `uid-${name}`): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid, resourceVersion: String(rv) } });
const batch = (diff: Partial<WatchBatch['diff']>, rv: string, relist = false): WatchBatch => ({ diff: { added: {}, updated: {}, removed: {}, ...diff }, resourceVersion: rv, ...(relist ? { relist: true as const } : {}) });

describe('createBatchApplier', () => {
  it('applies everything that arrived before a frame in one store update, on that frame', () => {
    const store = createAppStore();
    const frames: (() => void)[] = [];
    const history = createObjectHistory();
    const applier = createBatchApplier(store, (fn) => frames.push(fn), history);
    let updates = 0;
    store.subscribe(() => updates++);
    applier.push('/configmaps', batch({ added: { 'default/a': cm('a', 1) } }, '1', true));
    applier.push('/namespaces', batch({ added: { default: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', resourceVersion: '1' } } } }, '1', true));
    expect(store.getState().resources).toEqual({});
    expect(frames).toHaveLength(1); // one frame asked for, however many batches
    frames.shift()!();
    expect(updates).toBe(1);
    expect(store.getState().resources['/configmaps'].objects.get('default/a')?.metadata.resourceVersion).toBe('1');
    expect(store.getState().resources['/namespaces'].objects.size).toBe(1);

    // Two updates of one object before the next frame: the history keeps both versions, in order.
    applier.push('/configmaps', batch({ updated: { 'default/a': cm('a', 2) } }, '2'));
    applier.push('/configmaps', batch({ updated: { 'default/a': cm('a', 3) } }, '3'));
    frames.shift()!();
    expect(updates).toBe(2);
    expect(history.versions('/configmaps', 'default/a').map((o) => o.metadata.resourceVersion)).toEqual(['1', '2', '3']);
    expect(store.getState().resources['/configmaps'].resourceVersion).toBe('3');
    // Nothing queued: a frame does nothing.
    applier.flush();
    expect(updates).toBe(2);
  });
});
