// PodDisruptionBudget strategy (pkg/registry/policy/poddisruptionbudget/strategy.go): minAvailable and
// maxUnavailable are exclusive, generation on spec change, status subresource.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject, LabelSelector } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { validateLabelSelector } from '../../generic/metav1';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { isObj, validateNonnegativeField } from '../../generic/util';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../generic/workload';

function validatePDBSpec(pdb: KubeObject): FieldError[] {
  const spec = isObj(pdb.spec) ? pdb.spec : {};
  const errs: FieldError[] = [];
  const set = (v: unknown) => v !== undefined && v !== null;
  if (set(spec.minAvailable) && set(spec.maxUnavailable)) errs.push(fieldErr.invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const f of ['minAvailable', 'maxUnavailable']) {
    if (!set(spec[f])) continue;
    errs.push(...validatePositiveIntOrPercent(spec[f], `spec.${f}`), ...isNotMoreThan100Percent(spec[f], `spec.${f}`));
  }
  errs.push(...validateLabelSelector(spec.selector as LabelSelector | undefined, {}, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (set(policy) && policy !== 'AlwaysAllow' && policy !== 'IfHealthyBudget') {
    errs.push(fieldErr.notSupported('spec.unhealthyPodEvictionPolicy', policy, ['AlwaysAllow', 'IfHealthyBudget']));
  }
  return errs;
}

function validatePDBStatus(pdb: KubeObject): FieldError[] {
  const status = isObj(pdb.status) ? pdb.status : {};
  return ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods', 'observedGeneration'].flatMap((f) =>
    validateNonnegativeField(status[f], `status.${f}`),
  );
}

export function podDisruptionBudgetStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    generationChanged: specChanged,
    validateSpec: validatePDBSpec,
    status: { validate: validatePDBStatus },
  });
}
