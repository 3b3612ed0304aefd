// ValidateVolumes and validateVolumeSource: unique DNS-1123 names, exactly one source, and the checks of the
// sources a playground uses (emptyDir, hostPath, configMap, secret, persistentVolumeClaim, downwardAPI,
// projected, nfs, csi, ephemeral). Other sources are counted for the one-source rule only.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ObjectMeta } from '../../../../../shared/api/types';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../../../shared/lib/validation';
import { quantityValue } from '../quantity';
import { type Obj, invalidEach, isObj, objItems, str } from '../util';

const fileModeErrorMsg = 'must be a number between 0 and 0777 (octal), both inclusive';

// The order validateVolumeSource checks them in, with the path segment it reports a second source under
// (Kubernetes' own spellings, including "cephFS" and the "downwarAPI" typo).
const sourceOrder: [key: string, forbiddenPath: string][] = [
  ['emptyDir', 'emptyDir'],
  ['hostPath', 'hostPath'],
  ['gitRepo', 'gitRepo'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['secret', 'secret'],
  ['nfs', 'nfs'],
  ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['persistentVolumeClaim', 'persistentVolumeClaim'],
  ['rbd', 'rbd'],
  ['cinder', 'cinder'],
  ['cephfs', 'cephFS'],
  ['quobyte', 'quobyte'],
  ['downwardAPI', 'downwarAPI'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['configMap', 'configMap'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['storageos', 'storageos'],
  ['projected', 'projected'],
  ['scaleIO', 'scaleIO'],
  ['csi', 'csi'],
  ['ephemeral', 'ephemeral'],
  ['image', 'image'],
];

function validateMode(mode: unknown, path: string): FieldError[] {
  return typeof mode === 'number' && (mode > 0o777 || mode < 0) ? [fieldErr.invalid(path, mode, fileModeErrorMsg)] : [];
}

/** ValidateLocalNonReservedPath: relative, no "..", not starting with "..". */
function validateLocalNonReservedPath(p: string, path: string): FieldError[] {
  const errs = validateLocalDescendingPath(p, path);
  if (p.startsWith('..')) errs.push(fieldErr.invalid(path, p, "must not start with '..'"));
  return errs;
}

export function validateLocalDescendingPath(p: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.startsWith('/')) errs.push(fieldErr.invalid(path, p, 'must be a relative path'));
  if (p.split(/[\\/]/).includes('..')) errs.push(fieldErr.invalid(path, p, "must not contain '..'"));
  return errs;
}

function validateKeyToPath(kp: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(kp.key)) errs.push(fieldErr.required(`${path}.key`, ''));
  if (!str(kp.path)) errs.push(fieldErr.required(`${path}.path`, ''));
  errs.push(...validateLocalNonReservedPath(str(kp.path), `${path}.path`));
  errs.push(...validateMode(kp.mode, `${path}.mode`));
  return errs;
}

function validateSourceDetails(key: string, src: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  switch (key) {
    case 'emptyDir': {
      const limit = src.sizeLimit;
      if (limit !== undefined && (quantityValue(limit) ?? 0) < 0) {
        errs.push(fieldErr.forbidden(`${path}.sizeLimit`, 'SizeLimit field must be a valid resource quantity'));
      }
      break;
    }
    case 'hostPath':
      if (!str(src.path)) errs.push(fieldErr.required(`${path}.path`, ''));
      else if (str(src.path).split('/').includes('..')) errs.push(fieldErr.invalid(`${path}.path`, src.path, "must not contain '..'"));
      else if (src.type !== undefined && src.type !== null) {
        const types = ['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'];
        if (!types.includes(str(src.type))) errs.push(fieldErr.notSupported(`${path}.type`, src.type, types));
      }
      break;
    case 'secret':
      if (!str(src.secretName)) errs.push(fieldErr.required(`${path}.secretName`, ''));
      errs.push(...validateMode(src.defaultMode, `${path}.defaultMode`));
      objItems(src, 'items').forEach((kp, i) => errs.push(...validateKeyToPath(kp, `${path}.items[${i}]`)));
      break;
    case 'configMap':
      if (!str(src.name)) errs.push(fieldErr.required(`${path}.name`, ''));
      errs.push(...validateMode(src.defaultMode, `${path}.defaultMode`));
      objItems(src, 'items').forEach((kp, i) => errs.push(...validateKeyToPath(kp, `${path}.items[${i}]`)));
      break;
    case 'persistentVolumeClaim':
      if (!str(src.claimName)) errs.push(fieldErr.required(`${path}.claimName`, ''));
      break;
    case 'nfs':
      if (!str(src.server)) errs.push(fieldErr.required(`${path}.server`, ''));
      if (!str(src.path)) errs.push(fieldErr.required(`${path}.path`, ''));
      if (!str(src.path).startsWith('/')) errs.push(fieldErr.invalid(`${path}.path`, str(src.path), 'must be an absolute path'));
      break;
    case 'downwardAPI':
      errs.push(...validateMode(src.defaultMode, `${path}.defaultMode`));
      for (const file of objItems(src, 'items')) {
        if (!str(file.path)) errs.push(fieldErr.required(`${path}.path`, ''));
        errs.push(...validateLocalNonReservedPath(str(file.path), `${path}.path`));
        if (!isObj(file.fieldRef) && !isObj(file.resourceFieldRef)) {
          errs.push(fieldErr.required(path, 'one of fieldRef and resourceFieldRef is required'));
        }
        errs.push(...validateMode(file.mode, `${path}.mode`));
      }
      break;
    case 'projected':
      errs.push(...validateMode(src.defaultMode, `${path}.defaultMode`));
      objItems(src, 'sources').forEach((s, i) => {
        const sp = `${path}.sources[${i}]`;
        for (const k of ['secret', 'configMap']) {
          if (!isObj(s[k])) continue;
          const inner = s[k] as Obj;
          if (!str(inner.name)) errs.push(fieldErr.required(`${sp}.${k}.name`, ''));
          objItems(inner, 'items').forEach((kp, j) => errs.push(...validateKeyToPath(kp, `${sp}.${k}.items[${j}]`)));
        }
      });
      break;
    case 'csi':
      if (!str(src.driver)) errs.push(fieldErr.required(`${path}.driver`, ''));
      break;
    case 'ephemeral':
      if (!isObj(src.volumeClaimTemplate)) errs.push(fieldErr.required(`${path}.volumeClaimTemplate`, ''));
      break;
  }
  return errs;
}

function validateVolumeSource(v: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [key, forbiddenPath] of sourceOrder) {
    const src = v[key];
    if (src === undefined || src === null) continue;
    if (count > 0) {
      errs.push(fieldErr.forbidden(`${path}.${forbiddenPath}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...validateSourceDetails(key, isObj(src) ? src : {}, `${path}.${key}`));
  }
  if (count === 0) errs.push(fieldErr.required(path, 'must specify a volume type'));
  return errs;
}

/**
 * ValidateVolumes: returns the names of the volumes that passed (mounts may only reference those) and the errors.
 * `podMeta` is set for real pods so generic ephemeral volume PVC names can be checked.
 */
export function validateVolumes(volumes: Obj[], podMeta: ObjectMeta | undefined, path: string): { names: Set<string>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  volumes.forEach((vol, i) => {
    const p = `${path}[${i}]`;
    const name = str(vol.name);
    const el = validateVolumeSource(vol, p);
    if (!name) el.push(fieldErr.required(`${p}.name`, ''));
    else el.push(...invalidEach(`${p}.name`, name, isDNS1123Label(name)));
    if (names.has(name)) el.push(fieldErr.duplicate(`${p}.name`, name));
    if (isObj(vol.ephemeral) && podMeta?.name && name) {
      const pvcName = `${podMeta.name}-${name}`;
      for (const msg of isDNS1123Subdomain(pvcName)) el.push(fieldErr.invalid(`${p}.name`, name, `PVC name ${JSON.stringify(pvcName)}: ${msg}`));
    }
    if (el.length === 0) names.add(name);
    else errs.push(...el);
  });
  return { names, errs };
}
