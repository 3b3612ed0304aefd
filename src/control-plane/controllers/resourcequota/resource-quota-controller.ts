// kube-controller-manager's resource quota controller (pkg/controller/resourcequota/resource_quota_controller.go):
// admission charges a quota when an object is created; this controller recomputes status.used from the objects
// that exist, so deletions (and pods that finish) give their usage back, and copies spec.hard to status.hard.
//
//   quota created / spec.hard changed      → priority queue ("resourcequota_priority")
//   pod deleted, pod Succeeded, …          → the namespace's quotas that track pods → primary queue
//   every 5 minutes                         → every quota → primary queue (full recalculation)
//   syncResourceQuota: used = CalculateUsage(spec.hard) masked to spec.hard; UpdateStatus only when it changed
import type { ResourceQuota } from 'kubernetes-types/core/v1';
import type { GroupResource, KubeObject } from '../../../shared/api/types';
import type { ResourceRegistry } from '../../../shared/api/resources';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import { DeletedFinalStateUnknown, type Lister, type SharedInformer } from '../../informers/shared-informer';
import type { Clock, TimerHandle } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { computeQuotaUsage } from '../../apiserver/admission/resource-quota';
import { quotaEvaluatorFor } from '../../apiserver/admission/quota-evaluators';
import { type ResourceList, listsEqual, mask, parseResourceList, resourceListToJSON } from '../../apiserver/admission/resource-list';
import type { RunningController } from '../controller-context';
import { BaseController } from '../shared/controller';
import { QuotaMonitor, coreQuotaResources } from './quota-monitor';

export const ResourceQuotaControllerName = 'resourcequota-controller';

/** --resource-quota-sync-period: the full recalculation interval. */
export const resourceQuotaSyncPeriodMs = 5 * 60_000;

type QuotaObj = Typed<ResourceQuota>;

export interface ResourceQuotaControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  registry: ResourceRegistry;
  trace?: TraceSink;
  syncPeriodMs?: number;
}

/** count/widgets.example.com → widgets.example.com; undefined for other names. */
export function objectCountGroupResource(name: string): GroupResource | undefined {
  if (!name.startsWith('count/')) return undefined;
  const rest = name.slice('count/'.length);
  const dot = rest.indexOf('.');
  return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
}

function hardOf(q: KubeObject): ResourceList {
  return parseResourceList((q.spec as { hard?: unknown } | undefined)?.hard);
}

function statusOf(q: KubeObject): { hard?: unknown; used?: unknown } {
  return (q.status ?? {}) as { hard?: unknown; used?: unknown };
}

function sortedJSON(list: ResourceList): Record<string, string> {
  const json = resourceListToJSON(list);
  return Object.fromEntries(Object.keys(json).sort().map((k) => [k, json[k]]));
}

/** Whether some evaluator can compute usage for a resource name (evaluator.MatchingResources over the registry). */
function computable(name: string): boolean {
  const gr = objectCountGroupResource(name);
  const candidates = gr ? [gr] : coreQuotaResources;
  return candidates.some((c) => (quotaEvaluatorFor(c)?.matchingResources([name]).length ?? 0) > 0);
}

export class ResourceQuotaController implements RunningController {
  readonly name = ResourceQuotaControllerName;
  /** Quotas whose usage must be recalculated. */
  readonly controller: BaseController;
  /** Quotas with a declared intent not yet in status: worked on by their own workers, ahead of recalculations. */
  readonly priorityController: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly quotaInformer: SharedInformer<ResourceQuota>;
  private readonly quotaLister: Lister<QuotaObj>;
  private readonly monitor: QuotaMonitor;
  private readonly registration: { remove(): void };
  private readonly syncPeriodMs: number;
  private resyncTimer: TimerHandle | undefined;
  private stopped = false;

  constructor(options: ResourceQuotaControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.syncPeriodMs = options.syncPeriodMs ?? resourceQuotaSyncPeriodMs;
    this.quotaInformer = options.informers.resourceQuotas;
    this.quotaLister = this.quotaInformer.lister;
    this.monitor = new QuotaMonitor({
      informers: options.informers,
      registry: options.registry,
      clock: options.clock,
      replenish: (gr, ns) => this.replenishQuota(gr, ns),
    });
    const synced = [() => this.quotaInformer.hasSynced(), () => this.monitor.hasSynced()];
    const make = (name: string, queueName: string) =>
      new BaseController({
        name,
        queue: new RateLimitingQueue<string>({ name: queueName, clock: options.clock, trace: options.trace }),
        clock: options.clock,
        sync: (key) => this.syncResourceQuotaFromKey(key),
        cacheSyncs: synced,
        trace: options.trace,
        client: options.client,
        maxRetries: Infinity,
      });
    this.controller = make(ResourceQuotaControllerName, 'resourcequota_primary');
    this.priorityController = make(ResourceQuotaControllerName, 'resourcequota_priority');
    this.registration = this.quotaInformer.addEventHandler({
      onAdd: (q) => this.addQuota(q),
      // Only a change of spec.hard matters: status updates (ours and admission's) would loop otherwise.
      onUpdate: (old, cur) => {
        if (!listsEqual(hardOf(old), hardOf(cur))) this.addQuota(cur);
      },
      onDelete: (q) => this.controller.queue.add(metaNamespaceKeyFunc(q instanceof DeletedFinalStateUnknown ? q.obj : q)),
    });
  }

  run(): void {
    this.controller.run();
    this.priorityController.run();
    this.scheduleResync();
  }

  queues() {
    return [this.controller.queue.snapshot(), this.priorityController.queue.snapshot()];
  }

  shutDown(): void {
    this.stopped = true;
    this.clock.clearTimer(this.resyncTimer);
    this.controller.shutDown();
    this.priorityController.shutDown();
    this.registration.remove();
    this.monitor.shutDown();
  }

  /** addQuota: a declared intent status does not reflect yet goes to the priority queue. */
  private addQuota(q: QuotaObj): void {
    const key = metaNamespaceKeyFunc(q);
    this.watchObjectCounts(q);
    const status = statusOf(q);
    if (!listsEqual(hardOf(q), parseResourceList(status.hard)) || status.hard === undefined) {
      this.priorityController.queue.add(key);
      return;
    }
    const used = parseResourceList(status.used);
    for (const name of parseResourceList(status.hard).keys()) {
      if (!used.has(name) && computable(name)) {
        this.priorityController.queue.add(key);
        return;
      }
    }
    this.controller.queue.add(key);
  }

  /** A quota on count/<resource>.<group> needs that resource monitored (the real monitor watches every resource). */
  private watchObjectCounts(q: KubeObject): void {
    for (const name of hardOf(q).keys()) {
      const gr = objectCountGroupResource(name);
      if (gr) this.monitor.monitor(gr);
    }
  }

  /** enqueueAll, every sync period. */
  private scheduleResync(): void {
    if (this.stopped) return;
    this.resyncTimer = this.clock.setTimer(
      this.syncPeriodMs,
      () => {
        for (const q of this.quotaLister.list()) this.controller.queue.add(metaNamespaceKeyFunc(q));
        this.scheduleResync();
      },
      `${ResourceQuotaControllerName} resync`,
      // A periodic timer: the cluster is idle while only this is pending.
      { background: true },
    );
  }

  /** replenishQuota: the namespace's quotas that track the changed resource are recalculated. */
  private replenishQuota(gr: GroupResource, namespace: string): void {
    const evaluator = quotaEvaluatorFor(gr);
    if (!evaluator) return;
    for (const q of this.quotaLister.listNamespace(namespace)) {
      const tracked = [...parseResourceList(statusOf(q).hard).keys()];
      if (evaluator.matchingResources(tracked).length > 0) this.controller.queue.add(metaNamespaceKeyFunc(q));
    }
  }

  syncResourceQuotaFromKey(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const q = this.quotaLister.get(namespace, name);
    if (!q) return;
    this.syncResourceQuota(q);
  }

  /** syncResourceQuota: status.hard = spec.hard, status.used = usage of the objects, written only when changed. */
  private syncResourceQuota(q: QuotaObj): void {
    const status = statusOf(q);
    const hard = hardOf(q);
    const hardNames = [...hard.keys()];
    let dirty = !listsEqual(hard, parseResourceList(status.hard)) || status.hard === undefined || status.used === undefined;
    const used = parseResourceList(status.used);
    // Object counts of resources the API does not serve have no evaluator: their usage is left as it is.
    const names = hardNames.filter((n) => {
      const gr = objectCountGroupResource(n);
      return !gr || this.monitor.knows(gr);
    });
    for (const [k, v] of computeQuotaUsage(q, this.monitor, this.clock.now(), names)) used.set(k, v);
    const newUsed = mask(used, hardNames);
    dirty = dirty || !listsEqual(newUsed, parseResourceList(status.used));
    if (!dirty) return;
    this.client.resourceQuotas.updateStatus({
      ...q,
      status: { ...(q.status ?? {}), hard: sortedJSON(hard), used: sortedJSON(newUsed) },
    } as QuotaObj);
  }
}
