// namespacedResourcesDeleter (pkg/controller/namespace/deletion/namespaced_resources_deleter.go): empties a
// Terminating namespace and then releases it.
//
//   1. every namespaced resource type that supports delete (discovered from the registry, custom resources
//      included) is deleted with deletecollection (propagationPolicy Background), then listed again;
//   2. what remains is counted per resource and per finalizer into the namespace's deletion conditions;
//   3. while content remains, the pass reports an estimate: the longest pod grace period not yet elapsed since
//      the namespace's deletion, or 15 s when the leftovers carry finalizers (the GC and others at work);
//   4. once nothing remains, the "kubernetes" finalizer is removed through namespaces/<name>/finalize, and the
//      API server deletes the Namespace.
import type { Namespace, Pod } from 'kubernetes-types/core/v1';
import type { ResourceRegistry, ResourceType } from '../../../shared/api/resources';
import { StatusReason, isStatusError } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import type { Client, ResourceClient, Typed } from '../../client/client';
import { rfc3339, type Clock } from '../../sim/clock';
import { NamespaceConditionUpdater, type ContentTotals } from './namespace-condition-updater';

/** The spec finalizer the namespace controller owns (v1.FinalizerKubernetes). */
export const FinalizerKubernetes = 'kubernetes';

/** How long to wait for content with finalizers (finalizerEstimateSeconds). */
export const finalizerEstimateSeconds = 15;

export const NamespaceTerminating = 'Terminating';

/** Content is still being removed; retry after about `estimate` seconds (ResourcesRemainingError). */
export class ResourcesRemainingError extends Error {
  constructor(readonly estimate: number) {
    super(`some content remains in the namespace, estimate ${estimate} seconds before it is removed`);
    this.name = 'ResourcesRemainingError';
  }
}

interface GvrDeletionMetadata {
  finalizerEstimateSeconds: number;
  numRemaining: number;
  finalizersToNumRemaining?: Map<string, number>;
}

/** schema.GroupVersionResource.String(): "apps/v1, Resource=deployments". */
function gvrString(rt: ResourceType): string {
  return `${rt.group}/${rt.version}, Resource=${rt.resource}`;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface NamespacedResourcesDeleterOptions {
  client: Client;
  registry: ResourceRegistry;
  clock: Clock;
  finalizerToken?: string;
}

export class NamespacedResourcesDeleter {
  private readonly client: Client;
  private readonly registry: ResourceRegistry;
  private readonly clock: Clock;
  private readonly finalizerToken: string;

  constructor(options: NamespacedResourcesDeleterOptions) {
    this.client = options.client;
    this.registry = options.registry;
    this.clock = options.clock;
    this.finalizerToken = options.finalizerToken ?? FinalizerKubernetes;
  }

  /** Delete: one pass over the namespace. Throws ResourcesRemainingError while content is on its way out. */
  delete(nsName: string): void {
    let ns: Typed<Namespace>;
    try {
      ns = this.client.namespaces.get(nsName);
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return;
    ns = this.retryOnConflict(ns, (n) => this.updateNamespaceStatus(n));
    if (!ns.metadata.deletionTimestamp) return;
    if (this.finalized(ns)) return;

    const estimate = this.deleteAllContent(ns);
    if (estimate > 0) throw new ResourcesRemainingError(estimate);

    try {
      this.retryOnConflict(ns, (n) => this.finalizeNamespace(n));
    } catch (err) {
      // Another controller sharing the token may have finished the delete already.
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw err;
    }
  }

  /** The namespaced resource types that support delete (ServerPreferredNamespacedResources + the filter). */
  deletableResources(): ResourceType[] {
    return this.registry.all().filter((rt) => rt.namespaced && rt.verbs.includes('delete'));
  }

  private finalized(ns: Namespace): boolean {
    return !(ns.spec?.finalizers ?? []).includes(this.finalizerToken);
  }

  /** retryOnConflictError: on a conflict, read the latest namespace and try once more with it. */
  private retryOnConflict(ns: Typed<Namespace>, fn: (ns: Typed<Namespace>) => Typed<Namespace>): Typed<Namespace> {
    try {
      return fn(ns);
    } catch (err) {
      if (!isStatusError(err, StatusReason.Conflict)) throw err;
      return fn(this.client.namespaces.get(ns.metadata.name!));
    }
  }

  /** updateNamespaceStatusFunc: makes sure a namespace being deleted says Terminating. */
  private updateNamespaceStatus(ns: Typed<Namespace>): Typed<Namespace> {
    if (!ns.metadata.deletionTimestamp || ns.status?.phase === NamespaceTerminating) return ns;
    const next = structuredClone(ns);
    next.status = { ...(next.status ?? {}), phase: NamespaceTerminating };
    return this.client.namespaces.updateStatus(next);
  }

  /** finalizeNamespace: spec.finalizers without ours, through the finalize subresource. */
  private finalizeNamespace(ns: Typed<Namespace>): Typed<Namespace> {
    const finalizers = [...new Set((ns.spec?.finalizers ?? []).filter((f) => f !== this.finalizerToken))].sort();
    const body: Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: structuredClone(ns.metadata), spec: { ...structuredClone(ns.spec ?? {}), finalizers } };
    const res = this.client.handle<Typed<Namespace>>({
      verb: 'update',
      group: '',
      version: 'v1',
      resource: 'namespaces',
      subresource: 'finalize',
      name: ns.metadata.name,
      body,
    });
    return res.body;
  }

  /**
   * deleteAllContent: deletes every resource type's content, records the deletion conditions, and returns the
   * estimate in seconds until the rest is gone (0: nothing remains). Throws the aggregated failures.
   */
  deleteAllContent(ns: Typed<Namespace>): number {
    const namespace = ns.metadata.name!;
    const deletedAt = Date.parse(ns.metadata.deletionTimestamp!);
    const updater = new NamespaceConditionUpdater(rfc3339(this.clock.now()));
    const errs: string[] = [];
    let estimate = 0;
    const totals: ContentTotals = { gvrToNumRemaining: new Map(), finalizersToNumRemaining: new Map() };
    for (const rt of this.deletableResources()) {
      let meta: GvrDeletionMetadata;
      try {
        meta = this.deleteAllContentForGroupVersionResource(rt, namespace, deletedAt);
      } catch (err) {
        const failure = err as { meta?: GvrDeletionMetadata };
        meta = failure.meta ?? { finalizerEstimateSeconds: 0, numRemaining: 0 };
        const message = errorMessage(err);
        errs.push(message);
        updater.processDeleteContentErr(message);
      }
      if (meta.finalizerEstimateSeconds > estimate) estimate = meta.finalizerEstimateSeconds;
      if (meta.numRemaining > 0) {
        totals.gvrToNumRemaining.set(`${rt.resource}.${rt.group}`, meta.numRemaining);
        for (const [finalizer, n] of meta.finalizersToNumRemaining ?? []) {
          if (n === 0) continue;
          totals.finalizersToNumRemaining.set(finalizer, (totals.finalizersToNumRemaining.get(finalizer) ?? 0) + n);
        }
      }
    }
    updater.processContentTotals(totals);

    // Always written: a condition that stopped failing must say so.
    const next = structuredClone(ns) as Typed<Namespace>;
    if (updater.update(next)) {
      try {
        this.client.namespaces.updateStatus(next);
      } catch {
        // utilruntime.HandleError: the conditions are informational; the next pass writes them again.
      }
    }
    if (errs.length === 1) throw new Error(errs[0]);
    if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
    return estimate;
  }

  private resourceClient(rt: ResourceType): ResourceClient {
    return this.client.resource({ group: rt.group, version: rt.version, resource: rt.resource });
  }

  /** deleteAllContentForGroupVersionResource. Failures carry what was learned in `meta`. */
  private deleteAllContentForGroupVersionResource(rt: ResourceType, namespace: string, deletedAt: number): GvrDeletionMetadata {
    const fail = (err: unknown, meta: GvrDeletionMetadata): never => {
      const e = err instanceof Error ? err : new Error(String(err));
      (e as Error & { meta?: GvrDeletionMetadata }).meta = meta;
      throw e;
    };
    const estimate = this.estimateGracefulTermination(rt, namespace, deletedAt);
    const rc = this.resourceClient(rt);
    try {
      if (rt.verbs.includes('deletecollection')) {
        rc.deleteCollection({ namespace, propagationPolicy: 'Background' });
      } else {
        for (const item of rc.list({ namespace }).items) {
          try {
            rc.delete(item.metadata.name!, { namespace, propagationPolicy: 'Background' });
          } catch (err) {
            if (!isStatusError(err, StatusReason.NotFound) && !isStatusError(err, StatusReason.MethodNotAllowed)) throw err;
          }
        }
      }
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound) || isStatusError(err, StatusReason.MethodNotAllowed)) return { finalizerEstimateSeconds: estimate, numRemaining: 0 };
      fail(err, { finalizerEstimateSeconds: estimate, numRemaining: 0 });
    }

    let remaining: KubeObject[];
    try {
      remaining = rc.list({ namespace }).items;
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound) || isStatusError(err, StatusReason.MethodNotAllowed)) return { finalizerEstimateSeconds: estimate, numRemaining: 0 };
      return fail(err, { finalizerEstimateSeconds: estimate, numRemaining: 0 });
    }
    if (remaining.length === 0) return { finalizerEstimateSeconds: 0, numRemaining: 0 };

    const finalizersToNumRemaining = new Map<string, number>();
    for (const item of remaining) {
      for (const f of item.metadata.finalizers ?? []) finalizersToNumRemaining.set(f, (finalizersToNumRemaining.get(f) ?? 0) + 1);
    }
    if (estimate !== 0) return { finalizerEstimateSeconds: estimate, numRemaining: remaining.length, finalizersToNumRemaining };
    // Finalizers are a normal reason to wait: allow time for the GC and other finalizers to finish.
    if (finalizersToNumRemaining.size > 0) {
      return { finalizerEstimateSeconds: finalizerEstimateSeconds, numRemaining: remaining.length, finalizersToNumRemaining };
    }
    // Nothing explains why they are still here.
    return fail(new Error(`unexpected items still remain in namespace: ${namespace} for gvr: ${gvrString(rt)}`), {
      finalizerEstimateSeconds: estimate,
      numRemaining: remaining.length,
    });
  }

  /**
   * estimateGracefulTermination: for pods, the longest terminationGracePeriodSeconds of the non-terminal pods,
   * or 0 once that long has passed since the namespace's deletion.
   */
  private estimateGracefulTermination(rt: ResourceType, namespace: string, deletedAt: number): number {
    if (rt.group !== '' || rt.resource !== 'pods') return 0;
    let estimate = 0;
    for (const pod of this.client.pods.list({ namespace }).items as Pod[]) {
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      const grace = pod.spec?.terminationGracePeriodSeconds;
      if (grace !== undefined && grace !== null && grace > estimate) estimate = grace;
    }
    const elapsed = this.clock.now() - deletedAt;
    return elapsed >= estimate * 1000 ? 0 : estimate;
  }
}
