// The default StorageClass a fresh playground cluster comes with, as kind installs "standard" at creation: its
// volumes are simulated hostPath directories on one node, so binding waits for the first pod's node
// (WaitForFirstConsumer, as kind's local-path class) and a volume goes with its claim (Delete).
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { Client } from '../../client/client';
import { IsDefaultStorageClassAnnotation } from '../../apiserver/admission/default-storage-class';
import { SimulatedHostPathProvisioner } from './simulated-provisioner';

export const DefaultStorageClassName = 'standard';

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

/** Creates the default class on a new cluster (a restored one keeps whatever the user left). */
export function installDefaultStorageClass(client: Client): void {
  try {
    client.storageClasses.create(defaultStorageClass());
  } catch (err) {
    if (!isStatusError(err, StatusReason.AlreadyExists)) throw err;
  }
}
