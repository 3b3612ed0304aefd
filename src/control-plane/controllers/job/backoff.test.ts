import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { BackoffStore, getFinishedTime, getRemainingTime, getRemainingTimeForFailuresCount } from './backoff';

const at = (s: string) => Date.parse(s);
const finished = (name: string, time: string, phase = 'Failed'): Pod => ({
  metadata: { name, creationTimestamp: '2026-01-01T00:00:00Z' },
  status: { phase, containerStatuses: [{ name: 'c', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, finishedAt: time } } }] },
});

describe('pod failure back-off', () => {
  it('waits 10 s doubling per consecutive failure, capped at 10 minutes', () => {
    const last = at('2026-01-01T12:00:00Z');
    expect(getRemainingTimeForFailuresCount(last, 10_000, 600_000, 1, last)).toBe(10_000);
    expect(getRemainingTimeForFailuresCount(last, 10_000, 600_000, 2, last)).toBe(20_000);
    expect(getRemainingTimeForFailuresCount(last, 10_000, 600_000, 3, last)).toBe(40_000);
    expect(getRemainingTimeForFailuresCount(last, 10_000, 600_000, 7, last)).toBe(600_000);
    expect(getRemainingTimeForFailuresCount(last + 15_000, 10_000, 600_000, 2, last)).toBe(5_000);
    expect(getRemainingTimeForFailuresCount(last + 25_000, 10_000, 600_000, 2, last)).toBe(0);
    expect(getRemainingTimeForFailuresCount(last, 10_000, 600_000, 0, undefined)).toBe(0);
  });

  it('counts failures after the last success and restarts at a success', () => {
    const store = new BackoffStore();
    let r = store.newBackoffRecord('default/j', [], [finished('a', '2026-01-01T12:00:00Z'), finished('b', '2026-01-01T12:00:05Z')]);
    expect(r).toEqual({ key: 'default/j', failuresAfterLastSuccess: 2, lastFailureTime: at('2026-01-01T12:00:05Z') });
    store.updateBackoffRecord(r);
    expect(getRemainingTime(r, at('2026-01-01T12:00:10Z'))).toBe(15_000);
    // A success, then one more failure after it.
    r = store.newBackoffRecord('default/j', [finished('s', '2026-01-01T12:01:00Z', 'Succeeded')], [finished('c', '2026-01-01T12:00:30Z'), finished('d', '2026-01-01T12:01:10Z')]);
    expect(r).toEqual({ key: 'default/j', failuresAfterLastSuccess: 1, lastFailureTime: at('2026-01-01T12:01:10Z') });
  });

  it('dates a failure by its containers, else Ready=False, else deletion, else creation', () => {
    expect(getFinishedTime(finished('a', '2026-01-01T12:00:00Z'))).toBe(at('2026-01-01T12:00:00Z'));
    const notReady: Pod = { metadata: { creationTimestamp: '2026-01-01T00:00:00Z' }, status: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T11:00:00Z' }] } };
    expect(getFinishedTime(notReady)).toBe(at('2026-01-01T11:00:00Z'));
    const deleted: Pod = { metadata: { creationTimestamp: '2026-01-01T00:00:00Z', deletionTimestamp: '2026-01-01T10:00:30Z', deletionGracePeriodSeconds: 30 } };
    expect(getFinishedTime(deleted)).toBe(at('2026-01-01T10:00:00Z'));
    expect(getFinishedTime({ metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } })).toBe(at('2026-01-01T00:00:00Z'));
  });
});
