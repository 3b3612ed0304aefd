// The informer's cache: client-go's thread_safe_store.go with named indexers. Objects are stored by key
// ("namespace/name") and indexed by every registered index function (an object may have several index values).
//
// Objects in the cache are shared with every controller and are frozen: never mutate one; copy it first
// (structuredClone) and write the copy through the client.
import type { KubeObject } from '../../shared/api/types';
import { metaNamespaceKeyFunc } from './keys';

/** Index values of an object under one index (none when it does not apply). */
export type IndexFunc = (obj: KubeObject) => string[];

export const NamespaceIndex = 'namespace';
/** Dependents by their owners' uids (ownerReferences[].uid), for adoption and garbage collection. */
export const OwnerUidIndex = 'ownerUid';
/** Pods by spec.nodeName, for the kubelet and node lifecycle. */
export const NodeNameIndex = 'nodeName';

export const indexByNamespace: IndexFunc = (obj) => (obj.metadata?.namespace ? [obj.metadata.namespace] : []);

export const indexByOwnerUid: IndexFunc = (obj) =>
  (obj.metadata?.ownerReferences ?? []).map((r) => r.uid).filter((uid): uid is string => !!uid);

export const indexByNodeName: IndexFunc = (obj) => {
  const nodeName = (obj.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof nodeName === 'string' && nodeName !== '' ? [nodeName] : [];
};

export const defaultIndexers: Readonly<Record<string, IndexFunc>> = {
  [NamespaceIndex]: indexByNamespace,
  [OwnerUidIndex]: indexByOwnerUid,
  [NodeNameIndex]: indexByNodeName,
};

export class Indexer<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc>();
  /** index name → index value → keys. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

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
      for (const [key, obj] of this.items) for (const v of fn(obj)) addTo(index, v, key);
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

  /** Adds or replaces the object under its key; returns the object it replaced. */
  upsert(obj: T): T | undefined {
    const key = metaNamespaceKeyFunc(obj);
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.reindex(key, old, obj);
    return old;
  }

  /** Removes the object under the key; returns it. */
  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    this.reindex(key, old, undefined);
    return old;
  }

  /** Objects whose index `indexName` has the value. */
  byIndex(indexName: string, value: string): T[] {
    return this.indexKeys(indexName, value).map((k) => this.items.get(k)!);
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

  private reindex(key: string, old: T | undefined, obj: T | undefined): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      const before = old ? fn(old) : [];
      const after = obj ? fn(obj) : [];
      // Common case: an update that keeps the index values (a status write) touches nothing.
      if (before.length === after.length && before.every((v, i) => v === after[i])) continue;
      for (const v of before) removeFrom(index, v, key);
      for (const v of after) addTo(index, v, key);
    }
  }
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
