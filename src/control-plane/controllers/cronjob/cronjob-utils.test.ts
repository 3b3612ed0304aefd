import type { CronJob } from 'kubernetes-types/batch/v1';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { parseStandard } from './cron-schedule';
import { getJobFromTemplate, getJobName, MissedSchedules, mostRecentScheduleTime, nextScheduleTimeDuration } from './cronjob-utils';

const at = (s: string) => Date.parse(s);

function cronJob(spec: Partial<NonNullable<CronJob['spec']>> = {}, status: CronJob['status'] = {}): CronJob & KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'hello', namespace: 'default', uid: 'cj-uid', creationTimestamp: '2026-01-01T12:00:30Z' },
    spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { containers: [] } } } }, ...spec },
    status,
  };
}

describe('mostRecentScheduleTime', () => {
  const every = parseStandard('*/1 * * * *');

  it('has nothing before the first activation after creation', () => {
    const r = mostRecentScheduleTime(cronJob(), at('2026-01-01T12:00:50Z'), every, true);
    expect(r).toEqual({ earliest: at('2026-01-01T12:00:30Z'), missed: MissedSchedules.None });
  });

  it('returns the one unmet activation', () => {
    const r = mostRecentScheduleTime(cronJob(), at('2026-01-01T12:01:00.100Z'), every, true);
    expect(r.mostRecent).toBe(at('2026-01-01T12:01:00Z'));
    expect(r.missed).toBe(MissedSchedules.None);
  });

  it('returns only the latest of several missed activations', () => {
    const r = mostRecentScheduleTime(cronJob({}, { lastScheduleTime: '2026-01-01T12:03:00Z' }), at('2026-01-01T12:05:30Z'), every, true);
    expect(r.mostRecent).toBe(at('2026-01-01T12:05:00Z'));
    expect(r.missed).toBe(MissedSchedules.Few);
  });

  it('counts more than 100 missed as many (the TooManyMissedTimes event)', () => {
    const r = mostRecentScheduleTime(cronJob(), at('2026-01-01T15:00:10Z'), every, true);
    expect(r.missed).toBe(MissedSchedules.Many);
    expect(r.mostRecent).toBe(at('2026-01-01T15:00:00Z'));
  });

  it('ignores activations older than startingDeadlineSeconds', () => {
    const cj = cronJob({ startingDeadlineSeconds: 200 });
    const r = mostRecentScheduleTime(cj, at('2026-01-01T15:00:10Z'), every, true);
    expect(r.missed).toBe(MissedSchedules.Few);
    expect(r.mostRecent).toBe(at('2026-01-01T15:00:00Z'));
  });

  it('reports a schedule that never fires as an error', () => {
    const r = mostRecentScheduleTime(cronJob({ schedule: '0 0 31 2 *' }), at('2026-03-01T00:00:00Z'), parseStandard('0 0 31 2 *'), true);
    expect(r.error).toBe('time difference between two schedules is less than 1 second');
    expect(r.mostRecent).toBeUndefined();
  });
});

describe('nextScheduleTimeDuration', () => {
  it('is the time to the next activation plus 100 ms', () => {
    const d = nextScheduleTimeDuration(cronJob(), at('2026-01-01T12:00:40Z'), parseStandard('*/1 * * * *'));
    expect(d).toBe(20_100);
  });
  it('counts from now when activations were missed', () => {
    const d = nextScheduleTimeDuration(cronJob({}, { lastScheduleTime: '2026-01-01T12:01:00Z' }), at('2026-01-01T12:03:40Z'), parseStandard('*/1 * * * *'));
    expect(d).toBe(20_100);
  });
});

describe('getJobFromTemplate', () => {
  it('names the Job by the scheduled minute and records the scheduled time', () => {
    const cj = cronJob({ timeZone: 'Europe/Berlin', jobTemplate: { metadata: { labels: { app: 'hello' }, annotations: { a: 'b' } }, spec: { template: { spec: { containers: [] } } } } });
    const t = at('2026-01-01T12:01:00Z');
    const job = getJobFromTemplate(cj, t);
    expect(getJobName(cj, t)).toBe(`hello-${t / 60_000}`);
    expect(job.metadata).toEqual({
      name: `hello-${t / 60_000}`,
      namespace: 'default',
      labels: { app: 'hello' },
      annotations: { a: 'b', 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-01T13:01:00+01:00' },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: 'cj-uid', controller: true, blockOwnerDeletion: true }],
    });
    expect(job.spec).toEqual({ template: { spec: { containers: [] } } });
  });
});
