// kube-controller-manager's garbage collector (pkg/controller/garbagecollector/garbagecollector.go). The graph
// builder keeps the ownerReference graph; two queues act on it, both keyed by object uid:
//
//   attemptToDelete  — a node whose owners may all be gone, a virtual owner to verify, or an owner deleting
//                      in foreground. Owners are verified with a live GET (uid must match; a namespaced owner
//                      must live in its dependent's namespace). Then:
//                        some owner solid            → drop only the dangling/waiting references (patch)
//                        an owner waits in foreground, and the item has dependents
//                                                    → delete the item in Foreground too (unblocking its
//                                                      references first if a dependent also waits: a cycle)
//                        otherwise                   → delete it (Background, or the policy its finalizers say)
//                      an owner deletingDependents with no blocking dependents left loses foregroundDeletion.
//   attemptToOrphan  — an owner deleted with the orphan finalizer: its dependents lose their references to it
//                      (patch), then it loses the finalizer.
import type { ResourceRegistry, ResourceType } from '../../../shared/api/resources';
import { StatusReason, isStatusError, newNotFound } from '../../../shared/api/status';
import { parseApiVersion, type KubeObject } from '../../../shared/api/types';
import { TraceKind, nullTraceSink, type TraceSink } from '../../../shared/protocol/trace';
import { PatchType } from '../../apiserver/types';
import type { Client, ResourceClient } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue, type QueueSnapshot } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import { GraphNode, ReferenceCache, referenceString, type ObjectReference, type OwnerReference } from './graph';
import { FinalizerDeleteDependents, FinalizerOrphanDependents, GraphBuilder, hasFinalizer } from './graph-builder';

export const GarbageCollectorControllerName = 'garbage-collector-controller';
export const AttemptToDeleteQueueName = 'garbage_collector_attempt_to_delete';
export const AttemptToOrphanQueueName = 'garbage_collector_attempt_to_orphan';
export const GraphChangesQueueName = 'garbage_collector_graph_changes';

export interface GarbageCollectorOptions {
  client: Client;
  informers: SharedInformerFactory;
  registry: ResourceRegistry;
  clock: Clock;
  trace?: TraceSink;
}

/** Not an error: the item was re-queued because it has not been observed through an informer yet. */
export class ItemNotObservedError extends Error {
  constructor(identity: ObjectReference) {
    super(`item ${referenceString(identity)} hasn't been observed via informer yet`);
    this.name = 'ItemNotObservedError';
  }
}

/** A cluster-scoped object naming a namespaced owner: invalid, and retrying cannot fix it. */
class NamespacedOwnerOfClusterScopedObjectError extends Error {
  constructor() {
    super('cluster-scoped objects cannot refer to namespaced owners');
  }
}

const AttemptOutcome = {
  Done: 'done',
  VirtualDeleteEnqueued: 'virtual-delete-enqueued',
} as const;
type AttemptOutcome = (typeof AttemptOutcome)[keyof typeof AttemptOutcome];

interface Classified {
  solid: OwnerReference[];
  dangling: OwnerReference[];
  waitingForDependentsDeletion: OwnerReference[];
}

type Policy = 'Foreground' | 'Background' | 'Orphan';

export class GarbageCollector {
  readonly name = GarbageCollectorControllerName;
  /** The attemptToDelete worker (what the cluster lists as this controller). */
  readonly controller: BaseController;
  /** The attemptToOrphan worker. */
  readonly orphanController: BaseController;
  readonly graphBuilder: GraphBuilder;
  readonly attemptToDelete: RateLimitingQueue<string>;
  readonly attemptToOrphan: RateLimitingQueue<string>;
  private readonly absentOwnerCache = new ReferenceCache(500);
  private readonly client: Client;
  private readonly registry: ResourceRegistry;
  private readonly trace: TraceSink;

  constructor(options: GarbageCollectorOptions) {
    this.client = options.client;
    this.registry = options.registry;
    this.trace = options.trace ?? nullTraceSink;
    const { clock, trace } = options;
    this.attemptToDelete = new RateLimitingQueue<string>({ name: AttemptToDeleteQueueName, clock, trace });
    this.attemptToOrphan = new RateLimitingQueue<string>({ name: AttemptToOrphanQueueName, clock, trace });
    const recorder = new EventRecorder({ client: options.client, clock, source: { component: GarbageCollectorControllerName } });
    this.graphBuilder = new GraphBuilder({
      informers: options.informers,
      registry: options.registry,
      clock,
      attemptToDelete: this.attemptToDelete,
      attemptToOrphan: this.attemptToOrphan,
      absentOwnerCache: this.absentOwnerCache,
      recorder,
    });
    // Monitors are registered now, so the factory's waitForCacheSync covers their informers.
    this.graphBuilder.run();
    const synced = [() => this.graphBuilder.isSynced()];
    this.controller = new BaseController({
      name: GarbageCollectorControllerName,
      queue: this.attemptToDelete,
      clock,
      sync: (uid) => this.attemptToDeleteWorker(uid),
      maxRetries: Infinity,
      cacheSyncs: synced,
      trace,
      client: options.client,
    });
    this.orphanController = new BaseController({
      name: GarbageCollectorControllerName,
      queue: this.attemptToOrphan,
      clock,
      sync: (uid) => this.attemptToOrphanWorker(uid),
      maxRetries: Infinity,
      cacheSyncs: synced,
      trace,
      client: options.client,
    });
  }

  get queue(): RateLimitingQueue<string> {
    return this.attemptToDelete;
  }

  run(): void {
    this.graphBuilder.run();
    this.controller.run();
    this.orphanController.run();
  }

  shutDown(): void {
    this.controller.shutDown();
    this.orphanController.shutDown();
    this.graphBuilder.stop();
  }

  /** The GC's queues for the UI, keys shown as the objects they stand for ("ReplicaSet default/web"). */
  queues(): QueueSnapshot[] {
    const describe = (uid: string): string => {
      const n = this.graphBuilder.uidToNode.read(uid);
      if (!n) return uid;
      const id = n.identity;
      return `${id.kind} ${id.namespace ? `${id.namespace}/` : ''}${id.name}${n.virtual ? ' (virtual)' : ''}`;
    };
    const relabel = (s: QueueSnapshot): QueueSnapshot => ({
      ...s,
      queued: s.queued.map(describe),
      waiting: s.waiting.map((w) => ({ ...w, key: describe(w.key) })),
      retries: s.retries.map((r) => ({ ...r, key: describe(r.key) })),
    });
    const pending = this.graphBuilder.pendingGraphChanges();
    return [
      relabel(this.attemptToDelete.snapshot()),
      relabel(this.attemptToOrphan.snapshot()),
      { name: GraphChangesQueueName, queued: pending > 0 ? [`${pending} events`] : [], processing: 0, waiting: [], retries: [] },
    ];
  }

  // ---------------------------------------------------------------- attemptToDelete

  /** processAttemptToDeleteWorker's body: returns to forget the item, throws to retry with backoff. */
  attemptToDeleteWorker(uid: string): void {
    const node = this.graphBuilder.uidToNode.read(uid);
    // Gone from the graph meanwhile (its deletion was observed): nothing to do.
    if (!node) return;
    let outcome: AttemptOutcome;
    try {
      outcome = this.attemptToDeleteItem(node);
    } catch (err) {
      // Retrying cannot fix an invalid reference from a cluster-scoped object.
      if (err instanceof NamespacedOwnerOfClusterScopedObjectError) return;
      throw err;
    }
    if (outcome === AttemptOutcome.VirtualDeleteEnqueued) return;
    // A virtual node added and removed during a watch gap could otherwise stay in the graph forever.
    if (!node.isObserved()) throw new ItemNotObservedError(node.identity);
  }

  private attemptToDeleteItem(item: GraphNode): AttemptOutcome {
    // Being deleted is a one-way trip: wait for the final deletion, then handle the dependents.
    if (item.beingDeleted && !item.deletingDependents) return AttemptOutcome.Done;
    const latest = this.getObject(item.identity);
    if (!latest || latest.metadata.uid !== item.identity.uid) {
      this.graphBuilder.enqueueVirtualDeleteEvent(item.identity);
      return AttemptOutcome.VirtualDeleteEnqueued;
    }
    if (item.deletingDependents) {
      this.processDeletingDependentsItem(item);
      return AttemptOutcome.Done;
    }
    const ownerReferences = (latest.metadata.ownerReferences ?? []) as OwnerReference[];
    if (ownerReferences.length === 0) return AttemptOutcome.Done;

    const { solid, dangling, waitingForDependentsDeletion } = this.classifyReferences(item, ownerReferences);
    if (solid.length > 0) {
      if (dangling.length === 0 && waitingForDependentsDeletion.length === 0) return AttemptOutcome.Done;
      // Waiting references must go too, or those owners would wait for this dependent forever.
      const uids = new Set([...dangling, ...waitingForDependentsDeletion].map((r) => r.uid));
      this.emitDecision('removeOwnerReferences', item, { solid, dangling, waitingForDependentsDeletion });
      this.patchOwnerReferences(item, (refs) => refs.filter((r) => !uids.has(r.uid)));
      return AttemptOutcome.Done;
    }
    if (waitingForDependentsDeletion.length > 0 && item.dependents.size > 0) {
      for (const dep of item.dependents) {
        if (!dep.deletingDependents) continue;
        // Its owner and one of its dependents both wait in foreground: maybe a cycle. Unblock our references
        // so the owner does not wait for us while we wait for the dependent.
        this.emitDecision('unblockOwnerReferences', item, { dependent: referenceString(dep.identity) });
        this.patchOwnerReferences(item, (refs) => refs.map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r)));
        break;
      }
      // Delete in foreground too: the item comes back through processDeletingDependentsItem.
      return this.deleteItem(item, latest, 'Foreground', { waitingForDependentsDeletion });
    }
    // No solid owner and nobody waiting on us: garbage. Honour a propagation finalizer already present.
    const policy: Policy = hasFinalizer(latest.metadata, FinalizerOrphanDependents)
      ? 'Orphan'
      : hasFinalizer(latest.metadata, FinalizerDeleteDependents)
        ? 'Foreground'
        : 'Background';
    return this.deleteItem(item, latest, policy, { dangling, waitingForDependentsDeletion });
  }

  private deleteItem(item: GraphNode, latest: KubeObject, policy: Policy, why: Record<string, unknown>): AttemptOutcome {
    this.emitDecision('delete', item, { propagationPolicy: policy, ...why });
    try {
      this.deleteObject(item.identity, latest.metadata.resourceVersion ?? '', (latest.metadata.ownerReferences ?? []) as OwnerReference[], policy);
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) {
        this.graphBuilder.enqueueVirtualDeleteEvent(item.identity);
        return AttemptOutcome.VirtualDeleteEnqueued;
      }
      throw err;
    }
    return AttemptOutcome.Done;
  }

  /** An item waiting for its dependents: done when no blocking dependent is left, else push them along. */
  private processDeletingDependentsItem(item: GraphNode): void {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      this.emitDecision('removeFinalizer', item, { finalizer: FinalizerDeleteDependents });
      this.removeFinalizer(item, FinalizerDeleteDependents);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep.identity.uid);
  }

  /** classifyReferences: solid (exists, not waiting), dangling (absent) and waiting-in-foreground owners. */
  private classifyReferences(item: GraphNode, refs: OwnerReference[]): Classified {
    const out: Classified = { solid: [], dangling: [], waitingForDependentsDeletion: [] };
    for (const ref of refs) {
      const owner = this.isDangling(ref, item);
      if (!owner) {
        out.dangling.push(ref);
        continue;
      }
      if (owner.metadata.deletionTimestamp && hasFinalizer(owner.metadata, FinalizerDeleteDependents)) {
        out.waitingForDependentsDeletion.push(ref);
      } else {
        out.solid.push(ref);
      }
    }
    return out;
  }

  /**
   * isDangling: the live owner, or undefined when the reference points at nothing (not found, another uid,
   * or — for a namespaced owner — not in the dependent's namespace: cross-namespace references are absent).
   */
  private isDangling(ref: OwnerReference, item: GraphNode): KubeObject | undefined {
    const clusterKey: ObjectReference = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: '' };
    if (this.absentOwnerCache.has(clusterKey)) return undefined;
    const namespacedKey: ObjectReference = { ...clusterKey, namespace: item.identity.namespace };
    if (this.absentOwnerCache.has(namespacedKey)) return undefined;
    const rt = this.apiResource(ref.apiVersion, ref.kind);
    const cacheKey = rt.namespaced ? namespacedKey : clusterKey;
    if (item.identity.namespace === '' && rt.namespaced) throw new NamespacedOwnerOfClusterScopedObjectError();
    let owner: KubeObject;
    try {
      owner = this.resourceClient(rt).get(ref.name, { namespace: rt.namespaced ? item.identity.namespace : undefined });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) {
        this.absentOwnerCache.add(cacheKey);
        return undefined;
      }
      throw err;
    }
    if (owner.metadata.uid !== ref.uid) {
      this.absentOwnerCache.add(cacheKey);
      return undefined;
    }
    return owner;
  }

  // ---------------------------------------------------------------- attemptToOrphan

  /** attemptToOrphanWorker: dependents lose their references to the owner, then the owner its finalizer. */
  attemptToOrphanWorker(uid: string): void {
    const owner = this.graphBuilder.uidToNode.read(uid);
    if (!owner) return;
    const dependents = [...owner.dependents];
    const errors: string[] = [];
    for (const dep of dependents) {
      try {
        this.patchOwnerReferences(dep, (refs) => refs.filter((r) => r.uid !== owner.identity.uid));
      } catch (err) {
        if (isStatusError(err, StatusReason.NotFound)) continue;
        errors.push(`orphaning ${referenceString(dep.identity)} failed, ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (errors.length > 0) {
      throw new Error(`failed to orphan dependents of owner ${referenceString(owner.identity)}, got errors: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`);
    }
    this.emitDecision('orphanDependents', owner, { dependents: dependents.map((d) => referenceString(d.identity)) });
    this.removeFinalizer(owner, FinalizerOrphanDependents);
  }

  // ---------------------------------------------------------------- API operations (operations.go, patch.go)

  /** The resource for an apiVersion/kind (the RESTMapper); a custom kind may be referenced at any served version. */
  private apiResource(apiVersion: string, kind: string): ResourceType {
    const gv = parseApiVersion(apiVersion);
    const rt = this.registry.forKind({ group: gv.group, version: gv.version, kind }) ?? this.registry.all().find((t) => t.custom && t.group === gv.group && t.kind === kind);
    if (!rt) throw new Error(`unable to get REST mapping for ${apiVersion}/${kind}: no matches for kind "${kind}" in version "${apiVersion}"`);
    return rt;
  }

  private resourceClient(rt: ResourceType): ResourceClient {
    return this.client.resource({ group: rt.group, version: rt.version, resource: rt.resource });
  }

  private namespaceFor(rt: ResourceType, ref: ObjectReference): string | undefined {
    return rt.namespaced ? ref.namespace : undefined;
  }

  /** The live object, or undefined when it does not exist. */
  private getObject(ref: ObjectReference): KubeObject | undefined {
    const rt = this.apiResource(ref.apiVersion, ref.kind);
    try {
      return this.resourceClient(rt).get(ref.name, { namespace: this.namespaceFor(rt, ref) });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return undefined;
      throw err;
    }
  }

  /**
   * deleteObject: DELETE with uid and resourceVersion preconditions, so an object whose owners changed since
   * they were classified is not deleted; a conflict caused by anything other than its owners is retried
   * without the resourceVersion, so unrelated updates do not starve the GC.
   */
  private deleteObject(ref: ObjectReference, resourceVersion: string, ownersAtResourceVersion: OwnerReference[], policy: Policy): void {
    const rt = this.apiResource(ref.apiVersion, ref.kind);
    const rc = this.resourceClient(rt);
    const namespace = this.namespaceFor(rt, ref);
    const preconditions: { uid: string; resourceVersion?: string } = { uid: ref.uid };
    if (resourceVersion) preconditions.resourceVersion = resourceVersion;
    try {
      rc.delete(ref.name, { namespace, preconditions, propagationPolicy: policy });
    } catch (err) {
      if (!isStatusError(err, StatusReason.Conflict) || !resourceVersion) throw err;
      let live: KubeObject;
      try {
        live = rc.get(ref.name, { namespace });
      } catch (getErr) {
        if (isStatusError(getErr, StatusReason.NotFound)) return;
        throw err;
      }
      const ownersUnchanged = JSON.stringify(live.metadata.ownerReferences ?? []) === JSON.stringify(ownersAtResourceVersion);
      if (live.metadata.uid !== ref.uid || live.metadata.resourceVersion === resourceVersion || !ownersUnchanged) throw err;
      rc.delete(ref.name, { namespace, preconditions: { uid: ref.uid }, propagationPolicy: policy });
    }
  }

  /**
   * The JSON merge patch the GC falls back to for every kind: the whole new ownerReferences list, with the
   * resourceVersion it was computed from as precondition. No patch when nothing changes.
   */
  private patchOwnerReferences(item: GraphNode, change: (refs: OwnerReference[]) => OwnerReference[]): void {
    const rt = this.apiResource(item.identity.apiVersion, item.identity.kind);
    const rc = this.resourceClient(rt);
    const namespace = this.namespaceFor(rt, item.identity);
    const live = rc.get(item.identity.name, { namespace });
    if (live.metadata.uid !== item.identity.uid) throw newNotFound(rt, item.identity.name);
    const refs = (live.metadata.ownerReferences ?? []) as OwnerReference[];
    const next = change(refs);
    if (JSON.stringify(next) === JSON.stringify(refs)) return;
    rc.patch(
      item.identity.name,
      PatchType.MergePatch,
      { metadata: { resourceVersion: live.metadata.resourceVersion, ownerReferences: next.length > 0 ? next : null } },
      { namespace },
    );
  }

  /** removeFinalizer: a merge patch of the finalizers list without it, at the resourceVersion read. */
  private removeFinalizer(owner: GraphNode, finalizer: string): void {
    const rt = this.apiResource(owner.identity.apiVersion, owner.identity.kind);
    const rc = this.resourceClient(rt);
    const namespace = this.namespaceFor(rt, owner.identity);
    let live: KubeObject;
    try {
      live = rc.get(owner.identity.name, { namespace });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw new Error(
        `cannot finalize owner ${referenceString(owner.identity)}, because cannot get it: ${err instanceof Error ? err.message : String(err)}. The garbage collector will retry later`,
      );
    }
    const finalizers = live.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return;
    const next = finalizers.filter((f) => f !== finalizer);
    rc.patch(
      owner.identity.name,
      PatchType.MergePatch,
      { metadata: { resourceVersion: live.metadata.resourceVersion, finalizers: next.length > 0 ? next : null } },
      { namespace },
    );
  }

  private emitDecision(action: string, item: GraphNode, data: Record<string, unknown>): void {
    if (this.trace === nullTraceSink) return;
    const refs = (list: unknown) =>
      Array.isArray(list) ? (list as OwnerReference[]).map((r) => (typeof r === 'string' ? r : `${r.kind}/${r.name}`)) : list;
    const out: Record<string, unknown> = { event: 'gc.decision', action, item: referenceString(item.identity) };
    for (const [k, v] of Object.entries(data)) out[k] = refs(v);
    this.trace.emit({ kind: TraceKind.Custom, component: GarbageCollectorControllerName, data: out });
  }
}

