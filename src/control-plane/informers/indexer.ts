// The informer's cache: client-go's thread_safe_store.go with named indexers. Objects are stored by key
// ("namespace/name") and indexed by every registered index function (an object may have several index values).
//
// Objects in the cache are shared with every controller and are frozen: never mutate one; copy it first
// (structuredClone) and write the copy through the client.
import type { KubeObject } from '../../shared/api/types';
import { metaNamespaceKeyFunc, sharedKey } from './keys';

/** Index values of an object under one index (none when it does not apply). */
export type IndexFunc = (obj: KubeObject) => string[];

export const NamespaceIndex = 'namespace';
/** Dependents by their owners' uids (ownerReferences[].uid), for adoption and garbage collection. */
export const OwnerUidIndex = 'ownerUid';
/** Pods by spec.nodeName, for the kubelet and node lifecycle. */
export const NodeNameIndex = 'nodeName';

// The default index functions run for every object of every watch event in every informer: they hand out
// shared, frozen value lists (the indexer only reads them) instead of a new array per call.
const noIndexValues = Object.freeze([]) as unknown as string[];
const singleValues = new Map<string, string[]>();
/** Bounds the single-value lists kept (namespaces and node names are few; this only guards against churn). */
const maxSingleValues = 10_000;

function singleValue(value: string): string[] {
  let list = singleValues.get(value);
  if (!list) {
    list = Object.freeze([value]) as unknown as string[];
    if (singleValues.size < maxSingleValues) singleValues.set(value, list);
  }
  return list;
}

export const indexByNamespace: IndexFunc = (obj) => (obj.metadata?.namespace ? singleValue(obj.metadata.namespace) : noIndexValues);

/** Owner uids per (frozen) ownerReferences array: every version of an object shares its array. */
const ownerUidsByRefs = new WeakMap<object, string[]>();

export const indexByOwnerUid: IndexFunc = (obj) => {
  const refs = obj.metadata?.ownerReferences;
  if (!refs || refs.length === 0) return noIndexValues;
  const known = ownerUidsByRefs.get(refs);
  if (known) return known;
  // Only a deeply frozen list can be remembered: nothing can change its uids later.
  let frozen = Object.isFrozen(refs);
  for (let i = 0; frozen && i < refs.length; i++) frozen = Object.isFrozen(refs[i]);
  const out: string[] = [];
  for (let i = 0; i < refs.length; i++) if (refs[i].uid) out.push(refs[i].uid);
  if (!frozen) return out;
  const list = out.length === 0 ? noIndexValues : out.length === 1 ? singleValue(out[0]) : (Object.freeze(out) as unknown as string[]);
  ownerUidsByRefs.set(refs, list);
  return list;
};

export const indexByNodeName: IndexFunc = (obj) => {
  const nodeName = (obj.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof nodeName === 'string' && nodeName !== '' ? singleValue(nodeName) : noIndexValues;
};

/**
 * What each default index function reads of an object: the same value (a string, or the same frozen array) in an
 * object's old and new versions gives the same index values, so an update that keeps it skips the index.
 */
const defaultIndexInputs = new Map<IndexFunc, (obj: KubeObject) => unknown>([
  [indexByNamespace, (obj) => obj.metadata?.namespace],
  [indexByOwnerUid, (obj) => obj.metadata?.ownerReferences],
  [indexByNodeName, (obj) => (obj.spec as { nodeName?: unknown } | undefined)?.nodeName],
]);

/** client-go's default (cache.Indexers{NamespaceIndex: MetaNamespaceIndexFunc}): for informers nobody looks up by owner or node. */
export const namespaceIndexers: Readonly<Record<string, IndexFunc>> = { [NamespaceIndex]: indexByNamespace };

export const defaultIndexers: Readonly<Record<string, IndexFunc>> = {
  [NamespaceIndex]: indexByNamespace,
  [OwnerUidIndex]: indexByOwnerUid,
  [NodeNameIndex]: indexByNodeName,
};

/**
 * Which objects changed under chosen values of one index since a consumer last looked: lets a controller keep an
 * aggregate over an index bucket (a ReplicaSet's pods) current in O(changes) instead of rescanning the bucket
 * on every sync. Only watched values are recorded, so buckets nobody aggregates cost nothing.
 */
export class IndexChangeTracker {
  /** watched index value → keys of objects that had the value before or after a change. */
  private readonly changed = new Map<string, Set<string>>();

  /** Starts recording changes under the value (a no-op if already watched). */
  watch(value: string): void {
    if (!this.changed.has(value)) this.changed.set(value, new Set());
  }

  unwatch(value: string): void {
    this.changed.delete(value);
  }

  isWatched(value: string): boolean {
    return this.changed.has(value);
  }

  /** The keys changed under the value since the last take (empty when none), and starts afresh. */
  take(value: string): ReadonlySet<string> {
    const keys = this.changed.get(value);
    if (!keys || keys.size === 0) return emptyKeys;
    this.changed.set(value, new Set());
    return keys;
  }

  /** @internal Called by the indexer for every upsert/delete. */
  record(values: readonly string[], key: string): void {
    for (let i = 0; i < values.length; i++) this.changed.get(values[i])?.add(key);
  }
}

const emptyKeys: ReadonlySet<string> = new Set();

export class Indexer<T extends KubeObject = KubeObject> {
  /**
   * Objects by key, held directly. Their index values are not kept: index functions are pure functions of a
   * frozen object, so replacing or deleting one calls them on the old object again (as client-go's
   * thread_safe_store does). Keeping them cost an array per object in every informer.
   */
  private readonly items = new Map<string, T>();
  /**
   * Insertion sequences (list() order: a Map keeps first-insertion order) for byIndexInListOrder, made at its
   * first call: most informers are never asked, and a number per object would cost a record (or an entry) each.
   */
  private seqs: Map<string, number> | undefined = undefined;
  private nextSeq = 0;
  private readonly indexers = new Map<string, IndexFunc>();
  /** index name → index value → keys. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  /** index name → change trackers over it. */
  private readonly trackers = new Map<string, IndexChangeTracker[]>();
  /** The indexes as an array (what every upsert walks), each with its map and trackers. */
  private readonly entries: IndexEntry[] = [];

  constructor(indexers: Readonly<Record<string, IndexFunc>> = defaultIndexers) {
    this.addIndexers(indexers);
  }

  /** Adds index functions; existing objects are indexed by them at once. A name may not be registered twice. */
  addIndexers(indexers: Readonly<Record<string, IndexFunc>>): void {
    for (const name of Object.keys(indexers)) {
      if (this.indexers.has(name)) throw new Error(`indexer conflict: ${name}`);
    }
    for (const [name, fn] of Object.entries(indexers)) {
      this.indexers.set(name, fn);
      const index = new Map<string, Set<string>>();
      this.indices.set(name, index);
      this.entries.push({ name, fn, index, trackers: undefined, inputOf: defaultIndexInputs.get(fn) });
      for (const [key, obj] of this.items) {
        const values = fn(obj);
        for (const v of values) addTo(index, v, key);
      }
    }
  }

  /** A new change tracker over the named index (see IndexChangeTracker). */
  trackChanges(indexName: string): IndexChangeTracker {
    if (!this.indexers.has(indexName)) throw new Error(`Index with name ${indexName} does not exist`);
    const tracker = new IndexChangeTracker();
    const list = this.trackers.get(indexName);
    if (list) list.push(tracker);
    else this.trackers.set(indexName, [tracker]);
    this.entries.find((e) => e.name === indexName)!.trackers = this.trackers.get(indexName);
    return tracker;
  }

  /** Stops feeding a tracker made by trackChanges. */
  untrack(tracker: IndexChangeTracker): void {
    for (const [name, list] of this.trackers) {
      const i = list.indexOf(tracker);
      if (i < 0) continue;
      list.splice(i, 1);
      if (list.length === 0) {
        this.trackers.delete(name);
        this.entries.find((e) => e.name === name)!.trackers = undefined;
      }
    }
  }

  indexNames(): string[] {
    return [...this.indexers.keys()];
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  /** Adds or replaces the object under its key (metaNamespaceKeyFunc's, passed when known); returns the object it replaced. */
  upsert(obj: T, key: string = metaNamespaceKeyFunc(obj)): T | undefined {
    const old = this.items.get(key);
    const entries = this.entries;
    if (old === undefined) {
      // The key is kept as long as the object (here and in every index bucket): one flat string, not the
      // tree of pieces a concatenation leaves, and the one the cluster's other informers hold too.
      key = sharedKey(key);
      for (let e = 0; e < entries.length; e++) {
        const after = entries[e].fn(obj);
        this.record(entries[e], key, noValues, after);
        for (let i = 0; i < after.length; i++) addTo(entries[e].index, after[i], key);
      }
      this.items.set(key, obj);
      this.seqs?.set(key, this.nextSeq++);
      return undefined;
    }
    // Replacing keeps the key's place in the Map (and so in list()).
    this.items.set(key, obj);
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[e];
      // Nothing to record and the function's input unchanged: its values are too (the usual status write).
      if (entry.trackers === undefined && entry.inputOf !== undefined && entry.inputOf(old) === entry.inputOf(obj)) continue;
      const before = entry.fn(old);
      const after = entry.fn(obj);
      this.record(entry, key, before, after);
      // Common case: an update that keeps the index values (a status write) touches nothing.
      if (sameValues(before, after)) continue;
      for (let i = 0; i < before.length; i++) removeFrom(entries[e].index, before[i], key);
      for (let i = 0; i < after.length; i++) addTo(entries[e].index, after[i], key);
    }
    return old;
  }

  /** Removes the object under the key; returns it. */
  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    this.seqs?.delete(key);
    const entries = this.entries;
    for (let e = 0; e < entries.length; e++) {
      const before = entries[e].fn(old);
      this.record(entries[e], key, before, noValues);
      for (let i = 0; i < before.length; i++) removeFrom(entries[e].index, before[i], key);
    }
    return old;
  }

  /** Objects whose index `indexName` has the value. */
  byIndex(indexName: string, value: string): T[] {
    const keys = this.bucket(indexName, value);
    const out: T[] = [];
    if (keys) for (const k of keys) out.push(this.items.get(k)!);
    return out;
  }

  /**
   * byIndex in the order list() returns the objects (first insertion), for callers whose output order was defined
   * by a scan of every object: a bucket's own order follows when each object gained the index value instead.
   */
  byIndexInListOrder(indexName: string, value: string): T[] {
    const keys = this.bucket(indexName, value);
    if (!keys) return [];
    const seqs = this.listOrder();
    // Buckets are usually already in order (objects gain the value in creation order): check while collecting.
    const ordered: string[] = [];
    let prev = -1;
    let sorted = true;
    for (const k of keys) {
      const seq = seqs.get(k)!;
      if (seq <= prev) sorted = false;
      prev = seq;
      ordered.push(k);
    }
    if (!sorted) ordered.sort((a, b) => seqs.get(a)! - seqs.get(b)!);
    const out = new Array<T>(ordered.length);
    for (let i = 0; i < ordered.length; i++) out[i] = this.items.get(ordered[i])!;
    return out;
  }

  /** Every key's insertion sequence, numbered in the items' order the first time it is asked for. */
  private listOrder(): Map<string, number> {
    let seqs = this.seqs;
    if (seqs === undefined) {
      seqs = this.seqs = new Map();
      for (const key of this.items.keys()) seqs.set(key, this.nextSeq++);
    }
    return seqs;
  }

  private bucket(indexName: string, value: string): Set<string> | undefined {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`Index with name ${indexName} does not exist`);
    return index.get(value);
  }

  /** Keys of the objects whose index `indexName` has the value. */
  indexKeys(indexName: string, value: string): string[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`Index with name ${indexName} does not exist`);
    const keys = index.get(value);
    return keys ? [...keys] : [];
  }

  /** Every value the index currently holds. */
  listIndexFuncValues(indexName: string): string[] {
    const index = this.indices.get(indexName);
    return index ? [...index.keys()] : [];
  }

  /** Tells the index's change trackers that the key had these values before and after. */
  private record(entry: IndexEntry, key: string, before: readonly string[], after: readonly string[]): void {
    const trackers = entry.trackers;
    if (!trackers) return;
    for (const t of trackers) {
      t.record(before, key);
      t.record(after, key);
    }
  }
}

interface IndexEntry {
  name: string;
  fn: IndexFunc;
  index: Map<string, Set<string>>;
  trackers: IndexChangeTracker[] | undefined;
  /** For a default index function: what it reads (see defaultIndexInputs). */
  inputOf: ((obj: KubeObject) => unknown) | undefined;
}

const noValues: readonly string[] = [];

/** Whether two results of an index function hold the same values, in order. */
function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function addTo(index: Map<string, Set<string>>, value: string, key: string): void {
  let set = index.get(value);
  if (!set) index.set(value, (set = new Set()));
  set.add(key);
}

function removeFrom(index: Map<string, Set<string>>, value: string, key: string): void {
  const set = index.get(value);
  if (!set) return;
  set.delete(key);
  if (set.size === 0) index.delete(value);
}
