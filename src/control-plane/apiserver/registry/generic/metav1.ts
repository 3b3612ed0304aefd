// apimachinery/pkg/apis/meta/v1/validation: labels, label names and LabelSelector objects.
import { fieldErr, type FieldError } from '../../../../shared/api/field-errors';
import type { LabelSelector } from '../../../../shared/api/types';
import { isQualifiedName, isValidLabelValue } from '../../../../shared/lib/validation';
import { invalidEach, isObj } from './util';

export function validateLabelName(name: string, path: string): FieldError[] {
  return invalidEach(path, name, isQualifiedName(name));
}

/** ValidateLabels: keys and values are both reported at the map's path (metadata.labels). */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  if (!isObj(labels)) return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    errs.push(...validateLabelName(k, path));
    errs.push(...invalidEach(path, v, isValidLabelValue(typeof v === 'string' ? v : String(v))));
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
