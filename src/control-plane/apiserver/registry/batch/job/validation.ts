// pkg/apis/batch/validation for Job specs, shared with CronJob's jobTemplate.
import { fieldErr, omitValue, type FieldError } from '../../../../../shared/api/field-errors';
import type { KubeObject, LabelSelector } from '../../../../../shared/api/types';
import { selectorMatches } from '../../../../../shared/lib/labels';
import { isDNS1123Label } from '../../../../../shared/lib/validation';
import { validateLabelSelector } from '../../generic/metav1';
import { validatePodTemplateSpec, templateLabels } from '../../generic/podspec/validation';
import { type Obj, arrAt, clone, ensureObj, isObj, objAt, objItems, semanticEqual, str, validateImmutableField, validateNonnegativeField } from '../../generic/util';
import { trySelector, validateTemplateMatchesSelector } from '../../generic/workload';

export const ControllerUidLabel = 'batch.kubernetes.io/controller-uid';
export const JobNameLabel = 'batch.kubernetes.io/job-name';
export const LegacyControllerUidLabel = 'controller-uid';
export const LegacyJobNameLabel = 'job-name';

const maxParallelismForIndexedJob = 100000;

function validatePodFailurePolicy(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = objItems(spec.podFailurePolicy, 'rules');
  if (rules.length > 20) errs.push(fieldErr.tooMany(`${path}.rules`, rules.length, 20));
  const podSpec = objAt(spec, 'template', 'spec');
  const containerNames = new Set([...objItems(podSpec, 'containers'), ...objItems(podSpec, 'initContainers')].map((c) => str(c.name)));
  const hasBackoffLimitPerIndex = spec.backoffLimitPerIndex !== undefined && spec.backoffLimitPerIndex !== null;
  rules.forEach((rule, i) => {
    const p = `${path}.rules[${i}]`;
    const actions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
    const action = str(rule.action);
    if (!action) errs.push(fieldErr.required(`${p}.action`, 'valid values: ["Count" "FailIndex" "FailJob" "Ignore"]'));
    else if (action === 'FailIndex') {
      if (!hasBackoffLimitPerIndex) errs.push(fieldErr.invalid(`${p}.action`, action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!actions.includes(action)) errs.push(fieldErr.notSupported(`${p}.action`, action, actions));
    const onExit = rule.onExitCodes;
    const onConds = arrAt(rule, 'onPodConditions');
    if (isObj(onExit)) {
      const ep = `${p}.onExitCodes`;
      const ops = ['In', 'NotIn'];
      const op = str(onExit.operator);
      if (!op) errs.push(fieldErr.required(`${ep}.operator`, 'valid values: ["In" "NotIn"]'));
      else if (!ops.includes(op)) errs.push(fieldErr.notSupported(`${ep}.operator`, op, ops));
      const cn = onExit.containerName;
      if (typeof cn === 'string' && !containerNames.has(cn)) {
        errs.push(fieldErr.invalid(`${ep}.containerName`, cn, 'must be one of the container or initContainer names in the pod template'));
      }
      const values = arrAt(onExit, 'values');
      if (values.length === 0) errs.push(fieldErr.invalid(`${ep}.values`, values, 'at least one value is required'));
      else if (values.length > 255) errs.push(fieldErr.tooMany(`${ep}.values`, values.length, 255));
      let ordered = true;
      const seen = new Set<unknown>();
      values.forEach((v, vi) => {
        if (op === 'In' && v === 0) errs.push(fieldErr.invalid(`${ep}.values[${vi}]`, v, 'must not be 0 for the In operator'));
        if (seen.has(v)) errs.push(fieldErr.duplicate(`${ep}.values[${vi}]`, v));
        else seen.add(v);
        if (vi > 0 && (values[vi - 1] as number) > (v as number)) ordered = false;
      });
      if (!ordered) errs.push(fieldErr.invalid(`${ep}.values`, values, 'must be ordered'));
    }
    if (onConds.length > 0) {
      const cp = `${p}.onPodConditions`;
      if (onConds.length > 20) errs.push(fieldErr.tooMany(cp, onConds.length, 20));
      onConds.forEach((c, ci) => {
        const cond = isObj(c) ? c : {};
        const st = str(cond.status);
        if (!st) errs.push(fieldErr.required(`${cp}[${ci}].status`, 'valid values: ["False" "True" "Unknown"]'));
        else if (!['False', 'True', 'Unknown'].includes(st)) errs.push(fieldErr.notSupported(`${cp}[${ci}].status`, st, ['False', 'True', 'Unknown']));
      });
    }
    if (isObj(onExit) && onConds.length > 0) {
      errs.push(fieldErr.invalid(p, omitValue, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    } else if (!isObj(onExit) && onConds.length === 0) {
      errs.push(fieldErr.invalid(p, omitValue, 'specifying one of OnExitCodes and OnPodConditions is required'));
    }
  });
  return errs;
}

/** validateJobSpec's per-index rules: backoffLimitPerIndex and maxFailedIndexes need an Indexed Job. */
function validatePerIndex(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const set = (v: unknown) => v !== undefined && v !== null;
  errs.push(...validateNonnegativeField(spec.backoffLimitPerIndex, `${path}.backoffLimitPerIndex`));
  if (set(spec.maxFailedIndexes)) {
    errs.push(...validateNonnegativeField(spec.maxFailedIndexes, `${path}.maxFailedIndexes`));
    if (!set(spec.backoffLimitPerIndex)) errs.push(fieldErr.required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (spec.completionMode === 'Indexed') {
    if (typeof spec.completions === 'number' && typeof spec.maxFailedIndexes === 'number' && spec.maxFailedIndexes > spec.completions) {
      errs.push(fieldErr.invalid(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'must be less than or equal to completions'));
    }
  } else {
    if (set(spec.backoffLimitPerIndex)) errs.push(fieldErr.invalid(`${path}.backoffLimitPerIndex`, spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (set(spec.maxFailedIndexes)) errs.push(fieldErr.invalid(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  return errs;
}

/** validateJobSpec: everything but the selector checks, as CronJob's jobTemplate uses it. */
export function validateJobSpecCommon(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) {
    errs.push(...validateNonnegativeField(spec[f], `${path}.${f}`));
  }
  errs.push(...validatePerIndex(spec, path));
  if (spec.completionMode !== undefined && spec.completionMode !== null) {
    const mode = str(spec.completionMode);
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(fieldErr.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (spec.completions === undefined || spec.completions === null) errs.push(fieldErr.required(`${path}.completions`, 'when completion mode is Indexed'));
      if (typeof spec.parallelism === 'number' && spec.parallelism > maxParallelismForIndexedJob) {
        errs.push(fieldErr.invalid(`${path}.parallelism`, spec.parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
      }
    }
  }
  if (isObj(spec.podFailurePolicy)) errs.push(...validatePodFailurePolicy(spec, `${path}.podFailurePolicy`));
  if (spec.podReplacementPolicy !== undefined && spec.podReplacementPolicy !== null) {
    const prp = str(spec.podReplacementPolicy);
    if (isObj(spec.podFailurePolicy) && prp !== 'Failed') {
      errs.push(fieldErr.notSupported(`${path}.podReplacementPolicy`, prp, ['Failed']));
    } else if (prp !== 'TerminatingOrFailed' && prp !== 'Failed') {
      errs.push(fieldErr.notSupported(`${path}.podReplacementPolicy`, prp, ['Failed', 'TerminatingOrFailed']));
    }
  }
  errs.push(...validatePodTemplateSpec(spec.template, `${path}.template`));
  const restartPolicy = str(objAt(spec, 'template', 'spec')?.restartPolicy);
  if (restartPolicy === 'Always' || restartPolicy === '') {
    errs.push(fieldErr.required(`${path}.template.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errs.push(fieldErr.notSupported(`${path}.template.spec.restartPolicy`, restartPolicy, ['OnFailure', 'Never']));
  } else if (isObj(spec.podFailurePolicy) && restartPolicy !== 'Never') {
    errs.push(fieldErr.invalid(`${path}.template.spec.restartPolicy`, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}

/** ValidateJobSpec: the common rules plus a required selector that the template's labels match. */
export function validateJobSpec(spec: Obj, path: string): FieldError[] {
  const errs = validateJobSpecCommon(spec, path);
  const ls = spec.selector as LabelSelector | undefined;
  if (ls === undefined || ls === null) errs.push(fieldErr.required(`${path}.selector`, ''));
  else errs.push(...validateLabelSelector(ls, {}, `${path}.selector`));
  const selector = trySelector(ls);
  if (selector) errs.push(...validateTemplateMatchesSelector(selector, spec.template, `${path}.template`));
  return errs;
}

/** ValidateHasLabel: `Required value: must be '<v>'` when missing, Invalid with the whole map when different. */
function validateHasLabel(labels: Record<string, string> | null, path: string, key: string, expected: string): FieldError[] {
  if (!labels || !Object.prototype.hasOwnProperty.call(labels, key)) return [fieldErr.required(`${path}.labels[${key}]`, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [fieldErr.invalid(`${path}.labels[${key}]`, labels, `must be '${expected}'`)];
}

/** validateGeneratedSelector: without manualSelector the selector and labels must be the ones the server generated. */
export function validateGeneratedSelector(job: KubeObject): FieldError[] {
  const spec = isObj(job.spec) ? job.spec : {};
  if (spec.manualSelector === true) return [];
  const labels = templateLabels(spec.template);
  if (!labels) return [fieldErr.required('spec.template.metadata.labels', '')];
  if (!spec.selector) return [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  const errs = [
    ...validateHasLabel(labels, 'spec.template.metadata', LegacyControllerUidLabel, uid),
    ...validateHasLabel(labels, 'spec.template.metadata', LegacyJobNameLabel, name),
    ...validateHasLabel(labels, 'spec.template.metadata', ControllerUidLabel, uid),
    ...validateHasLabel(labels, 'spec.template.metadata', JobNameLabel, name),
  ];
  const selector = trySelector(spec.selector as LabelSelector);
  if (selector && !selectorMatches(selector, { [ControllerUidLabel]: uid })) {
    errs.push(fieldErr.invalid('spec.selector', spec.selector, '`selector` not auto-generated'));
  }
  return errs;
}

/** ValidateJob (spec part; metadata is validated by the strategy). */
export function validateJob(job: KubeObject): FieldError[] {
  const spec = isObj(job.spec) ? job.spec : {};
  const errs = [...validateGeneratedSelector(job), ...validateJobSpec(spec, 'spec')];
  if (spec.completionMode === 'Indexed' && typeof spec.completions === 'number' && spec.completions > 0) {
    const hostname = `${job.metadata.name ?? ''}-${spec.completions - 1}`;
    if (isDNS1123Label(hostname).length) {
      errs.push(fieldErr.invalid('metadata.name', job.metadata.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

/** Scheduling directives may change while a suspended job has never started. */
function mutableSchedulingDirectives(old: KubeObject): boolean {
  const spec = isObj(old.spec) ? old.spec : {};
  const status = isObj(old.status) ? old.status : {};
  return spec.suspend === true && !status.startTime;
}

/** ValidateJobSpecUpdate's immutability rules. */
export function validateJobUpdate(job: KubeObject, old: KubeObject): FieldError[] {
  const spec = isObj(job.spec) ? job.spec : {};
  const oldSpec = isObj(old.spec) ? old.spec : {};
  const errs: FieldError[] = [];
  // Elastic indexed jobs: completions may change, but only together with parallelism.
  if (spec.completionMode !== 'Indexed') {
    errs.push(...validateImmutableField(spec.completions, oldSpec.completions, 'spec.completions'));
  } else if (!semanticEqual(spec.completions, oldSpec.completions) && typeof spec.completions === 'number' && spec.completions !== spec.parallelism) {
    errs.push(fieldErr.invalid('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  errs.push(...validateImmutableField(spec.selector, oldSpec.selector, 'spec.selector'));
  let oldTemplate = oldSpec.template;
  if (mutableSchedulingDirectives(old) && isObj(oldTemplate) && isObj(spec.template)) {
    const t = spec.template;
    const o = clone(oldTemplate);
    const om = ensureObj(o, 'metadata');
    const tm = isObj(t.metadata) ? t.metadata : {};
    om.labels = tm.labels;
    om.annotations = tm.annotations;
    const os = ensureObj(o, 'spec');
    const ts = isObj(t.spec) ? t.spec : {};
    for (const f of ['nodeSelector', 'tolerations', 'schedulingGates', 'affinity']) os[f] = ts[f];
    oldTemplate = o;
  }
  errs.push(...validateImmutableField(spec.template, oldTemplate, 'spec.template'));
  for (const f of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    errs.push(...validateImmutableField(spec[f], oldSpec[f], `spec.${f}`));
  }
  return errs;
}
