// Persistent volumes, claims, storage classes and the CSI kinds (printers.go, v1.32 columns).
import type { KubeObject } from '../../../shared/api/types';
import { quantity } from './core';
import { ageColumn, arr, column, field, nameColumn, rec, str, translateTimestampSince, type KindPrinter } from './table';

const name = (obj: KubeObject): string => obj.metadata?.name ?? '';
const age = (obj: KubeObject, now: number): string => translateTimestampSince(obj.metadata?.creationTimestamp, now);

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, without duplicates. */
export function accessModesAsString(modes: unknown): string {
  const set = new Set(arr<string>(modes));
  const out: string[] = [];
  if (set.has('ReadWriteOnce')) out.push('RWO');
  if (set.has('ReadOnlyMany')) out.push('ROX');
  if (set.has('ReadWriteMany')) out.push('RWX');
  if (set.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

/** GetPersistentVolume(Claim)Class: the beta annotation wins over spec.storageClassName. */
function storageClassOf(obj: KubeObject): string {
  const annotated = obj.metadata?.annotations?.[betaStorageClassAnnotation];
  if (annotated !== undefined) return annotated;
  return str(field(obj, 'spec', 'storageClassName'));
}

const pvSpec = 'io.k8s.api.core.v1.PersistentVolumeSpec';

export const persistentVolumePrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Capacity', 'string', `${pvSpec}#capacity`),
    column('Access Modes', 'string', `${pvSpec}#accessModes`),
    column('Reclaim Policy', 'string', `${pvSpec}#persistentVolumeReclaimPolicy`),
    column('Status', 'string', 'io.k8s.api.core.v1.PersistentVolumeStatus#phase'),
    column('Claim', 'string', `${pvSpec}#claimRef`),
    column('StorageClass', 'string', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    column('Reason', 'string', 'io.k8s.api.core.v1.PersistentVolumeStatus#reason'),
    ageColumn(),
    column('VolumeMode', 'string', `${pvSpec}#volumeMode`, { priority: 1 }),
  ],
  cells(pv, { now }) {
    const spec = rec(field(pv, 'spec'));
    const claimRef = spec.claimRef;
    const claim = claimRef ? `${str(field(claimRef, 'namespace'))}/${str(field(claimRef, 'name'))}` : '';
    const phase = pv.metadata?.deletionTimestamp ? 'Terminating' : str(field(pv, 'status', 'phase'));
    return [
      name(pv),
      quantity(field(spec.capacity, 'storage')),
      accessModesAsString(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      phase,
      claim,
      storageClassOf(pv),
      str(spec.volumeAttributesClassName) || '<unset>',
      str(field(pv, 'status', 'reason')),
      age(pv, now),
      str(spec.volumeMode) || '<unset>',
    ];
  },
};

const pvcSpec = 'io.k8s.api.core.v1.PersistentVolumeClaimSpec';
const pvcStatus = 'io.k8s.api.core.v1.PersistentVolumeClaimStatus';

export const persistentVolumeClaimPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Status', 'string', `${pvcStatus}#phase`),
    column('Volume', 'string', `${pvcSpec}#volumeName`),
    column('Capacity', 'string', `${pvcStatus}#capacity`),
    column('Access Modes', 'string', `${pvcStatus}#accessModes`),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    ageColumn(),
    column('VolumeMode', 'string', `${pvcSpec}#volumeMode`, { priority: 1 }),
  ],
  cells(pvc, { now }) {
    const spec = rec(field(pvc, 'spec'));
    const phase = pvc.metadata?.deletionTimestamp ? 'Terminating' : str(field(pvc, 'status', 'phase'));
    let capacity = '';
    let accessModes = '';
    if (str(spec.volumeName)) {
      accessModes = accessModesAsString(field(pvc, 'status', 'accessModes'));
      capacity = quantity(field(pvc, 'status', 'capacity', 'storage'));
    }
    return [
      name(pvc),
      phase,
      str(spec.volumeName),
      capacity,
      accessModes,
      storageClassOf(pvc),
      str(spec.volumeAttributesClassName) || '<unset>',
      age(pvc, now),
      str(spec.volumeMode) || '<unset>',
    ];
  },
};

const isDefaultClassAnnotation = 'storageclass.kubernetes.io/is-default-class';
const betaIsDefaultClassAnnotation = 'storageclass.beta.kubernetes.io/is-default-class';
const storageClassDoc = 'io.k8s.api.storage.v1.StorageClass';

export const storageClassPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Provisioner', 'string', `${storageClassDoc}#provisioner`),
    column('ReclaimPolicy', 'string', `${storageClassDoc}#reclaimPolicy`),
    column('VolumeBindingMode', 'string', `${storageClassDoc}#volumeBindingMode`),
    column('AllowVolumeExpansion', 'string', `${storageClassDoc}#allowVolumeExpansion`),
    ageColumn(),
  ],
  cells(sc, { now }) {
    const annotations = sc.metadata?.annotations ?? {};
    const isDefault = annotations[isDefaultClassAnnotation] === 'true' || annotations[betaIsDefaultClassAnnotation] === 'true';
    const o = sc as unknown as Record<string, unknown>;
    return [
      isDefault ? `${name(sc)} (default)` : name(sc),
      str(o.provisioner),
      str(o.reclaimPolicy) || 'Delete',
      str(o.volumeBindingMode) || 'Immediate',
      o.allowVolumeExpansion === true,
      age(sc, now),
    ];
  },
};

const csiDriverSpec = 'io.k8s.api.storage.v1.CSIDriverSpec';

export const csiDriverPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('AttachRequired', 'boolean', `${csiDriverSpec}#attachRequired`),
    column('PodInfoOnMount', 'boolean', `${csiDriverSpec}#podInfoOnMount`),
    column('StorageCapacity', 'boolean', `${csiDriverSpec}#storageCapacity`),
    column('TokenRequests', 'string', `${csiDriverSpec}#tokenRequests`),
    column('RequiresRepublish', 'boolean', `${csiDriverSpec}#requiresRepublish`),
    column('Modes', 'string', `${csiDriverSpec}#volumeLifecycleModes`),
    ageColumn(),
  ],
  cells(obj, { now }) {
    const spec = rec(field(obj, 'spec'));
    const tokenRequests = spec.tokenRequests === undefined || spec.tokenRequests === null ? '<unset>' : arr(spec.tokenRequests).map((t) => str(field(t, 'audience'))).join(',');
    return [
      name(obj),
      spec.attachRequired !== false,
      spec.podInfoOnMount === true,
      spec.storageCapacity === true,
      tokenRequests,
      spec.requiresRepublish === true,
      arr<string>(spec.volumeLifecycleModes).join(',') || '<none>',
      age(obj, now),
    ];
  },
};

export const csiNodePrinter: KindPrinter = {
  columns: [nameColumn(), column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), ageColumn()],
  cells: (obj, { now }) => [name(obj), arr(field(obj, 'spec', 'drivers')).length, age(obj, now)],
};

const vaSpec = 'io.k8s.api.storage.v1.VolumeAttachmentSpec';

export const volumeAttachmentPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Attacher', 'string', `${vaSpec}#attacher`, { format: 'name' }),
    column('PV', 'string', 'io.k8s.api.storage.v1.VolumeAttachmentSource#persistentVolumeName'),
    column('Node', 'string', `${vaSpec}#nodeName`),
    column('Attached', 'boolean', 'io.k8s.api.storage.v1.VolumeAttachmentStatus#attached'),
    ageColumn(),
  ],
  cells: (obj, { now }) => [
    name(obj),
    str(field(obj, 'spec', 'attacher')),
    str(field(obj, 'spec', 'source', 'persistentVolumeName')),
    str(field(obj, 'spec', 'nodeName')),
    field(obj, 'status', 'attached') === true,
    age(obj, now),
  ],
};
