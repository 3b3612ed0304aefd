// Helpers of the PersistentVolume controller (pkg/controller/volume/persistentvolume/util and
// component-helpers/storage/volume): the annotations the binder writes and reads, and findBestMatchForClaim,
// which picks the smallest Available volume of the claim's class that offers its access modes and size.
import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { compareQuantities, parseQuantityJSON, type Quantity } from '../../../shared/lib/quantity';

/** The claim is bound and the binder finished its part (set on the claim). */
export const AnnBindCompleted = 'pv.kubernetes.io/bind-completed';
/** The binding was made by the controller, not pre-bound by a user (set on volume and claim). */
export const AnnBoundByController = 'pv.kubernetes.io/bound-by-controller';
/** The provisioner that created a volume (set on the volume). */
export const AnnDynamicallyProvisioned = 'pv.kubernetes.io/provisioned-by';
/** The provisioner asked to create a volume for a claim (set on the claim), and its beta twin. */
export const AnnStorageProvisioner = 'volume.kubernetes.io/storage-provisioner';
export const AnnBetaStorageProvisioner = 'volume.beta.kubernetes.io/storage-provisioner';
/** The node the scheduler chose for the first consumer of a WaitForFirstConsumer claim. */
export const AnnSelectedNode = 'volume.kubernetes.io/selected-node';

/** A class without a provisioner: its volumes are created by hand (local volumes). */
export const NotSupportedProvisioner = 'kubernetes.io/no-provisioner';

export const VolumeBindingMode = { Immediate: 'Immediate', WaitForFirstConsumer: 'WaitForFirstConsumer' } as const;
export const ReclaimPolicy = { Delete: 'Delete', Retain: 'Retain', Recycle: 'Recycle' } as const;
export const VolumePhase = { Pending: 'Pending', Available: 'Available', Bound: 'Bound', Released: 'Released', Failed: 'Failed' } as const;
export const ClaimPhase = { Pending: 'Pending', Bound: 'Bound', Lost: 'Lost' } as const;

/** The event reasons of pkg/controller/volume/events. */
export const VolumeEvents = {
  FailedBinding: 'FailedBinding',
  WaitForFirstConsumer: 'WaitForFirstConsumer',
  ExternalProvisioning: 'ExternalProvisioning',
  Provisioning: 'Provisioning',
  ProvisioningSucceeded: 'ProvisioningSucceeded',
  ClaimLost: 'ClaimLost',
  VolumeFailedDelete: 'VolumeFailedDelete',
} as const;

export function claimClass(claim: PersistentVolumeClaim): string {
  return claim.spec?.storageClassName ?? claim.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
}

export function volumeClass(volume: PersistentVolume): string {
  return volume.spec?.storageClassName ?? volume.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
}

/** IsDelayBindingMode: the class binds when the first pod using the claim is scheduled. */
export function isDelayBindingMode(claim: PersistentVolumeClaim, classes: (name: string) => StorageClass | undefined): boolean {
  const name = claimClass(claim);
  if (!name) return false;
  return classes(name)?.volumeBindingMode === VolumeBindingMode.WaitForFirstConsumer;
}

function quantityOf(v: unknown): Quantity | undefined {
  if (v === undefined || v === null) return undefined;
  try {
    return parseQuantityJSON(v);
  } catch {
    return undefined;
  }
}

export function claimRequest(claim: PersistentVolumeClaim): Quantity | undefined {
  return quantityOf(claim.spec?.resources?.requests?.storage);
}

export function volumeCapacity(volume: PersistentVolume): Quantity | undefined {
  return quantityOf(volume.spec?.capacity?.storage);
}

/** The volume's claimRef names this claim (and, when it has a uid, this incarnation of it). */
export function isVolumeBoundToClaim(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata?.name || (ref.namespace ?? '') !== (claim.metadata?.namespace ?? '')) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

/**
 * findMatchingVolume (component-helpers/storage/volume/pv_helpers.go): a volume pre-bound to the claim wins;
 * otherwise the smallest unbound, not-being-deleted volume of the same class and volume mode whose access modes
 * include the claim's and whose capacity covers the request. With delayed binding only pre-bound volumes count
 * unless the first consumer's node is known.
 */
export function findBestMatchForClaim<V extends PersistentVolume>(claim: PersistentVolumeClaim, volumes: readonly V[], delayBinding: boolean): V | undefined {
  const request = claimRequest(claim);
  const wantModes = claim.spec?.accessModes ?? [];
  const wantClass = claimClass(claim);
  const wantMode = claim.spec?.volumeMode ?? 'Filesystem';
  let best: V | undefined;
  let bestSize: Quantity | undefined;
  for (const volume of volumes) {
    const size = volumeCapacity(volume);
    if (!size || (request && compareQuantities(size, request) < 0)) continue;
    if ((volume.spec?.volumeMode ?? 'Filesystem') !== wantMode) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const modes = volume.spec?.accessModes ?? [];
    if (!wantModes.every((m) => modes.includes(m))) continue;
    if (isVolumeBoundToClaim(volume, claim)) {
      if (volumeClass(volume) === wantClass) return volume; // pre-bound: the user chose this volume
      continue;
    }
    if (volume.spec?.claimRef) continue; // bound or pre-bound to another claim
    if (volume.status?.phase && volume.status.phase !== VolumePhase.Available) continue;
    if (volumeClass(volume) !== wantClass) continue;
    if (claim.spec?.volumeName && claim.spec.volumeName !== volume.metadata?.name) continue;
    if (delayBinding) continue;
    if (!bestSize || compareQuantities(size, bestSize) < 0) {
      best = volume;
      bestSize = size;
    }
  }
  return best;
}
