import { describe, expect, it } from 'vitest';
import { ManagedFieldsInterner, fieldsV1Equal, fieldsV1Signature } from './managed-fields-intern';

describe('ManagedFieldsInterner', () => {
  const status = (ip: string) => ({ 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {} } }, 'f:podIPs': { [`k:{"ip":"${ip}"}`]: { '.': {}, 'f:ip': {} } } } });

  it('hands back an equal recent document, frozen, and shares the equal subtrees of a new one', () => {
    const interner = new ManagedFieldsInterner();
    const first = interner.document('kubelet', status('10.0.0.1'));
    expect(Object.isFrozen(first)).toBe(true);
    expect(interner.document('kubelet', status('10.0.0.1'))).toBe(first);
    const second = interner.document('kubelet', status('10.0.0.2'));
    expect(second).not.toBe(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(status('10.0.0.2')));
    const s1 = first['f:status'] as Record<string, unknown>;
    const s2 = second['f:status'] as Record<string, unknown>;
    expect(s2['f:conditions']).toBe(s1['f:conditions']);
    expect(s2['f:podIPs']).not.toBe(s1['f:podIPs']);
    // Another manager never gets this one's documents.
    expect(interner.document('other', status('10.0.0.1'))).not.toBe(first);
  });

  it('finds a writer’s document among its own recent ones, then among its manager’s', () => {
    const interner = new ManagedFieldsInterner();
    const lease = { 'f:spec': { 'f:renewTime': {} } };
    const a = interner.document('kubelet\nnode-a', lease, 'kubelet');
    // Another writer of the same manager shares a document every writer makes alike…
    expect(interner.document('kubelet\nnode-b', { 'f:spec': { 'f:renewTime': {} } }, 'kubelet')).toBe(a);
    // …and keeps its own recent ones: after nine other documents of node-a, node-b's is still found.
    for (let i = 0; i < 9; i++) interner.document('kubelet\nnode-a', status(`10.0.1.${i}`), 'kubelet');
    const b = interner.document('kubelet\nnode-b', status('10.0.2.1'), 'kubelet');
    for (let i = 0; i < 9; i++) interner.document('kubelet\nnode-a', status(`10.0.3.${i}`), 'kubelet');
    expect(interner.document('kubelet\nnode-b', status('10.0.2.1'), 'kubelet')).toBe(b);
    expect(interner.find('kubelet\nnode-c', (d) => d === a, 'kubelet')).toBeUndefined();
  });

  it('gives a list of one interned entry the one frozen list of that entry', () => {
    const interner = new ManagedFieldsInterner();
    const fieldsV1 = interner.document('recorder', { 'f:count': {}, 'f:message': {} });
    const entry = () => ({ manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1' as const, fieldsV1 });
    const e = interner.entry('recorder', entry());
    const list = interner.list([e]);
    expect(Object.isFrozen(list)).toBe(true);
    expect(list).toEqual([entry()]);
    expect(interner.list([interner.entry('recorder', entry())])).toBe(list);
    // Lists of several entries, or of an entry not interned, stay the caller's.
    const two = [e, e];
    expect(interner.list(two)).toBe(two);
    const loose = [entry()];
    expect(interner.list(loose)).toBe(loose);
  });

  it('compares documents by their members', () => {
    expect(fieldsV1Equal({ 'f:a': {}, 'f:b': { '.': {} } }, { 'f:a': {}, 'f:b': { '.': {} } })).toBe(true);
    expect(fieldsV1Equal({ 'f:a': {} }, { 'f:a': {}, 'f:b': {} })).toBe(false);
    expect(fieldsV1Equal({ 'f:a': {}, 'f:b': {} }, { 'f:a': {} })).toBe(false);
    expect(fieldsV1Equal({ 'f:a': { 'f:x': {} } }, { 'f:a': {} })).toBe(false);
  });

  it('signs equal documents alike, whatever their key order, and tells these apart', () => {
    const a = { 'f:a': {}, 'f:b': { '.': {}, 'k:{"ip":"10.0.0.1"}': {} } };
    const reordered = { 'f:b': { 'k:{"ip":"10.0.0.1"}': {}, '.': {} }, 'f:a': {} };
    expect(fieldsV1Signature(a)).toBe(fieldsV1Signature(reordered));
    expect(fieldsV1Signature(Object.freeze(a))).toBe(fieldsV1Signature(reordered));
    const others = [
      { 'f:a': {}, 'f:b': { '.': {}, 'k:{"ip":"10.0.0.2"}': {} } },
      { 'f:a': {}, 'f:b': { '.': {} } },
      { 'f:a': { '.': {} }, 'f:b': { 'k:{"ip":"10.0.0.1"}': {} } },
      { 'f:a': {}, 'f:b': {}, '.': {}, 'k:{"ip":"10.0.0.1"}': {} },
      {},
    ];
    for (const o of others) expect(fieldsV1Signature(o)).not.toBe(fieldsV1Signature(a));
  });

  it('hands back an equal document written with its keys in another order', () => {
    const interner = new ManagedFieldsInterner();
    const first = interner.document('m', { 'f:a': {}, 'f:b': { 'f:c': {} } });
    expect(interner.document('m', { 'f:b': { 'f:c': {} }, 'f:a': {} })).toBe(first);
  });
});
