// Objects in and out of the store. The store holds values without metadata.resourceVersion (the revision is
// the kv's modRevision, so an identical write is a no-op the store can detect). Stored values are deeply
// frozen and a new version shares every unchanged subtree with the one it replaces (structural sharing).
// Readers that only read get a frozen view over the stored value (storedView: a fresh top level and
// metadata carrying resourceVersion, everything else shared); readers that may mutate, and API answers,
// get fresh copies (fromStored).
import type { KubeObject } from '../../../shared/api/types';
import type { ResourceStrategy } from '../types';
import type { KeyValue } from '../../store/types';
import { deepCopy, frozenCopy, setOwn, type SharingNode } from '../patch/json-value';
import { deepFreeze } from '../../../shared/lib/deep-freeze';
import { objectFor } from '../patch/sized-object';

/**
 * The value to store for obj: a frozen copy without resourceVersion and selfLink that shares unchanged
 * subtrees with prev (the stored value it replaces, if any), and where sharing says, recent equal values of
 * other objects. obj itself is left as it is.
 */
export function toStored(obj: KubeObject, prev?: KubeObject, sharing?: SharingNode): KubeObject {
  const meta = obj.metadata as WritableObjectMeta | undefined;
  if (!meta || (meta.resourceVersion === undefined && meta.selfLink === undefined)) return frozenCopy(obj, prev, sharing);
  // Copy the top level and metadata without the two fields, leaving obj (often the answer) untouched.
  const { resourceVersion: _rv, selfLink: _selfLink, ...rest } = meta;
  return frozenCopy({ ...obj, metadata: rest }, prev, sharing);
}

/**
 * The top-level parts of stored objects their kind keeps (ResourceStrategy.keptStoredParts), by the apiVersion,
 * kind and field they were stored as: decoding one again at the same place of a body of the same kind gives an
 * equal value, so the decoder takes it as it is.
 */
const storedParts = new WeakMap<object, StoredPartTag>();

/** One interned tag per apiVersion, kind and top-level field. */
type StoredPartTag = string & { readonly storedPartTag: unique symbol };
const tags = new Map<string, Map<string, Map<string, StoredPartTag>>>();

export function storedPartTag(apiVersion: string, kind: string, field: string): StoredPartTag {
  let byKind = tags.get(apiVersion);
  if (!byKind) tags.set(apiVersion, (byKind = new Map()));
  let byField = byKind.get(kind);
  if (!byField) byKind.set(kind, (byField = new Map()));
  let tag = byField.get(field);
  if (!tag) byField.set(field, (tag = `${apiVersion}/${kind}.${field}` as StoredPartTag));
  return tag;
}

function registerParts(stored: KubeObject, fields: readonly string[]): void {
  const { apiVersion, kind } = stored;
  if (typeof kind !== 'string' || typeof apiVersion !== 'string') return;
  for (const field of fields) {
    const v = Object.hasOwn(stored, field) ? (stored as Record<string, unknown>)[field] : undefined;
    if (typeof v === 'object' && v !== null) storedParts.set(v, storedPartTag(apiVersion, kind, field));
  }
}

/** Whether value is the `field` part of a stored object of `kind` (so decoding it again would give an equal value). */
export function isStoredPart(value: unknown, apiVersion: string, kind: string, field: string): boolean {
  return typeof value === 'object' && value !== null && storedParts.get(value) === storedPartTag(apiVersion, kind, field);
}

/** toStored with the kind's strategy's sharing of repeated subtrees, when it has one. */
export function toStoredBy(strategy: Pick<ResourceStrategy, 'storedSharing' | 'keptStoredParts'>, obj: KubeObject, prev?: KubeObject): KubeObject {
  const stored = toStored(obj, prev, strategy.storedSharing);
  if (strategy.keptStoredParts) registerParts(stored, strategy.keptStoredParts);
  return stored;
}

/** A fresh copy of a stored value with its resourceVersion. */
export function fromStored(kv: KeyValue, revision: number = kv.modRevision): KubeObject {
  const out = deepCopy(kv.value);
  out.metadata ??= {};
  writableMeta(out).resourceVersion = String(revision);
  return out;
}

/**
 * Frozen views of stored values at their own revision, one per kv, shared by every reader that only reads. The
 * view alone is remembered (a record with the revision too would cost ~40 bytes more per live object).
 */
const views = new WeakMap<KeyValue, KubeObject>();
/**
 * The last view at another revision than the kv's own (a deletion's last state, at the deleting revision): every
 * watcher the deletion is dispatched to shares it.
 */
let lastPastView: { kv: KeyValue; revision: number; view: KubeObject } | undefined;

/**
 * fromStored's content, frozen and shared: every watcher of a revision gets the same object. Only its top
 * level and metadata are its own (metadata carries resourceVersion); every other subtree is the stored
 * value's, so a live object exists once in memory however many caches hold it.
 */
export function storedView(kv: KeyValue, revision: number = kv.modRevision): KubeObject {
  const own = revision === kv.modRevision;
  const cached = own ? views.get(kv) : lastPastView?.kv === kv && lastPastView.revision === revision ? lastPastView.view : undefined;
  if (cached) return cached;
  // Values written through toStored are frozen already; anything else put into the store (a restore from
  // persistence, a test's store) is frozen here, once, so a view never exposes a mutable stored subtree.
  const stored = deepFreeze(kv.value);
  // Both made at their final size (sized-object.ts): views live as long as the caches holding them.
  const keys = Object.keys(stored);
  const view = (isWorkloadShape(keys) ? workloadTopLevel(stored) : membersOf(stored, keys, objectFor(keys))) as KubeObject;
  // Where fromStored has it: in place, or last when the stored value has none.
  const storedMeta = stored.metadata ?? {};
  const metaKeys = Object.keys(storedMeta);
  const ownKeys = metaKeys.length;
  if (!metaKeys.includes('resourceVersion')) metaKeys.push('resourceVersion');
  const metadata = membersOf(storedMeta, metaKeys, objectFor(metaKeys), ownKeys);
  metadata.resourceVersion = String(revision);
  view.metadata = Object.freeze(metadata);
  Object.freeze(view);
  if (own) views.set(kv, view);
  else lastPastView = { kv, revision, view };
  return view;
}

/** Whether keys are the top level of most stored objects (pods, workloads), in the order they are stored in. */
function isWorkloadShape(keys: readonly string[]): boolean {
  return keys.length === 5 && keys[0] === 'apiVersion' && keys[1] === 'kind' && keys[2] === 'metadata' && keys[3] === 'spec' && keys[4] === 'status';
}

/** membersOf(stored, …, objectFor(keys)) for that shape: a literal has room for exactly its members, without a parse. */
function workloadTopLevel(stored: KubeObject): Record<string, unknown> {
  const s = stored as Record<string, unknown>;
  return { apiVersion: s.apiVersion, kind: s.kind, metadata: s.metadata, spec: s.spec, status: s.status };
}

/** from's own members (the first n of keys, Object.keys(from)) set on out, as a spread would copy them (undefined ones too). */
function membersOf(from: object, keys: readonly string[], out: Record<string, unknown>, n = keys.length): Record<string, unknown> {
  for (let i = 0; i < n; i++) setOwn(out, keys[i]!, (from as Record<string, unknown>)[keys[i]!]);
  return out;
}

/** The resourceVersion of an object as a number; 0 when unset, NaN when not a number. */
export function resourceVersionOf(obj: KubeObject | undefined): number {
  const rv = obj?.metadata?.resourceVersion;
  if (rv === undefined || rv === '') return 0;
  return /^[0-9]+$/.test(rv) ? Number(rv) : NaN;
}

/** ObjectMeta with the fields kubernetes-types marks readonly (system fields the server itself sets) writable. */
export type WritableObjectMeta = { -readonly [K in keyof KubeObject['metadata']]: KubeObject['metadata'][K] };

export function writableMeta(obj: KubeObject): WritableObjectMeta {
  obj.metadata ??= {};
  return obj.metadata as WritableObjectMeta;
}
