// Objects in and out of the store. The store holds values without metadata.resourceVersion (the revision is
// the kv's modRevision, so an identical write is a no-op the store can detect); reads hand out fresh copies
// with metadata.resourceVersion = modRevision, never the stored value.
import type { KubeObject } from '../../../shared/api/types';
import type { KeyValue } from '../../store/types';
import { deepCopy, deepFreeze } from '../patch/json-value';

/** A fresh copy for storage: no resourceVersion, no selfLink. */
export function toStored(obj: KubeObject): KubeObject {
  const out = deepCopy(obj);
  if (out.metadata) {
    delete writableMeta(out).resourceVersion;
    delete writableMeta(out).selfLink;
  }
  return out;
}

/** A fresh copy of a stored value with its resourceVersion. */
export function fromStored(kv: KeyValue, revision: number = kv.modRevision): KubeObject {
  const out = deepCopy(kv.value);
  out.metadata ??= {};
  writableMeta(out).resourceVersion = String(revision);
  return out;
}

/** Frozen views of stored values, one per kv (and revision), shared by every reader that only reads. */
const views = new WeakMap<KeyValue, { revision: number; view: KubeObject }>();

/**
 * fromStored's copy, frozen and shared: every watcher of a revision gets the same object instead of a copy
 * each. It is a copy of its own, not a view over the stored value's subtrees: sharing and freezing those
 * measured slower in the engine benchmark.
 */
export function storedView(kv: KeyValue, revision: number = kv.modRevision): KubeObject {
  const cached = views.get(kv);
  if (cached && cached.revision === revision) return cached.view;
  const view = deepFreeze(fromStored(kv, revision));
  views.set(kv, { revision, view });
  return view;
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
