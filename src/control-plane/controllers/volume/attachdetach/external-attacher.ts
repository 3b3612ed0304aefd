// The simulated CSI driver's external-attacher sidecar (kubernetes-csi/external-attacher): it watches the
// VolumeAttachments whose attacher is its driver, puts its finalizer on each, "calls ControllerPublishVolume"
// (a short virtual delay) and sets status.attached; when one is deleted it "calls ControllerUnpublishVolume"
// (another delay) and removes its finalizer, which lets the object go.
import type { VolumeAttachment } from 'kubernetes-types/storage/v1';
import { isStatusError, StatusReason } from '../../../../shared/api/status';
import type { TraceSink } from '../../../../shared/protocol/trace';
import type { Client, ResourceClient, Typed } from '../../../client/client';
import type { SharedInformerFactory } from '../../../informers/factory';
import type { Lister } from '../../../informers/shared-informer';
import type { Clock } from '../../../sim/clock';
import { RateLimitingQueue } from '../../../workqueue/rate-limiting-queue';
import { BaseController } from '../../shared/controller';
import { SimulatedHostPathProvisioner } from '../simulated-provisioner';
import { attacherFinalizer, isAttached, volumeAttachmentsResource } from './attach-util';

export const ExternalAttacherControllerName = 'csi-attacher';
/** How long ControllerPublishVolume / ControllerUnpublishVolume take. */
export const attachDelayMs = 1500;
export const detachDelayMs = 1000;

export interface ExternalAttacherOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  /** The CSI driver served; default the simulated hostpath driver. */
  driver?: string;
}

type VA = Typed<VolumeAttachment>;

export class ExternalAttacher {
  readonly controller: BaseController;
  private readonly attachments: ResourceClient<VolumeAttachment>;
  private readonly vas: Lister<VA>;
  private readonly driver: string;
  private readonly finalizer: string;
  private readonly registrations: { remove(): void }[];

  constructor(options: ExternalAttacherOptions) {
    this.driver = options.driver ?? SimulatedHostPathProvisioner;
    this.finalizer = attacherFinalizer(this.driver);
    this.attachments = options.client.resource<VolumeAttachment>(volumeAttachmentsResource);
    const informer = options.informers.forResource<VA>(volumeAttachmentsResource);
    this.vas = informer.lister;
    const queue = new RateLimitingQueue<string>({ name: 'csi-attacher', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: ExternalAttacherControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.sync(key),
      maxRetries: Infinity,
      cacheSyncs: [() => informer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
    const mine = (va: VA): boolean => va.spec?.attacher === this.driver;
    this.registrations = [
      informer.addEventHandler({
        // A new attachment: the publish call takes a moment.
        onAdd: (va) => {
          if (!mine(va)) return;
          if (va.metadata.deletionTimestamp) queue.addAfter(va.metadata.name!, detachDelayMs);
          else if (!isAttached(va)) queue.addAfter(va.metadata.name!, attachDelayMs);
        },
        onUpdate: (old, va) => {
          if (!mine(va)) return;
          if (va.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) queue.addAfter(va.metadata.name!, detachDelayMs);
          else if (!va.metadata.deletionTimestamp && !isAttached(va)) queue.add(va.metadata.name!);
        },
      }),
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

  sync(name: string): void {
    const va = this.vas.get(undefined, name);
    if (!va || va.spec?.attacher !== this.driver) return;
    const finalizers = va.metadata.finalizers ?? [];
    try {
      if (va.metadata.deletionTimestamp) {
        // Detached: release the object.
        if (!finalizers.includes(this.finalizer)) return;
        this.attachments.update({ ...structuredClone(va), metadata: { ...structuredClone(va.metadata), finalizers: finalizers.filter((f) => f !== this.finalizer) } });
        return;
      }
      if (isAttached(va)) return;
      if (!finalizers.includes(this.finalizer)) {
        this.attachments.update({ ...structuredClone(va), metadata: { ...structuredClone(va.metadata), finalizers: [...finalizers, this.finalizer] } });
        return; // the update brings it back to attach
      }
      this.attachments.updateStatus({ ...structuredClone(va), status: { attached: true } });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw err;
    }
  }
}
