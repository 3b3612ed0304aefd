import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { WatchBatch } from '../../../shared/protocol/messages';
import { selectObjectRows } from '../../state/selectors';
import { createAppStore } from '../../state/store';
import { objectLabel } from './ObjectsTable';

const cm = (name: string, rv: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid: `u-${name}`, resourceVersion: rv } });
const batch = (diff: Partial<WatchBatch['diff']>, rv: string): WatchBatch => ({ diff: { added: {}, updated: {}, removed: {}, ...diff }, resourceVersion: rv });

describe('the objects table rows', () => {
  it('keep their identity for unchanged objects across batches, so only changed rows re-render', () => {
    const store = createAppStore();
    store.getState().applyBatch('/configmaps', batch({ added: { 'default/a': cm('a', '1'), 'default/b': cm('b', '2') } }, '2'));
    const first = selectObjectRows(store.getState());
    // A batch of another resource (Events, Leases arrive all the time) and an update of b only.
    store.getState().applyBatch('/events', batch({}, '3'));
    store.getState().applyBatch('/configmaps', batch({ updated: { 'default/b': cm('b', '4') } }, '4'));
    const second = selectObjectRows(store.getState());
    expect(second).not.toBe(first);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1].resourceVersion).toBe('4');
    expect(objectLabel(second[0])).toBe('configmap/a in default');
  });
});
