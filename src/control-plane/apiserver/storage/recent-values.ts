// One frozen copy of a small value that many stored objects of a kind repeat: every Event a recorder writes carries
// the same source, the Events a kubelet records about one container (Pulled, Created, Started) the same
// involvedObject, and every pod of a ReplicaSet the same labels, owner references and tolerations. Stored objects
// are frozen and toStored keeps frozen subtrees as they are, so those objects can all hold one copy. Only the
// last few values are remembered; equal means the same JSON text (key order counts), so nothing the API returns
// changes. The request's own object (the create's answer) is left as it is.
import type { KubeObject } from '../../../shared/api/types';
import { sameJson } from '../../../shared/lib/same-json';
import { frozenCopy } from '../patch/json-value';

export class RecentValues {
  private readonly recent: unknown[] = [];

  constructor(private readonly size: number) {}

  /** value, or a frozen value with the same JSON text seen recently; a new value is remembered as a frozen copy. */
  intern<T>(value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    const recent = this.recent;
    for (let i = 0; i < recent.length; i++) {
      const r = recent[i];
      if (r === value || sameJson(r, value)) {
        // Most recently used first.
        for (let j = i; j > 0; j--) recent[j] = recent[j - 1];
        recent[0] = r;
        return r as T;
      }
    }
    const copy = frozenCopy(value);
    recent.unshift(copy);
    if (recent.length > this.size) recent.pop();
    return copy;
  }
}

/** How many recent values each path remembers: a few templates or recorders interleave. */
const recentPerPath = 8;

/** The subtrees at some paths of a kind's objects (["metadata", "labels"]), each shared with recent equal ones. */
export class SharedSubtrees {
  private readonly paths: { path: readonly string[]; values: RecentValues }[];

  constructor(paths: readonly (readonly string[])[]) {
    this.paths = paths.map((path) => ({ path, values: new RecentValues(recentPerPath) }));
  }

  /**
   * What to store for obj: obj itself, or a shallow copy along the paths whose values are now shared frozen
   * ones (same keys in the same order). obj is not modified.
   */
  storedForm(obj: KubeObject): KubeObject {
    let out = obj as Record<string, unknown>;
    for (const { path, values } of this.paths) {
      const v = valueAt(out, path);
      if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
      const shared = values.intern(v);
      if (shared !== v) out = withValueAt(out, path, 0, shared);
    }
    return out as KubeObject;
  }
}

function valueAt(obj: Record<string, unknown>, path: readonly string[]): unknown {
  let v: unknown = obj;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** obj with path[i..] set to value: each level a copy with the key in its place (spread keeps key order). */
function withValueAt(obj: Record<string, unknown>, path: readonly string[], i: number, value: unknown): Record<string, unknown> {
  const key = path[i]!;
  const child = i + 1 === path.length ? value : withValueAt(obj[key] as Record<string, unknown>, path, i + 1, value);
  const out = { ...obj };
  Object.defineProperty(out, key, { value: child, writable: true, enumerable: true, configurable: true });
  return out;
}
