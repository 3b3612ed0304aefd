// The garbage collector's dependency graph (pkg/controller/garbagecollector/graph.go): one node per object the
// GC has seen (or, "virtually", per owner some object names but that has not been observed yet), with the owner
// references it holds and the nodes that name it as owner. The graph is only ever touched by the graph builder's
// processing of events and read by the GC's workers, one at a time, so nodes are mutated in place.

/** An object's coordinates: an OwnerReference's apiVersion/kind/name/uid plus the namespace ('' = cluster). */
export interface ObjectReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  namespace: string;
}

/** metav1.OwnerReference as stored (the informer's frozen objects). */
export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

/** objectReference.String(): "[apps/v1/ReplicaSet, namespace: default, name: web, uid: 1234]". */
export function referenceString(ref: ObjectReference): string {
  return `[${ref.apiVersion}/${ref.kind}, namespace: ${ref.namespace}, name: ${ref.name}, uid: ${ref.uid}]`;
}

/** A map key for a reference (all five coordinates). */
export function referenceKey(ref: ObjectReference): string {
  return `${ref.apiVersion}\u0000${ref.kind}\u0000${ref.namespace}\u0000${ref.name}\u0000${ref.uid}`;
}

export function sameReference(a: ObjectReference, b: ObjectReference): boolean {
  return a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name && a.uid === b.uid && a.namespace === b.namespace;
}

/** ownerReferenceCoordinates: only the identifying fields of an owner reference. */
export function ownerCoordinates(ref: OwnerReference): Omit<ObjectReference, 'namespace'> {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid };
}

/** ownerReferenceMatchesCoordinates. */
export function ownerReferenceMatchesCoordinates(a: OwnerReference, b: Omit<ObjectReference, 'namespace'>): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && a.apiVersion === b.apiVersion;
}

const noDependents: ReadonlySet<GraphNode> = new Set();

const BeingDeleted = 1;
const DeletingDependents = 2;
const Virtual = 4;

export class GraphNode {
  identity: ObjectReference;
  /** The object's ownerReferences as last observed. */
  owners: readonly OwnerReference[];
  /** Made at the first dependent: most objects (every pod) have none, and an empty Set costs ~140 bytes. */
  private dependentSet: Set<GraphNode> | undefined = undefined;
  /** beingDeleted, deletingDependents and virtual as bits of one small integer (the graph has a node per pod). */
  private flags = 0;

  constructor(init: { identity: ObjectReference; owners?: readonly OwnerReference[]; beingDeleted?: boolean; deletingDependents?: boolean; virtual?: boolean }) {
    this.identity = init.identity;
    this.owners = init.owners ?? [];
    this.beingDeleted = init.beingDeleted ?? false;
    this.deletingDependents = init.deletingDependents ?? false;
    this.virtual = init.virtual ?? false;
  }

  /** The object has a deletionTimestamp (a one-way trip). */
  get beingDeleted(): boolean {
    return (this.flags & BeingDeleted) !== 0;
  }

  set beingDeleted(value: boolean) {
    this.setFlag(BeingDeleted, value);
  }

  /** The object is being deleted with the foregroundDeletion finalizer: it waits for its dependents. */
  get deletingDependents(): boolean {
    return (this.flags & DeletingDependents) !== 0;
  }

  set deletingDependents(value: boolean) {
    this.setFlag(DeletingDependents, value);
  }

  /** Constructed for an owner some dependent names, and not yet observed through an informer. */
  get virtual(): boolean {
    return (this.flags & Virtual) !== 0;
  }

  set virtual(value: boolean) {
    this.setFlag(Virtual, value);
  }

  private setFlag(bit: number, value: boolean): void {
    this.flags = value ? this.flags | bit : this.flags & ~bit;
  }

  /** The nodes whose ownerReferences name this one; read only (addDependent and removeDependent change it). */
  get dependents(): ReadonlySet<GraphNode> {
    return this.dependentSet ?? noDependents;
  }

  addDependent(node: GraphNode): void {
    (this.dependentSet ??= new Set()).add(node);
  }

  removeDependent(node: GraphNode): void {
    const set = this.dependentSet;
    if (set?.delete(node) && set.size === 0) this.dependentSet = undefined;
  }

  isObserved(): boolean {
    return !this.virtual;
  }

  markObserved(): void {
    this.virtual = false;
  }

  /** Being deleted with the foregroundDeletion finalizer also means being deleted. */
  markDeletingDependents(): void {
    this.beingDeleted = true;
    this.deletingDependents = true;
  }

  /**
   * The dependents whose reference to this node has blockOwnerDeletion: while any remain, a foreground
   * deletion of this node cannot finish.
   */
  blockingDependents(): GraphNode[] {
    const out: GraphNode[] = [];
    for (const dep of this.dependents) {
      if (dep.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true)) out.push(dep);
    }
    return out;
  }

  /** The references of this node's owners with blockOwnerDeletion turned off (to break dependency cycles). */
  unblockedOwnerReferences(): OwnerReference[] {
    return this.owners.map((o) => (o.blockOwnerDeletion ? { ...o, blockOwnerDeletion: false } : o));
  }
}

/** concurrentUIDToNode: the graph's index. */
export class UidToNode {
  private readonly nodes = new Map<string, GraphNode>();

  read(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  write(node: GraphNode): void {
    this.nodes.set(node.identity.uid, node);
  }

  delete(uid: string): void {
    this.nodes.delete(uid);
  }

  get size(): number {
    return this.nodes.size;
  }

  values(): IterableIterator<GraphNode> {
    return this.nodes.values();
  }
}

export interface OwnerRefPair {
  oldRef: OwnerReference;
  newRef: OwnerReference;
}

/** referencesDiffs: owner references added, removed and changed (same uid, other fields differ). */
export function referencesDiffs(
  oldRefs: readonly OwnerReference[],
  newRefs: readonly OwnerReference[],
): { added: OwnerReference[]; removed: OwnerReference[]; changed: OwnerRefPair[] } {
  const oldByUid = new Map(oldRefs.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: OwnerRefPair[] = [];
  for (const ref of newRefs) {
    const old = oldByUid.get(ref.uid);
    if (old === undefined) {
      added.push(ref);
      continue;
    }
    if (!sameOwnerReference(old, ref)) changed.push({ oldRef: old, newRef: ref });
    oldByUid.delete(ref.uid);
  }
  return { added, removed: [...oldByUid.values()], changed };
}

function sameOwnerReference(a: OwnerReference, b: OwnerReference): boolean {
  return (
    a.apiVersion === b.apiVersion &&
    a.kind === b.kind &&
    a.name === b.name &&
    a.uid === b.uid &&
    (a.controller ?? null) === (b.controller ?? null) &&
    (a.blockOwnerDeletion ?? null) === (b.blockOwnerDeletion ?? null)
  );
}

/**
 * partitionDependents: the dependents whose reference to the owner's uid matches the identity, and those that
 * refer to that uid with other coordinates or from another namespace (a namespaced owner must be in its
 * dependent's namespace). A dependent with several references to the uid can be in both.
 */
export function partitionDependents(dependents: Iterable<GraphNode>, owner: ObjectReference): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const ownerIsNamespaced = owner.namespace.length > 0;
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  for (const dep of dependents) {
    let foundMatch = false;
    let foundMismatch = false;
    if (ownerIsNamespaced && owner.namespace !== dep.identity.namespace) {
      foundMismatch = true;
    } else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (ownerReferenceMatchesCoordinates(ref, owner)) foundMatch = true;
        else foundMismatch = true;
      }
    }
    if (foundMatch) matching.push(dep);
    if (foundMismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

/** referenceLessThan: kind, apiVersion, namespace, name, uid. */
export function referenceLessThan(a: ObjectReference, b: ObjectReference): boolean {
  if (a.kind !== b.kind) return a.kind < b.kind;
  if (a.apiVersion !== b.apiVersion) return a.apiVersion < b.apiVersion;
  if (a.namespace !== b.namespace) return a.namespace < b.namespace;
  if (a.name !== b.name) return a.name < b.name;
  return a.uid < b.uid;
}

/**
 * getAlternateOwnerIdentity: among the dependents' references to the verified-absent uid with other
 * coordinates, the first that sorts after the absent identity, else the first overall; undefined if none.
 */
export function getAlternateOwnerIdentity(deps: Iterable<GraphNode>, absent: ObjectReference): ObjectReference | undefined {
  const absentIsClusterScoped = absent.namespace.length === 0;
  const seen = new Set<string>([referenceKey(absent)]);
  let first: ObjectReference | undefined;
  let firstFollowing: ObjectReference | undefined;
  for (const dep of deps) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      if (ownerReferenceMatchesCoordinates(ref, absent) && (absentIsClusterScoped || absent.namespace === dep.identity.namespace)) continue;
      const alt: ObjectReference = { ...ownerCoordinates(ref), namespace: dep.identity.namespace };
      // This apiVersion/kind is known to be cluster-scoped: the alternate has no namespace either.
      if (absentIsClusterScoped && alt.apiVersion === absent.apiVersion && alt.kind === absent.kind) alt.namespace = '';
      const key = referenceKey(alt);
      if (seen.has(key)) continue;
      seen.add(key);
      if (!first || referenceLessThan(alt, first)) first = alt;
      if (referenceLessThan(absent, alt) && (!firstFollowing || referenceLessThan(alt, firstFollowing))) firstFollowing = alt;
    }
  }
  return firstFollowing ?? first;
}

/** ReferenceCache: an LRU of owners verified absent, so dependents of a deleted owner need no GET each. */
export class ReferenceCache {
  private readonly entries = new Map<string, true>();

  constructor(private readonly maxSize = 500) {}

  add(ref: ObjectReference): void {
    const key = referenceKey(ref);
    this.entries.delete(key);
    this.entries.set(key, true);
    if (this.entries.size > this.maxSize) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  has(ref: ObjectReference): boolean {
    const key = referenceKey(ref);
    if (!this.entries.has(key)) return false;
    // A hit refreshes the entry, as the LRU does.
    this.entries.delete(key);
    this.entries.set(key, true);
    return true;
  }

  get size(): number {
    return this.entries.size;
  }
}
