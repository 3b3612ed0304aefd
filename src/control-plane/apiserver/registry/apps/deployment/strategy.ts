// Deployment strategy (pkg/registry/apps/deployment/strategy.go, pkg/apis/apps/v1/defaults.go,
// pkg/apis/apps/validation): defaults, generation on spec or annotation changes, immutable selector,
// rolling-update parameter rules, status and scale subresources.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { defaultPodTemplate } from '../../generic/podspec/defaults';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, ensureObj, isObj, semanticEqual, setDefault, setDefaultString, validateImmutableField, validateNonnegativeField } from '../../generic/util';
import {
  intOrPercentValue,
  isNotMoreThan100Percent,
  replicasScale,
  specOf,
  validatePositiveIntOrPercent,
  validateReplicaSetTemplate,
  validateReplicaStatus,
  validateSelectorAndTemplateLabels,
} from '../../generic/workload';

export function defaultDeployment(d: KubeObject): void {
  const spec = ensureObj(d as Obj, 'spec');
  setDefault(spec, 'replicas', 1);
  const strategy = ensureObj(spec, 'strategy');
  setDefaultString(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const ru = ensureObj(strategy, 'rollingUpdate');
    setDefault(ru, 'maxUnavailable', '25%');
    setDefault(ru, 'maxSurge', '25%');
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultPodTemplate(spec.template);
}

function validateRollingUpdateDeployment(ru: Obj, path: string): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`),
    ...validatePositiveIntOrPercent(ru.maxSurge, `${path}.maxSurge`),
  ];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errs.push(fieldErr.invalid(`${path}.maxUnavailable`, ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, `${path}.maxUnavailable`));
  return errs;
}

function validateDeploymentStrategy(strategy: Obj, path: string): FieldError[] {
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null
        ? [fieldErr.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")]
        : [];
    case 'RollingUpdate':
      return isObj(strategy.rollingUpdate)
        ? validateRollingUpdateDeployment(strategy.rollingUpdate, `${path}.rollingUpdate`)
        : [fieldErr.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
    default:
      return [fieldErr.notSupported(path, strategy, ['Recreate', 'RollingUpdate'])];
  }
}

/** ValidateDeploymentSpec. */
export function validateDeploymentSpec(d: KubeObject): FieldError[] {
  const spec = specOf(d);
  const errs = validateNonnegativeField(spec.replicas, 'spec.replicas');
  const sel = validateSelectorAndTemplateLabels(spec, 'spec', 'empty selector is invalid for deployment');
  errs.push(...sel.errs);
  if (sel.selector) errs.push(...validateReplicaSetTemplate(spec.template, sel.selector, 'spec.template', 'ReplicaSet'));
  errs.push(...validateDeploymentStrategy(isObj(spec.strategy) ? spec.strategy : {}, 'spec.strategy'));
  errs.push(...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  const pds = spec.progressDeadlineSeconds;
  if (typeof pds === 'number') {
    errs.push(...validateNonnegativeField(pds, 'spec.progressDeadlineSeconds'));
    const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (pds <= minReady) errs.push(fieldErr.invalid('spec.progressDeadlineSeconds', pds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

function validateDeploymentStatus(d: KubeObject, old: KubeObject): FieldError[] {
  const status = isObj(d.status) ? d.status : {};
  const errs = validateReplicaStatus(
    status,
    ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'],
    ['updatedReplicas', 'readyReplicas', 'availableReplicas'],
  );
  const ready = typeof status.readyReplicas === 'number' ? status.readyReplicas : 0;
  if (typeof status.availableReplicas === 'number' && status.availableReplicas > ready) {
    errs.push(fieldErr.invalid('status.availableReplicas', status.availableReplicas, 'cannot be greater than readyReplicas'));
  }
  const oldCollisions = isObj(old.status) ? old.status.collisionCount : undefined;
  if (typeof oldCollisions === 'number' && (typeof status.collisionCount !== 'number' || status.collisionCount < oldCollisions)) {
    errs.push(fieldErr.invalid('status.collisionCount', status.collisionCount ?? 0, 'cannot be decremented'));
  }
  return errs;
}

export function deploymentStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultDeployment,
    // Annotations count too: the controller copies them onto the ReplicaSets it manages.
    generationChanged: (d, old) => !semanticEqual(d.spec, old.spec) || !semanticEqual(d.metadata.annotations, old.metadata.annotations),
    validateSpec: validateDeploymentSpec,
    validateUpdate: (d, old) => validateImmutableField(specOf(d).selector, specOf(old).selector, 'spec.selector'),
    status: {
      prepareForUpdate(d, old) {
        const labels = old.metadata.labels;
        const m = d.metadata as Obj;
        if (labels === undefined) delete m.labels;
        else m.labels = labels;
      },
      validate: validateDeploymentStatus,
    },
    scale: replicasScale,
  });
}
