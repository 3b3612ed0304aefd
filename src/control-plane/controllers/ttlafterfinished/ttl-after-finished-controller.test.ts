import type { Job } from 'kubernetes-types/batch/v1';
import { describe, expect, it } from 'vitest';
import { jobFinishTime, needsCleanup, timeLeft } from './ttl-after-finished-controller';

const job = (ttl: number | undefined, conditions: { type: string; status: string; lastTransitionTime?: string }[]): Job => ({
  metadata: { name: 'pi', namespace: 'default' },
  spec: { ttlSecondsAfterFinished: ttl, template: {} },
  status: { conditions },
});

describe('TTL after finished', () => {
  it('cleans up only finished Jobs with a TTL', () => {
    expect(needsCleanup(job(100, [{ type: 'Complete', status: 'True', lastTransitionTime: '2026-01-01T12:00:00Z' }]))).toBe(true);
    expect(needsCleanup(job(100, [{ type: 'Failed', status: 'True', lastTransitionTime: '2026-01-01T12:00:00Z' }]))).toBe(true);
    expect(needsCleanup(job(undefined, [{ type: 'Complete', status: 'True' }]))).toBe(false);
    // SuccessCriteriaMet / FailureTarget alone are not finished yet.
    expect(needsCleanup(job(0, [{ type: 'SuccessCriteriaMet', status: 'True' }]))).toBe(false);
    expect(needsCleanup(job(0, [{ type: 'FailureTarget', status: 'True' }]))).toBe(false);
  });

  it('counts the TTL from the finished condition', () => {
    const j = job(100, [
      { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: '2026-01-01T11:59:59Z' },
      { type: 'Complete', status: 'True', lastTransitionTime: '2026-01-01T12:00:00Z' },
    ]);
    expect(jobFinishTime(j)).toBe(Date.parse('2026-01-01T12:00:00Z'));
    expect(timeLeft(j, Date.parse('2026-01-01T12:01:00Z'))).toBe(40_000);
    expect(timeLeft(j, Date.parse('2026-01-01T12:01:40Z'))).toBe(0);
    expect(() => jobFinishTime(job(100, [{ type: 'Complete', status: 'True' }]))).toThrow('unable to find the time when the Job default/pi finished');
  });
});
