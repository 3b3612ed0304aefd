// kube-controller-manager's Endpoints controller (pkg/controller/endpoint): the core v1 Endpoints object of every
// Service with a selector, named like the Service: its pods' IPs as addresses (ready) or notReadyAddresses,
// grouped by the ports they offer, capped at 1000 addresses. Services without a selector are left alone: their
// Endpoints are the user's.
//
//   service / pod events → queue the service key;  an Endpoints deleted → queue it (it comes back)
//   syncService(key): service gone → delete its Endpoints
//                     ExternalName or no selector → nothing
//                     pods → subsets (RepackSubsets) → create, or update if subsets/labels/annotation differ
//   at start: every Endpoints object is queued once, so those left by a deleted Service are removed
import type { Endpoints, EndpointSubset, Pod, Service } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import { selectorFromSet } from '../../../shared/lib/labels';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import { DeletedFinalStateUnknown } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import {
  AddressType,
  AnnotationLastChangeTriggerTime,
  findPort,
  getPodServiceMemberships,
  getServicesToUpdateOnPodChange,
  LabelHeadlessService,
  podAddresses,
  sameMap,
  serviceSelector,
  shouldPodBeInEndpoints,
  shouldSetHostname,
} from '../endpointslice/endpointslice-util';
import { formatRFC3339Nano, TriggerTimeTracker } from '../endpointslice/trigger-time-tracker';
import { hasStatusCause, NamespaceTerminatingCause } from '../serviceaccount/serviceaccounts-controller';
import { BaseController } from '../shared/controller';
import { isPodReady } from '../shared/controller-utils';
import {
  addEndpointSubset,
  AnnotationEndpointsOverCapacity,
  capacityAnnotationSetCorrectly,
  OverCapacityTruncated,
  repackSubsets,
  subsetsEqual,
  truncateEndpoints,
} from './subsets';

export const EndpointsControllerName = 'endpoints-controller';
/** The event source component of the controller's events. */
export const EndpointsControllerComponent = 'endpoint-controller';
/** The leader-election record annotation: Endpoints used as locks are not the controller's business. */
const LeaderElectionRecordAnnotationKey = 'control-plane.alpha.kubernetes.io/leader';
const maxRetries = 15;

export interface EndpointsControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

type PodObj = Typed<Pod>;
type ServiceObj = Typed<Service>;
type EndpointsObj = Typed<Endpoints>;

function unwrap<T>(obj: T | DeletedFinalStateUnknown<T>): T {
  return obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
}

/** helper.IsServiceIPSet: a cluster IP allocated (neither empty nor None). */
function isServiceIPSet(service: Service): boolean {
  const ip = service.spec?.clusterIP;
  return !!ip && ip !== 'None';
}

/**
 * podToEndpointAddressForService: the pod IP of the service's family (its first ipFamily; else the clusterIP's;
 * else, headless, the pod's own), with nodeName and a reference to the pod. Undefined when the pod has none.
 */
export function podToEndpointAddressForService(service: Service, pod: Pod) {
  let family: AddressType = AddressType.IPv4;
  const families = service.spec?.ipFamilies ?? [];
  if (families.length > 0) family = families[0] === 'IPv6' ? AddressType.IPv6 : AddressType.IPv4;
  else if (isServiceIPSet(service)) family = service.spec!.clusterIP!.includes(':') ? AddressType.IPv6 : AddressType.IPv4;
  else if ((pod.status?.podIP ?? '').includes(':')) family = AddressType.IPv6;
  const [ip] = podAddresses(pod, family);
  if (!ip) return undefined;
  return {
    ip,
    nodeName: pod.spec?.nodeName ?? '',
    targetRef: { kind: 'Pod', namespace: pod.metadata?.namespace, name: pod.metadata?.name, uid: pod.metadata?.uid },
  };
}

/** The subsets of a service's Endpoints from its pods (before truncation). */
export function computeSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const subsets: EndpointSubset[] = [];
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const epa = podToEndpointAddressForService(service, pod);
    if (!epa) continue;
    const address = shouldSetHostname(pod, service) ? { ...epa, hostname: pod.spec!.hostname } : epa;
    const ready = publishNotReady || isPodReady(pod);
    const ports = service.spec?.ports ?? [];
    if (ports.length === 0) {
      // A headless service may have no ports.
      if (service.spec?.clusterIP === 'None') addEndpointSubset(subsets, address, undefined, ready);
      continue;
    }
    for (const sp of ports) {
      let portNum: number;
      try {
        portNum = findPort(pod, sp);
      } catch {
        continue;
      }
      const epp = { port: portNum, protocol: sp.protocol ?? 'TCP', ...(sp.name ? { name: sp.name } : {}), ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) };
      addEndpointSubset(subsets, address, epp, ready);
    }
  }
  return repackSubsets(subsets);
}

function withoutLabel(labels: Record<string, string> | undefined, key: string): Record<string, string> {
  const out = { ...(labels ?? {}) };
  delete out[key];
  return out;
}

export class EndpointsController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly triggerTimeTracker = new TriggerTimeTracker();
  /** staleEndpointsTracker: the resourceVersion each write replaced; seeing it again in the cache means stale. */
  private readonly staleResourceVersions = new Map<string, string>();
  private readonly serviceInformer: SharedInformer<Service>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly endpointsInformer: SharedInformer<Endpoints>;
  private readonly serviceLister: Lister<ServiceObj>;
  private readonly podLister: Lister<PodObj>;
  private readonly endpointsLister: Lister<EndpointsObj>;
  private readonly registrations: { remove(): void }[] = [];
  private checkedLeftovers = false;

  constructor(options: EndpointsControllerOptions) {
    this.client = options.client;
    this.serviceInformer = options.informers.services;
    this.podInformer = options.informers.pods;
    this.endpointsInformer = options.informers.endpoints;
    this.serviceLister = this.serviceInformer.lister as Lister<ServiceObj>;
    this.podLister = this.podInformer.lister as Lister<PodObj>;
    this.endpointsLister = this.endpointsInformer.lister as Lister<EndpointsObj>;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: EndpointsControllerComponent } });
    const queue = new RateLimitingQueue<string>({ name: 'endpoint', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: EndpointsControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncService(key),
      maxRetries,
      cacheSyncs: [
        () => this.serviceInformer.hasSynced(),
        () => this.podInformer.hasSynced(),
        () => this.endpointsInformer.hasSynced(),
        // Once synced, queue every Endpoints object once (checkLeftoverEndpoints), before the first sync.
        () => (this.checkLeftoverEndpoints(), true),
      ],
      trace: options.trace,
      client: options.client,
    });
    const addPod = (pod: Pod) => {
      for (const key of getPodServiceMemberships(this.serviceLister, pod)) queue.add(key);
    };
    this.registrations.push(
      this.serviceInformer.addEventHandler({
        onAdd: (svc) => queue.add(metaNamespaceKeyFunc(svc)),
        onUpdate: (_old, cur) => queue.add(metaNamespaceKeyFunc(cur)),
        onDelete: (obj) => queue.add(metaNamespaceKeyFunc(unwrap(obj))),
      }),
      this.podInformer.addEventHandler({
        onAdd: addPod,
        onUpdate: (oldPod, curPod) => {
          for (const key of getServicesToUpdateOnPodChange(this.serviceLister, oldPod, curPod)) queue.add(key);
        },
        onDelete: (obj) => addPod(unwrap(obj)),
      }),
      this.endpointsInformer.addEventHandler({
        onDelete: (obj) => queue.add(metaNamespaceKeyFunc(unwrap(obj))),
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

  /** checkLeftoverEndpoints: Endpoints whose Service went away while the controller was down get deleted. */
  private checkLeftoverEndpoints(): void {
    if (this.checkedLeftovers || !this.endpointsInformer.hasSynced()) return;
    this.checkedLeftovers = true;
    for (const ep of this.endpointsLister.list()) {
      if (ep.metadata.annotations?.[LeaderElectionRecordAnnotationKey] !== undefined) continue;
      this.queue.add(metaNamespaceKeyFunc(ep));
    }
  }

  /** syncService: the single reconcile entry point. */
  syncService(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const service = this.serviceLister.get(namespace, name);
    if (!service) {
      // The service is gone: so is its Endpoints object.
      try {
        this.client.endpoints.delete(name, { namespace });
      } catch (err) {
        if (!isStatusError(err, StatusReason.NotFound)) throw err;
      }
      this.triggerTimeTracker.deleteService(namespace, name);
      this.staleResourceVersions.delete(key);
      return;
    }
    if (service.spec?.type === 'ExternalName') return;
    const selector = serviceSelector(service);
    if (!selector) return;

    const pods = this.podLister.listNamespace(namespace, selectorFromSet(selector));
    // Computed even when the sync turns out a no-op, to keep the tracker's state current.
    const triggerTime = this.triggerTimeTracker.computeEndpointLastChangeTriggerTime(namespace, service, pods);
    const subsets = computeSubsets(service, pods);

    const cached = this.endpointsLister.get(namespace, name);
    if (cached && this.staleResourceVersions.get(key) === cached.metadata.resourceVersion) {
      throw new Error(`endpoints informer cache is out of date, resource version ${cached.metadata.resourceVersion} already processed for endpoints ${key}`);
    }
    const current: Endpoints = cached ?? { metadata: { name, labels: service.metadata.labels } };
    const create = !current.metadata?.resourceVersion;
    if (
      !create &&
      subsetsEqual(current.subsets, subsets) &&
      sameMap(withoutLabel(current.metadata?.labels, LabelHeadlessService), service.metadata.labels) &&
      capacityAnnotationSetCorrectly(current.metadata?.annotations, current.subsets)
    ) {
      return;
    }

    const annotations = { ...(current.metadata?.annotations ?? {}) };
    if (triggerTime !== undefined) annotations[AnnotationLastChangeTriggerTime] = formatRFC3339Nano(triggerTime);
    else delete annotations[AnnotationLastChangeTriggerTime];
    if (truncateEndpoints(subsets)) annotations[AnnotationEndpointsOverCapacity] = OverCapacityTruncated;
    else delete annotations[AnnotationEndpointsOverCapacity];
    const labels = { ...(service.metadata.labels ?? {}) };
    if (!isServiceIPSet(service)) labels[LabelHeadlessService] = '';
    else delete labels[LabelHeadlessService];
    const next: Endpoints = {
      ...structuredClone(current),
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { ...structuredClone(current.metadata ?? {}), name, namespace, labels, annotations },
      subsets,
    };

    let updated: EndpointsObj | undefined;
    try {
      if (create) this.client.endpoints.create(next, { namespace });
      else updated = this.client.endpoints.update(next, { namespace });
    } catch (err) {
      // Creates in a terminating namespace keep failing: nothing to retry.
      if (create && isStatusError(err, StatusReason.Forbidden) && hasStatusCause(err, NamespaceTerminatingCause)) return;
      const msg = err instanceof Error ? err.message : String(err);
      const ref = { ...next, metadata: { ...next.metadata, uid: current.metadata?.uid } } as EndpointsObj;
      if (create) this.recorder.event(ref, 'Warning', 'FailedToCreateEndpoint', `Failed to create endpoint for service ${namespace}/${name}: ${msg}`);
      else this.recorder.event(ref, 'Warning', 'FailedToUpdateEndpoint', `Failed to update endpoint ${namespace}/${name}: ${msg}`);
      throw err;
    }
    if (updated && updated.metadata.resourceVersion !== current.metadata?.resourceVersion) {
      this.staleResourceVersions.set(key, current.metadata?.resourceVersion ?? '');
    }
  }
}
