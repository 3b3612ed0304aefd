// One copy of each managedFields document and entry in memory. Every Event a component records, and every
// pod of one ReplicaSet, carries the same fieldsV1 tree (and often the same whole entry, when written in the
// same second): stored objects are frozen, so they can all share one frozen copy instead of holding ~40 small
// objects each. Each manager remembers its last few documents and entries; a new one equal to one of them is
// replaced by it. Documents are compared member by member without allocating (keying them by their JSON text
// cost more than it saved on creates), and only when their signatures (a hash of the members) agree: a
// kubelet's pod-status document is unique to its pod (its podIPs), and walking it against every recent
// document only to fail cost more than hashing it once.
import { deepFreeze } from '../../../../shared/lib/deep-freeze';
import { RecentList } from '../../../../shared/lib/recent-list';
import { hasOwn } from '../json-value';

/** How many recent documents (and entries) a manager remembers: a few templates or event shapes interleave. */
const recentPerManager = 8;

export interface InternedEntry {
  readonly manager: string;
  readonly operation: string;
  readonly apiVersion: string;
  readonly time?: string;
  readonly fieldsType: 'FieldsV1';
  readonly fieldsV1: Record<string, unknown>;
  readonly subresource?: string;
}

/** A remembered document and its signature. */
interface SignedDoc {
  readonly doc: Record<string, unknown>;
  readonly signature: number;
}

export class ManagedFieldsInterner {
  private readonly docs = new Map<string, RecentList<SignedDoc>>();
  private readonly entries = new Map<string, RecentList<InternedEntry>>();
  /** The frozen one-entry list of each interned entry: every Event of a recorder's burst holds one. */
  private readonly singles = new WeakMap<InternedEntry, readonly InternedEntry[]>();

  /**
   * doc (canonical, as encoding emits it), or an equal document recently produced under key, else under
   * sharedKey (the manager's, when key is one writer's within it: documents every writer makes alike, such
   * as a Lease's, are found there). The result is deeply frozen. Canonical documents order their keys the
   * same way, so equal members mean equal text.
   */
  document(key: string, doc: Record<string, unknown>, sharedKey?: string): Record<string, unknown> {
    const recent = recentList(this.docs, key);
    // A new document often differs from a recent one in one branch (a pod's status differs from another's
    // by its podIPs key): it takes their equal subtrees instead of holding its own. Done first, so comparing it
    // with the recent documents (which share those subtrees too) stops at the first identical subtree.
    for (let i = 0; i < shareWithRecent; i++) {
      const r = recent.at(i);
      if (r === undefined) break;
      shareSubtrees(doc, r.doc);
    }
    const signature = fieldsV1Signature(doc);
    const found = recall(this.docs, key, sharedKey, (d) => d.doc === doc || (d.signature === signature && fieldsV1Equal(d.doc, doc)));
    if (found !== undefined) return found.doc;
    deepFreeze(doc);
    rememberUnder(this.docs, key, sharedKey, { doc, signature });
    return doc;
  }

  /**
   * The first recent document under key (then sharedKey) that matches, moved to the front of key's;
   * undefined when none does. Lets a caller test a value against the documents without building its own.
   */
  find(key: string, matches: (doc: Record<string, unknown>) => boolean, sharedKey?: string): Record<string, unknown> | undefined {
    return recall(this.docs, key, sharedKey, (d) => matches(d.doc))?.doc;
  }

  /** entry (its fieldsV1 interned already), or an identical entry produced recently under key (then sharedKey); frozen. */
  entry<E extends InternedEntry>(key: string, e: E, sharedKey?: string): E {
    const same = (r: InternedEntry): boolean =>
      r.fieldsV1 === e.fieldsV1 &&
      r.time === e.time &&
      r.manager === e.manager &&
      r.operation === e.operation &&
      r.apiVersion === e.apiVersion &&
      r.subresource === e.subresource &&
      hasOwn(r, 'time') === hasOwn(e, 'time') &&
      hasOwn(r, 'subresource') === hasOwn(e, 'subresource');
    const found = recall(this.entries, key, sharedKey, same);
    if (found !== undefined) return found as E;
    Object.freeze(e);
    rememberUnder(this.entries, key, sharedKey, e);
    return e;
  }

  /**
   * The managedFields list of entries: a single interned (frozen) entry gets the one frozen list every object
   * with that entry shares (an Event has one writer, so its list is one entry its siblings share too); any
   * other list is returned as it is.
   */
  list<E extends InternedEntry>(entries: E[]): E[] {
    if (entries.length !== 1 || !Object.isFrozen(entries[0])) return entries;
    const e = entries[0]!;
    let one = this.singles.get(e);
    if (!one) this.singles.set(e, (one = Object.freeze([e])));
    return one as E[];
  }
}

function recentList<T>(lists: Map<string, RecentList<T>>, key: string): RecentList<T> {
  let recent = lists.get(key);
  if (!recent) lists.set(key, (recent = new RecentList<T>(recentPerManager)));
  return recent;
}

/** The first recent value under key, then sharedKey, that matches; brought to the front of key's. */
function recall<T>(lists: Map<string, RecentList<T>>, key: string, sharedKey: string | undefined, matches: (x: T) => boolean): T | undefined {
  const own = recentList(lists, key);
  const found = own.find(matches);
  if (found !== undefined || sharedKey === undefined) return found;
  // Not among key's (the same test would have found it there): remembered under key from now on.
  const shared = recentList(lists, sharedKey).find(matches);
  return shared === undefined ? undefined : own.add(shared);
}

/** A new value (under neither key yet), remembered under key and sharedKey. */
function rememberUnder<T>(lists: Map<string, RecentList<T>>, key: string, sharedKey: string | undefined, x: T): void {
  recentList(lists, key).add(x);
  if (sharedKey !== undefined) recentList(lists, sharedKey).add(x);
}

/** How many recent documents a new one takes equal subtrees from. */
const shareWithRecent = 2;

/** Replaces each subtree of doc (not yet frozen) that equals old's at the same key by old's. */
function shareSubtrees(doc: Record<string, unknown>, old: Record<string, unknown>): void {
  if (Object.isFrozen(doc)) return;
  for (const key in doc) {
    if (!hasOwn(doc, key) || !hasOwn(old, key)) continue;
    const n = doc[key];
    const o = old[key];
    if (n === o || typeof n !== 'object' || n === null || typeof o !== 'object' || o === null) continue;
    if (fieldsV1Equal(n, o)) doc[key] = o;
    else shareSubtrees(n as Record<string, unknown>, o as Record<string, unknown>);
  }
}


/**
 * A hash of a fieldsV1 document's members, independent of their order (fieldsV1Equal's equality): equal
 * documents have equal signatures.
 */
export function fieldsV1Signature(doc: unknown): number {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return 0;
  const o = doc as Record<string, unknown>;
  let sum = 0;
  let n = 0;
  for (const k in o) {
    if (!hasOwn(o, k)) continue;
    n++;
    sum = (sum + mix(Math.imul(stringHash(k), 31) + fieldsV1Signature(o[k]))) | 0;
  }
  return mix(sum + n);
}

/** FNV-1a over the UTF-16 code units. */
function stringHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** A 32-bit finalizer (murmur3's fmix32): spreads every input bit over the result. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Whether two fieldsV1 documents hold the same members (own keys, recursively), without allocating. */
export function fieldsV1Equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (!hasOwn(ao, k)) continue;
    n++;
    if (!hasOwn(bo, k) || !fieldsV1Equal(ao[k], bo[k])) return false;
  }
  for (const k in bo) if (hasOwn(bo, k)) n--;
  return n === 0;
}
