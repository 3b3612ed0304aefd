// The default StorageClass a fresh playground cluster comes with, as kind installs "standard" at creation, and
// the CSIDriver object its driver registers. The class's volumes live on one node (simulated hostPath volumes of
// the CSI driver hostpath.csi.kubeplay.io), so binding waits for the first pod's node — WaitForFirstConsumer, as
// kind's local-path "standard" (minikube's Immediate would place a node-local volume before knowing where its pod
// can run) — and a volume goes with its claim (Delete).
import type { CSIDriver, StorageClass } from 'kubernetes-types/storage/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { Client } from '../../client/client';
import { IsDefaultStorageClassAnnotation } from '../../apiserver/admission/default-storage-class';
import { SimulatedHostPathProvisioner } from './simulated-provisioner';

export const DefaultStorageClassName = 'standard';

export const csiDriversResource = { group: 'storage.k8s.io', version: 'v1', resource: 'csidrivers' } as const;

export function defaultStorageClass(): StorageClass & { apiVersion: 'storage.k8s.io/v1'; kind: 'StorageClass' } {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: DefaultStorageClassName, annotations: { [IsDefaultStorageClassAnnotation]: 'true' } },
    provisioner: SimulatedHostPathProvisioner,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

/** The CSIDriver the simulated driver's deployment installs: volumes must be attached before they are mounted. */
export function simulatedCSIDriver(): CSIDriver & { apiVersion: 'storage.k8s.io/v1'; kind: 'CSIDriver' } {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIDriver',
    metadata: { name: SimulatedHostPathProvisioner },
    spec: {
      attachRequired: true,
      podInfoOnMount: false,
      requiresRepublish: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      seLinuxMount: false,
      volumeLifecycleModes: ['Persistent'],
    },
  };
}

function createIfMissing(create: () => void): void {
  try {
    create();
  } catch (err) {
    if (!isStatusError(err, StatusReason.AlreadyExists)) throw err;
  }
}

/** Creates the default class and its driver's CSIDriver on a new cluster (a restored one keeps what the user left). */
export function installDefaultStorageClass(client: Client): void {
  createIfMissing(() => client.resource<CSIDriver>(csiDriversResource).create(simulatedCSIDriver()));
  createIfMissing(() => client.storageClasses.create(defaultStorageClass()));
}
