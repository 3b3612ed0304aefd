// kube-controller-manager's attach/detach controller (pkg/controller/volume/attachdetach), for CSI volumes. Per
// node, the desired state of the world is the attachable volumes of the pods scheduled there that have not
// terminated; the actual state is the VolumeAttachment objects for that node. The reconciler:
//   desired, no VolumeAttachment       → create csi-<sha256> {attacher, nodeName, source.persistentVolumeName} —
//                                        unless the volume may attach to one node only (a PV without
//                                        ReadWriteMany/ReadOnlyMany) and is attached elsewhere: then, once per
//                                        pod's stay, Warning FailedAttachVolume "Multi-Attach error for volume …"
//                                        (reportMultiAttachError) and wait until that attachment is gone
//   VolumeAttachment status.attached   → add {name: kubernetes.io/csi/<driver>^<handle>, devicePath: ""} to
//                                        node.status.volumesAttached; SuccessfulAttachVolume on each pod using it
//   attached, no longer desired        → wait while the kubelet still reports it in node.status.volumesInUse (at
//                                        most maxWaitForUnmountDuration, 6 min), then drop it from
//                                        volumesAttached and delete the VolumeAttachment (the external-attacher
//                                        detaches and removes its finalizer)
// One key per node; anything that changes what a node needs requeues it.
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { CSIDriver, VolumeAttachment } from 'kubernetes-types/storage/v1';
import { isStatusError, StatusReason } from '../../../../shared/api/status';
import type { KubeObject } from '../../../../shared/api/types';
import type { TraceSink } from '../../../../shared/protocol/trace';
import type { Client, ResourceClient, Typed } from '../../../client/client';
import { EventRecorder, EventType } from '../../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../../informers/factory';
import { NodeNameIndex } from '../../../informers/indexer';
import { DeletedFinalStateUnknown, type Lister, type SharedInformer } from '../../../informers/shared-informer';
import type { Clock } from '../../../sim/clock';
import { RateLimitingQueue } from '../../../workqueue/rate-limiting-queue';
import { BaseController } from '../../shared/controller';
import { csiDriversResource } from '../default-storage-class';
import {
  AttachDetachControllerName,
  AttachEvents,
  attachableVolumes,
  attachmentName,
  type AttachableVolume,
  csiUniqueVolumeName,
  isAttached,
  isPodTerminated,
  volumeAttachmentsResource,
} from './attach-util';

/** maxWaitForUnmountDuration: how long a detach waits for the kubelet to stop using the volume. */
export const maxWaitForUnmountMs = 6 * 60_000;
const controllerManagedAnnotation = 'volumes.kubernetes.io/controller-managed-attach-detach';

export interface AttachDetachControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

type VA = Typed<VolumeAttachment>;

/**
 * Pods by spec.nodeName, only those with a persistentVolumeClaim volume (the only ones that can need an
 * attachment): a node's sync walks these instead of every pod on the node, so a pod event costs O(pods with
 * claims there), not O(pods there).
 */
export const ClaimPodsByNodeIndex = 'attachdetach/claimPodsByNode';

const indexClaimPodsByNode = (obj: KubeObject): string[] => {
  const spec = (obj as Pod).spec;
  const nodeName = spec?.nodeName;
  if (!nodeName || !spec.volumes?.some((v) => v.persistentVolumeClaim?.claimName)) return [];
  return [nodeName];
};
const unwrap = <T>(obj: T | DeletedFinalStateUnknown<T>): T => (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj);

export class AttachDetachController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly recorder: EventRecorder;
  private readonly attachments: ResourceClient<VolumeAttachment>;
  private readonly pods: Lister<Typed<Pod>>;
  private readonly nodes: Lister<Typed<Node>>;
  private readonly claims: Lister<Typed<PersistentVolumeClaim>>;
  private readonly volumes: Lister<Typed<PersistentVolume>>;
  private readonly vas: Lister<VA>;
  private readonly drivers: Lister<Typed<CSIDriver>>;
  /** When each attachment stopped being desired (detach waits for the kubelet to unmount, up to 6 min). */
  private readonly detachRequestedAt = new Map<string, number>();
  /** Attachments (by name) whose Multi-Attach error was reported (desiredStateOfWorld's MultiAttachErrorReported). */
  private readonly multiAttachReported = new Set<string>();
  private readonly registrations: { remove(): void }[];

  constructor(options: AttachDetachControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.attachments = options.client.resource<VolumeAttachment>(volumeAttachmentsResource);
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: AttachDetachControllerName } });
    const podInformer = options.informers.pods as unknown as SharedInformer<Typed<Pod>>;
    const nodeInformer = options.informers.nodes as unknown as SharedInformer<Typed<Node>>;
    const pvcInformer = options.informers.persistentVolumeClaims as unknown as SharedInformer<Typed<PersistentVolumeClaim>>;
    const pvInformer = options.informers.persistentVolumes as unknown as SharedInformer<Typed<PersistentVolume>>;
    const vaInformer = options.informers.forResource<VA>(volumeAttachmentsResource);
    const driverInformer = options.informers.forResource<Typed<CSIDriver>>(csiDriversResource);
    const informers: SharedInformer<never>[] = [podInformer, nodeInformer, pvcInformer, pvInformer, vaInformer, driverInformer] as never;
    if (!podInformer.indexer.indexNames().includes(ClaimPodsByNodeIndex)) podInformer.addIndexers({ [ClaimPodsByNodeIndex]: indexClaimPodsByNode });
    this.pods = podInformer.lister;
    this.nodes = nodeInformer.lister;
    this.claims = pvcInformer.lister;
    this.volumes = pvInformer.lister;
    this.vas = vaInformer.lister;
    this.drivers = driverInformer.lister;
    const queue = new RateLimitingQueue<string>({ name: 'attachdetach', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: AttachDetachControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncNode(key),
      maxRetries: Infinity,
      cacheSyncs: informers.map((i) => () => i.hasSynced()),
      trace: options.trace,
      client: options.client,
    });
    const enqueueNode = (name: string | undefined): void => {
      if (name) queue.add(name);
    };
    const enqueueAll = (): void => {
      for (const n of this.nodes.list()) enqueueNode(n.metadata.name);
    };
    this.registrations = [
      podInformer.addEventHandler({
        onAdd: (p) => enqueueNode(p.spec?.nodeName),
        onUpdate: (o, p) => {
          enqueueNode(p.spec?.nodeName);
          if (o.spec?.nodeName !== p.spec?.nodeName) enqueueNode(o.spec?.nodeName);
        },
        onDelete: (p) => enqueueNode(unwrap(p).spec?.nodeName),
      }),
      nodeInformer.addEventHandler({ onAdd: (n) => enqueueNode(n.metadata.name), onUpdate: (_o, n) => enqueueNode(n.metadata.name) }),
      vaInformer.addEventHandler({
        onAdd: (va) => enqueueNode(va.spec?.nodeName),
        onUpdate: (_o, va) => enqueueNode(va.spec?.nodeName),
        // A detached volume may now attach to another node waiting on it (Multi-Attach).
        onDelete: enqueueAll,
      }),
      // A claim bound or a volume created after its pod was scheduled changes what the pod's node needs.
      pvcInformer.addEventHandler({ onUpdate: enqueueAll }),
      pvInformer.addEventHandler({ onAdd: enqueueAll, onUpdate: enqueueAll }),
      driverInformer.addEventHandler({ onAdd: enqueueAll, onUpdate: enqueueAll, onDelete: enqueueAll }),
    ];
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  run(): void {
    this.controller.run();
  }

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations) r.remove();
  }

  /** The attachable volumes the node's pods need, by VolumeAttachment name, with the pods needing each. */
  desiredStateOfWorld(nodeName: string): Map<string, { volume: AttachableVolume; pods: Typed<Pod>[] }> {
    const desired = new Map<string, { volume: AttachableVolume; pods: Typed<Pod>[] }>();
    const node = this.nodes.get(undefined, nodeName);
    // Only nodes whose kubelet leaves attach/detach to the controller (every kubelet here does).
    if (!node || node.metadata.annotations?.[controllerManagedAnnotation] !== 'true') return desired;
    const lookup = {
      claim: (ns: string, name: string) => this.claims.get(ns, name),
      volume: (name: string) => this.volumes.get(undefined, name),
      csiDriver: (name: string) => this.drivers.get(undefined, name),
    };
    // The node's pods with claims through an index (in list order, so events keep their order), not every pod:
    // pods without a persistentVolumeClaim volume have no attachable volumes.
    for (const pod of this.pods.byIndexInListOrder(ClaimPodsByNodeIndex, nodeName)) {
      if (isPodTerminated(pod)) continue;
      for (const volume of attachableVolumes(pod, lookup)) {
        const name = attachmentName(volume.handle, volume.driver, nodeName);
        const entry = desired.get(name) ?? { volume, pods: [] };
        entry.pods.push(pod);
        desired.set(name, entry);
      }
    }
    return desired;
  }

  syncNode(nodeName: string): void {
    const now = this.clock.now();
    const node = this.nodes.get(undefined, nodeName);
    const desired = this.desiredStateOfWorld(nodeName);
    const reported = new Set((node?.status?.volumesAttached ?? []).map((v) => v.name));
    const inUse = new Set(node?.status?.volumesInUse ?? []);
    const toReport: { name: string; devicePath: string }[] = [];
    const toUnreport = new Set<string>();
    const toDelete: VA[] = [];
    let recheckAt = Infinity;

    for (const [name, { volume, pods }] of desired) {
      this.detachRequestedAt.delete(name);
      const reportedKey = `${nodeName}/${name}`;
      const va = this.vas.get(undefined, name);
      if (!va) {
        const elsewhere = isMultiAttachAllowed(volume.pv) ? [] : this.attachedElsewhere(volume, nodeName);
        if (elsewhere.length > 0) {
          if (!this.multiAttachReported.has(reportedKey)) this.reportMultiAttachError(volume, pods, elsewhere);
          this.multiAttachReported.add(reportedKey);
          continue;
        }
        this.multiAttachReported.delete(reportedKey);
        this.createAttachment(name, volume, nodeName);
        continue;
      }
      // Being detached: attach again once the old attachment is gone.
      if (va.metadata.deletionTimestamp || !isAttached(va) || reported.has(volume.uniqueName)) continue;
      toReport.push({ name: volume.uniqueName, devicePath: '' });
      for (const pod of pods) {
        this.recorder.event(pod as KubeObject, EventType.Normal, AttachEvents.SuccessfulAttachVolume, `AttachVolume.Attach succeeded for volume ${JSON.stringify(volume.pv.metadata?.name)}`);
      }
    }

    for (const name of this.multiAttachReported) if (name.startsWith(`${nodeName}/`) && !desired.has(name.slice(nodeName.length + 1))) this.multiAttachReported.delete(name);
    for (const va of this.vas.byIndexInListOrder(NodeNameIndex, nodeName)) {
      const name = va.metadata.name!;
      if (desired.has(name) || va.metadata.deletionTimestamp) continue;
      const pvName = va.spec.source?.persistentVolumeName;
      const pv = pvName ? this.volumes.get(undefined, pvName) : undefined;
      const unique = pv?.spec?.csi ? csiUniqueVolumeName(pv.spec.csi.driver, pv.spec.csi.volumeHandle) : undefined;
      const since = this.detachRequestedAt.get(name) ?? now;
      this.detachRequestedAt.set(name, since);
      // Safe to detach only once the kubelet no longer reports the volume mounted (or after 6 minutes).
      if (node && unique && inUse.has(unique) && now < since + maxWaitForUnmountMs) {
        recheckAt = Math.min(recheckAt, since + maxWaitForUnmountMs);
        continue;
      }
      if (unique) toUnreport.add(unique);
      toDelete.push(va);
    }

    if (node && (toReport.length > 0 || [...toUnreport].some((u) => reported.has(u)))) {
      const kept = (node.status?.volumesAttached ?? []).filter((v) => !toUnreport.has(v.name));
      const status = { ...structuredClone(node.status ?? {}), volumesAttached: [...kept, ...toReport] };
      if (status.volumesAttached.length === 0) delete (status as { volumesAttached?: unknown }).volumesAttached;
      this.client.nodes.updateStatus({ ...(structuredClone(node) as Node), status });
    }
    for (const va of toDelete) {
      try {
        this.attachments.delete(va.metadata.name!, { preconditions: { uid: va.metadata.uid } });
      } catch (err) {
        if (!isStatusError(err, StatusReason.NotFound) && !isStatusError(err, StatusReason.Conflict)) throw err;
      }
      this.detachRequestedAt.delete(va.metadata.name!);
    }
    if (recheckAt < Infinity) this.queue.addAfter(nodeName, recheckAt - now);
  }

  /** The nodes the volume is attached (or attaching, or still detaching) to, other than nodeName. */
  private attachedElsewhere(volume: AttachableVolume, nodeName: string): string[] {
    const pvName = volume.pv.metadata?.name;
    const nodes = this.vas
      .list()
      .filter((va) => va.spec?.source?.persistentVolumeName === pvName && va.spec?.nodeName && va.spec.nodeName !== nodeName)
      .map((va) => va.spec!.nodeName!);
    return [...new Set(nodes)].sort();
  }

  /**
   * reportMultiAttachError: each pod waiting for the volume learns which pods of its own namespace hold it on the
   * other nodes (pods of other namespaces are only counted), or that it is exclusively attached elsewhere.
   */
  private reportMultiAttachError(volume: AttachableVolume, scheduled: Typed<Pod>[], otherNodes: string[]): void {
    const holders = otherNodes.flatMap((n) => this.desiredStateOfWorld(n).get(attachmentName(volume.handle, volume.driver, n))?.pods ?? []);
    const prefix = `Multi-Attach error for volume ${JSON.stringify(volume.pv.metadata?.name)}`;
    for (const pod of scheduled) {
      let msg: string;
      if (holders.length === 0) msg = "Volume is already exclusively attached to one node and can't be attached to another";
      else {
        const local = holders.filter((h) => h.metadata.namespace === pod.metadata.namespace).map((h) => h.metadata.name!);
        const others = holders.length - local.length;
        if (local.length > 0) msg = `Volume is already used by pod(s) ${local.join(', ')}${others > 0 ? ` and ${others} pod(s) in different namespaces` : ''}`;
        else msg = `Volume is already used by ${others} pod(s) in different namespaces`;
      }
      this.recorder.event(pod as KubeObject, EventType.Warning, AttachEvents.FailedAttachVolume, `${prefix} ${msg}`);
    }
  }

  private createAttachment(name: string, volume: AttachableVolume, nodeName: string): void {
    try {
      this.attachments.create({
        apiVersion: 'storage.k8s.io/v1',
        kind: 'VolumeAttachment',
        metadata: { name },
        spec: { attacher: volume.driver, nodeName, source: { persistentVolumeName: volume.pv.metadata!.name! } },
      } as VolumeAttachment);
    } catch (err) {
      if (!isStatusError(err, StatusReason.AlreadyExists)) throw err;
    }
  }
}

/** util.IsMultiAttachAllowed for a PV: no access modes (unknown), or ReadWriteMany/ReadOnlyMany. */
export function isMultiAttachAllowed(pv: PersistentVolume): boolean {
  const modes = pv.spec?.accessModes ?? [];
  return modes.length === 0 || modes.includes('ReadWriteMany') || modes.includes('ReadOnlyMany');
}
