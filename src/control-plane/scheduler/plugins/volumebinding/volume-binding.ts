// VolumeBinding (pkg/scheduler/framework/plugins/volumebinding), the part that needs no volume provisioning:
// its PreFilter refuses a pod whose PersistentVolumeClaims are missing, being deleted, or unbound with
// immediate binding (only a WaitForFirstConsumer claim may wait for the scheduler's choice). The pod is
// retried when a claim or a StorageClass appears or changes. Its PreBind hands each unbound
// WaitForFirstConsumer claim the chosen node (annotation volume.kubernetes.io/selected-node), for the PV
// controller and the provisioner to bind or provision a volume there, and holds the pod's binding until every
// claim is bound (the real one polls every second for up to 600 s). Matching claims to PersistentVolumes is left
// to the PV controller.
import type { CycleState } from '../../framework/cycle-state';
import type { Handle } from '../../framework/handle';
import { ActionType, EventResource, QueueingHint, type ClusterEventWithHint, type EnqueueExtensions, type PreBindPlugin, type PreFilterPlugin } from '../../framework/interface';
import { asStatus, Code, newStatus, type Status } from '../../framework/status';
import type { PodInfo } from '../../framework/types';

export const Name = 'VolumeBinding';
export const ErrReasonUnboundImmediatePVC = 'pod has unbound immediate PersistentVolumeClaims';
export const errReasonNotFound = (claim: string): string => `persistentvolumeclaim "${claim}" not found`;
export const AnnSelectedNode = 'volume.kubernetes.io/selected-node';
export const AnnBindCompleted = 'pv.kubernetes.io/bind-completed';
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

  /** BindPodVolumes: select the node on the claims waiting for it, then wait until all claims are bound. */
  preBind(_state: CycleState, pod: PodInfo, nodeName: string): Status | undefined {
    const namespace = pod.pod.metadata.namespace ?? 'default';
    const claims = (pod.pod.spec?.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : []));
    const pvcs = this.handle.persistentVolumeClaimLister;
    if (claims.length === 0 || !pvcs) return undefined;
    let allBound = true;
    for (const claim of claims) {
      const pvc = pvcs.get(namespace, claim);
      if (!pvc) return newStatus(Code.Error, errReasonNotFound(claim));
      if (pvc.spec?.volumeName) {
        // Bound by the PV controller; it finishes with the bind-completed annotation.
        if (pvc.metadata?.annotations?.[AnnBindCompleted] === undefined) allBound = false;
        continue;
      }
      allBound = false;
      if (pvc.metadata?.annotations?.[AnnSelectedNode] === nodeName) continue;
      try {
        this.handle.client.persistentVolumeClaims.patch(claim, 'application/merge-patch+json', { metadata: { annotations: { [AnnSelectedNode]: nodeName } } }, { namespace });
      } catch (err) {
        return asStatus(err);
      }
    }
    return allBound ? undefined : newStatus(Code.Wait, 'waiting for the pod\'s volumes to be bound');
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: EventResource.PersistentVolumeClaim, actionType: ActionType.Add | ActionType.Update }, hint: () => QueueingHint.Queue },
      { event: { resource: EventResource.StorageClass, actionType: ActionType.Add | ActionType.Update }, hint: () => QueueingHint.Queue },
    ];
  }
}

VolumeBinding.prototype satisfies Pick<PreFilterPlugin, 'name' | 'preFilter'> & Pick<PreBindPlugin, 'preBind'> & EnqueueExtensions;
