// ReplicaSet strategy (pkg/registry/apps/replicaset/strategy.go): replicas default 1, generation on spec change,
// immutable selector, status and scale subresources, status.replicas as a field selector.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { defaultPodTemplate } from '../../generic/podspec/defaults';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, ensureObj, isObj, setDefault, validateImmutableField, validateNonnegativeField } from '../../generic/util';
import {
  replicasScale,
  specOf,
  validateReplicaSetTemplate,
  validateReplicaStatus,
  validateSelectorAndTemplateLabels,
} from '../../generic/workload';

export function defaultReplicaSet(rs: KubeObject): void {
  const spec = ensureObj(rs as Obj, 'spec');
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(spec.template);
}

/** ValidateReplicaSetSpec (its empty-selector message says "deployment", as Kubernetes' does). */
export function validateReplicaSetSpec(rs: KubeObject): FieldError[] {
  const spec = specOf(rs);
  const errs = [...validateNonnegativeField(spec.replicas, 'spec.replicas'), ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds')];
  const sel = validateSelectorAndTemplateLabels(spec, 'spec', 'empty selector is invalid for deployment');
  errs.push(...sel.errs);
  if (sel.selector) errs.push(...validateReplicaSetTemplate(spec.template, sel.selector, 'spec.template', 'ReplicaSet'));
  return errs;
}

export function validateReplicaSetStatus(rs: KubeObject): FieldError[] {
  const status = isObj(rs.status) ? rs.status : {};
  const errs = validateReplicaStatus(
    status,
    ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
    ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'],
  );
  const ready = typeof status.readyReplicas === 'number' ? status.readyReplicas : 0;
  if (typeof status.availableReplicas === 'number' && status.availableReplicas > ready) {
    errs.push(fieldErr.invalid('status.availableReplicas', status.availableReplicas, 'cannot be greater than readyReplicas'));
  }
  return errs;
}

export function replicaSetStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultReplicaSet,
    generationChanged: specChanged,
    validateSpec: validateReplicaSetSpec,
    validateUpdate: (rs, old) => validateImmutableField(specOf(rs).selector, specOf(old).selector, 'spec.selector'),
    status: { validate: validateReplicaSetStatus },
    scale: replicasScale,
    selectableFields: (rs) => ({ 'status.replicas': String(isObj(rs.status) && typeof rs.status.replicas === 'number' ? rs.status.replicas : 0) }),
  });
}
