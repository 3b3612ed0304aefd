// Helpers the workload kinds share (pkg/apis/apps/validation): selector vs template labels, int-or-percent fields,
// replica-count status checks, and the Scale subresource's selector string.
import { fieldErr, type FieldError } from '../../../../shared/api/field-errors';
import type { KubeObject, LabelSelector } from '../../../../shared/api/types';
import { labelSelectorAsSelector, selectorMatches, selectorToString, type Selector } from '../../../../shared/lib/labels';
import { isValidPercent } from '../../../../shared/lib/validation';
import { validateLabelSelector } from './metav1';
import { templateLabels, validatePodTemplateSpec, type PodSpecValidationOptions } from './podspec/validation';
import { type Obj, invalidEach, isObj, objAt, validateNonnegativeField } from './util';

/** LabelSelectorAsSelector that reports failure as undefined (the caller adds "invalid label selector"). */
export function trySelector(ls: LabelSelector | undefined | null): Selector | undefined {
  try {
    return labelSelectorAsSelector(ls);
  } catch {
    return undefined;
  }
}

export function specOf(obj: KubeObject): Obj {
  return isObj(obj.spec) ? obj.spec : {};
}

/**
 * The selector block of ValidateDeploymentSpec / ValidateReplicaSetSpec / ValidateStatefulSetSpec: required,
 * well-formed and non-empty, then the template's labels must match it. `kind` words the empty-selector message.
 */
export function validateSelectorAndTemplateLabels(spec: Obj, specPath: string, emptyMsg: string): { errs: FieldError[]; selector?: Selector } {
  const errs: FieldError[] = [];
  const ls = spec.selector as LabelSelector | undefined;
  if (ls === undefined || ls === null) {
    errs.push(fieldErr.required(`${specPath}.selector`, ''));
  } else {
    errs.push(...validateLabelSelector(ls, {}, `${specPath}.selector`));
    if (Object.keys(ls.matchLabels ?? {}).length + (ls.matchExpressions ?? []).length === 0) {
      errs.push(fieldErr.invalid(`${specPath}.selector`, ls, emptyMsg));
    }
  }
  const selector = trySelector(ls);
  if (!selector) errs.push(fieldErr.invalid(`${specPath}.selector`, ls, 'invalid label selector'));
  return { errs, selector };
}

/** `spec.template.metadata.labels: Invalid value: {…}: \`selector\` does not match template \`labels\``. */
export function validateTemplateMatchesSelector(selector: Selector | undefined, template: unknown, templatePath: string): FieldError[] {
  if (!selector) return [];
  // A nil selector is Nothing(): not empty, matches nothing, so its template never matches.
  if (!selector.nothing && selector.requirements.length === 0) return [];
  const labels = templateLabels(template);
  return selectorMatches(selector, labels) ? [] : [fieldErr.invalid(`${templatePath}.metadata.labels`, labels, '`selector` does not match template `labels`')];
}

/**
 * ValidatePodTemplateSpecForReplicaSet (also used by Deployment and, with its own text, by DaemonSet/StatefulSet):
 * selector match, the pod template itself, restartPolicy Always and no activeDeadlineSeconds.
 */
export function validateReplicaSetTemplate(
  template: unknown,
  selector: Selector | undefined,
  templatePath: string,
  kindWord: string,
  opts: PodSpecValidationOptions = {},
): FieldError[] {
  if (!isObj(template)) return [fieldErr.required(templatePath, '')];
  const errs = validateTemplateMatchesSelector(selector, template, templatePath);
  errs.push(...validatePodTemplateSpec(template, templatePath, opts));
  errs.push(...validateAlwaysRestart(template, templatePath, kindWord));
  return errs;
}

export function validateAlwaysRestart(template: unknown, templatePath: string, kindWord: string): FieldError[] {
  const errs: FieldError[] = [];
  const tspec = objAt(template, 'spec') ?? {};
  if (tspec.restartPolicy !== 'Always') {
    errs.push(fieldErr.notSupported(`${templatePath}.spec.restartPolicy`, tspec.restartPolicy ?? '', ['Always']));
  }
  if (tspec.activeDeadlineSeconds !== undefined && tspec.activeDeadlineSeconds !== null) {
    errs.push(fieldErr.forbidden(`${templatePath}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kindWord} is not Supported`));
  }
  return errs;
}

// ---------------------------------------------------------------- int-or-percent (maxSurge, maxUnavailable, minAvailable)

function percentValue(v: unknown): number | undefined {
  if (typeof v !== 'string' || isValidPercent(v).length) return undefined;
  return Number.parseInt(v.slice(0, -1), 10);
}

/** getIntOrPercentValue: "25%" → 25, 3 → 3, anything else → 0. */
export function intOrPercentValue(v: unknown): number {
  const pct = percentValue(v);
  if (pct !== undefined) return pct;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[+-]?[0-9]+$/.test(v)) return Number.parseInt(v, 10);
  return 0;
}

export function validatePositiveIntOrPercent(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string') return invalidEach(path, v, isValidPercent(v));
  if (typeof v === 'number') return validateNonnegativeField(v, path);
  return [fieldErr.invalid(path, v ?? null, "must be an integer or percentage (e.g '5%')")];
}

export function isNotMoreThan100Percent(v: unknown, path: string): FieldError[] {
  const pct = percentValue(v);
  return pct !== undefined && pct > 100 ? [fieldErr.invalid(path, v, 'must not be greater than 100%')] : [];
}

// ---------------------------------------------------------------- status and scale

/** Non-negative counters and "cannot be greater than status.replicas" for the replica-set-like statuses. */
export function validateReplicaStatus(status: Obj, counters: string[], boundedByReplicas: string[]): FieldError[] {
  const errs: FieldError[] = [];
  for (const c of counters) errs.push(...validateNonnegativeField(status[c], `status.${c}`));
  const replicas = typeof status.replicas === 'number' ? status.replicas : 0;
  for (const c of boundedByReplicas) {
    const v = status[c];
    if (typeof v === 'number' && v > replicas) errs.push(fieldErr.invalid(`status.${c}`, v, 'cannot be greater than status.replicas'));
  }
  return errs;
}

/** Scale.status.selector: the spec selector in its canonical string form ("" when it cannot be converted). */
export function scaleSelector(obj: KubeObject): string {
  const sel = trySelector(specOf(obj).selector as LabelSelector | undefined);
  return sel ? selectorToString(sel) : '';
}

export const replicasScale = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  selector: scaleSelector,
};
