// HorizontalPodAutoscaler (autoscaling/v2) strategy: minReplicas 1 and an 80% CPU metric by default, behavior
// rules filled from the controller's defaults, replica bounds, target reference and metric checks. In v1.32 the
// HPA does not track generation (that came later behind the HPAGeneration gate).
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { parseApiVersion } from '../../../../../shared/api/types';
import { validatePathSegmentName } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { quantityValue } from '../../generic/quantity';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, ensureObj, invalidEach, isObj, objItems, setDefault, str, validateNonnegativeField } from '../../generic/util';

export const DefaultCPUUtilization = 80;

function scaleUpRules(): Obj {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

function scaleDownRules(): Obj {
  // No stabilization window: the controller's --horizontal-pod-autoscaler-downscale-stabilization applies.
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** copyHPAScalingRules: user-set fields win over the defaults. */
function mergeRules(user: unknown, defaults: Obj): Obj {
  if (!isObj(user)) return defaults;
  const out = { ...defaults };
  for (const f of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) if (user[f] !== undefined && user[f] !== null) out[f] = user[f];
  return out;
}

export function defaultHPA(hpa: KubeObject): void {
  const spec = ensureObj(hpa as Obj, 'spec');
  setDefault(spec, 'minReplicas', 1);
  if (objItems(spec, 'metrics').length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DefaultCPUUtilization } } }];
  }
  if (isObj(spec.behavior)) {
    spec.behavior.scaleUp = mergeRules(spec.behavior.scaleUp, scaleUpRules());
    spec.behavior.scaleDown = mergeRules(spec.behavior.scaleDown, scaleDownRules());
  }
}

function validateCrossVersionObjectReference(ref: Obj, path: string, allowEmptyGroup: boolean): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name']) {
    const v = str(ref[f]);
    if (!v) errs.push(fieldErr.required(`${path}.${f}`, ''));
    else errs.push(...invalidEach(`${path}.${f}`, v, validatePathSegmentName(v, false)));
  }
  const apiVersion = str(ref.apiVersion);
  if ((apiVersion.match(/\//g) ?? []).length > 1) {
    errs.push(fieldErr.invalid(`${path}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  } else if (!allowEmptyGroup && !parseApiVersion(apiVersion).group) {
    errs.push(fieldErr.invalid(`${path}.apiVersion`, apiVersion, 'apiVersion must specify API group'));
  }
  return errs;
}

const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const fieldForType: Record<string, string> = { ContainerResource: 'containerResource', External: 'external', Object: 'object', Pods: 'pods', Resource: 'resource' };

function validateMetricTarget(t: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(t.type);
  if (!type) errs.push(fieldErr.required(`${path}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(fieldErr.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  for (const f of ['value', 'averageValue']) {
    if (t[f] !== undefined && t[f] !== null && !((quantityValue(t[f]) ?? 0) > 0)) errs.push(fieldErr.invalid(`${path}.${f}`, t[f], 'must be positive'));
  }
  if (typeof t.averageUtilization === 'number' && t.averageUtilization < 1) errs.push(fieldErr.invalid(`${path}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateMetric(m: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(m.type);
  if (!type) errs.push(fieldErr.required(`${path}.type`, 'must specify a metric source type'));
  if (!metricSourceTypes.includes(type)) errs.push(fieldErr.notSupported(`${path}.type`, type, metricSourceTypes));
  const expected = Object.prototype.hasOwnProperty.call(fieldForType, type) ? fieldForType[type] : undefined;
  const present = Object.values(fieldForType).filter((f) => isObj(m[f])).sort();
  if (expected && !isObj(m[expected])) errs.push(fieldErr.required(`${path}.${expected}`, 'must populate information for the given metric source'));
  if (present.length !== 1) for (const f of present) if (f !== expected) errs.push(fieldErr.forbidden(`${path}.${f}`, 'must populate the given metric source only'));
  for (const key of ['resource', 'containerResource']) {
    const src = m[key];
    if (!isObj(src)) continue;
    const p = `${path}.${key}`;
    if (!str(src.name)) errs.push(fieldErr.required(`${p}.name`, 'must specify a resource name'));
    if (key === 'containerResource' && !str(src.container)) errs.push(fieldErr.required(`${p}.container`, 'must specify a container'));
    const target = isObj(src.target) ? src.target : {};
    errs.push(...validateMetricTarget(target, `${p}.target`));
    const hasUtil = target.averageUtilization !== undefined && target.averageUtilization !== null;
    const hasAvg = target.averageValue !== undefined && target.averageValue !== null;
    if (!hasUtil && !hasAvg) errs.push(fieldErr.required(`${p}.target.averageUtilization`, 'must set either a target raw value or a target utilization'));
    if (hasUtil && hasAvg) errs.push(fieldErr.forbidden(`${p}.target.averageValue`, 'may not set both a target raw value and a target utilization'));
  }
  return errs;
}

function validateScalingRules(rules: unknown, path: string): FieldError[] {
  if (!isObj(rules)) return [];
  const errs: FieldError[] = [];
  const sw = rules.stabilizationWindowSeconds;
  if (typeof sw === 'number') {
    if (sw < 0) errs.push(fieldErr.invalid(`${path}.stabilizationWindowSeconds`, sw, 'must be greater than or equal to zero'));
    if (sw > 3600) errs.push(fieldErr.invalid(`${path}.stabilizationWindowSeconds`, sw, 'must be less than or equal to 3600'));
  }
  const sp = rules.selectPolicy;
  if (sp !== undefined && sp !== null && !['Max', 'Min', 'Disabled'].includes(str(sp))) {
    errs.push(fieldErr.notSupported(`${path}.selectPolicy`, sp, ['Disabled', 'Max', 'Min']));
  }
  const policies = objItems(rules, 'policies');
  if (policies.length === 0) errs.push(fieldErr.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const pp = `${path}.policies[${i}]`;
    if (p.type !== 'Pods' && p.type !== 'Percent') errs.push(fieldErr.invalid(`${pp}.type`, p.type ?? '', 'must be either Pods or Percent'));
    if (typeof p.value !== 'number' || p.value <= 0) errs.push(fieldErr.invalid(`${pp}.value`, p.value ?? 0, 'must be greater than zero'));
    const period = typeof p.periodSeconds === 'number' ? p.periodSeconds : 0;
    if (period <= 0) errs.push(fieldErr.invalid(`${pp}.periodSeconds`, period, 'must be greater than zero'));
    if (period > 1800) errs.push(fieldErr.invalid(`${pp}.periodSeconds`, period, 'must be less than or equal to 1800'));
  });
  return errs;
}

function validateHPASpec(hpa: KubeObject): FieldError[] {
  const spec = isObj(hpa.spec) ? hpa.spec : {};
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  if (typeof min === 'number' && min < 1) errs.push(fieldErr.invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (max < 1) errs.push(fieldErr.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) errs.push(fieldErr.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  const ref = isObj(spec.scaleTargetRef) ? spec.scaleTargetRef : {};
  errs.push(...validateCrossVersionObjectReference(ref, 'spec.scaleTargetRef', ref.kind === 'ReplicationController'));
  objItems(spec, 'metrics').forEach((m, i) => errs.push(...validateMetric(m, `spec.metrics[${i}]`)));
  if (isObj(spec.behavior)) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, 'spec.behavior.scaleUp'));
    errs.push(...validateScalingRules(spec.behavior.scaleDown, 'spec.behavior.scaleDown'));
  }
  return errs;
}

export function horizontalPodAutoscalerStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultHPA,
    validateSpec: validateHPASpec,
    status: {
      validate(hpa) {
        const status = isObj(hpa.status) ? hpa.status : {};
        return [...validateNonnegativeField(status.currentReplicas, 'status.currentReplicas'), ...validateNonnegativeField(status.desiredReplicas, 'status.desiredReplicas')];
      },
    },
  });
}
