// kube-controller-manager's EndpointSlice controller (pkg/controller/endpointslice): for every Service with a
// selector, EndpointSlices listing its pods (one endpoint per pod with an IP), owned by the Service so the
// garbage collector removes them with it.
//
//   service / pod events (a pod's services: those whose selector matches it) → queue the service key
//   slice events this controller did not cause (tracker) → queue the service after 1 s
//   syncService(key): service gone → forget it; ExternalName or no selector → leave alone;
//                     cached slices older than what was written → retry later (never sync from a stale cache);
//                     else reconcile(service, pods, slices, last-change trigger time)
import type { Node, Pod, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { selectorFromSet } from '../../../shared/lib/labels';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import { DeletedFinalStateUnknown } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../../workqueue/rate-limiters';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import { EndpointSliceTracker } from './endpointslice-tracker';
import {
  ControllerManagedBy,
  getPodServiceMemberships,
  getServicesToUpdateOnPodChange,
  LabelManagedBy,
  LabelServiceName,
  serviceSelector,
} from './endpointslice-util';
import { Reconciler } from './reconciler';
import { TriggerTimeTracker } from './trigger-time-tracker';

export const EndpointSliceControllerName = 'endpointslice-controller';
/** The event source component of the controller's events. */
export const EndpointSliceControllerComponent = 'endpoint-slice-controller';
/** endpointSliceChangeMinSyncDelay: slice changes are batched for at least a second. */
export const EndpointSliceChangeMinSyncDelayMs = 1000;
const maxRetries = 15;

export interface EndpointSliceControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  maxEndpointsPerSlice?: number;
}

type PodObj = Typed<Pod>;
type ServiceObj = Typed<Service>;
type SliceObj = Typed<EndpointSlice>;

/** The queue's limiter: 1 s → 1000 s per service, 10 qps / 100 burst overall (defaultSyncBackOff). */
function endpointSliceRateLimiter(clock: Clock) {
  return new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(1000, 1000 * 1000), new BucketRateLimiter<string>(clock, 10, 100));
}

function unwrap<T>(obj: T | DeletedFinalStateUnknown<T>): T {
  return obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
}

export class EndpointSliceController {
  readonly controller: BaseController;
  readonly tracker = new EndpointSliceTracker();
  readonly reconciler: Reconciler;
  private readonly triggerTimeTracker = new TriggerTimeTracker();
  private readonly recorder: EventRecorder;
  private readonly serviceInformer: SharedInformer<Service>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly sliceInformer: SharedInformer<EndpointSlice>;
  private readonly nodeInformer: SharedInformer<Node>;
  private readonly serviceLister: Lister<ServiceObj>;
  private readonly podLister: Lister<PodObj>;
  private readonly sliceLister: Lister<SliceObj>;
  private readonly registrations: { remove(): void }[] = [];

  constructor(options: EndpointSliceControllerOptions) {
    this.serviceInformer = options.informers.services;
    this.podInformer = options.informers.pods;
    this.sliceInformer = options.informers.endpointSlices;
    this.nodeInformer = options.informers.nodes;
    this.serviceLister = this.serviceInformer.lister as Lister<ServiceObj>;
    this.podLister = this.podInformer.lister as Lister<PodObj>;
    this.sliceLister = this.sliceInformer.lister as Lister<SliceObj>;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: EndpointSliceControllerComponent } });
    this.reconciler = new Reconciler({
      client: options.client,
      nodeLister: this.nodeInformer.lister,
      tracker: this.tracker,
      maxEndpointsPerSlice: options.maxEndpointsPerSlice,
    });
    const queue = new RateLimitingQueue<string>({
      name: 'endpoint_slice',
      clock: options.clock,
      trace: options.trace,
      rateLimiter: endpointSliceRateLimiter(options.clock),
    });
    this.controller = new BaseController({
      name: EndpointSliceControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncService(key),
      maxRetries,
      cacheSyncs: [
        () => this.serviceInformer.hasSynced(),
        () => this.podInformer.hasSynced(),
        () => this.sliceInformer.hasSynced(),
        () => this.nodeInformer.hasSynced(),
      ],
      trace: options.trace,
      client: options.client,
    });
    this.registrations.push(
      this.serviceInformer.addEventHandler({
        onAdd: (svc) => queue.add(metaNamespaceKeyFunc(svc)),
        onUpdate: (_old, cur) => queue.add(metaNamespaceKeyFunc(cur)),
        onDelete: (obj) => queue.add(metaNamespaceKeyFunc(unwrap(obj))),
      }),
      this.podInformer.addEventHandler({
        onAdd: (pod) => this.addPod(pod),
        onUpdate: (oldPod, curPod) => {
          for (const key of getServicesToUpdateOnPodChange(this.serviceLister, oldPod, curPod)) queue.add(key);
        },
        onDelete: (obj) => this.addPod(unwrap(obj)),
      }),
      this.sliceInformer.addEventHandler({
        onAdd: (slice) => {
          if (managedByController(slice) && this.tracker.shouldSync(slice)) this.queueServiceForEndpointSlice(slice);
        },
        onUpdate: (prev, cur) => {
          const prevService = prev.metadata?.labels?.[LabelServiceName];
          if (prevService !== cur.metadata?.labels?.[LabelServiceName] && managedByController(prev)) this.queueServiceForEndpointSlice(prev);
          if (managedByChanged(prev, cur) || (managedByController(cur) && this.tracker.shouldSync(cur))) this.queueServiceForEndpointSlice(cur);
        },
        onDelete: (obj) => {
          const slice = unwrap(obj);
          if (managedByController(slice) && this.tracker.has(slice) && !this.tracker.handleDeletion(slice)) {
            this.queueServiceForEndpointSlice(slice);
          }
        },
      }),
    );
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  run(): void {
    this.controller.run();
  }

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations.splice(0)) r.remove();
  }

  private addPod(pod: Pod): void {
    for (const key of getPodServiceMemberships(this.serviceLister, pod)) this.queue.add(key);
  }

  private queueServiceForEndpointSlice(slice: EndpointSlice): void {
    const name = slice.metadata?.labels?.[LabelServiceName];
    if (!name) return;
    this.queue.addAfter(`${slice.metadata?.namespace ?? ''}/${name}`, EndpointSliceChangeMinSyncDelayMs);
  }

  /** syncService: the single reconcile entry point. */
  syncService(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const service = this.serviceLister.get(namespace, name);
    if (!service) {
      // Its slices go with it (garbage collector, through their owner reference).
      this.triggerTimeTracker.deleteService(namespace ?? '', name);
      this.tracker.deleteService(namespace ?? '', name);
      return;
    }
    if (service.spec?.type === 'ExternalName') return;
    const selector = serviceSelector(service);
    if (!selector) return;
    const ns = namespace ?? '';
    const pods = this.podLister.listNamespace(ns, selectorFromSet(selector));
    const slices = this.sliceLister
      .listNamespace(ns, selectorFromSet({ [LabelServiceName]: name, [LabelManagedBy]: ControllerManagedBy }))
      // Slices pending deletion are dropped so a stuck finalizer cannot wedge the controller.
      .filter((s) => !s.metadata.deletionTimestamp);
    if (this.tracker.staleSlices(ns, name, slices)) throw new Error('EndpointSlice informer cache is out of date');
    // Computed even when the sync turns out a no-op, to keep the tracker's state current.
    const triggerTime = this.triggerTimeTracker.computeEndpointLastChangeTriggerTime(ns, service, pods);
    try {
      this.reconciler.reconcile(service, pods, slices, triggerTime);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      this.recorder.event(service, 'Warning', 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${ns}/${name}: ${msg}`);
      throw err;
    }
  }
}

function managedByController(slice: EndpointSlice): boolean {
  return slice.metadata?.labels?.[LabelManagedBy] === ControllerManagedBy;
}

/** ManagedByChanged: the slice moved to or from this controller. */
function managedByChanged(a: EndpointSlice, b: EndpointSlice): boolean {
  return managedByController(a) !== managedByController(b);
}
