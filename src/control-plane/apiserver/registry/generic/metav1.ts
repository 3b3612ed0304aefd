// apimachinery/pkg/apis/meta/v1/validation: labels, label names and LabelSelector objects.
import { fieldErr, type FieldError } from '../../../../shared/api/field-errors';
import type { LabelSelector } from '../../../../shared/api/types';
import { isQualifiedName, isValidLabelValue } from '../../../../shared/lib/validation';
import { invalidEach, isObj } from './util';

/**
 * Label keys and values already found valid. The same few ("app", "pod-template-hash", its hash) are on every
 * object of a workload and are checked on each of its writes, twice (ObjectMeta and the kind's own check);
 * the checks are pure, so a valid string stays valid. Bounded: cleared when full.
 */
const validLabelKeys = new Set<string>();
const validLabelValues = new Set<string>();
const maxRemembered = 4096;

function remember(set: Set<string>, s: string): void {
  if (set.size >= maxRemembered) set.clear();
  set.add(s);
}

function labelNameMessages(name: string): string[] {
  if (validLabelKeys.has(name)) return [];
  const msgs = isQualifiedName(name);
  if (msgs.length === 0) remember(validLabelKeys, name);
  return msgs;
}

function labelValueMessages(value: string): string[] {
  if (validLabelValues.has(value)) return [];
  const msgs = isValidLabelValue(value);
  if (msgs.length === 0) remember(validLabelValues, value);
  return msgs;
}

export function validateLabelName(name: string, path: string): FieldError[] {
  return invalidEach(path, name, labelNameMessages(name));
}

/** ValidateLabels: keys and values are both reported at the map's path (metadata.labels). */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  if (!isObj(labels)) return [];
  const errs: FieldError[] = [];
  for (const k of Object.keys(labels)) {
    const v = labels[k];
    const keyMsgs = labelNameMessages(k);
    if (keyMsgs.length) errs.push(...invalidEach(path, k, keyMsgs));
    const valueMsgs = labelValueMessages(typeof v === 'string' ? v : String(v));
    if (valueMsgs.length) errs.push(...invalidEach(path, v, valueMsgs));
  }
  return errs;
}

export interface LabelSelectorValidationOptions {
  allowInvalidLabelValueInSelector?: boolean;
}

export function validateLabelSelector(
  ps: LabelSelector | undefined | null,
  opts: LabelSelectorValidationOptions,
  path: string,
): FieldError[] {
  if (!ps) return [];
  const errs = validateLabels(ps.matchLabels, `${path}.matchLabels`);
  (ps.matchExpressions ?? []).forEach((expr, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldErr.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          errs.push(fieldErr.forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
        break;
      default:
        errs.push(fieldErr.invalid(`${p}.operator`, expr.operator ?? '', 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(expr.key ?? '', `${p}.key`));
    if (!opts.allowInvalidLabelValueInSelector) {
      values.forEach((v, vi) => errs.push(...invalidEach(`${p}.values[${vi}]`, v, isValidLabelValue(v))));
    }
  });
  return errs;
}
