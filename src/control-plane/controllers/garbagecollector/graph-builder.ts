// The garbage collector's GraphBuilder (pkg/controller/garbagecollector/graph_builder.go). It runs a "monitor"
// (an informer handler) on every resource that supports delete, list and watch — built-in kinds and custom
// resources as their CRDs come and go — and turns each observed change into a graph change:
//
//   - a new object becomes a node; owners it names that the graph has not seen become "virtual" nodes, queued
//     on attemptToDelete so the GC can check whether they exist at all;
//   - changed ownerReferences re-link the node; a removed or unblocked blockOwnerDeletion reference re-queues
//     the owner (a foreground deletion may now finish);
//   - deletion starting with the orphan finalizer queues the node on attemptToOrphan, with foregroundDeletion
//     marks it deletingDependents and queues it and its dependents on attemptToDelete;
//   - a deleted object leaves the graph and its dependents are queued (their owner is gone), as is any owner
//     waiting in foreground for it.
//
// Graph changes are processed in order from one FIFO (graphChanges), which also takes the "virtual delete
// events" the GC enqueues when an owner turns out not to exist.
import type { ResourceRegistry, ResourceType } from '../../../shared/api/resources';
import type { KubeObject } from '../../../shared/api/types';
import type { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { DeletedFinalStateUnknown, type HandlerRegistration, type SharedInformer } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import type { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import {
  GraphNode,
  ReferenceCache,
  UidToNode,
  getAlternateOwnerIdentity,
  ownerCoordinates,
  ownerReferenceMatchesCoordinates,
  partitionDependents,
  referenceString,
  referencesDiffs,
  sameReference,
  type ObjectReference,
  type OwnerReference,
  type OwnerRefPair,
} from './graph';

export const FinalizerOrphanDependents = 'orphan';
export const FinalizerDeleteDependents = 'foregroundDeletion';

/** Resources the GC never watches (garbagecollector.DefaultIgnoredResources): events are never owners. */
const ignoredResources = new Set(['/events', 'events.k8s.io/events']);

/** GetDeletableResources: the resources supporting delete, list and watch, minus the ignored ones. */
export function deletableResources(registry: ResourceRegistry): ResourceType[] {
  return registry
    .all()
    .filter((rt) => ['delete', 'list', 'watch'].every((v) => rt.verbs.includes(v)) && !ignoredResources.has(`${rt.group}/${rt.resource}`));
}

export function apiVersionOf(rt: { group: string; version: string }): string {
  return rt.group ? `${rt.group}/${rt.version}` : rt.version;
}

/** The parts of an object the graph needs (informer objects are frozen and shared; nothing here is mutated). */
export interface ObjectMetaLite {
  uid: string;
  name: string;
  namespace: string;
  ownerReferences: readonly OwnerReference[];
  deletionTimestamp?: string;
  finalizers: readonly string[];
}

export const GraphEventType = { Add: 'add', Update: 'update', Delete: 'delete' } as const;
export type GraphEventType = (typeof GraphEventType)[keyof typeof GraphEventType];

export interface GraphEvent {
  type: GraphEventType;
  /** A virtual delete event comes from the GC (the owner was verified absent), not from an informer. */
  virtual: boolean;
  meta: ObjectMetaLite;
  oldMeta?: ObjectMetaLite;
  apiVersion: string;
  kind: string;
}

function metaLite(obj: KubeObject): ObjectMetaLite {
  const m = obj.metadata ?? {};
  return {
    uid: m.uid ?? '',
    name: m.name ?? '',
    namespace: m.namespace ?? '',
    ownerReferences: (m.ownerReferences ?? []) as readonly OwnerReference[],
    deletionTimestamp: m.deletionTimestamp ?? undefined,
    finalizers: m.finalizers ?? [],
  };
}

function beingDeleted(meta: ObjectMetaLite): boolean {
  return meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
}

export function hasFinalizer(meta: { finalizers?: readonly string[] | null }, finalizer: string): boolean {
  return (meta.finalizers ?? []).includes(finalizer);
}

/** deletionStartsWithFinalizer: newly being deleted with that finalizer (or newly given it while deleting). */
function deletionStartsWithFinalizer(oldMeta: ObjectMetaLite | undefined, meta: ObjectMetaLite, finalizer: string): boolean {
  if (!beingDeleted(meta) || !hasFinalizer(meta, finalizer)) return false;
  if (!oldMeta) return true;
  return !beingDeleted(oldMeta) || !hasFinalizer(oldMeta, finalizer);
}

/** Whether an update changes nothing the graph keeps (ownerReferences, deletion, finalizers). */
function graphRelevantEqual(a: ObjectMetaLite, b: ObjectMetaLite): boolean {
  if (a.uid !== b.uid || a.deletionTimestamp !== b.deletionTimestamp) return false;
  if (a.ownerReferences !== b.ownerReferences) {
    if (a.ownerReferences.length !== b.ownerReferences.length) return false;
    const { added, removed, changed } = referencesDiffs(a.ownerReferences, b.ownerReferences);
    if (added.length || removed.length || changed.length) return false;
  }
  if (a.finalizers.length !== b.finalizers.length || a.finalizers.some((f, i) => f !== b.finalizers[i])) return false;
  return true;
}

interface Monitor {
  rt: ResourceType;
  informer: SharedInformer<KubeObject>;
  registration: HandlerRegistration;
}

export interface GraphBuilderOptions {
  informers: SharedInformerFactory;
  registry: ResourceRegistry;
  clock: Clock;
  attemptToDelete: RateLimitingQueue<string>;
  attemptToOrphan: RateLimitingQueue<string>;
  absentOwnerCache: ReferenceCache;
  recorder?: EventRecorder;
}

export class GraphBuilder {
  readonly uidToNode = new UidToNode();
  private readonly monitors = new Map<string, Monitor>();
  private readonly options: GraphBuilderOptions;
  private readonly attemptToDelete: RateLimitingQueue<string>;
  private readonly attemptToOrphan: RateLimitingQueue<string>;
  readonly absentOwnerCache: ReferenceCache;
  private graphChanges: GraphEvent[] = [];
  private graphChangesHead = 0;
  private drainScheduled = false;
  private stopped = false;
  private unsubscribeRegistry: (() => void) | undefined;

  constructor(options: GraphBuilderOptions) {
    this.options = options;
    this.attemptToDelete = options.attemptToDelete;
    this.attemptToOrphan = options.attemptToOrphan;
    this.absentOwnerCache = options.absentOwnerCache;
  }

  /** Starts the monitors, and keeps them in step with the resources the registry serves (CRDs). */
  run(): void {
    this.stopped = false;
    this.syncMonitors();
    this.unsubscribeRegistry ??= this.options.registry.onChange(() => this.syncMonitors());
  }

  /** Removes every monitor's handler and drops pending graph changes. */
  stop(): void {
    this.stopped = true;
    this.unsubscribeRegistry?.();
    this.unsubscribeRegistry = undefined;
    for (const m of this.monitors.values()) m.registration.remove();
    this.monitors.clear();
    this.graphChanges = [];
    this.graphChangesHead = 0;
  }

  /** The resources monitored, as "group/resource". */
  monitoredResources(): string[] {
    return [...this.monitors.keys()].sort();
  }

  /** Every monitor has delivered its initial list (and the graph has processed it). */
  isSynced(): boolean {
    for (const m of this.monitors.values()) if (!m.informer.hasSynced() || !m.registration.hasSynced()) return false;
    return this.pendingGraphChanges() === 0;
  }

  pendingGraphChanges(): number {
    return this.graphChanges.length - this.graphChangesHead;
  }

  /** resyncMonitors: a monitor per deletable resource, none for resources no longer served. */
  syncMonitors(): void {
    if (this.stopped) return;
    const wanted = new Map(deletableResources(this.options.registry).map((rt) => [`${rt.group}/${rt.resource}`, rt]));
    for (const [key, m] of this.monitors) {
      const rt = wanted.get(key);
      if (rt && rt.version === m.rt.version && rt.kind === m.rt.kind) continue;
      m.registration.remove();
      this.monitors.delete(key);
    }
    for (const [key, rt] of wanted) {
      if (this.monitors.has(key)) continue;
      const informer = this.options.informers.forResource<KubeObject>({ group: rt.group, version: rt.version, resource: rt.resource });
      const apiVersion = apiVersionOf(rt);
      const kind = rt.kind;
      const registration = informer.addEventHandler({
        onAdd: (obj) => this.enqueue({ type: GraphEventType.Add, virtual: false, meta: metaLite(obj), apiVersion, kind }),
        onUpdate: (oldObj, newObj) => {
          const meta = metaLite(newObj);
          const oldMeta = metaLite(oldObj);
          // Status writes and the like change nothing the graph keeps (the TODO in the original's UpdateFunc).
          if (graphRelevantEqual(oldMeta, meta) && this.uidToNode.read(meta.uid)?.isObserved()) return;
          this.enqueue({ type: GraphEventType.Update, virtual: false, meta, oldMeta, apiVersion, kind });
        },
        onDelete: (obj) => {
          const o = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
          this.enqueue({ type: GraphEventType.Delete, virtual: false, meta: metaLite(o), apiVersion, kind });
        },
      });
      this.monitors.set(key, { rt, informer, registration });
    }
  }

  /** enqueueVirtualDeleteEvent: the GC verified that nothing with this identity exists. */
  enqueueVirtualDeleteEvent(ref: ObjectReference): void {
    this.enqueue({
      type: GraphEventType.Delete,
      virtual: true,
      meta: { uid: ref.uid, name: ref.name, namespace: ref.namespace, ownerReferences: [], finalizers: [] },
      apiVersion: ref.apiVersion,
      kind: ref.kind,
    });
  }

  private enqueue(event: GraphEvent): void {
    if (this.stopped) return;
    this.graphChanges.push(event);
    if (this.drainScheduled) return;
    this.drainScheduled = true;
    this.options.clock.defer(() => this.drainGraphChanges(), 'garbage_collector_graph_changes');
  }

  /** runProcessGraphChanges: everything queued so far, in order. */
  drainGraphChanges(): void {
    this.drainScheduled = false;
    while (!this.stopped && this.graphChangesHead < this.graphChanges.length) {
      const event = this.graphChanges[this.graphChangesHead++];
      this.processGraphChange(event);
    }
    this.graphChanges = [];
    this.graphChangesHead = 0;
  }

  private identityFromEvent(event: GraphEvent): ObjectReference {
    return { apiVersion: event.apiVersion, kind: event.kind, uid: event.meta.uid, name: event.meta.name, namespace: event.meta.namespace };
  }

  /** processGraphChanges for one event. */
  processGraphChange(event: GraphEvent): void {
    const meta = event.meta;
    let existing = this.uidToNode.read(meta.uid);
    if (existing && !event.virtual && !existing.isObserved()) {
      // The first informer event for a node created virtually: it is real.
      const observed = this.identityFromEvent(event);
      if (!sameReference(observed, existing.identity)) {
        // Dependents that referred to it by other coordinates may be pointing at something that does not exist.
        for (const dep of partitionDependents(existing.dependents, observed).nonmatching) {
          if (observed.namespace.length > 0 && dep.identity.namespace !== observed.namespace) {
            this.reportInvalidNamespaceOwnerRef(dep, observed.uid);
          }
          this.attemptToDelete.add(dep.identity.uid);
        }
        existing.identity = observed;
      }
      existing.markObserved();
    }

    if ((event.type === GraphEventType.Add || event.type === GraphEventType.Update) && !existing) {
      const node = new GraphNode({
        identity: this.identityFromEvent(event),
        owners: meta.ownerReferences,
        beingDeleted: beingDeleted(meta),
        deletingDependents: beingDeleted(meta) && hasFinalizer(meta, FinalizerDeleteDependents),
      });
      this.insertNode(node);
      this.processTransitions(event.oldMeta, meta, node);
      return;
    }

    if ((event.type === GraphEventType.Add || event.type === GraphEventType.Update) && existing) {
      if (!event.virtual && (existing.identity.apiVersion !== event.apiVersion || existing.identity.kind !== event.kind)) {
        existing.identity = { ...existing.identity, apiVersion: event.apiVersion, kind: event.kind };
      }
      const { added, removed, changed } = referencesDiffs(existing.owners, meta.ownerReferences);
      if (added.length || removed.length || changed.length) {
        this.addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = meta.ownerReferences;
        this.addDependentToOwners(existing, added);
        this.removeDependentFromOwners(existing, removed);
      }
      if (beingDeleted(meta)) existing.beingDeleted = true;
      this.processTransitions(event.oldMeta, meta, existing);
      return;
    }

    // Delete.
    if (!existing) return;
    let removeExistingNode = true;
    if (event.virtual) {
      const deleted = this.identityFromEvent(event);
      if (existing.virtual) {
        // Not sure of its coordinates: dependents that name it otherwise keep it alive under another identity.
        const { matching, nonmatching } = partitionDependents(existing.dependents, deleted);
        if (nonmatching.length > 0) {
          removeExistingNode = false;
          if (matching.length > 0) {
            this.absentOwnerCache.add(deleted);
            for (const dep of matching) this.attemptToDelete.add(dep.identity.uid);
          }
          if (sameReference(existing.identity, deleted)) {
            const replacement = getAlternateOwnerIdentity(nonmatching, deleted);
            if (replacement) {
              existing.identity = replacement;
              this.attemptToDelete.addRateLimited(existing.identity.uid);
            }
          }
        }
      } else if (!sameReference(existing.identity, deleted)) {
        // A real, observed node is never removed on a virtual event for other coordinates.
        removeExistingNode = false;
        const { matching } = partitionDependents(existing.dependents, deleted);
        if (matching.length > 0) {
          this.absentOwnerCache.add(deleted);
          for (const dep of matching) this.attemptToDelete.add(dep.identity.uid);
        }
      }
    }
    if (!removeExistingNode) return;
    existing = existing as GraphNode;
    this.removeNode(existing);
    if (existing.dependents.size > 0) this.absentOwnerCache.add(this.identityFromEvent(event));
    for (const dep of existing.dependents) this.attemptToDelete.add(dep.identity.uid);
    for (const owner of existing.owners) {
      const ownerNode = this.uidToNode.read(owner.uid);
      // An owner waiting in foreground for this dependent may now finish.
      if (ownerNode?.deletingDependents) this.attemptToDelete.add(ownerNode.identity.uid);
    }
  }

  private processTransitions(oldMeta: ObjectMetaLite | undefined, meta: ObjectMetaLite, node: GraphNode): void {
    if (deletionStartsWithFinalizer(oldMeta, meta, FinalizerOrphanDependents)) {
      this.attemptToOrphan.add(node.identity.uid);
      return;
    }
    if (deletionStartsWithFinalizer(oldMeta, meta, FinalizerDeleteDependents)) {
      // A node first added virtually has no deletingDependents yet: always set it here.
      node.markDeletingDependents();
      for (const dep of node.dependents) this.attemptToDelete.add(dep.identity.uid);
      this.attemptToDelete.add(node.identity.uid);
    }
  }

  /** A blocking reference removed or unblocked: the owner it pointed at may finish its foreground deletion. */
  private addUnblockedOwnersToDeleteQueue(removed: OwnerReference[], changed: OwnerRefPair[]): void {
    for (const ref of removed) {
      if (ref.blockOwnerDeletion !== true) continue;
      const node = this.uidToNode.read(ref.uid);
      if (node) this.attemptToDelete.add(node.identity.uid);
    }
    for (const c of changed) {
      const wasBlocked = c.oldRef.blockOwnerDeletion === true;
      const isUnblocked = c.newRef.blockOwnerDeletion !== true;
      if (!wasBlocked || !isUnblocked) continue;
      const node = this.uidToNode.read(c.newRef.uid);
      if (node) this.attemptToDelete.add(node.identity.uid);
    }
  }

  private insertNode(node: GraphNode): void {
    this.uidToNode.write(node);
    this.addDependentToOwners(node, node.owners);
  }

  private removeNode(node: GraphNode): void {
    this.uidToNode.delete(node.identity.uid);
    this.removeDependentFromOwners(node, node.owners);
  }

  private removeDependentFromOwners(node: GraphNode, owners: readonly OwnerReference[]): void {
    for (const owner of owners) this.uidToNode.read(owner.uid)?.removeDependent(node);
  }

  /**
   * addDependentToOwners: links the node under each owner, creating virtual owners (queued for verification).
   * A reference that cannot be right — a namespaced owner in another namespace, other coordinates than the
   * observed owner's — queues the dependent so the GC verifies its owners through the API.
   */
  private addDependentToOwners(node: GraphNode, owners: readonly OwnerReference[]): void {
    let potentiallyInvalid = false;
    for (const owner of owners) {
      let ownerNode = this.uidToNode.read(owner.uid);
      if (!ownerNode) {
        ownerNode = new GraphNode({ identity: { ...ownerCoordinates(owner), namespace: node.identity.namespace }, virtual: true });
        this.uidToNode.write(ownerNode);
        ownerNode.addDependent(node);
        // The GC checks with the API server; a virtual delete event removes it if it does not exist.
        this.attemptToDelete.add(ownerNode.identity.uid);
        continue;
      }
      ownerNode.addDependent(node);
      if (potentiallyInvalid) continue;
      const ownerIsNamespaced = ownerNode.identity.namespace.length > 0;
      if (ownerIsNamespaced && ownerNode.identity.namespace !== node.identity.namespace) {
        if (ownerNode.isObserved()) this.reportInvalidNamespaceOwnerRef(node, owner.uid);
        potentiallyInvalid = true;
      } else if (!ownerReferenceMatchesCoordinates(owner, ownerNode.identity)) {
        potentiallyInvalid = true;
      } else if (!ownerIsNamespaced && ownerNode.identity.namespace !== node.identity.namespace && !ownerNode.isObserved()) {
        // A virtual cluster-scoped owner named from a namespace: maybe a missing namespaced owner (issue #98040).
        potentiallyInvalid = true;
      }
    }
    if (potentiallyInvalid) this.attemptToDelete.add(node.identity.uid);
  }

  /** The Warning event the original records on a dependent whose namespaced owner lives in another namespace. */
  private reportInvalidNamespaceOwnerRef(node: GraphNode, ownerUid: string): void {
    const recorder = this.options.recorder;
    if (!recorder) return;
    const ref = node.owners.find((o) => o.uid === ownerUid);
    if (!ref) return;
    const invalid: ObjectReference = { ...ownerCoordinates(ref), namespace: node.identity.namespace };
    const involved: KubeObject = {
      apiVersion: node.identity.apiVersion,
      kind: node.identity.kind,
      metadata: { name: node.identity.name, namespace: node.identity.namespace || undefined, uid: node.identity.uid },
    };
    recorder.event(
      involved,
      'Warning',
      'OwnerRefInvalidNamespace',
      `ownerRef ${referenceString(invalid)} does not exist in namespace ${JSON.stringify(node.identity.namespace)}`,
    );
  }
}

