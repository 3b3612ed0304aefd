// The quota monitor of kube-controller-manager (pkg/controller/resourcequota/resource_quota_monitor.go): an
// informer per resource quota can count, whose changes that may give usage back ask the controller to replenish
// the quotas of the object's namespace. Adds are not reported: admission already charged them.
//
//   pod deleted                → replenish(pods, ns)
//   pod Running → Succeeded    → replenish(pods, ns)         (QuotaV1Pod turned false)
//   service ClusterIP → NodePort → replenish(services, ns)    (GetQuotaServiceType changed)
//   configmap updated          → nothing
import type { GroupResource, KubeObject } from '../../../shared/api/types';
import type { ResourceRegistry } from '../../../shared/api/resources';
import type { Clock } from '../../sim/clock';
import type { SharedInformerFactory } from '../../informers/factory';
import { DeletedFinalStateUnknown, type SharedInformer } from '../../informers/shared-informer';
import { podCountsForQuota } from '../../apiserver/admission/quota-evaluators';
import { parseResourceList, listsEqual } from '../../apiserver/admission/resource-list';
import type { ObjectReader } from '../../apiserver/types';

/** The resources the core evaluators and the legacy object counts cover: always monitored. */
export const coreQuotaResources: readonly GroupResource[] = [
  'pods',
  'services',
  'persistentvolumeclaims',
  'configmaps',
  'secrets',
  'replicationcontrollers',
  'resourcequotas',
].map((resource) => ({ group: '', resource }));

/** A monitored resource whose cache has not synced yet: usage computed now would be wrong. */
export class QuotaMonitorNotSyncedError extends Error {}

function grKey(gr: GroupResource): string {
  return `${gr.resource}.${gr.group}`;
}

/** GetQuotaServiceType: the service types quota counts separately. */
function quotaServiceType(svc: KubeObject): string {
  const type = (svc.spec as { type?: string } | undefined)?.type;
  return type === 'NodePort' || type === 'LoadBalancer' ? type : '';
}

/** RequiresQuotaReplenish (RecoverVolumeExpansionFailure): the allocated storage changed. */
function claimAllocationChanged(old: KubeObject, cur: KubeObject): boolean {
  const alloc = (o: KubeObject) => parseResourceList((o.status as { allocatedResources?: unknown } | undefined)?.allocatedResources);
  const a = alloc(old).get('storage');
  const b = alloc(cur).get('storage');
  return !listsEqual(new Map(a ? [['storage', a]] : []), new Map(b ? [['storage', b]] : []));
}

export interface QuotaMonitorOptions {
  informers: SharedInformerFactory;
  registry: ResourceRegistry;
  clock: Clock;
  /** replenishQuota: called for a change that may lower usage in a namespace. */
  replenish(gr: GroupResource, namespace: string): void;
}

export class QuotaMonitor implements ObjectReader {
  private readonly options: QuotaMonitorOptions;
  private readonly monitors = new Map<string, { informer: SharedInformer<KubeObject>; registration: { remove(): void } }>();

  constructor(options: QuotaMonitorOptions) {
    this.options = options;
    for (const gr of coreQuotaResources) this.monitor(gr);
  }

  /** Whether quota can count this resource here: the API serves it (count/widgets.example.com needs its CRD). */
  knows(gr: GroupResource): boolean {
    return this.options.registry.forGroupResource(gr) !== undefined;
  }

  /** The informer for a resource, started on first use (new count/<resource>.<group> quotas add monitors). */
  monitor(gr: GroupResource): SharedInformer<KubeObject> | undefined {
    const existing = this.monitors.get(grKey(gr));
    if (existing) return existing.informer;
    const rt = this.options.registry.forGroupResource(gr);
    if (!rt || !rt.namespaced) return undefined;
    const informer = this.options.informers.forResource<KubeObject>({ group: rt.group, version: rt.version, resource: rt.resource });
    const replenish = (obj: KubeObject) => this.options.replenish(gr, obj.metadata.namespace ?? '');
    const registration = informer.addEventHandler({
      onUpdate: (old, cur) => {
        if (this.updateMayReplenish(gr, old, cur)) replenish(cur);
      },
      onDelete: (obj) => replenish(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj),
    });
    this.monitors.set(grKey(gr), { informer, registration });
    return informer;
  }

  private updateMayReplenish(gr: GroupResource, old: KubeObject, cur: KubeObject): boolean {
    if (gr.group !== '') return false;
    const now = this.options.clock.now();
    switch (gr.resource) {
      case 'pods':
        return podCountsForQuota(old, now) && !podCountsForQuota(cur, now);
      case 'services':
        return quotaServiceType(old) !== quotaServiceType(cur);
      case 'persistentvolumeclaims':
        return claimAllocationChanged(old, cur);
      default:
        return false;
    }
  }

  /** Whether the core monitors have synced (the controller's cache-sync condition). */
  hasSynced(): boolean {
    return [...this.monitors.values()].every((m) => m.informer.hasSynced());
  }

  shutDown(): void {
    for (const m of this.monitors.values()) m.registration.remove();
    this.monitors.clear();
  }

  // ObjectReader over the monitors' caches, as CalculateUsage lists through the informers' listers.

  get(gr: GroupResource, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.synced(gr)?.lister.get(namespace, name);
  }

  list(gr: GroupResource, namespace?: string): KubeObject[] {
    const informer = this.synced(gr);
    if (!informer) return [];
    return namespace === undefined ? informer.lister.list() : informer.lister.listNamespace(namespace);
  }

  private synced(gr: GroupResource): SharedInformer<KubeObject> | undefined {
    const informer = this.monitor(gr);
    if (informer && !informer.hasSynced()) throw new QuotaMonitorNotSyncedError(`quota monitor for ${grKey(gr)} has not synced`);
    return informer;
  }
}
