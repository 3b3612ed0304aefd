// Lease strategy (pkg/registry/coordination/lease/strategy.go): a positive lease duration and non-negative
// transitions. Updates must carry a resourceVersion: leader election relies on compare-and-swap.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { defineStrategy } from '../../generic/strategy';
import { isObj, validateNonnegativeField } from '../../generic/util';

function validateLeaseSpec(lease: KubeObject): FieldError[] {
  const spec = isObj(lease.spec) ? lease.spec : {};
  const errs: FieldError[] = [];
  const d = spec.leaseDurationSeconds;
  if (typeof d === 'number' && d <= 0) errs.push(fieldErr.invalid('spec.leaseDurationSeconds', d, 'must be greater than 0'));
  errs.push(...validateNonnegativeField(spec.leaseTransitions, 'spec.leaseTransitions'));
  return errs;
}

export function leaseStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, { validateSpec: validateLeaseSpec, allowUnconditionalUpdate: false });
}
