// LimitRange strategy: SetDefaults_LimitRangeItem and ValidateLimitRange (min ≤ defaultRequest ≤ default ≤ max).
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isQualifiedName } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { compareQuantities, quantityString, quantityValue } from '../../generic/quantity';
import { validateContainerResourceName, validateResourceName } from '../../generic/podspec/resources';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, ensureObj, hasOwn, invalidEach, isObj, objItems, setOwn, str } from '../../generic/util';

const standardLimitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];

/** Container items: default ← max, defaultRequest ← default, defaultRequest ← min (each only where unset). */
export function defaultLimitRange(lr: KubeObject): void {
  for (const item of objItems(ensureObj(lr as Obj, 'spec'), 'limits')) {
    if (item.type !== 'Container') continue;
    const def = ensureObj(item, 'default');
    const defReq = ensureObj(item, 'defaultRequest');
    for (const [k, v] of Object.entries(isObj(item.max) ? item.max : {})) if (!hasOwn(def, k)) setOwn(def, k, v);
    for (const [k, v] of Object.entries(def)) if (!hasOwn(defReq, k)) setOwn(defReq, k, v);
    for (const [k, v] of Object.entries(isObj(item.min) ? item.min : {})) if (!hasOwn(defReq, k)) setOwn(defReq, k, v);
  }
}

function resourceNameErrors(type: string, name: string, path: string): FieldError[] {
  if (type === 'Pod' || type === 'Container') return validateContainerResourceName(name, path);
  return validateResourceName(name, path, () => true, '');
}

function validateLimitRange(lr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seenTypes = new Set<string>();
  objItems(isObj(lr.spec) ? lr.spec : {}, 'limits').forEach((item, i) => {
    const p = `spec.limits[${i}]`;
    const type = str(item.type);
    const typeErrs = invalidEach(`${p}.type`, type, isQualifiedName(type));
    if (!typeErrs.length && !type.includes('/') && !standardLimitTypes.includes(type)) {
      typeErrs.push(fieldErr.invalid(`${p}.type`, type, 'must be a standard limit type or fully qualified'));
    }
    errs.push(...typeErrs);
    if (seenTypes.has(type)) errs.push(fieldErr.duplicate(`${p}.type`, type));
    seenTypes.add(type);
    const lists: Record<string, Obj> = {};
    const keys = new Set<string>();
    for (const f of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) {
      const list = isObj(item[f]) ? (item[f] as Obj) : {};
      lists[f] = list;
      if (type === 'Pod' && (f === 'default' || f === 'defaultRequest')) {
        if (Object.keys(list).length) errs.push(fieldErr.forbidden(`${p}.${f}`, "may not be specified when `type` is 'Pod'"));
        continue;
      }
      for (const k of Object.keys(list)) {
        errs.push(...resourceNameErrors(type, k, `${p}.${f}[${k}]`));
        keys.add(k);
      }
    }
    if (type === 'PersistentVolumeClaim' && !('storage' in lists.min) && !('storage' in lists.max)) {
      errs.push(fieldErr.required(`${p}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    const gt = (a: unknown, b: unknown) => (compareQuantities(a, b) ?? 0) > 0;
    for (const k of keys) {
      const own = (list: Obj) => (hasOwn(list, k) ? list[k] : undefined);
      const min = own(lists.min);
      const max = own(lists.max);
      const def = type === 'Pod' ? undefined : own(lists.default);
      const defReq = type === 'Pod' ? undefined : own(lists.defaultRequest);
      const ratio = own(lists.maxLimitRequestRatio);
      const q = quantityString;
      if (min !== undefined && max !== undefined && gt(min, max)) {
        errs.push(fieldErr.invalid(`${p}.min[${k}]`, q(min), `min value ${q(min)} is greater than max value ${q(max)}`));
      }
      if (defReq !== undefined && min !== undefined && gt(min, defReq)) {
        errs.push(fieldErr.invalid(`${p}.defaultRequest[${k}]`, q(defReq), `min value ${q(min)} is greater than default request value ${q(defReq)}`));
      }
      if (defReq !== undefined && max !== undefined && gt(defReq, max)) {
        errs.push(fieldErr.invalid(`${p}.defaultRequest[${k}]`, q(defReq), `default request value ${q(defReq)} is greater than max value ${q(max)}`));
      }
      if (defReq !== undefined && def !== undefined && gt(defReq, def)) {
        errs.push(fieldErr.invalid(`${p}.defaultRequest[${k}]`, q(defReq), `default request value ${q(defReq)} is greater than default limit value ${q(def)}`));
      }
      if (def !== undefined && min !== undefined && gt(min, def)) {
        errs.push(fieldErr.invalid(`${p}.default[${k}]`, q(min), `min value ${q(min)} is greater than default value ${q(def)}`));
      }
      if (def !== undefined && max !== undefined && gt(def, max)) {
        errs.push(fieldErr.invalid(`${p}.default[${k}]`, q(max), `default value ${q(def)} is greater than max value ${q(max)}`));
      }
      if (ratio !== undefined && (quantityValue(ratio) ?? 0) < 1) {
        errs.push(fieldErr.invalid(`${p}.maxLimitRequestRatio[${k}]`, q(ratio), `ratio ${q(ratio)} is less than 1`));
      }
    }
  });
  return errs;
}

export function limitRangeStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, { applyDefaults: defaultLimitRange, validateSpec: validateLimitRange });
}
