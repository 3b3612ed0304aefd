// VolumeBinding (pkg/scheduler/framework/plugins/volumebinding), the part that needs no volume provisioning:
// its PreFilter refuses a pod whose PersistentVolumeClaims are missing, being deleted, or unbound with
// immediate binding (only a WaitForFirstConsumer claim may wait for the scheduler's choice). The pod is
// retried when a claim or a StorageClass appears or changes. Matching claims to PersistentVolumes belongs to
// the PV controller.
import type { CycleState } from '../../framework/cycle-state';
import type { Handle } from '../../framework/handle';
import { ActionType, EventResource, QueueingHint, type ClusterEventWithHint, type EnqueueExtensions, type PreFilterPlugin } from '../../framework/interface';
import { Code, newStatus, type Status } from '../../framework/status';
import type { PodInfo } from '../../framework/types';

export const Name = 'VolumeBinding';
export const ErrReasonUnboundImmediatePVC = 'pod has unbound immediate PersistentVolumeClaims';
export const errReasonNotFound = (claim: string): string => `persistentvolumeclaim "${claim}" not found`;
export const errReasonBeingDeleted = (claim: string): string => `persistentvolumeclaim "${claim}" is being deleted`;

export class VolumeBinding {
  readonly name = Name;

  constructor(private readonly handle: Handle) {}

  preFilter(_state: CycleState, pod: PodInfo): { status?: Status } {
    const namespace = pod.pod.metadata.namespace ?? 'default';
    const claims = (pod.pod.spec?.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : []));
    if (claims.length === 0) return {};
    const pvcs = this.handle.persistentVolumeClaimLister;
    if (!pvcs) return {};
    let unboundImmediate = false;
    for (const claim of claims) {
      const pvc = pvcs.get(namespace, claim);
      if (!pvc) return { status: newStatus(Code.UnschedulableAndUnresolvable, errReasonNotFound(claim)) };
      if (pvc.metadata?.deletionTimestamp) return { status: newStatus(Code.UnschedulableAndUnresolvable, errReasonBeingDeleted(claim)) };
      if (pvc.spec?.volumeName) continue; // bound (or being bound) to a volume
      const className = pvc.spec?.storageClassName ?? '';
      const storageClass = className ? this.handle.storageClassLister?.get(undefined, className) : undefined;
      if (storageClass?.volumeBindingMode === 'WaitForFirstConsumer') continue;
      unboundImmediate = true;
    }
    if (unboundImmediate) return { status: newStatus(Code.UnschedulableAndUnresolvable, ErrReasonUnboundImmediatePVC) };
    return {};
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: EventResource.PersistentVolumeClaim, actionType: ActionType.Add | ActionType.Update }, hint: () => QueueingHint.Queue },
      { event: { resource: EventResource.StorageClass, actionType: ActionType.Add | ActionType.Update }, hint: () => QueueingHint.Queue },
    ];
  }
}

VolumeBinding.prototype satisfies Pick<PreFilterPlugin, 'name' | 'preFilter'> & EnqueueExtensions;
