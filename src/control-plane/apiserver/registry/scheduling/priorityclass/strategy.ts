// PriorityClass strategy (pkg/registry/scheduling/priorityclass/strategy.go): user classes stay at or below one
// billion, "system-" names are reserved, value and preemptionPolicy never change.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { validateKubeObjectMetaUpdate } from '../../generic/kubemeta';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, setDefaultString, str, validateImmutableField } from '../../generic/util';

export const HighestUserDefinablePriority = 1000000000;
export const SystemPriorityClasses: Readonly<Record<string, number>> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

function validatePriorityClass(pc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = pc.metadata.name ?? '';
  const value = typeof pc.value === 'number' ? pc.value : 0;
  if (name.startsWith('system-')) {
    const known = Object.prototype.hasOwnProperty.call(SystemPriorityClasses, name) ? SystemPriorityClasses[name] : undefined;
    const err = known === undefined ? `${name} is not a known system priority class` : known !== value ? `value of ${name} PriorityClass must be ${known}` : '';
    if (err) errs.push(fieldErr.forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${err}`));
  } else if (value > HighestUserDefinablePriority) {
    errs.push(fieldErr.forbidden('value', `maximum allowed value of a user defined priority is ${HighestUserDefinablePriority}`));
  }
  if (pc.preemptionPolicy !== undefined && pc.preemptionPolicy !== null) {
    const pp = str(pc.preemptionPolicy);
    if (!pp) errs.push(fieldErr.required('preemptionPolicy', ''));
    else if (pp !== 'PreemptLowerPriority' && pp !== 'Never') errs.push(fieldErr.notSupported('preemptionPolicy', pp, ['PreemptLowerPriority', 'Never']));
  }
  return errs;
}

export function priorityClassStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: (pc) => setDefaultString(pc as Obj, 'preemptionPolicy', 'PreemptLowerPriority'),
    validateSpec: validatePriorityClass,
    validateUpdateFull: (pc, old) => [
      ...validateKubeObjectMetaUpdate(pc.metadata, old.metadata),
      ...(pc.value !== old.value ? [fieldErr.forbidden('value', 'may not be changed in an update.')] : []),
      ...validateImmutableField(pc.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'),
    ],
  });
}
