import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { WatchBatch } from '../../shared/protocol/messages';
import { createObjectHistory } from './object-history';

const cm = (name: string, rv: number, value: string, uid = `uid-${name}`) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', uid, resourceVersion: String(rv) }, data: { value } }) as KubeObject;
const batch = (diff: Partial<WatchBatch['diff']>, extra: Partial<WatchBatch> = {}): WatchBatch => ({ diff: { added: {}, updated: {}, removed: {}, ...diff }, resourceVersion: '0', ...extra });

describe('object history', () => {
  it('keeps the version before an update (from the store) and the updates after it, oldest first', () => {
    const history = createObjectHistory();
    const before = new Map([['default/a', cm('a', 1, 'one')]]);
    history.record('/configmaps', batch({ updated: { 'default/a': cm('a', 2, 'two') } }), before);
    history.record('/configmaps', batch({ updated: { 'default/a': cm('a', 3, 'three') } }), new Map([['default/a', cm('a', 2, 'two')]]));
    expect(history.versions('/configmaps', 'default/a').map((o) => o.metadata.resourceVersion)).toEqual(['1', '2', '3']);
    expect(history.versions('/configmaps', 'default/b')).toEqual([]);
  });

  it('ignores initial lists and relists, forgets a removed object, and stays bounded', () => {
    const history = createObjectHistory(2, 3);
    history.record('/configmaps', batch({ updated: { 'default/a': cm('a', 2, 'x') } }, { initial: true }), undefined);
    history.record('/configmaps', batch({ updated: { 'default/a': cm('a', 2, 'x') } }, { relist: true }), undefined);
    expect(history.versions('/configmaps', 'default/a')).toEqual([]);
    for (let rv = 1; rv <= 5; rv++) history.record('/configmaps', batch({ updated: { 'default/a': cm('a', rv, String(rv)) } }), undefined);
    expect(history.versions('/configmaps', 'default/a').map((o) => o.metadata.resourceVersion)).toEqual(['4', '5']);
    history.record('/configmaps', batch({ removed: { 'default/a': cm('a', 6, '5') } }), undefined);
    expect(history.versions('/configmaps', 'default/a')).toEqual([]);
    for (const name of ['b', 'c', 'd', 'e']) history.record('/configmaps', batch({ updated: { [`default/${name}`]: cm(name, 9, name) } }), undefined);
    expect(history.versions('/configmaps', 'default/b')).toEqual([]);
    expect(history.versions('/configmaps', 'default/e')).toHaveLength(1);
  });

  it('starts afresh for another incarnation of the same name (a recreate, or a reset that restarted revisions)', () => {
    const history = createObjectHistory();
    history.record('/configmaps', batch({ updated: { 'default/a': cm('a', 20, 'old') } }), new Map([['default/a', cm('a', 10, 'older')]]));
    history.record('/configmaps', batch({ updated: { 'default/a': cm('a', 5, 'new', 'uid-2') } }), new Map([['default/a', cm('a', 4, 'first', 'uid-2')]]));
    expect(history.versions('/configmaps', 'default/a').map((o) => o.metadata.resourceVersion)).toEqual(['4', '5']);
    history.record('/configmaps', batch({ updated: { 'default/a': cm('a', 9, 'third', 'uid-3') } }), new Map([['default/a', cm('a', 5, 'new', 'uid-2')]]));
    expect(history.versions('/configmaps', 'default/a').map((o) => o.metadata.resourceVersion)).toEqual(['9']);
  });
});
