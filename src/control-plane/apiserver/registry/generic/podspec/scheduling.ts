// The scheduling parts of a PodSpec: tolerations, taints, node and pod affinity, topology spread constraints.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { LabelSelector } from '../../../../../shared/api/types';
import { isValidLabelValue, nameIsDNSSubdomain, validateNamespaceName } from '../../../../../shared/lib/validation';
import { validateLabelName, validateLabelSelector } from '../metav1';
import { type Obj, arrAt, invalidEach, isObj, objItems, str } from '../util';

export const TaintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

export function validateTaintEffect(effect: string, allowEmpty: boolean, path: string): FieldError[] {
  if (!allowEmpty && effect.length === 0) return [fieldErr.required(path, '')];
  return (TaintEffects as readonly string[]).includes(effect) ? [] : [fieldErr.notSupported(path, effect, TaintEffects)];
}

/** ValidateTolerations: key, operator/value pairing, tolerationSeconds only with NoExecute, effect values. */
export function validateTolerations(tolerations: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const p = `${path}[${i}]`;
    const key = str(t.key);
    const operator = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (key) errs.push(...validateLabelName(key, `${p}.key`));
    if (!key && operator !== 'Exists') {
      errs.push(fieldErr.invalid(`${p}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(fieldErr.invalid(`${p}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (operator) {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(value);
        if (msgs.length) errs.push(fieldErr.invalid(`${p}.operator`, value, msgs.join(';')));
        break;
      }
      case 'Exists':
        if (value) errs.push(fieldErr.invalid(`${p}.operator`, value, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(fieldErr.notSupported(`${p}.operator`, operator, ['Equal', 'Exists']));
    }
    if (effect) errs.push(...validateTaintEffect(effect, true, `${p}.effect`));
  });
  return errs;
}

/** validateNodeTaints (Node spec.taints): key, value, effect, and unique (key, effect) pairs. */
export function validateNodeTaints(taints: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    const p = `${path}[${i}]`;
    const key = str(t.key);
    const effect = str(t.effect);
    errs.push(...validateLabelName(key, `${p}.key`));
    const msgs = isValidLabelValue(str(t.value));
    if (msgs.length) errs.push(fieldErr.invalid(`${p}.value`, str(t.value), msgs.join(';')));
    errs.push(...validateTaintEffect(effect, false, `${p}.effect`));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      errs.push({ ...fieldErr.duplicate(p, t), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    keys.add(key);
    seen.set(effect, keys);
  });
  return errs;
}

function validateNodeSelectorRequirement(rq: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = arrAt(rq, 'values') as string[];
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(fieldErr.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(fieldErr.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(fieldErr.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(fieldErr.invalid(`${path}.operator`, rq.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(rq.key), `${path}.key`));
  values.forEach((v, i) => errs.push(...invalidEach(`${path}.values[${i}]`, v, isValidLabelValue(String(v)))));
  return errs;
}

function validateNodeFieldSelectorRequirement(rq: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = arrAt(rq, 'values') as string[];
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) {
      errs.push(fieldErr.required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
    }
  } else {
    errs.push(fieldErr.invalid(`${path}.operator`, rq.operator ?? '', 'not a valid selector operator'));
  }
  if (rq.key !== 'metadata.name') errs.push(fieldErr.invalid(`${path}.key`, rq.key ?? '', 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...invalidEach(`${path}.values[${i}]`, v, nameIsDNSSubdomain(String(v), false))));
  return errs;
}

function validateNodeSelectorTerm(term: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objItems(term, 'matchExpressions').forEach((rq, j) => errs.push(...validateNodeSelectorRequirement(rq, `${path}.matchExpressions[${j}]`)));
  objItems(term, 'matchFields').forEach((rq, j) => errs.push(...validateNodeFieldSelectorRequirement(rq, `${path}.matchFields[${j}]`)));
  return errs;
}

function validatePodAffinityTerm(term: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabelSelector(term.labelSelector as LabelSelector | undefined, {}, `${path}.labelSelector`));
  errs.push(...validateLabelSelector(term.namespaceSelector as LabelSelector | undefined, {}, `${path}.namespaceSelector`));
  for (const ns of arrAt(term, 'namespaces')) {
    errs.push(...invalidEach(`${path}.namespace`, ns, validateNamespaceName(String(ns), false)));
  }
  if (!str(term.topologyKey)) errs.push(fieldErr.required(`${path}.topologyKey`, 'can not be empty'));
  errs.push(...validateLabelName(str(term.topologyKey), `${path}.topologyKey`));
  return errs;
}

function validatePodAffinityGroup(a: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  objItems(a, 'requiredDuringSchedulingIgnoredDuringExecution').forEach((t, i) =>
    errs.push(...validatePodAffinityTerm(t, `${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`)),
  );
  objItems(a, 'preferredDuringSchedulingIgnoredDuringExecution').forEach((w, i) => {
    const p = `${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    const weight = w.weight;
    if (typeof weight !== 'number' || weight <= 0 || weight > 100) {
      errs.push(fieldErr.invalid(`${p}.weight`, weight ?? 0, 'must be in the range 1-100'));
    }
    errs.push(...validatePodAffinityTerm(isObj(w.podAffinityTerm) ? w.podAffinityTerm : {}, `${p}.podAffinityTerm`));
  });
  return errs;
}

export function validateAffinity(affinity: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObj(affinity)) return errs;
  const na = affinity.nodeAffinity;
  if (isObj(na)) {
    const np = `${path}.nodeAffinity`;
    const required = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (isObj(required)) {
      const termsPath = `${np}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
      const terms = objItems(required, 'nodeSelectorTerms');
      if (terms.length === 0) errs.push(fieldErr.required(termsPath, 'must have at least one node selector term'));
      terms.forEach((t, i) => errs.push(...validateNodeSelectorTerm(t, `${termsPath}[${i}]`)));
    }
    objItems(na, 'preferredDuringSchedulingIgnoredDuringExecution').forEach((t, i) => {
      const p = `${np}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      const weight = t.weight;
      if (typeof weight !== 'number' || weight <= 0 || weight > 100) {
        errs.push(fieldErr.invalid(`${p}.weight`, weight ?? 0, 'must be in the range 1-100'));
      }
      errs.push(...validateNodeSelectorTerm(isObj(t.preference) ? t.preference : {}, `${p}.preference`));
    });
  }
  if (isObj(affinity.podAffinity)) errs.push(...validatePodAffinityGroup(affinity.podAffinity, `${path}.podAffinity`));
  if (isObj(affinity.podAntiAffinity)) errs.push(...validatePodAffinityGroup(affinity.podAntiAffinity, `${path}.podAntiAffinity`));
  return errs;
}

export function validateTopologySpreadConstraints(constraints: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  constraints.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const maxSkew = typeof c.maxSkew === 'number' ? c.maxSkew : 0;
    if (maxSkew <= 0) errs.push(fieldErr.invalid(`${p}.maxSkew`, maxSkew, 'must be greater than zero'));
    if (!str(c.topologyKey)) errs.push(fieldErr.required(`${p}.topologyKey`, 'can not be empty'));
    const when = str(c.whenUnsatisfiable);
    if (when !== 'DoNotSchedule' && when !== 'ScheduleAnyway') {
      errs.push(fieldErr.notSupported(`${p}.whenUnsatisfiable`, when, ['DoNotSchedule', 'ScheduleAnyway']));
    }
    const repeated = constraints.slice(i + 1).some((o) => str(o.topologyKey) === str(c.topologyKey) && str(o.whenUnsatisfiable) === when);
    if (repeated) errs.push(fieldErr.duplicate(`${p}.{topologyKey, whenUnsatisfiable}`, `{${str(c.topologyKey)}, ${when}}`));
    if (c.minDomains !== undefined && c.minDomains !== null) {
      if (typeof c.minDomains !== 'number' || c.minDomains <= 0) {
        errs.push(fieldErr.invalid(`${p}.minDomains`, c.minDomains, 'must be greater than zero'));
      } else if (when !== 'DoNotSchedule') {
        errs.push(fieldErr.invalid(`${p}.minDomains`, c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`));
      }
    }
    errs.push(...validateLabelSelector(c.labelSelector as LabelSelector | undefined, {}, `${p}.labelSelector`));
  });
  return errs;
}
