import { describe, expect, it } from 'vitest';
import type { KeyValue } from '../../store/types';
import { fromStored, storedView } from './object-codec';

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
