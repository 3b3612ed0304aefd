// ReplicationController strategy (pkg/registry/core/replicationcontroller/strategy.go): selector and labels default
// from the template, generation on spec change, status and scale subresources.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { selectorFromSet, selectorToString } from '../../../../../shared/lib/labels';
import type { ResourceStrategy } from '../../../types';
import { defaultPodTemplate } from '../../generic/podspec/defaults';
import { templateLabels } from '../../generic/podspec/validation';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, ensureObj, isObj, meta, setDefault, strMap, validateNonnegativeField } from '../../generic/util';
import { validateReplicaSetTemplate } from '../../generic/workload';
import { validateReplicaSetStatus } from '../../apps/replicaset/strategy';

/** SetDefaults_ReplicationController: selector and object labels from the template when unset. */
export function defaultReplicationController(rc: KubeObject): void {
  const spec = ensureObj(rc as Obj, 'spec');
  const labels = templateLabels(spec.template);
  if (labels) {
    if (Object.keys(strMap(spec.selector)).length === 0) spec.selector = { ...labels };
    const m = meta(rc);
    if (Object.keys(m.labels ?? {}).length === 0) m.labels = { ...labels };
  }
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(spec.template);
}

/** ValidateReplicationControllerSpec. */
export function validateReplicationControllerSpec(rc: KubeObject): FieldError[] {
  const spec = isObj(rc.spec) ? rc.spec : {};
  const errs = validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds');
  const selectorMap = strMap(spec.selector);
  if (Object.keys(selectorMap).length === 0) errs.push(fieldErr.required('spec.selector', ''));
  errs.push(...validateNonnegativeField(spec.replicas, 'spec.replicas'));
  errs.push(...validateReplicaSetTemplate(spec.template, selectorFromSet(selectorMap), 'spec.template', 'ReplicationController'));
  return errs;
}

export function replicationControllerStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultReplicationController,
    generationChanged: specChanged,
    // v1 ReplicationControllers orphan their pods on a DELETE without a policy, for back compatibility.
    defaultGarbageCollectionPolicy: { policy: 'OrphanDependents' },
    validateSpec: validateReplicationControllerSpec,
    status: { validate: validateReplicaSetStatus },
    scale: {
      specReplicasPath: '.spec.replicas',
      statusReplicasPath: '.status.replicas',
      selector: (rc) => selectorToString(selectorFromSet(strMap(isObj(rc.spec) ? rc.spec.selector : undefined))),
    },
    selectableFields: (rc) => ({ 'status.replicas': String(isObj(rc.status) && typeof rc.status.replicas === 'number' ? rc.status.replicas : 0) }),
  });
}
