// StatefulSet strategy (pkg/registry/apps/statefulset/strategy.go): defaults, generation, the short list of
// mutable spec fields, status and scale subresources.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { defaultPodTemplate } from '../../generic/podspec/defaults';
import { validatePodTemplateSpec } from '../../generic/podspec/validation';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, clone, ensureObj, isObj, objItems, semanticEqual, setDefault, setDefaultString, str, validateNonnegativeField } from '../../generic/util';
import {
  replicasScale,
  specOf,
  validateAlwaysRestart,
  validatePositiveIntOrPercent,
  validateReplicaStatus,
  validateSelectorAndTemplateLabels,
  validateTemplateMatchesSelector,
} from '../../generic/workload';

export const statefulSetSpecForbiddenMsg =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

export function defaultStatefulSet(sts: KubeObject): void {
  const spec = ensureObj(sts as Obj, 'spec');
  setDefaultString(spec, 'podManagementPolicy', 'OrderedReady');
  const us = ensureObj(spec, 'updateStrategy');
  if (!us.type) {
    us.type = 'RollingUpdate';
    setDefault(us, 'rollingUpdate', {});
  }
  if (us.type === 'RollingUpdate' && isObj(us.rollingUpdate)) setDefault(us.rollingUpdate, 'partition', 0);
  const retention = ensureObj(spec, 'persistentVolumeClaimRetentionPolicy');
  setDefaultString(retention, 'whenDeleted', 'Retain');
  setDefaultString(retention, 'whenScaled', 'Retain');
  setDefault(spec, 'replicas', 1);
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplate(spec.template);
  // The claim templates are PersistentVolumeClaims and get their defaults (shown in `kubectl get -o yaml`).
  for (const vct of objItems(spec, 'volumeClaimTemplates')) {
    setDefault(ensureObj(vct, 'spec'), 'volumeMode', 'Filesystem');
    setDefault(ensureObj(vct, 'status'), 'phase', 'Pending');
  }
}

/** ValidateStatefulSetSpec. */
export function validateStatefulSetSpec(sts: KubeObject): FieldError[] {
  const spec = specOf(sts);
  const errs: FieldError[] = [];
  const pmp = str(spec.podManagementPolicy);
  if (!pmp) errs.push(fieldErr.required('spec.podManagementPolicy', ''));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(fieldErr.invalid('spec.podManagementPolicy', pmp, "must be 'OrderedReady' or 'Parallel'"));

  const us = isObj(spec.updateStrategy) ? spec.updateStrategy : {};
  switch (us.type) {
    case undefined:
    case '':
      errs.push(fieldErr.required('spec.updateStrategy', ''));
      break;
    case 'OnDelete':
      if (us.rollingUpdate !== undefined && us.rollingUpdate !== null) {
        errs.push(fieldErr.invalid('spec.updateStrategy.rollingUpdate', us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
      }
      break;
    case 'RollingUpdate':
      if (isObj(us.rollingUpdate)) {
        errs.push(...validateNonnegativeField(us.rollingUpdate.partition, 'spec.updateStrategy.rollingUpdate.partition'));
        if (us.rollingUpdate.maxUnavailable !== undefined && us.rollingUpdate.maxUnavailable !== null) {
          errs.push(...validatePositiveIntOrPercent(us.rollingUpdate.maxUnavailable, 'spec.updateStrategy.rollingUpdate.maxUnavailable'));
        }
      }
      break;
    default:
      errs.push(fieldErr.invalid('spec.updateStrategy', us, "must be 'RollingUpdate' or 'OnDelete'"));
  }

  const retention = spec.persistentVolumeClaimRetentionPolicy;
  if (isObj(retention)) {
    for (const f of ['whenDeleted', 'whenScaled']) {
      const v = str(retention[f]);
      if (v !== 'Retain' && v !== 'Delete') errs.push(fieldErr.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, v, ['Retain', 'Delete']));
    }
  }
  errs.push(...validateNonnegativeField(spec.replicas, 'spec.replicas'));
  errs.push(...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'));
  if (isObj(spec.ordinals)) errs.push(...validateNonnegativeField(spec.ordinals.start, 'spec.ordinals.start'));

  const sel = validateSelectorAndTemplateLabels(spec, 'spec', 'empty selector is invalid for statefulset');
  errs.push(...sel.errs);
  if (sel.selector) {
    if (!isObj(spec.template)) errs.push(fieldErr.required('spec.template', ''));
    else {
      errs.push(...validateTemplateMatchesSelector(sel.selector, spec.template, 'spec.template'));
      // Claim templates stand in for volumes, so mounts of them validate.
      const claimNames = objItems(spec, 'volumeClaimTemplates').map((v) => str(isObj(v.metadata) ? v.metadata.name : ''));
      errs.push(...validatePodTemplateSpec(spec.template, 'spec.template', { extraVolumeNames: claimNames }));
    }
  }
  errs.push(...validateAlwaysRestart(spec.template, 'spec.template', 'StatefulSet'));
  return errs;
}

/** ValidateStatefulSetUpdate: only the listed spec fields may change. */
export function validateStatefulSetUpdate(sts: KubeObject, old: KubeObject): FieldError[] {
  const spec = clone(specOf(sts));
  const oldSpec = specOf(old);
  for (const f of ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy']) {
    if (oldSpec[f] === undefined) delete spec[f];
    else spec[f] = oldSpec[f];
  }
  return semanticEqual(spec, oldSpec) ? [] : [fieldErr.forbidden('spec', statefulSetSpecForbiddenMsg)];
}

function validateStatefulSetStatus(sts: KubeObject, old: KubeObject): FieldError[] {
  const status = isObj(sts.status) ? sts.status : {};
  const errs = validateReplicaStatus(
    status,
    ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'],
    ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
  );
  const ready = typeof status.readyReplicas === 'number' ? status.readyReplicas : 0;
  if (typeof status.availableReplicas === 'number' && status.availableReplicas > ready) {
    errs.push(fieldErr.invalid('status.availableReplicas', status.availableReplicas, 'cannot be greater than status.readyReplicas'));
  }
  const oldCollisions = isObj(old.status) ? old.status.collisionCount : undefined;
  if (typeof oldCollisions === 'number' && (typeof status.collisionCount !== 'number' || status.collisionCount < oldCollisions)) {
    errs.push(fieldErr.invalid('status.collisionCount', status.collisionCount ?? 0, 'cannot be decremented'));
  }
  return errs;
}

export function statefulSetStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultStatefulSet,
    generationChanged: specChanged,
    validateSpec: validateStatefulSetSpec,
    validateUpdate: validateStatefulSetUpdate,
    status: { validate: validateStatefulSetStatus },
    scale: replicasScale,
  });
}
