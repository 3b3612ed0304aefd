// One frozen copy of a small value that many stored objects of a kind repeat: every Event a recorder writes carries
// the same source, the Events a kubelet records about one container (Pulled, Created, Started) the same
// involvedObject, and every pod of a ReplicaSet the same labels, owner references and tolerations. Stored objects
// are frozen and toStored keeps frozen subtrees as they are, so those objects can all hold one copy. Only the
// last few values are remembered; equal means the same JSON text (key order counts), so nothing the API returns
// changes. The request's own object (the create's answer) is left as it is.
import type { KubeObject } from '../../../shared/api/types';
import { RecentList } from '../../../shared/lib/recent-list';
import { sameJson } from '../../../shared/lib/same-json';
import { frozenCopy, setOwn } from '../patch/json-value';

export class RecentValues {
  private readonly recent: RecentList<unknown>;

  constructor(size: number) {
    this.recent = new RecentList(size);
  }

  /** value, or a frozen value with the same JSON text seen recently; a new value is remembered as a frozen copy. */
  intern<T>(value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    return (this.recent.find((r) => r === value || sameJson(r, value)) ?? this.recent.add(frozenCopy(value))) as T;
  }
}

/**
 * Frozen values by their JSON text, for values that recur across many interleaved writers (a node's host IPs:
 * a thousand kubelets write in turn, too many for RecentValues). Bounded: it starts again when full.
 */
export class ValuesByText {
  private readonly byText = new Map<string, unknown>();

  constructor(private readonly max: number) {}

  intern<T>(value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    const text = JSON.stringify(value);
    const known = this.byText.get(text);
    if (known !== undefined) return known as T;
    if (this.byText.size >= this.max) this.byText.clear();
    const copy = frozenCopy(value);
    this.byText.set(text, copy);
    return copy;
  }
}

/** How many values by text a path remembers (a node's worth each). */
const byTextPerPath = 8192;

/** How many recent values each path remembers: a few templates, recorders or transition times interleave. */
const recentPerPath = 16;

/** A path segment standing for every element of an array (["status", "conditions", "*"]). */
export const EachElement = '*';

/**
 * The subtrees at some paths of a kind's objects (["metadata", "labels"], ["status", "conditions", "*"]), each
 * shared with recent equal ones.
 */
export class SharedSubtrees {
  private readonly paths: { path: readonly string[]; values: RecentValues | ValuesByText }[];

  /** textPaths: paths whose values recur across many interleaved writers, remembered by their JSON text. */
  constructor(paths: readonly (readonly string[])[], textPaths: readonly (readonly string[])[] = []) {
    this.paths = [
      ...paths.map((path) => ({ path, values: new RecentValues(recentPerPath) })),
      ...textPaths.map((path) => ({ path, values: new ValuesByText(byTextPerPath) })),
    ];
  }

  /**
   * What to store for obj: obj itself, or a copy along the paths whose values are now shared frozen ones (same
   * keys in the same order). obj is not modified. A value equal to prev's at the same place is left for
   * toStored, which keeps prev's.
   */
  storedForm(obj: KubeObject, prev?: KubeObject): KubeObject {
    let out: unknown = obj;
    for (const { path, values } of this.paths) out = share(out, prev, path, 0, values);
    return out as KubeObject;
  }
}

function share(node: unknown, prev: unknown, path: readonly string[], i: number, values: RecentValues | ValuesByText): unknown {
  if (typeof node !== 'object' || node === null || Object.isFrozen(node)) return node;
  if (i === path.length) {
    if (prev !== undefined && sameJson(node, prev)) return node;
    return values.intern(node);
  }
  const key = path[i]!;
  if (key === EachElement) {
    if (!Array.isArray(node)) return node;
    const before = Array.isArray(prev) ? prev : undefined;
    let out: unknown[] | undefined;
    for (let j = 0; j < node.length; j++) {
      const c = share(node[j], before?.[j], path, i + 1, values);
      if (c !== node[j]) (out ??= node.slice())[j] = c;
    }
    return out ?? node;
  }
  if (Array.isArray(node) || !Object.hasOwn(node, key)) return node;
  const child = (node as Record<string, unknown>)[key];
  const before = typeof prev === 'object' && prev !== null && !Array.isArray(prev) && Object.hasOwn(prev, key) ? (prev as Record<string, unknown>)[key] : undefined;
  const c = share(child, before, path, i + 1, values);
  if (c === child) return node;
  // A copy with the key in its place (spread keeps key order; setOwn keeps a "__proto__" key a data member).
  const out = { ...(node as Record<string, unknown>) };
  setOwn(out, key, c);
  return out;
}
