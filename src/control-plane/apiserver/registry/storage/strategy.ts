// storage.k8s.io strategies: StorageClass (Delete/Immediate defaults, immutable provisioner, parameters, reclaim
// policy and binding mode), CSIDriver, CSINode and VolumeAttachment basics.
import { fieldErr, type FieldError } from '../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../shared/api/resources';
import type { KubeObject } from '../../../../shared/api/types';
import { isQualifiedName } from '../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../types';
import { defineStrategy } from '../generic/strategy';
import { type Obj, invalidEach, isObj, objItems, semanticEqual, setDefaultString, str, validateImmutableField } from '../generic/util';

export function defaultStorageClass(sc: KubeObject): void {
  setDefaultString(sc as Obj, 'reclaimPolicy', 'Delete');
  setDefaultString(sc as Obj, 'volumeBindingMode', 'Immediate');
}

function validateStorageClass(sc: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const provisioner = str(sc.provisioner);
  if (!provisioner) errs.push(fieldErr.required('provisioner', ''));
  else errs.push(...invalidEach('provisioner', provisioner.toLowerCase(), isQualifiedName(provisioner.toLowerCase())));
  const params = isObj(sc.parameters) ? sc.parameters : {};
  let size = 0;
  for (const [k, v] of Object.entries(params)) {
    if (!k) errs.push(fieldErr.invalid('parameters', k, 'field can not be empty.'));
    size += k.length + String(v).length;
  }
  if (Object.keys(params).length > 512) errs.push(fieldErr.tooLong('parameters', 512));
  if (size > 256 * 1024) errs.push(fieldErr.tooLong('parameters', 256 * 1024));
  const reclaim = sc.reclaimPolicy;
  if (reclaim !== undefined && reclaim !== null && reclaim !== 'Delete' && reclaim !== 'Retain') {
    errs.push(fieldErr.notSupported('reclaimPolicy', reclaim, ['Delete', 'Retain']));
  }
  const mode = sc.volumeBindingMode;
  if (mode === undefined || mode === null || mode === '') errs.push(fieldErr.required('volumeBindingMode', ''));
  else if (mode !== 'Immediate' && mode !== 'WaitForFirstConsumer') errs.push(fieldErr.notSupported('volumeBindingMode', mode, ['Immediate', 'WaitForFirstConsumer']));
  return errs;
}

function validateStorageClassUpdate(sc: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(sc.parameters, old.parameters)) errs.push(fieldErr.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) errs.push(fieldErr.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) errs.push(fieldErr.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  errs.push(...validateImmutableField(sc.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode'));
  return errs;
}

export function storageClassStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, { applyDefaults: defaultStorageClass, validateSpec: validateStorageClass, validateUpdate: validateStorageClassUpdate });
}

function validateVolumeAttachment(va: KubeObject): FieldError[] {
  const spec = isObj(va.spec) ? va.spec : {};
  const errs: FieldError[] = [];
  if (!str(spec.attacher)) errs.push(fieldErr.required('spec.attacher', ''));
  if (!str(spec.nodeName)) errs.push(fieldErr.required('spec.nodeName', ''));
  const source = isObj(spec.source) ? spec.source : {};
  const count = ['persistentVolumeName', 'inlineVolumeSpec'].filter((k) => source[k] !== undefined && source[k] !== null).length;
  if (count === 0) errs.push(fieldErr.required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  else if (count > 1) errs.push(fieldErr.forbidden('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  return errs;
}

export function volumeAttachmentStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    validateSpec: validateVolumeAttachment,
    validateUpdate: (va, old) => validateImmutableField(va.spec, old.spec, 'spec'),
    allowUnconditionalUpdate: false,
  });
}

function validateCSINode(node: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objItems(isObj(node.spec) ? node.spec : {}, 'drivers').forEach((d, i) => {
    const name = str(d.name);
    const p = `spec.drivers[${i}]`;
    if (!name) errs.push(fieldErr.required(`${p}.name`, ''));
    if (names.has(name)) errs.push(fieldErr.duplicate(`${p}.name`, name));
    names.add(name);
    if (!str(d.nodeID)) errs.push(fieldErr.required(`${p}.nodeID`, ''));
  });
  return errs;
}

export function csiNodeStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, { validateSpec: validateCSINode });
}
