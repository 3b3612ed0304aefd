import { describe, expect, it } from 'vitest';
import { ManagedFieldsInterner, fieldsV1Equal } from './managed-fields-intern';

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

  it('compares documents by their members', () => {
    expect(fieldsV1Equal({ 'f:a': {}, 'f:b': { '.': {} } }, { 'f:a': {}, 'f:b': { '.': {} } })).toBe(true);
    expect(fieldsV1Equal({ 'f:a': {} }, { 'f:a': {}, 'f:b': {} })).toBe(false);
    expect(fieldsV1Equal({ 'f:a': {}, 'f:b': {} }, { 'f:a': {} })).toBe(false);
    expect(fieldsV1Equal({ 'f:a': { 'f:x': {} } }, { 'f:a': {} })).toBe(false);
  });
});
