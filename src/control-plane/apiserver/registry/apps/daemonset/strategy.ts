// DaemonSet strategy (pkg/registry/apps/daemonset/strategy.go): defaults, generation, immutable selector,
// rolling-update rules (exactly one of maxUnavailable and maxSurge non-zero), status subresource.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject, LabelSelector } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { validateLabelSelector } from '../../generic/metav1';
import { defaultPodTemplate } from '../../generic/podspec/defaults';
import { validatePodTemplateSpec } from '../../generic/podspec/validation';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, ensureObj, isObj, objAt, semanticEqual, setDefault, setDefaultString, validateImmutableField, validateNonnegativeField } from '../../generic/util';
import {
  intOrPercentValue,
  isNotMoreThan100Percent,
  specOf,
  trySelector,
  validatePositiveIntOrPercent,
  validateReplicaStatus,
  validateTemplateMatchesSelector,
} from '../../generic/workload';

export function defaultDaemonSet(ds: KubeObject): void {
  const spec = ensureObj(ds as Obj, 'spec');
  const us = ensureObj(spec, 'updateStrategy');
  setDefaultString(us, 'type', 'RollingUpdate');
  if (us.type === 'RollingUpdate') {
    const ru = ensureObj(us, 'rollingUpdate');
    setDefault(ru, 'maxUnavailable', 1);
    setDefault(ru, 'maxSurge', 0);
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplate(spec.template);
}

function validateUpdateStrategy(us: Obj, path: string): FieldError[] {
  switch (us.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = us.rollingUpdate;
      if (!isObj(ru)) return [fieldErr.required(`${path}.rollingUpdate`, '')];
      const errs: FieldError[] = [];
      const p = `${path}.rollingUpdate`;
      let hasUnavailable = false;
      let hasSurge = false;
      if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null && intOrPercentValue(ru.maxUnavailable) !== 0) {
        hasUnavailable = true;
        errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`), ...isNotMoreThan100Percent(ru.maxUnavailable, `${p}.maxUnavailable`));
      }
      if (ru.maxSurge !== undefined && ru.maxSurge !== null && intOrPercentValue(ru.maxSurge) !== 0) {
        hasSurge = true;
        errs.push(...validatePositiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`), ...isNotMoreThan100Percent(ru.maxSurge, `${p}.maxSurge`));
      }
      if (hasUnavailable && hasSurge) errs.push(fieldErr.invalid(`${p}.maxSurge`, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(fieldErr.required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      return errs;
    }
    default:
      return [fieldErr.notSupported(path, us, ['RollingUpdate', 'OnDelete'])];
  }
}

/** ValidateDaemonSetSpec. */
export function validateDaemonSetSpec(ds: KubeObject): FieldError[] {
  const spec = specOf(ds);
  const ls = spec.selector as LabelSelector | undefined;
  const errs = validateLabelSelector(ls, {}, 'spec.selector');
  const selector = trySelector(ls);
  errs.push(...validateTemplateMatchesSelector(selector, spec.template, 'spec.template'));
  if (ls && Object.keys(ls.matchLabels ?? {}).length + (ls.matchExpressions ?? []).length === 0) {
    errs.push(fieldErr.invalid('spec.selector', ls, 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
  const tspec = objAt(spec, 'template', 'spec') ?? {};
  if (tspec.restartPolicy !== 'Always') errs.push(fieldErr.notSupported('spec.template.spec.restartPolicy', tspec.restartPolicy ?? '', ['Always']));
  if (tspec.activeDeadlineSeconds !== undefined && tspec.activeDeadlineSeconds !== null) {
    errs.push(fieldErr.invalid('spec.template.spec.activeDeadlineSeconds', tspec.activeDeadlineSeconds, 'activeDeadlineSeconds must be nil for daemons'));
  }
  errs.push(...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateNonnegativeField(spec.templateGeneration, 'spec.templateGeneration'));
  errs.push(...validateUpdateStrategy(isObj(spec.updateStrategy) ? spec.updateStrategy : {}, 'spec.updateStrategy'));
  errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

function validateDaemonSetStatus(ds: KubeObject): FieldError[] {
  const status = isObj(ds.status) ? ds.status : {};
  return validateReplicaStatus(
    status,
    ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'],
    [],
  );
}

/**
 * apps/v1 carries the internal spec.templateGeneration as this annotation (pkg/apis/apps/v1 conversion): 1 on
 * create, bumped when the pod template changes. The controller labels its pods pod-template-generation from it.
 */
export const daemonSetTemplateGenerationAnnotation = 'deprecated.daemonset.template.generation';

function templateGeneration(ds: KubeObject): number {
  const n = Number.parseInt(ds.metadata.annotations?.[daemonSetTemplateGenerationAnnotation] ?? '', 10);
  return Number.isFinite(n) ? n : 0;
}

function setTemplateGeneration(ds: KubeObject, generation: number): void {
  ds.metadata.annotations = { ...ds.metadata.annotations, [daemonSetTemplateGenerationAnnotation]: String(generation) };
}

export function daemonSetStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultDaemonSet,
    prepareForCreate: (ds) => setTemplateGeneration(ds, 1),
    prepareForUpdate: (ds, old) => {
      const changed = !semanticEqual(specOf(ds).template, specOf(old).template);
      setTemplateGeneration(ds, templateGeneration(old) + (changed ? 1 : 0));
    },
    generationChanged: specChanged,
    validateSpec: validateDaemonSetSpec,
    validateUpdate: (ds, old) => validateImmutableField(specOf(ds).selector, specOf(old).selector, 'spec.selector'),
    status: { validate: validateDaemonSetStatus },
  });
}
