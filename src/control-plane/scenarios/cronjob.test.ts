// Scenario: the docs' hello CronJob and its variations on a default 3-node cluster, on virtual time. The
// cronjob controller requeues itself for each schedule time on the virtual clock, so a "*/1 * * * *" CronJob
// creates a Job every simulated minute, named "<cronjob>-<minutes since the epoch>"; the job controller runs it,
// the history limits prune old Jobs and the garbage collector their pods.
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, eventsFor } from './harness';

function helloCronJob(name: string, extraSpec = '', command = 'date; echo Hello from the Kubernetes cluster', schedule = '*/1 * * * *'): string {
  return `
apiVersion: batch/v1
kind: CronJob
metadata:
  name: ${name}
spec:
  schedule: "${schedule}"
${extraSpec}
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: hello
            image: busybox:1.28
            imagePullPolicy: IfNotPresent
            command:
            - /bin/sh
            - -c
            - ${command}
          restartPolicy: OnFailure
`;
}

const minute = 60_000;

describe('scenario: CronJobs', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
  });
  afterEach(() => tc.close());

  const cronJob = (name: string) => tc.get('cronjob', 'default', name) as CronJob | undefined;
  const jobsOf = (cj: string) =>
    (tc.list('jobs', 'default') as Job[])
      .filter((j) => j.metadata?.ownerReferences?.some((r) => r.kind === 'CronJob' && r.name === cj))
      .sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
  const complete = (j: Job) => (j.status?.conditions ?? []).some((c) => c.type === 'Complete' && c.status === 'True');
  /** The next whole minute after t. */
  const nextMinute = (t: number) => Math.floor(t / minute) * minute + minute;

  it("creates a Job every simulated minute for the docs' hello CronJob, named by its scheduled minute", () => {
    tc.apply(helloCronJob('hello'));
    const created = tc.clock.now();
    const first = nextMinute(created);
    tc.runUntil(() => jobsOf('hello').length >= 1, 2 * minute, 'first job');
    // Created 100 ms after the scheduled minute, not before.
    expect(tc.clock.now()).toBeGreaterThanOrEqual(first);
    expect(tc.clock.now()).toBeLessThan(first + 1000);
    const [job] = jobsOf('hello');
    expect(job.metadata!.name).toBe(`hello-${first / minute}`);
    expect(job.metadata!.annotations!['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(new Date(first).toISOString().replace('.000Z', 'Z'));
    const cj = cronJob('hello')!;
    expect(job.metadata!.ownerReferences).toEqual([
      { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cj.metadata!.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(cj.status?.lastScheduleTime).toBe(new Date(first).toISOString().replace('.000Z', 'Z'));
    // The reference is taken from the create response (the Job has been updated since by the job controller).
    expect(cj.status?.active).toEqual([
      { apiVersion: 'batch/v1', kind: 'Job', name: job.metadata!.name, namespace: 'default', uid: job.metadata!.uid, resourceVersion: expect.any(String) },
    ]);
    expect(Number(cj.status!.active![0].resourceVersion)).toBeLessThanOrEqual(Number(job.metadata!.resourceVersion));

    // The Job completes: it leaves the active list and sets lastSuccessfulTime.
    tc.runUntil(() => (cronJob('hello')?.status?.active ?? []).length === 0 && cronJob('hello')?.status?.lastSuccessfulTime !== undefined, minute, 'first job seen complete');
    const done = tc.get('job', 'default', job.metadata!.name!) as Job;
    expect(complete(done)).toBe(true);
    expect(cronJob('hello')!.status?.lastSuccessfulTime).toBe(done.status?.completionTime);
    const logs = tc.cluster.nodes.logs('default', tc.client.pods.list({ namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=${job.metadata!.name}` }).items[0].metadata!.name!);
    expect('lines' in logs && logs.lines.map((l) => l.text)).toContain('Hello from the Kubernetes cluster');

    // Four more minutes: one Job per minute, each named by its minute; the default successfulJobsHistoryLimit (3)
    // keeps the three newest finished Jobs.
    tc.runUntil(() => tc.clock.now() >= first + 4 * minute + 30_000, 5 * minute);
    const events = eventsFor(tc, 'CronJob', 'hello').map((e) => `${e.reason} ${e.message}`);
    for (let i = 0; i < 5; i++) expect(events).toContain(`SuccessfulCreate Created job hello-${first / minute + i}`);
    expect(events).toContain(`SawCompletedJob Saw completed job: hello-${first / minute}, status: Complete`);
    expect(events).toContain(`SuccessfulDelete Deleted job hello-${first / minute}`);
    expect(events).toContain(`SuccessfulDelete Deleted job hello-${first / minute + 1}`);
    tc.runUntil(() => jobsOf('hello').length === 3, minute, 'history limit');
    expect(jobsOf('hello').map((j) => j.metadata!.name)).toEqual([2, 3, 4].map((i) => `hello-${first / minute + i}`));
    // The pruned Jobs' pods went with them.
    tc.runUntil(() => tc.client.pods.list({ namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=hello-${first / minute}` }).items.length === 0, minute, 'pods of pruned jobs gone');
    expect(cronJob('hello')!.status?.lastScheduleTime).toBe(new Date(first + 4 * minute).toISOString().replace('.000Z', 'Z'));
  });

  it('with concurrencyPolicy Forbid skips a run while the previous Job still runs', () => {
    tc.apply(helloCronJob('forbid', '  concurrencyPolicy: Forbid', 'sleep 90'));
    const first = nextMinute(tc.clock.now());
    tc.runUntil(() => tc.clock.now() >= first + minute + 5_000, 3 * minute);
    // The second minute found the first Job running: no second Job.
    expect(jobsOf('forbid').map((j) => j.metadata!.name)).toEqual([`forbid-${first / minute}`]);
    const skipped = eventsFor(tc, 'CronJob', 'forbid').find((e) => e.reason === 'JobAlreadyActive');
    expect(skipped).toMatchObject({ type: 'Normal', message: 'Not starting job because prior execution is running and concurrency policy is Forbid' });
    expect(cronJob('forbid')!.status?.active).toHaveLength(1);
    // Without startingDeadlineSeconds the skipped minute is still unmet: as soon as the first Job is done
    // (90 s after its start) it runs, late, under that minute's name.
    tc.runUntil(() => jobsOf('forbid').length === 2, 3 * minute, 'second forbid job');
    const [firstJob, late] = jobsOf('forbid');
    expect(late.metadata!.name).toBe(`forbid-${first / minute + 1}`);
    expect(complete(firstJob)).toBe(true);
    expect(Date.parse(late.metadata!.creationTimestamp!)).toBeGreaterThanOrEqual(Date.parse(firstJob.status!.completionTime!));
    expect(Date.parse(late.metadata!.creationTimestamp!)).toBeGreaterThan(first + minute + 30_000);
  });

  it('with concurrencyPolicy Replace deletes the running Job and starts the new one', () => {
    tc.apply(helloCronJob('replace', '  concurrencyPolicy: Replace', 'sleep 90'));
    const first = nextMinute(tc.clock.now());
    tc.runUntil(() => tc.clock.now() >= first + minute + 5_000, 3 * minute);
    expect(jobsOf('replace').map((j) => j.metadata!.name)).toEqual([`replace-${first / minute + 1}`]);
    const events = eventsFor(tc, 'CronJob', 'replace').map((e) => `${e.reason} ${e.message}`);
    expect(events).toEqual([
      `SuccessfulCreate Created job replace-${first / minute}`,
      `SuccessfulDelete Deleted job replace-${first / minute}`,
      `SuccessfulCreate Created job replace-${first / minute + 1}`,
    ]);
    const active = cronJob('replace')!.status?.active ?? [];
    expect(active.map((r) => r.name)).toEqual([`replace-${first / minute + 1}`]);
  });

  it('stops creating Jobs while suspended and resumes afterwards', () => {
    tc.apply(helloCronJob('susp'));
    const first = nextMinute(tc.clock.now());
    tc.runUntil(() => jobsOf('susp').length === 1, 2 * minute, 'first job');
    tc.client.cronJobs.patch('susp', 'application/merge-patch+json', { spec: { suspend: true } }, { namespace: 'default' });
    tc.runUntil(() => tc.clock.now() >= first + 3 * minute + 5_000, 4 * minute);
    expect(jobsOf('susp').map((j) => j.metadata!.name)).toEqual([`susp-${first / minute}`]);
    tc.client.cronJobs.patch('susp', 'application/merge-patch+json', { spec: { suspend: false } }, { namespace: 'default' });
    tc.runUntil(() => jobsOf('susp').length === 2, 2 * minute, 'resumed job');
    // Resuming runs the most recent missed time at once (no startingDeadlineSeconds), then the schedule goes on.
    expect(jobsOf('susp')[1].metadata!.name).toBe(`susp-${first / minute + 3}`);
  });

  it('honours timeZone: "M H * * *" fires at H:M in that zone, and the scheduled-timestamp annotation carries its offset', () => {
    // A daily schedule a few minutes ahead in Asia/Kolkata (+05:30): read as UTC it would be hours away.
    const zone = 'Asia/Kolkata';
    const target = nextMinute(tc.clock.now()) + 3 * minute;
    const local = new Date(target + 330 * minute);
    const schedule = `${local.getUTCMinutes()} ${local.getUTCHours()} * * *`;
    tc.apply(helloCronJob('tz', `  timeZone: ${zone}`, 'date', schedule));
    tc.runUntil(() => jobsOf('tz').length === 1, 10 * minute, 'tz job');
    expect(tc.clock.now()).toBeGreaterThanOrEqual(target);
    expect(tc.clock.now()).toBeLessThan(target + 1000);
    const [job] = jobsOf('tz');
    expect(job.metadata!.name).toBe(`tz-${target / minute}`);
    const p = (n: number) => String(n).padStart(2, '0');
    expect(job.metadata!.annotations!['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(
      `${local.getUTCFullYear()}-${p(local.getUTCMonth() + 1)}-${p(local.getUTCDate())}T${p(local.getUTCHours())}:${p(local.getUTCMinutes())}:00+05:30`,
    );
  });

  it('rejects an invalid schedule and time zone with the API server messages', () => {
    expect(() => tc.apply(helloCronJob('bad', '', 'date', '*/1 * * *'))).toThrow(
      'CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "*/1 * * *": expected exactly 5 fields, found 4: [*/1 * * *]',
    );
    expect(() => tc.apply(helloCronJob('bad', '  timeZone: Mars/Olympus', 'date'))).toThrow(
      'CronJob.batch "bad" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
    );
  });

  it('with startingDeadlineSeconds does not run a start time missed by more than that', () => {
    tc.apply(helloCronJob('late', '  suspend: true\n  startingDeadlineSeconds: 10'));
    const first = nextMinute(tc.clock.now());
    // Resumed 30 s after a scheduled minute: that start is 30 s late, beyond the 10 s deadline.
    tc.runUntil(() => tc.clock.now() >= first + 30_000, 2 * minute);
    tc.client.cronJobs.patch('late', 'application/merge-patch+json', { spec: { suspend: false } }, { namespace: 'default' });
    tc.advance(20_000);
    expect(jobsOf('late')).toHaveLength(0);
    tc.runUntil(() => jobsOf('late').length === 1, 2 * minute, 'next on-time job');
    expect(jobsOf('late')[0].metadata!.name).toBe(`late-${first / minute + 1}`);
  });

  it('warns about more than 100 missed start times and runs only the latest', () => {
    tc.apply(helloCronJob('missed', '  suspend: true'));
    const created = tc.clock.now();
    tc.advance(102 * minute);
    tc.client.cronJobs.patch('missed', 'application/merge-patch+json', { spec: { suspend: false } }, { namespace: 'default' });
    tc.runUntil(() => jobsOf('missed').length === 1, minute, 'late job');
    const latest = Math.floor(tc.clock.now() / minute) * minute;
    expect(latest - created).toBeGreaterThan(100 * minute);
    expect(jobsOf('missed')[0].metadata!.name).toBe(`missed-${latest / minute}`);
    expect(eventsFor(tc, 'CronJob', 'missed').find((e) => e.reason === 'TooManyMissedTimes')).toMatchObject({
      type: 'Warning',
      message: 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    });
  });
});

