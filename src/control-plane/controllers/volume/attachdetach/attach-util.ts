// What the attach/detach controller, the simulated external-attacher and the kubelet agree on: which of a pod's
// volumes must be attached to its node, the unique name a node reports it under, and the VolumeAttachment name
// the CSI attacher gives it (pkg/volume/csi/csi_attacher.go getAttachmentName).
import type { PersistentVolume, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { CSIDriver, VolumeAttachment } from 'kubernetes-types/storage/v1';
import { sha256Hex } from './sha256';

export const volumeAttachmentsResource = { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattachments' } as const;

/** The attach/detach controller's event source and controller name. */
export const AttachDetachControllerName = 'attachdetach-controller';
export const AttachEvents = {
  SuccessfulAttachVolume: 'SuccessfulAttachVolume',
  FailedAttachVolume: 'FailedAttachVolume',
} as const;

/** The unique volume name of a CSI volume ("kubernetes.io/csi/<driver>^<volume handle>"), as in volumesAttached. */
export function csiUniqueVolumeName(driver: string, handle: string): string {
  return `kubernetes.io/csi/${driver}^${handle}`;
}

/** csi-<sha256(volume handle + driver + node)>. */
export function attachmentName(handle: string, driver: string, nodeName: string): string {
  return `csi-${sha256Hex(`${handle}${driver}${nodeName}`)}`;
}

/** The finalizer the external-attacher puts on the VolumeAttachments it handles. */
export function attacherFinalizer(driver: string): string {
  return `external-attacher/${driver.replace(/[./]/g, '-')}`;
}

/** A volume a pod needs attached to its node. */
export interface AttachableVolume {
  /** The pod's volume name (spec.volumes[].name). */
  podVolume: string;
  pv: PersistentVolume;
  driver: string;
  handle: string;
  uniqueName: string;
}

export interface VolumeLookup {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
  csiDriver(name: string): CSIDriver | undefined;
}

/**
 * Whether volumes of this CSI driver need attaching: its CSIDriver's attachRequired, true when the driver has no
 * CSIDriver object (csi plugin CanAttach).
 */
export function attachRequired(driver: CSIDriver | undefined): boolean {
  return driver?.spec?.attachRequired ?? true;
}

/** The pod's bound PVC volumes backed by a CSI volume whose driver requires attach, in spec order. */
export function attachableVolumes(pod: Pod, lookup: VolumeLookup): AttachableVolume[] {
  const out: AttachableVolume[] = [];
  const namespace = pod.metadata?.namespace ?? '';
  for (const v of pod.spec?.volumes ?? []) {
    const claimName = v.persistentVolumeClaim?.claimName;
    if (!claimName) continue;
    const claim = lookup.claim(namespace, claimName);
    const pvName = claim?.spec?.volumeName;
    if (!claim || claim.status?.phase !== 'Bound' || !pvName) continue;
    const pv = lookup.volume(pvName);
    const csi = pv?.spec?.csi;
    if (!pv || !csi || !attachRequired(lookup.csiDriver(csi.driver))) continue;
    out.push({ podVolume: v.name, pv, driver: csi.driver, handle: csi.volumeHandle, uniqueName: csiUniqueVolumeName(csi.driver, csi.volumeHandle) });
  }
  return out;
}

/** podutil.IsPodTerminated as the attach/detach controller uses it: its volumes are no longer needed. */
export function isPodTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return true;
  if (!pod.metadata?.deletionTimestamp) return false;
  return (pod.status?.containerStatuses ?? []).every((s) => !s.state?.running);
}

export function isAttached(va: VolumeAttachment | undefined): boolean {
  return va?.status?.attached === true;
}
