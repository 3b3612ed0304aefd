// The cloud-controller-manager's service controller (k8s.io/cloud-provider/controllers/service) over a simulated
// cloud (load-balancer-pool.ts): a Service of type LoadBalancer without spec.loadBalancerClass gets a load balancer.
//
//   wants an LB:  event EnsuringLoadBalancer → finalizer service.kubernetes.io/load-balancer-cleanup →
//                 address from the pool → event EnsuredLoadBalancer → status.loadBalancer.ingress [{ip, ipMode: VIP}]
//   no longer (type changed, deleted with the finalizer):  DeletingLoadBalancer (if it existed) → address
//                 released → finalizer removed → DeletedLoadBalancer → status.loadBalancer {}
//   failure (pool exhausted):  Warning SyncLoadBalancerFailed "Error syncing load balancer: …", retried with
//                 backoff 5 s → 300 s; EXTERNAL-IP stays <pending> meanwhile.
// A Service with a loadBalancerClass belongs to another implementation and is left alone.
import type { Node, Service } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder, EventType } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { ItemExponentialFailureRateLimiter } from '../../workqueue/rate-limiters';
import { BaseController } from '../shared/controller';
import { LoadBalancerPool } from './load-balancer-pool';

export const ServiceControllerName = 'service-lb-controller';
/** The event source component of the cloud-controller-manager's service controller. */
export const ServiceControllerComponent = 'service-controller';
export const LoadBalancerCleanupFinalizer = 'service.kubernetes.io/load-balancer-cleanup';
const LabelNodeExcludeBalancers = 'node.kubernetes.io/exclude-from-external-load-balancers';
const ToBeDeletedTaint = 'ToBeDeletedByClusterAutoscaler';

type ServiceObj = Typed<Service>;
type LoadBalancerStatus = NonNullable<NonNullable<Service['status']>['loadBalancer']>;

/** wantsLoadBalancer: type LoadBalancer and no loadBalancerClass (a class means another implementation). */
export function wantsLoadBalancer(svc: Service): boolean {
  return svc.spec?.type === 'LoadBalancer' && (svc.spec.loadBalancerClass === undefined || svc.spec.loadBalancerClass === null);
}

export function hasLBFinalizer(svc: Service): boolean {
  return (svc.metadata?.finalizers ?? []).includes(LoadBalancerCleanupFinalizer);
}

/** needsCleanup: holds the finalizer and is being deleted or no longer of type LoadBalancer. */
export function needsCleanup(svc: Service): boolean {
  if (!hasLBFinalizer(svc)) return false;
  if (svc.metadata?.deletionTimestamp) return true;
  return svc.spec?.type !== 'LoadBalancer';
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** needsUpdate: the fields of the Service a load balancer depends on changed. */
export function needsUpdate(old: Service, cur: Service): boolean {
  if (!wantsLoadBalancer(old) && !wantsLoadBalancer(cur)) return false;
  if (wantsLoadBalancer(old) !== wantsLoadBalancer(cur)) return true;
  const o = old.spec ?? {};
  const c = cur.spec ?? {};
  const portsForLB = (s: Service['spec']) => (s?.ports ?? []).map((p) => [p.name, p.port, p.nodePort, p.protocol]);
  return (
    !same(o.loadBalancerSourceRanges, c.loadBalancerSourceRanges) ||
    !same(portsForLB(o), portsForLB(c)) ||
    o.sessionAffinity !== c.sessionAffinity ||
    !same(o.sessionAffinityConfig, c.sessionAffinityConfig) ||
    (o.loadBalancerIP ?? '') !== (c.loadBalancerIP ?? '') ||
    !same(o.externalIPs, c.externalIPs) ||
    !same(old.metadata?.annotations, cur.metadata?.annotations) ||
    old.metadata?.uid !== cur.metadata?.uid ||
    o.externalTrafficPolicy !== c.externalTrafficPolicy ||
    o.healthCheckNodePort !== c.healthCheckNodePort ||
    (o.ipFamilies ?? []).length !== (c.ipFamilies ?? []).length
  );
}

/** stableNodeSetPredicates: not being deleted, not excluded by label, not tainted for deletion. */
export function nodeInLoadBalancerSet(node: Node): boolean {
  if (node.metadata?.deletionTimestamp) return false;
  const exclude = node.metadata?.labels?.[LabelNodeExcludeBalancers];
  if (exclude !== undefined && exclude !== 'false' && exclude !== 'False' && exclude !== 'FALSE' && exclude !== 'f' && exclude !== 'F' && exclude !== '0') return false;
  return !(node.spec?.taints ?? []).some((t) => t.key === ToBeDeletedTaint);
}

export interface ServiceControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  /** The simulated cloud; default a fresh pool rebuilt from the Services' status. */
  pool?: LoadBalancerPool;
}

export class ServiceController {
  readonly controller: BaseController;
  readonly pool: LoadBalancerPool;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly serviceInformer: SharedInformer<Service>;
  private readonly nodeInformer: SharedInformer<Node>;
  private readonly serviceLister: Lister<ServiceObj>;
  private readonly registrations: { remove(): void }[] = [];
  private adopted = false;

  constructor(options: ServiceControllerOptions) {
    this.client = options.client;
    this.pool = options.pool ?? new LoadBalancerPool();
    this.serviceInformer = options.informers.services;
    this.nodeInformer = options.informers.nodes;
    this.serviceLister = this.serviceInformer.lister as Lister<ServiceObj>;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: ServiceControllerComponent } });
    const queue = new RateLimitingQueue<string>({
      name: 'service',
      clock: options.clock,
      trace: options.trace,
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(5_000, 300_000),
    });
    this.controller = new BaseController({
      name: ServiceControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncService(key),
      maxRetries: Infinity,
      cacheSyncs: [() => this.serviceInformer.hasSynced(), () => this.nodeInformer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
    this.registrations.push(
      this.serviceInformer.addEventHandler({
        onAdd: (svc) => {
          if (wantsLoadBalancer(svc) || needsCleanup(svc)) queue.add(metaNamespaceKeyFunc(svc));
        },
        onUpdate: (old, cur) => {
          if (needsUpdate(old, cur) || needsCleanup(cur)) queue.add(metaNamespaceKeyFunc(cur));
        },
        // Deletion is handled through the finalizer: the update that sets deletionTimestamp.
      }),
    );
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations) r.remove();
  }

  /** The cloud still holds the load balancers it made before a restart: take them back from the Services' status. */
  private adoptExisting(): void {
    if (this.adopted) return;
    this.adopted = true;
    for (const svc of this.serviceLister.list()) {
      if (!hasLBFinalizer(svc) || !svc.metadata.uid) continue;
      const ip = svc.status?.loadBalancer?.ingress?.[0]?.ip;
      if (ip) this.pool.adopt(svc.metadata.uid, ip);
    }
  }

  syncService(key: string): void {
    this.adoptExisting();
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.serviceLister.get(namespace, name);
    if (!cached) return;
    const service = structuredClone(cached);
    try {
      this.syncLoadBalancerIfNeeded(service);
    } catch (err) {
      this.recorder.event(service, EventType.Warning, 'SyncLoadBalancerFailed', `Error syncing load balancer: ${(err as Error).message}`);
      throw err;
    }
  }

  private syncLoadBalancerIfNeeded(service: ServiceObj): void {
    const previous = service.status?.loadBalancer ?? {};
    const uid = service.metadata.uid ?? '';
    let next: LoadBalancerStatus;
    if (!wantsLoadBalancer(service) || needsCleanup(service)) {
      next = {};
      if (this.pool.get(uid) !== undefined) {
        this.recorder.event(service, EventType.Normal, 'DeletingLoadBalancer', 'Deleting load balancer');
        this.pool.release(uid);
      }
      this.removeFinalizer(service);
      this.recorder.event(service, EventType.Normal, 'DeletedLoadBalancer', 'Deleted load balancer');
    } else {
      this.recorder.event(service, EventType.Normal, 'EnsuringLoadBalancer', 'Ensuring load balancer');
      this.addFinalizer(service);
      if (!this.nodeInformer.lister.list().some(nodeInLoadBalancerSet)) {
        this.recorder.event(service, EventType.Warning, 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
      }
      let ip: string;
      try {
        ip = this.pool.allocate(uid, service.spec?.loadBalancerIP || undefined);
      } catch (err) {
        throw new Error(`failed to ensure load balancer: ${(err as Error).message}`);
      }
      next = { ingress: [{ ip, ipMode: 'VIP' }] };
      this.recorder.event(service, EventType.Normal, 'EnsuredLoadBalancer', 'Ensured load balancer');
    }
    this.patchStatus(service, previous, next);
  }

  private addFinalizer(service: ServiceObj): void {
    if (hasLBFinalizer(service)) return;
    const finalizers = [...(service.metadata.finalizers ?? []), LoadBalancerCleanupFinalizer];
    try {
      const updated = this.client.services.patch(service.metadata.name ?? '', 'application/merge-patch+json', { metadata: { finalizers } }, { namespace: service.metadata.namespace });
      service.metadata = updated.metadata;
    } catch (err) {
      throw new Error(`failed to add load balancer cleanup finalizer: ${(err as Error).message}`);
    }
  }

  private removeFinalizer(service: ServiceObj): void {
    if (!hasLBFinalizer(service)) return;
    const finalizers = (service.metadata.finalizers ?? []).filter((f) => f !== LoadBalancerCleanupFinalizer);
    try {
      this.client.services.patch(
        service.metadata.name ?? '',
        'application/merge-patch+json',
        { metadata: { finalizers: finalizers.length ? finalizers : null } },
        { namespace: service.metadata.namespace },
      );
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw new Error(`failed to remove load balancer cleanup finalizer: ${(err as Error).message}`);
    }
  }

  private patchStatus(service: ServiceObj, previous: LoadBalancerStatus, next: LoadBalancerStatus): void {
    if (same(previous.ingress ?? [], next.ingress ?? [])) return;
    try {
      this.client.services.patch(
        service.metadata.name ?? '',
        'application/merge-patch+json',
        { status: { loadBalancer: { ingress: next.ingress ?? null } } },
        { namespace: service.metadata.namespace, subresource: 'status' },
      );
    } catch (err) {
      // The Service may be gone right after its finalizer was removed.
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw new Error(`failed to update load balancer status: ${(err as Error).message}`);
    }
  }
}
