import { describe, expect, it } from 'vitest';
import { shareOwnWith, shareWith } from './same-json';

describe('shareWith', () => {
  it('keeps the JSON text of ours and reuses the equal parts of theirs', () => {
    const theirs = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', at: 't1' }], hostIPs: [{ ip: '10.0.0.1' }] };
    const ours = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, at: 't1' }], hostIPs: [{ ip: '10.0.0.1' }] };
    const shared = shareWith(ours, theirs);
    expect(JSON.stringify(shared)).toBe(JSON.stringify(ours));
    expect(shared.hostIPs).toBe(theirs.hostIPs);
    expect(shared.conditions).not.toBe(theirs.conditions);
    expect(shareWith(theirs, structuredClone(theirs))).not.toBe(theirs);
    expect(JSON.stringify(shareWith(ours, { phase: 'Pending' }))).toBe(JSON.stringify(ours));
  });

  it('returns the parts of ours it adopted nothing into as they are, not copies', () => {
    const condition = Object.freeze({ type: 'Ready', status: 'True', lastProbeTime: null, at: 't1' });
    const ours = { phase: 'Running', conditions: [condition] };
    // Their condition has no lastProbeTime: nothing of it can be adopted, and the phase string is the same one.
    const shared = shareWith(ours, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', at: 't1' }] });
    expect(shared).toBe(ours);
    const partly = shareWith(ours, { phase: 'Pending', conditions: [{ ...condition }] });
    expect(partly).not.toBe(ours);
    expect(partly.conditions[0]).not.toBe(condition);
    expect(JSON.stringify(partly)).toBe(JSON.stringify(ours));
  });

  it('shares into an object of its own in place, keeping its members and their order', () => {
    const theirs = Object.freeze({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], hostIPs: Object.freeze([{ ip: '10.0.0.1' }]), qosClass: 'BestEffort' });
    const ours = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }], hostIPs: [{ ip: '10.0.0.1' }], qosClass: 'BestEffort', podIP: '10.1.0.5' };
    const text = JSON.stringify(ours);
    const conditions = ours.conditions;
    expect(shareOwnWith(ours, theirs)).toBe(ours);
    expect(JSON.stringify(ours)).toBe(text);
    expect(ours.hostIPs).toBe(theirs.hostIPs);
    expect(ours.conditions).toBe(conditions);
    // Equal as a whole, or frozen: as shareWith (theirs, or a copy).
    expect(shareOwnWith({ ...theirs }, theirs)).toBe(theirs);
    const frozen = Object.freeze({ ...ours, hostIPs: [{ ip: '10.0.0.1' }] });
    const shared = shareOwnWith(frozen, theirs);
    expect(shared).not.toBe(frozen);
    expect(shared.hostIPs).toBe(theirs.hostIPs);
  });
});
