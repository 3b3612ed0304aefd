// One frozen copy of a small value that many stored objects of a kind repeat: every Event a recorder writes carries
// the same source, the Events a kubelet records about one container (Pulled, Created, Started) the same
// involvedObject, and every pod of a ReplicaSet the same labels, owner references and tolerations. Stored objects
// are frozen and toStored keeps frozen subtrees as they are, so those objects can all hold one copy. Only the
// last few values are remembered; equal means the same JSON text (key order counts), so nothing the API returns
// changes. The request's own object (the create's answer) is left as it is: the stored copy is the one shared.
import { KeyedRecords } from '../../../shared/lib/recent-list';
import { sameJson } from '../../../shared/lib/same-json';
import type { SharedValues, SharingNode } from '../patch/json-value';

/**
 * Recent values, grouped by a fingerprint of their members (memberHash): values at one place that differ usually
 * differ in a member the fingerprint reads (a condition's type, an object's name), so a lookup compares with the
 * few values of its group, the most recent first, not with every value remembered. Bounded: each group keeps its
 * last perGroup values, and the groups start again when there are maxGroups of them.
 */
export class RecentValues implements SharedValues {
  private readonly groups: KeyedRecords<object, number>;

  constructor(perGroup: number, maxGroups = 512) {
    this.groups = new KeyedRecords(maxGroups, perGroup);
  }

  recall(v: object): object | undefined {
    return this.groups.find(memberHash(v, 0), (r) => r === v || sameJson(r, v));
  }

  remember(frozen: object): object {
    return this.groups.add(memberHash(frozen, 0), frozen);
  }
}

/**
 * A fingerprint of a value's members, two levels deep: keys by length, strings by length and three of their
 * characters (the last two and the middle one: names, uids and times differ there), other scalars as they are.
 * Plain JSON values with the same text have the same fingerprint (undefined members are skipped, as JSON skips them).
 */
export function memberHash(v: object, depth: number): number {
  if (Array.isArray(v)) {
    let h = v.length;
    for (let i = 0; i < v.length && i < 4; i++) h = (Math.imul(h, 31) + memberValueHash(v[i], depth)) | 0;
    return h;
  }
  let h = 7;
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const m = (v as Record<string, unknown>)[k];
    if (m === undefined) continue;
    h = (Math.imul(h, 31) + k.length) | 0;
    h = (Math.imul(h, 31) + memberValueHash(m, depth)) | 0;
  }
  return h;
}

function memberValueHash(m: unknown, depth: number): number {
  switch (typeof m) {
    case 'string': {
      const n = m.length;
      return n === 0 ? 1 : Math.imul(n, 131) + Math.imul(m.charCodeAt(n - 1), 7) + Math.imul(m.charCodeAt(n >> 1), 3) + m.charCodeAt(n > 1 ? n - 2 : 0);
    }
    case 'number':
      return m | 0;
    case 'boolean':
      return m ? 3 : 5;
    case 'object':
      return m === null ? 11 : depth < 1 ? memberHash(m, depth + 1) : 13;
    default:
      return 0;
  }
}

/**
 * Frozen values by their JSON text, for values that recur across many interleaved writers (a node's host IPs:
 * a thousand kubelets write in turn, too many for RecentValues). Bounded: it starts again when full.
 */
export class ValuesByText implements SharedValues {
  private readonly byText = new Map<string, object>();

  constructor(private readonly max: number) {}

  recall(v: object): object | undefined {
    return this.byText.get(JSON.stringify(v));
  }

  /** Made text again: a value new to the map is rare (one per node's host IPs). */
  remember(frozen: object): object {
    if (this.byText.size >= this.max) this.byText.clear();
    this.byText.set(JSON.stringify(frozen), frozen);
    return frozen;
  }
}

/** How many values by text a path remembers (a node's worth each). */
const byTextPerPath = 8192;

/** How many recent values of one fingerprint each path remembers: a few templates, recorders or transition times interleave. */
const recentPerGroup = 4;

/** A path segment standing for every element of an array (["status", "conditions", "*"]). */
export const EachElement = '*';

/** A SharingNode under construction: its members' nodes are added path by path. */
interface TrieNode {
  members?: Map<string, TrieNode>;
  elements?: TrieNode;
  values?: SharedValues;
}

/**
 * The subtrees at some paths of a kind's objects (["metadata", "labels"], ["status", "conditions", "*"]), each
 * shared with recent equal ones: `sharing` guides toStored's frozen copy (frozenCopy), which takes an equal known
 * value at each of these places before it copies one, in the same walk that shares unchanged subtrees with the
 * stored value it replaces.
 */
export class SharedSubtrees {
  readonly sharing: SharingNode;

  /** textPaths: paths whose values recur across many interleaved writers, remembered by their JSON text. */
  constructor(paths: readonly (readonly string[])[], textPaths: readonly (readonly string[])[] = []) {
    const root: TrieNode = {};
    const add = (path: readonly string[], values: SharedValues): void => {
      let node = root;
      for (const seg of path) {
        if (seg === EachElement) node = node.elements ??= {};
        else {
          const members = (node.members ??= new Map());
          let next = members.get(seg);
          if (!next) members.set(seg, (next = {}));
          node = next;
        }
      }
      node.values = values;
    };
    for (const path of paths) add(path, new RecentValues(recentPerGroup));
    for (const path of textPaths) add(path, new ValuesByText(byTextPerPath));
    this.sharing = root;
  }
}
