// Who owns an object and what it owns, read from ownerReferences only (what the garbage collector follows):
// a uid index over everything the page watches, the owner chain up to the root, and the dependents grouped by kind.
import type { KubeObject, OwnerReference } from '../../../shared/api/types';
import type { ResourceObjects } from '../../state/objects-slice';

/** An object and its place in the objects slice (what appStore.select takes). */
export interface ObjectEntry {
  resourceKey: string;
  key: string;
  object: KubeObject;
}

export interface UidIndex {
  byUid: ReadonlyMap<string, ObjectEntry>;
  /** Owner uid → the objects whose ownerReferences name it, sorted by kind then namespace/name. */
  dependents: ReadonlyMap<string, readonly ObjectEntry[]>;
}

export function buildUidIndex(resources: Readonly<Record<string, ResourceObjects>>): UidIndex {
  const byUid = new Map<string, ObjectEntry>();
  const dependents = new Map<string, ObjectEntry[]>();
  for (const [resourceKey, view] of Object.entries(resources)) {
    // Events name objects but never own them; skipping them keeps the index small.
    if (resourceKey === '/events' || resourceKey === 'events.k8s.io/events') continue;
    for (const [key, object] of view.objects) {
      const entry = { resourceKey, key, object };
      const uid = object.metadata.uid;
      if (uid) byUid.set(uid, entry);
      for (const ref of object.metadata.ownerReferences ?? []) {
        let list = dependents.get(ref.uid);
        if (!list) dependents.set(ref.uid, (list = []));
        list.push(entry);
      }
    }
  }
  for (const list of dependents.values()) list.sort(byKindThenKey);
  return { byUid, dependents };
}

function byKindThenKey(a: ObjectEntry, b: ObjectEntry): number {
  return cmp(a.object.kind, b.object.kind) || cmp(a.key, b.key);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface OwnerLink {
  ref: OwnerReference;
  /** The owner as the page knows it; undefined when it is gone (or the page does not watch its kind). */
  owner?: ObjectEntry;
}

/**
 * The owner that matters for the chain: the managing controller's reference (controller: true), else the first
 * one. Namespaced owners live in the dependent's namespace; a cluster-scoped owner has none.
 */
export function controllerRef(obj: KubeObject): OwnerReference | undefined {
  const refs = obj.metadata.ownerReferences ?? [];
  return refs.find((r) => r.controller) ?? refs[0];
}

/**
 * The owner chain, root first and ending with obj's direct owner (not obj itself). Follows controller references
 * by uid; stops at an owner the page does not have (that link is included, unresolved) or at a cycle.
 */
export function ownerChain(obj: KubeObject, index: UidIndex): OwnerLink[] {
  const chain: OwnerLink[] = [];
  const seen = new Set<string>([obj.metadata.uid ?? '']);
  let current: KubeObject | undefined = obj;
  while (current) {
    const ref = controllerRef(current);
    if (!ref || seen.has(ref.uid)) break;
    seen.add(ref.uid);
    const owner = index.byUid.get(ref.uid);
    chain.push({ ref, owner });
    current = owner?.object;
  }
  return chain.reverse();
}

/** The objects whose ownerReferences name uid. */
export function dependentsOf(uid: string | undefined, index: UidIndex): readonly ObjectEntry[] {
  return (uid && index.dependents.get(uid)) || [];
}

export interface DependentGroup {
  kind: string;
  items: readonly ObjectEntry[];
}

/** Dependents grouped by kind, in kind order, so 500 pods read as "Pod (500)". */
export function groupByKind(entries: readonly ObjectEntry[]): DependentGroup[] {
  const groups = new Map<string, ObjectEntry[]>();
  for (const e of entries) {
    let list = groups.get(e.object.kind);
    if (!list) groups.set(e.object.kind, (list = []));
    list.push(e);
  }
  return [...groups].sort(([a], [b]) => cmp(a, b)).map(([kind, items]) => ({ kind, items }));
}
