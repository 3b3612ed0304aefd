// The cluster's storage driver, simulated: a CSI driver "hostpath.csi.kubeplay.io" (modelled on the real
// csi-driver-host-path, hostpath.csi.k8s.io) whose external-provisioner sidecar is this controller. It creates a
// CSI volume "pvc-<claim uid>" of the requested size for each claim the PV controller handed to it (annotation
// volume.kubernetes.io/storage-provisioner) — for a WaitForFirstConsumer class only once the scheduler chose a
// node, on that node — pre-bound to the claim; and it deletes its Released volumes whose reclaim policy is Delete.
// The driver requires attach (its CSIDriver says attachRequired: true), so the attach/detach controller and the
// simulated external-attacher (attachdetach/) attach each volume to the node of its pod. No disk is touched.
import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder, EventType } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import {
  AnnDynamicallyProvisioned,
  AnnSelectedNode,
  AnnStorageProvisioner,
  claimClass,
  ReclaimPolicy,
  VolumeBindingMode,
  VolumeEvents,
  VolumePhase,
} from './pv-util';

/** The CSI driver (and provisioner) name of the simulated volumes; the default class uses it. */
export const SimulatedHostPathProvisioner = 'hostpath.csi.kubeplay.io';
export const SimulatedProvisionerControllerName = 'simulated-hostpath-provisioner';
/** How long provisioning a volume takes. */
export const provisioningDelayMs = 1000;

type PV = Typed<PersistentVolume>;
type PVC = Typed<PersistentVolumeClaim>;
type SC = Typed<StorageClass>;

export interface SimulatedProvisionerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

/** The volume the provisioner makes for a claim of a class (capacity = the request). */
export function provisionedVolumeFor(claim: PVC, storageClass: StorageClass, selectedNode: string | undefined): PersistentVolume & { apiVersion: 'v1'; kind: 'PersistentVolume' } {
  const name = `pvc-${claim.metadata.uid}`;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, annotations: { [AnnDynamicallyProvisioned]: SimulatedHostPathProvisioner } },
    spec: {
      capacity: { storage: claim.spec?.resources?.requests?.storage ?? '0' },
      accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: storageClass.reclaimPolicy ?? ReclaimPolicy.Delete,
      storageClassName: storageClass.metadata?.name,
      volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      ...(storageClass.mountOptions ? { mountOptions: storageClass.mountOptions } : {}),
      // The volume handle is the volume's name: deterministic, and unique as the claim uid is.
      csi: { driver: SimulatedHostPathProvisioner, volumeHandle: name, fsType: 'ext4' },
      claimRef: {
        kind: 'PersistentVolumeClaim',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        uid: claim.metadata.uid,
        apiVersion: 'v1',
        resourceVersion: claim.metadata.resourceVersion,
      },
      // A hostPath volume exists on one node only: pods using it must run there.
      ...(selectedNode
        ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [selectedNode] }] }] } } }
        : {}),
    },
  };
}

export class SimulatedProvisioner {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly volumes: Lister<PV>;
  private readonly claims: Lister<PVC>;
  private readonly classes: Lister<SC>;
  private readonly registrations: { remove(): void }[];

  constructor(options: SimulatedProvisionerOptions) {
    this.client = options.client;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: SimulatedHostPathProvisioner } });
    const pvInformer = options.informers.persistentVolumes as unknown as SharedInformer<PV>;
    const pvcInformer = options.informers.persistentVolumeClaims as unknown as SharedInformer<PVC>;
    const scInformer = options.informers.storageClasses as unknown as SharedInformer<SC>;
    this.volumes = pvInformer.lister;
    this.claims = pvcInformer.lister;
    this.classes = scInformer.lister;
    const queue = new RateLimitingQueue<string>({ name: 'provisioner', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: SimulatedProvisionerControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.sync(key),
      maxRetries: Infinity,
      cacheSyncs: [() => pvInformer.hasSynced(), () => pvcInformer.hasSynced(), () => scInformer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
    // Creating a volume takes the provisioner a moment (kind's local-path runs a helper pod for it).
    const onClaim = (c: PVC): void => {
      if (c.metadata.annotations?.[AnnStorageProvisioner] === SimulatedHostPathProvisioner && !c.spec?.volumeName) queue.addAfter(`claim:${metaNamespaceKeyFunc(c)}`, provisioningDelayMs);
    };
    const onVolume = (v: PV): void => {
      if (v.status?.phase === VolumePhase.Released && v.metadata.annotations?.[AnnDynamicallyProvisioned] === SimulatedHostPathProvisioner) queue.add(`volume:${v.metadata.name}`);
    };
    this.registrations = [
      pvcInformer.addEventHandler({ onAdd: onClaim, onUpdate: (_o, c) => onClaim(c) }),
      pvInformer.addEventHandler({ onAdd: onVolume, onUpdate: (_o, v) => onVolume(v) }),
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

  sync(key: string): void {
    if (key.startsWith('claim:')) {
      const { namespace, name } = splitMetaNamespaceKey(key.slice('claim:'.length));
      const claim = this.claims.get(namespace, name);
      if (claim) this.provision(claim);
      return;
    }
    const volume = this.volumes.get(undefined, key.slice('volume:'.length));
    if (volume) this.delete(volume);
  }

  private provision(claim: PVC): void {
    if (claim.spec?.volumeName || claim.metadata.deletionTimestamp) return;
    if (claim.metadata.annotations?.[AnnStorageProvisioner] !== SimulatedHostPathProvisioner) return;
    const storageClass = this.classes.get(undefined, claimClass(claim));
    if (!storageClass || storageClass.provisioner !== SimulatedHostPathProvisioner) return;
    const selectedNode = claim.metadata.annotations?.[AnnSelectedNode];
    if (storageClass.volumeBindingMode === VolumeBindingMode.WaitForFirstConsumer && !selectedNode) return;
    const volume = provisionedVolumeFor(claim, storageClass, selectedNode);
    if (this.volumes.get(undefined, volume.metadata!.name!)) return; // provisioned already; the binder finishes
    const claimName = `${claim.metadata.namespace}/${claim.metadata.name}`;
    this.recorder.event(claim, EventType.Normal, VolumeEvents.Provisioning, `External provisioner is provisioning volume for claim "${claimName}"`);
    try {
      this.client.persistentVolumes.create(volume);
    } catch (err) {
      if (!isStatusError(err, StatusReason.AlreadyExists)) throw err;
    }
    this.recorder.event(claim, EventType.Normal, VolumeEvents.ProvisioningSucceeded, `Successfully provisioned volume ${volume.metadata!.name}`);
  }

  private delete(volume: PV): void {
    if (volume.status?.phase !== VolumePhase.Released || volume.spec?.persistentVolumeReclaimPolicy !== ReclaimPolicy.Delete) return;
    if (volume.metadata.annotations?.[AnnDynamicallyProvisioned] !== SimulatedHostPathProvisioner) return;
    try {
      this.client.persistentVolumes.delete(volume.metadata.name!, { preconditions: { uid: volume.metadata.uid } });
    } catch (err) {
      if (!isStatusError(err, StatusReason.NotFound)) throw err;
    }
  }
}
