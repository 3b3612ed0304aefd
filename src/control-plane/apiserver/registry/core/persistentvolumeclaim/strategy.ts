// PersistentVolumeClaim strategy (pkg/registry/core/persistentvolumeclaim/strategy.go): Pending on create, a spec
// that is immutable except volumeName (once) and, for bound claims, the storage request (which may only grow).
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject, LabelSelector } from '../../../../../shared/api/types';
import { nameIsDNSSubdomain } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateLabelSelector } from '../../generic/metav1';
import { compareQuantities, quantityString, quantityValue } from '../../generic/quantity';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, arrAt, clone, ensureObj, invalidEach, isObj, objAt, semanticEqual, setDefault, str, validateImmutableField } from '../../generic/util';
import { podSpecDiff } from '../pod/update';

export const AccessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VolumeModes = ['Block', 'Filesystem'];

export function defaultClaimSpec(spec: Obj): void {
  setDefault(spec, 'volumeMode', 'Filesystem');
}

/** ValidatePersistentVolumeClaimSpec. */
export function validateClaimSpec(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const modes = arrAt(spec, 'accessModes').map(String);
  if (modes.length === 0) errs.push(fieldErr.required(`${path}.accessModes`, 'at least 1 access mode is required'));
  if (isObj(spec.selector)) errs.push(...validateLabelSelector(spec.selector as LabelSelector, {}, `${path}.selector`));
  let rwop = false;
  let other = false;
  for (const m of modes) {
    if (!AccessModes.includes(m)) errs.push(fieldErr.notSupported(`${path}.accessModes`, m, AccessModes));
    if (m === 'ReadWriteOncePod') rwop = true;
    else if (AccessModes.includes(m)) other = true;
  }
  if (rwop && other) errs.push(fieldErr.forbidden(`${path}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  const storage = objAt(spec, 'resources', 'requests')?.storage;
  const storagePath = `${path}.resources[storage]`;
  if (storage === undefined) errs.push(fieldErr.required(storagePath, ''));
  else if ((quantityValue(storage) ?? 0) <= 0) errs.push(fieldErr.invalid(storagePath, quantityString(storage), 'must be greater than zero'));
  const sc = spec.storageClassName;
  if (typeof sc === 'string' && sc) errs.push(...invalidEach(`${path}.storageClassName`, sc, nameIsDNSSubdomain(sc, false)));
  if (spec.volumeMode !== undefined && spec.volumeMode !== null && !VolumeModes.includes(str(spec.volumeMode))) {
    errs.push(fieldErr.notSupported(`${path}.volumeMode`, spec.volumeMode, VolumeModes));
  }
  return errs;
}

function validateClaimUpdate(pvc: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = clone(isObj(pvc.spec) ? pvc.spec : {});
  const oldSpec = clone(isObj(old.spec) ? old.spec : {});
  // The PV controller fills volumeName once.
  if (!str(oldSpec.volumeName)) {
    if (spec.volumeName === undefined) delete oldSpec.volumeName;
    else oldSpec.volumeName = spec.volumeName;
  }
  const bound = isObj(pvc.status) && pvc.status.phase === 'Bound';
  if (bound && isObj(spec.resources) && isObj(spec.resources.requests)) {
    spec.resources.requests.storage = objAt(oldSpec, 'resources', 'requests')?.storage;
    spec.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
  }
  if (!semanticEqual(spec, oldSpec)) {
    errs.push(
      fieldErr.forbidden(
        'spec',
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${podSpecDiff(oldSpec, spec).replace('core.PodSpec', 'core.PersistentVolumeClaimSpec')}`,
      ),
    );
  }
  const newSize = objAt(pvc.spec, 'resources', 'requests')?.storage;
  const oldSize = objAt(old.spec, 'resources', 'requests')?.storage;
  if ((compareQuantities(newSize, oldSize) ?? 0) < 0) {
    errs.push(fieldErr.forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  }
  errs.push(...validateImmutableField(objAt(pvc, 'spec')?.volumeMode, objAt(old, 'spec')?.volumeMode, 'volumeMode'));
  return errs;
}

export function persistentVolumeClaimStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: (pvc) => defaultClaimSpec(ensureObj(pvc as Obj, 'spec')),
    // Reading from storage would default the phase; the stored object shows it right away.
    prepareForCreate: (pvc) => {
      pvc.status = { phase: 'Pending' };
    },
    validateSpec: (pvc) => validateClaimSpec(isObj(pvc.spec) ? pvc.spec : {}, 'spec'),
    validateUpdate: validateClaimUpdate,
    status: {
      validate(pvc) {
        const errs: FieldError[] = [];
        const capacity = objAt(pvc, 'status', 'capacity') ?? {};
        for (const [k, v] of Object.entries(capacity)) {
          if ((quantityValue(v) ?? 0) < 0) errs.push(fieldErr.invalid(`status.capacity[${k}]`, quantityValue(v), 'must be a valid resource quantity'));
        }
        return errs;
      },
    },
  });
}
