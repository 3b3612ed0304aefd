import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson, shareWith } from './same-json';

describe('sameJson', () => {
  it('agrees with comparing JSON.stringify texts', () => {
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 2 }), fc.constantFrom(0, -0, NaN, Infinity), fc.constantFrom('a', 'b', '')),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', '1'), tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
        expect(sameJson(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('counts key order and skips undefined members as JSON does', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson({ a: [1, { c: 'x' }] }, { a: [1, { c: 'y' }] })).toBe(false);
  });

  it('shareWith keeps the JSON text of ours and reuses the equal parts of theirs', () => {
    const theirs = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', at: 't1' }], hostIPs: [{ ip: '10.0.0.1' }] };
    const ours = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, at: 't1' }], hostIPs: [{ ip: '10.0.0.1' }] };
    const shared = shareWith(ours, theirs);
    expect(JSON.stringify(shared)).toBe(JSON.stringify(ours));
    expect(shared.hostIPs).toBe(theirs.hostIPs);
    expect(shared.conditions).not.toBe(theirs.conditions);
    expect(shareWith(theirs, structuredClone(theirs))).not.toBe(theirs);
    expect(JSON.stringify(shareWith(ours, { phase: 'Pending' }))).toBe(JSON.stringify(ours));
  });
});
