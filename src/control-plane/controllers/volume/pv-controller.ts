// kube-controller-manager's PersistentVolume controller, "persistentvolume-binder"
// (pkg/controller/volume/persistentvolume/pv_controller.go): binds claims to volumes and runs the volume
// lifecycle. One queue carries both kinds of key ("claim:<ns>/<name>", "volume:<name>"), as its two queues do.
//
//   claim Pending, no volumeName ─ findBestMatchForClaim ─ match → bind: volume.claimRef, volume Bound,
//                                                                        claim.volumeName, claim Bound
//                                │                        none, WaitForFirstConsumer and no selected node
//                                │                              → event WaitForFirstConsumer, stay Pending
//                                └──────────────────────── none, class with a provisioner
//                                                               → annotate storage-provisioner, ExternalProvisioning
//   volume with claimRef whose claim is gone → Released → reclaim: Retain keeps it; Delete is the provisioner's job
//   (a volume no provisioner made cannot be deleted here: Failed, VolumeFailedDelete).
//
// Two shortcuts stand in for machinery the simulation has no use for: instead of the 15 s resync, a volume that
// becomes Available or a class that appears requeues the Pending claims; and once the scheduler has picked a
// node for a WaitForFirstConsumer claim (selected-node), this controller binds it to a matching static volume,
// the binding the scheduler's VolumeBinding plugin would otherwise write itself in PreBind.
import type { ObjectReference, PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder, EventType } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import { DeletedFinalStateUnknown, type Lister, type SharedInformer } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import {
  AnnBetaStorageProvisioner,
  AnnBindCompleted,
  AnnBoundByController,
  AnnDynamicallyProvisioned,
  AnnSelectedNode,
  AnnStorageProvisioner,
  ClaimPhase,
  claimClass,
  findBestMatchForClaim,
  isDelayBindingMode,
  isVolumeBoundToClaim,
  NotSupportedProvisioner,
  ReclaimPolicy,
  VolumeEvents,
  VolumePhase,
} from './pv-util';

export const PersistentVolumeBinderControllerName = 'persistentvolume-binder';

type PV = Typed<PersistentVolume>;
type PVC = Typed<PersistentVolumeClaim>;
type SC = Typed<StorageClass>;

export interface PersistentVolumeControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

const claimKeyPrefix = 'claim:';
const volumeKeyPrefix = 'volume:';

export class PersistentVolumeController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly volumes: Lister<PV>;
  private readonly claims: Lister<PVC>;
  private readonly classes: Lister<SC>;
  private readonly registrations: { remove(): void }[];

  constructor(options: PersistentVolumeControllerOptions) {
    this.client = options.client;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: PersistentVolumeBinderControllerName } });
    const pvInformer = options.informers.persistentVolumes as unknown as SharedInformer<PV>;
    const pvcInformer = options.informers.persistentVolumeClaims as unknown as SharedInformer<PVC>;
    const scInformer = options.informers.storageClasses as unknown as SharedInformer<SC>;
    this.volumes = pvInformer.lister;
    this.claims = pvcInformer.lister;
    this.classes = scInformer.lister;
    const queue = new RateLimitingQueue<string>({ name: 'volumes', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: PersistentVolumeBinderControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.sync(key),
      maxRetries: Infinity,
      cacheSyncs: [() => pvInformer.hasSynced(), () => pvcInformer.hasSynced(), () => scInformer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
    const unwrap = <T>(obj: T | DeletedFinalStateUnknown<T>): T => (obj instanceof DeletedFinalStateUnknown ? obj.obj : obj);
    const enqueueClaim = (c: PVC): void => queue.add(claimKeyPrefix + metaNamespaceKeyFunc(c));
    const enqueueVolume = (v: PV): void => queue.add(volumeKeyPrefix + (v.metadata.name ?? ''));
    this.registrations = [
      pvcInformer.addEventHandler({
        onAdd: enqueueClaim,
        onUpdate: (_old, cur) => enqueueClaim(cur),
        onDelete: (obj) => {
          // The volume bound to a deleted claim is released.
          const claim = unwrap(obj);
          const name = claim.spec?.volumeName;
          if (name) queue.add(volumeKeyPrefix + name);
        },
      }),
      pvInformer.addEventHandler({
        onAdd: (v) => {
          enqueueVolume(v);
          this.enqueuePendingClaims();
        },
        onUpdate: (old, cur) => {
          enqueueVolume(cur);
          if (cur.status?.phase === VolumePhase.Available && old.status?.phase !== VolumePhase.Available) this.enqueuePendingClaims();
        },
        onDelete: (obj) => {
          const ref = unwrap(obj).spec?.claimRef;
          if (ref?.name) queue.add(`${claimKeyPrefix}${ref.namespace ?? ''}/${ref.name}`);
        },
      }),
      scInformer.addEventHandler({ onAdd: () => this.enqueuePendingClaims() }),
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

  private enqueuePendingClaims(): void {
    for (const c of this.claims.list()) if (!c.spec?.volumeName) this.queue.add(claimKeyPrefix + metaNamespaceKeyFunc(c));
  }

  sync(key: string): void {
    if (key.startsWith(claimKeyPrefix)) {
      const { namespace, name } = splitMetaNamespaceKey(key.slice(claimKeyPrefix.length));
      const claim = this.claims.get(namespace, name);
      if (claim && !claim.metadata.deletionTimestamp) this.syncClaim(claim);
      return;
    }
    const volume = this.volumes.get(undefined, key.slice(volumeKeyPrefix.length));
    if (volume) this.syncVolume(volume);
  }

  // ---------------------------------------------------------------- claims

  syncClaim(claim: PVC): void {
    if (!claim.spec?.volumeName) this.syncUnboundClaim(claim);
    else this.syncBoundClaim(claim);
  }

  private syncUnboundClaim(claim: PVC): void {
    const delayBinding = isDelayBindingMode(claim, (n) => this.classes.get(undefined, n));
    const selectedNode = claim.metadata.annotations?.[AnnSelectedNode];
    const volume = findBestMatchForClaim(claim, this.volumes.list(), delayBinding && !selectedNode);
    if (volume) {
      this.bind(volume, claim);
      return;
    }
    this.ensureClaimPending(claim);
    const className = claimClass(claim);
    if (delayBinding && !selectedNode) {
      this.recorder.event(claim, EventType.Normal, VolumeEvents.WaitForFirstConsumer, 'waiting for first consumer to be created before binding');
      return;
    }
    if (!className) {
      this.recorder.event(claim, EventType.Normal, VolumeEvents.FailedBinding, 'no persistent volumes available for this claim and no storage class is set');
      return;
    }
    const storageClass = this.classes.get(undefined, className);
    if (!storageClass) {
      this.recorder.event(claim, EventType.Warning, 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
      return;
    }
    if (storageClass.provisioner === NotSupportedProvisioner) return; // volumes of this class come by hand
    this.provisionClaim(claim, storageClass.provisioner);
  }

  /** provisionClaim for an out-of-tree provisioner: mark the claim for it and say who is expected to act. */
  private provisionClaim(claim: PVC, provisioner: string): void {
    const annotations = claim.metadata.annotations ?? {};
    if (annotations[AnnStorageProvisioner] !== provisioner || annotations[AnnBetaStorageProvisioner] !== provisioner) {
      this.client.persistentVolumeClaims.update(
        { ...claim, metadata: { ...claim.metadata, annotations: { ...annotations, [AnnStorageProvisioner]: provisioner, [AnnBetaStorageProvisioner]: provisioner } } },
        { namespace: claim.metadata.namespace },
      );
    }
    this.recorder.event(
      claim,
      EventType.Normal,
      VolumeEvents.ExternalProvisioning,
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    );
  }

  private syncBoundClaim(claim: PVC): void {
    const volume = this.volumes.get(undefined, claim.spec!.volumeName!);
    if (!volume) {
      if (claim.status?.phase !== ClaimPhase.Lost) {
        this.updateClaimPhase(claim, ClaimPhase.Lost);
        this.recorder.event(claim, EventType.Warning, VolumeEvents.ClaimLost, 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
      }
      return;
    }
    if (!volume.spec?.claimRef || isVolumeBoundToClaim(volume, claim)) {
      // Pre-bound by the user (volumeName) or half-way through a binding: finish it.
      this.bind(volume, claim);
      return;
    }
    if (claim.status?.phase !== ClaimPhase.Lost) {
      this.updateClaimPhase(claim, ClaimPhase.Lost);
      this.recorder.event(claim, EventType.Warning, 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
    }
  }

  /** bind: volume → claim first (claimRef, Bound), then claim → volume (volumeName, Bound, capacity, access modes). */
  private bind(volume: PV, claim: PVC): void {
    const boundVolume = this.bindVolumeToClaim(volume, claim);
    this.bindClaimToVolume(claim, boundVolume);
  }

  private bindVolumeToClaim(volume: PV, claim: PVC): PV {
    let current = volume;
    const ref = volume.spec?.claimRef;
    if (!ref || ref.uid !== claim.metadata.uid || !ref.resourceVersion) {
      const claimRef: ObjectReference = {
        kind: 'PersistentVolumeClaim',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        uid: claim.metadata.uid,
        apiVersion: 'v1',
        resourceVersion: claim.metadata.resourceVersion,
      };
      const annotations = { ...(volume.metadata.annotations ?? {}) };
      if (!ref) annotations[AnnBoundByController] = 'yes'; // not pre-bound by a user
      current = this.client.persistentVolumes.update({ ...volume, metadata: { ...volume.metadata, annotations }, spec: { ...volume.spec, claimRef } });
    }
    if (current.status?.phase !== VolumePhase.Bound) current = this.updateVolumePhase(current, VolumePhase.Bound);
    return current;
  }

  private bindClaimToVolume(claim: PVC, volume: PV): void {
    let current = claim;
    const annotations = claim.metadata.annotations ?? {};
    if (claim.spec?.volumeName !== volume.metadata.name || annotations[AnnBindCompleted] !== 'yes') {
      const next: Record<string, string> = { ...annotations, [AnnBindCompleted]: 'yes' };
      if (!claim.spec?.volumeName) next[AnnBoundByController] = 'yes';
      current = this.client.persistentVolumeClaims.update(
        { ...claim, metadata: { ...claim.metadata, annotations: next }, spec: { ...claim.spec, volumeName: volume.metadata.name } },
        { namespace: claim.metadata.namespace },
      );
    }
    const capacity = volume.spec?.capacity;
    const accessModes = volume.spec?.accessModes;
    const s = current.status ?? {};
    if (s.phase !== ClaimPhase.Bound || JSON.stringify(s.capacity) !== JSON.stringify(capacity) || JSON.stringify(s.accessModes) !== JSON.stringify(accessModes)) {
      this.client.persistentVolumeClaims.updateStatus(
        { ...current, status: { ...s, phase: ClaimPhase.Bound, ...(capacity ? { capacity } : {}), ...(accessModes ? { accessModes } : {}) } },
        { namespace: current.metadata.namespace },
      );
    }
  }

  private ensureClaimPending(claim: PVC): void {
    if (claim.status?.phase !== ClaimPhase.Pending) this.updateClaimPhase(claim, ClaimPhase.Pending);
  }

  private updateClaimPhase(claim: PVC, phase: string): void {
    this.client.persistentVolumeClaims.updateStatus({ ...claim, status: { ...claim.status, phase } }, { namespace: claim.metadata.namespace });
  }

  // ---------------------------------------------------------------- volumes

  syncVolume(volume: PV): void {
    const ref = volume.spec?.claimRef;
    if (!ref) {
      if (volume.status?.phase !== VolumePhase.Available) this.updateVolumePhase(volume, VolumePhase.Available);
      return;
    }
    if (!ref.uid) {
      // Pre-bound to a claim that may not exist yet: available to that claim only.
      if (volume.status?.phase !== VolumePhase.Available) this.updateVolumePhase(volume, VolumePhase.Available);
      this.queue.add(`${claimKeyPrefix}${ref.namespace ?? ''}/${ref.name}`);
      return;
    }
    let claim = this.claims.get(ref.namespace, ref.name ?? '');
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined; // a new claim with the old name
    if (!claim) {
      // The claim is gone: the volume is released and its reclaim policy applies.
      let released = volume;
      if (volume.status?.phase !== VolumePhase.Released && volume.status?.phase !== VolumePhase.Failed) {
        released = this.updateVolumePhase(volume, VolumePhase.Released);
      }
      if (released.status?.phase === VolumePhase.Released) this.reclaimVolume(released);
      return;
    }
    if (!claim.spec?.volumeName) {
      // Binding in progress: the claim's sync completes it.
      this.queue.add(claimKeyPrefix + metaNamespaceKeyFunc(claim));
      return;
    }
    if (claim.spec.volumeName === volume.metadata.name) {
      if (volume.status?.phase !== VolumePhase.Bound) this.updateVolumePhase(volume, VolumePhase.Bound);
      return;
    }
    // The claim is bound to another volume: a binding this controller made is undone.
    if (volume.metadata.annotations?.[AnnBoundByController] === 'yes') {
      const annotations = { ...volume.metadata.annotations };
      delete annotations[AnnBoundByController];
      const spec = { ...volume.spec };
      delete spec.claimRef;
      const unbound = this.client.persistentVolumes.update({ ...volume, metadata: { ...volume.metadata, annotations }, spec });
      this.updateVolumePhase(unbound, VolumePhase.Available);
    }
  }

  private reclaimVolume(volume: PV): void {
    const policy = volume.spec?.persistentVolumeReclaimPolicy ?? ReclaimPolicy.Retain;
    if (policy === ReclaimPolicy.Retain) return; // kept Released until an administrator acts
    if (policy === ReclaimPolicy.Delete) {
      // A dynamically provisioned volume is deleted by the provisioner that made it.
      if (volume.metadata.annotations?.[AnnDynamicallyProvisioned]) return;
      this.updateVolumePhase(volume, VolumePhase.Failed, `error getting deleter volume plugin for volume "${volume.metadata.name}": no deletable volume plugin matched`);
      this.recorder.event(volume, EventType.Warning, VolumeEvents.VolumeFailedDelete, `error getting deleter volume plugin for volume "${volume.metadata.name}": no deletable volume plugin matched`);
      return;
    }
    this.updateVolumePhase(volume, VolumePhase.Failed, 'No recycler plugin found for the volume!');
    this.recorder.event(volume, EventType.Warning, 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
  }

  private updateVolumePhase(volume: PV, phase: string, message?: string): PV {
    try {
      const status = { ...volume.status, phase };
      if (message) status.message = message;
      else delete status.message;
      return this.client.persistentVolumes.updateStatus({ ...volume, status });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return volume;
      throw err;
    }
  }
}
