// CronJob strategy (pkg/registry/batch/cronjob/strategy.go): defaults, schedule and time zone checks, a jobTemplate
// whose selector the controller generates, generation, status subresource.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { validateKubeObjectMetaUpdate } from '../../generic/kubemeta';
import { defaultPodTemplate } from '../../generic/podspec/defaults';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, ensureObj, isObj, setDefault, setDefaultString, str, validateNonnegativeField } from '../../generic/util';
import { validateJobSpecCommon } from '../job/validation';
import { cronScheduleError } from './schedule';

export function defaultCronJob(cj: KubeObject): void {
  const spec = ensureObj(cj as Obj, 'spec');
  setDefaultString(spec, 'concurrencyPolicy', 'Allow');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  const jobTemplate = ensureObj(spec, 'jobTemplate');
  defaultPodTemplate(ensureObj(jobTemplate, 'spec').template);
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function validateTimeZone(tz: unknown, path: string): FieldError[] {
  if (tz === undefined || tz === null) return [];
  const zone = str(tz);
  if (!zone) return [fieldErr.invalid(path, zone, 'timeZone must be nil or non-empty string')];
  for (const part of zone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z._+\-0-9]+$/.test(part)) {
      return [fieldErr.invalid(path, zone, `unknown time zone ${zone}`)];
    }
  }
  if (zone.toLowerCase() === 'local') return [fieldErr.invalid(path, zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  return validTimeZone(zone) ? [] : [fieldErr.invalid(path, zone, `unknown time zone ${zone}`)];
}

function validateCronJobSpec(spec: Obj, oldSpec: Obj | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = str(spec.schedule);
  if (!schedule) errs.push(fieldErr.required('spec.schedule', ''));
  else {
    const err = cronScheduleError(schedule);
    if (err) errs.push(fieldErr.invalid('spec.schedule', schedule, err));
    const allowTZ = oldSpec !== undefined && str(oldSpec.schedule).includes('TZ');
    if (allowTZ && schedule.includes('TZ') && spec.timeZone !== undefined && spec.timeZone !== null) {
      errs.push(fieldErr.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    } else if (!allowTZ && schedule.includes('TZ')) {
      errs.push(fieldErr.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    }
  }
  errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (oldSpec === undefined || oldSpec.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, 'spec.timeZone'));
  const cp = str(spec.concurrencyPolicy);
  if (!cp) errs.push(fieldErr.required('spec.concurrencyPolicy', ''));
  else if (!['Allow', 'Forbid', 'Replace'].includes(cp)) errs.push(fieldErr.notSupported('spec.concurrencyPolicy', cp, ['Allow', 'Forbid', 'Replace']));
  const jt = isObj(spec.jobTemplate) ? spec.jobTemplate : {};
  const jspec = isObj(jt.spec) ? jt.spec : {};
  errs.push(...validateJobSpecCommon(jspec, 'spec.jobTemplate.spec'));
  if (jspec.selector !== undefined && jspec.selector !== null) {
    errs.push(fieldErr.invalid('spec.jobTemplate.spec.selector', jspec.selector, '`selector` will be auto-generated'));
  }
  if (jspec.manualSelector === true) errs.push(fieldErr.notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  errs.push(...validateNonnegativeField(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...validateNonnegativeField(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

export function cronJobStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultCronJob,
    generationChanged: specChanged,
    validateSpec(cj) {
      const errs = validateCronJobSpec(isObj(cj.spec) ? cj.spec : {}, undefined);
      // The controller names jobs "<cronjob>-<11-digit suffix>", and job names feed 63-character labels.
      const name = cj.metadata.name ?? '';
      if (name.length > 52) errs.push(fieldErr.invalid('metadata.name', name, 'must be no more than 52 characters'));
      return errs;
    },
    validateUpdateFull: (cj, old) => [...validateKubeObjectMetaUpdate(cj.metadata, old.metadata), ...validateCronJobUpdateSpec(cj, old)],
  });
}

/** ValidateCronJobUpdate's spec part (the name-length rule applies to creation only). */
export function validateCronJobUpdateSpec(cj: KubeObject, old: KubeObject): FieldError[] {
  return validateCronJobSpec(isObj(cj.spec) ? cj.spec : {}, isObj(old.spec) ? old.spec : {});
}
