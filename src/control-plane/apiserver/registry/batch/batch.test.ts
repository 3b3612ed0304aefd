import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/api/types';
import { strategyFor } from '../strategies';
import { create, invalidMessage, podTemplate, resourceType, update } from '../test-harness';
import { cronScheduleError } from './cronjob/schedule';

type Obj = Record<string, any>;

const job = (spec: Obj, name = 'pi'): KubeObject => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec });
const runOnce = () => job({ template: podTemplate({}, { restartPolicy: 'Never' }) });

describe('Job', () => {
  it('defaults and generates the selector and labels from the uid', () => {
    const j = create('batch', 'jobs', runOnce());
    const spec = j.spec as Obj;
    const uid = j.metadata.uid!;
    expect(spec.completions).toBe(1);
    expect(spec.parallelism).toBe(1);
    expect(spec.backoffLimit).toBe(6);
    expect(spec.completionMode).toBe('NonIndexed');
    expect(spec.suspend).toBe(false);
    expect(spec.podReplacementPolicy).toBe('TerminatingOrFailed');
    expect(spec.manualSelector).toBeUndefined();
    expect(spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };
    expect(spec.template.metadata.labels).toEqual(labels);
    expect(j.metadata.labels).toEqual(labels);
    expect(j.metadata.generation).toBe(1);
  });

  it('keeps parallelism-only jobs open-ended', () => {
    const j = create('batch', 'jobs', job({ parallelism: 3, template: podTemplate({}, { restartPolicy: 'OnFailure' }) }));
    expect((j.spec as Obj).completions).toBeUndefined();
  });

  it('requires OnFailure or Never', () => {
    expect(invalidMessage(() => create('batch', 'jobs', job({ template: podTemplate({}) })))).toBe(
      'Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    );
  });

  it('rejects negative counts', () => {
    expect(invalidMessage(() => create('batch', 'jobs', job({ backoffLimit: -1, template: podTemplate({}, { restartPolicy: 'Never' }) })))).toBe(
      'Job.batch "pi" is invalid: spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
    );
  });

  it('rejects a hand-written selector without manualSelector', () => {
    const j = job({ selector: { matchLabels: { app: 'x' } }, template: podTemplate({ app: 'x' }, { restartPolicy: 'Never' }) });
    expect(invalidMessage(() => create('batch', 'jobs', j))).toMatch(/spec.selector: Invalid value: .*: `selector` not auto-generated/);
    const manual = create('batch', 'jobs', job({ manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: podTemplate({ app: 'x' }, { restartPolicy: 'Never' }) }));
    expect((manual.spec as Obj).selector).toEqual({ matchLabels: { app: 'x' } });
  });

  it('keeps selector and template immutable', () => {
    const j = create('batch', 'jobs', runOnce());
    const spec = j.spec as Obj;
    const next = { ...j, spec: { ...spec, template: { ...spec.template, spec: { ...spec.template.spec, containers: [{ ...spec.template.spec.containers[0], image: 'perl' }] } } } };
    expect(invalidMessage(() => update('batch', 'jobs', next, j))).toMatch(/^Job.batch "pi" is invalid: spec.template: Invalid value: \{.*\}: field is immutable$/);
    const completions = { ...j, spec: { ...spec, completions: 5 } };
    expect(invalidMessage(() => update('batch', 'jobs', completions, j))).toBe('Job.batch "pi" is invalid: spec.completions: Invalid value: 5: field is immutable');
    // parallelism and suspend may change.
    expect((update('batch', 'jobs', { ...j, spec: { ...spec, parallelism: 2, suspend: true } }, j).spec as Obj).parallelism).toBe(2);
  });

  it('validates podFailurePolicy rules and the per-index back-off', () => {
    const never = podTemplate({}, { restartPolicy: 'Never' });
    const failIndex = { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [42] } }] };
    expect(invalidMessage(() => create('batch', 'jobs', job({ completions: 3, completionMode: 'Indexed', podFailurePolicy: failIndex, template: never })))).toBe(
      'Job.batch "pi" is invalid: spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
    );
    expect(create('batch', 'jobs', job({ completions: 3, completionMode: 'Indexed', backoffLimitPerIndex: 1, podFailurePolicy: failIndex, template: never })).metadata.name).toBe('pi');
    expect(invalidMessage(() => create('batch', 'jobs', job({ backoffLimitPerIndex: 1, template: never })))).toBe(
      'Job.batch "pi" is invalid: spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
    );
    expect(invalidMessage(() => create('batch', 'jobs', job({ podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'NotIn', values: [3, 1] } }] }, template: never })))).toBe(
      'Job.batch "pi" is invalid: spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,1]: must be ordered',
    );
    expect(invalidMessage(() => create('batch', 'jobs', job({ podFailurePolicy: { rules: [{ action: 'Ignore' }] }, template: never })))).toBe(
      'Job.batch "pi" is invalid: spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
    );
  });

  it('selects on status.successful', () => {
    const j = create('batch', 'jobs', runOnce());
    expect(strategyFor(resourceType('batch', 'jobs')).selectableFields?.({ ...j, status: { succeeded: 1 } })['status.successful']).toBe('1');
  });
});

describe('CronJob', () => {
  const cron = (spec: Obj, name = 'hello'): KubeObject => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: { jobTemplate: { spec: { template: podTemplate({}, { restartPolicy: 'OnFailure' }) } }, ...spec },
  });

  it('applies the CronJob defaults', () => {
    const cj = create('batch', 'cronjobs', cron({ schedule: '*/5 * * * *' }));
    const spec = cj.spec as Obj;
    expect(spec.concurrencyPolicy).toBe('Allow');
    expect(spec.suspend).toBe(false);
    expect(spec.successfulJobsHistoryLimit).toBe(3);
    expect(spec.failedJobsHistoryLimit).toBe(1);
    expect(spec.jobTemplate.spec.template.spec.dnsPolicy).toBe('ClusterFirst');
    expect(cj.metadata.generation).toBe(1);
  });

  it('validates the schedule', () => {
    expect(invalidMessage(() => create('batch', 'cronjobs', cron({ schedule: '' })))).toBe('CronJob.batch "hello" is invalid: spec.schedule: Required value');
    expect(invalidMessage(() => create('batch', 'cronjobs', cron({ schedule: '* * *' })))).toBe(
      'CronJob.batch "hello" is invalid: spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
    );
    expect(invalidMessage(() => create('batch', 'cronjobs', cron({ schedule: 'TZ=UTC 0 * * * *' })))).toBe(
      'CronJob.batch "hello" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    );
    expect(create('batch', 'cronjobs', cron({ schedule: '@hourly' })).metadata.name).toBe('hello');
  });

  it('parses cron fields like robfig/cron', () => {
    expect(cronScheduleError('0 0 * * mon-fri')).toBeUndefined();
    expect(cronScheduleError('*/15 9-17 1,15 jan *')).toBeUndefined();
    expect(cronScheduleError('@every 1h30m')).toBeUndefined();
    expect(cronScheduleError('60 * * * *')).toBe('end of range (60) above maximum (59): 60');
    expect(cronScheduleError('0 0 0 * *')).toBe('beginning of range (0) below minimum (1): 0');
    expect(cronScheduleError('5-1 * * * *')).toBe('beginning of range (5) beyond end of range (1): 5-1');
    expect(cronScheduleError('x * * * *')).toBe('failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
    expect(cronScheduleError('*/0 * * * *')).toBe('step of range should be a positive number: */0');
    expect(cronScheduleError('@sometimes')).toBe('unrecognized descriptor: @sometimes');
  });

  it('rejects a selector in the job template and long names', () => {
    expect(invalidMessage(() => create('batch', 'cronjobs', cron({ schedule: '@daily', jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: podTemplate({ a: 'b' }, { restartPolicy: 'Never' }) } } })))).toBe(
      'CronJob.batch "hello" is invalid: spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
    );
    const name = 'c'.repeat(53);
    expect(invalidMessage(() => create('batch', 'cronjobs', cron({ schedule: '@daily' }, name)))).toBe(
      `CronJob.batch "${name}" is invalid: metadata.name: Invalid value: "${name}": must be no more than 52 characters`,
    );
  });

  it('bumps generation on spec changes', () => {
    const cj = create('batch', 'cronjobs', cron({ schedule: '@daily' }));
    expect(update('batch', 'cronjobs', { ...cj, spec: { ...(cj.spec as Obj), suspend: true } }, cj).metadata.generation).toBe(2);
  });
});
