// PersistentVolume strategy (pkg/registry/core/persistentvolume/strategy.go): Retain and Filesystem defaults,
// Pending on create, exactly one volume source, capacity of storage only.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { nameIsDNSSubdomain } from '../../../../../shared/lib/validation';
import { rfc3339 } from '../../../../sim/clock';
import type { ResourceStrategy } from '../../../types';
import { VolumeSourceKeys } from '../../generic/podspec/defaults';
import { validateResourceQuantityValue } from '../../generic/podspec/resources';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, arrAt, ensureObj, invalidEach, isObj, setDefault, setDefaultString, str, validateImmutableField } from '../../generic/util';
import { AccessModes } from '../persistentvolumeclaim/strategy';

// PV sources: the pod volume sources that make sense for a PersistentVolume, plus local.
const pvSources = [...VolumeSourceKeys.filter((k) => !['emptyDir', 'gitRepo', 'secret', 'downwardAPI', 'configMap', 'projected', 'ephemeral', 'image', 'persistentVolumeClaim'].includes(k)), 'local'];

export function defaultPersistentVolume(pv: KubeObject): void {
  const spec = ensureObj(pv as Obj, 'spec');
  setDefaultString(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefault(spec, 'volumeMode', 'Filesystem');
}

function validatePersistentVolume(pv: KubeObject): FieldError[] {
  const spec = isObj(pv.spec) ? pv.spec : {};
  const errs: FieldError[] = [];
  const modes = arrAt(spec, 'accessModes').map(String);
  if (modes.length === 0) errs.push(fieldErr.required('spec.accessModes', ''));
  for (const m of modes) if (!AccessModes.includes(m)) errs.push(fieldErr.notSupported('spec.accessModes', m, AccessModes));
  const capacity = isObj(spec.capacity) ? spec.capacity : {};
  if (Object.keys(capacity).length === 0) errs.push(fieldErr.required('spec.capacity', ''));
  if (!Object.prototype.hasOwnProperty.call(capacity, 'storage') || Object.keys(capacity).length > 1) {
    errs.push(fieldErr.notSupported('spec.capacity', capacity, ['storage']));
  }
  for (const [k, v] of Object.entries(capacity)) errs.push(...validateResourceQuantityValue(k, v, `spec.capacity[${k}]`));
  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy && !['Delete', 'Recycle', 'Retain'].includes(policy)) {
    errs.push(fieldErr.notSupported('spec.persistentVolumeReclaimPolicy', policy, ['Delete', 'Recycle', 'Retain']));
  }
  const sc = spec.storageClassName;
  if (typeof sc === 'string' && sc) errs.push(...invalidEach('spec.storageClassName', sc, nameIsDNSSubdomain(sc, false)));
  let count = 0;
  for (const key of pvSources) {
    if (spec[key] === undefined || spec[key] === null) continue;
    if (count > 0) errs.push(fieldErr.forbidden(`spec.${key}`, 'may not specify more than 1 volume type'));
    count++;
    const src = spec[key] as Obj;
    if (key === 'hostPath' && !str(src.path)) errs.push(fieldErr.required('spec.hostPath.path', ''));
    if (key === 'local' && !str(src.path)) errs.push(fieldErr.required('spec.local.path', ''));
    if (key === 'nfs' && !str(src.server)) errs.push(fieldErr.required('spec.nfs.server', ''));
    if (key === 'csi' && !str(src.driver)) errs.push(fieldErr.required('spec.csi.driver', ''));
    if (key === 'csi' && !str(src.volumeHandle)) errs.push(fieldErr.required('spec.csi.volumeHandle', ''));
  }
  if (count === 0) errs.push(fieldErr.required('spec', 'must specify a volume type'));
  if (isObj(spec.local) && !isObj(spec.nodeAffinity)) errs.push(fieldErr.required('spec.nodeAffinity', 'Local volume requires node affinity'));
  return errs;
}

export function persistentVolumeStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultPersistentVolume,
    prepareForCreate(pv, ctx) {
      pv.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.clock.now()) };
    },
    validateSpec: validatePersistentVolume,
    validateUpdate: (pv, old) => validateImmutableField(isObj(pv.spec) ? pv.spec.volumeMode : undefined, isObj(old.spec) ? old.spec.volumeMode : undefined, 'volumeMode'),
    status: {
      validate(pv) {
        const phase = isObj(pv.status) ? str(pv.status.phase) : '';
        const phases = ['Available', 'Bound', 'Failed', 'Pending', 'Released'];
        return phase && !phases.includes(phase) ? [fieldErr.notSupported('status.phase', phase, phases)] : [];
      },
    },
  });
}
