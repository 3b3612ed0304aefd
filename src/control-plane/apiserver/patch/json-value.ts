// Plain-JSON helpers every patch and merge routine goes through. User documents can carry keys such as
// "__proto__", "constructor" and "prototype"; they are data here. Reads go through getOwn (a plain
// `obj[key]` would return Object.prototype for "__proto__") and writes through setOwn (a plain assignment
// to "__proto__" would swap the prototype), so no user input can reach a prototype.
import { sameJson } from '../../../shared/lib/same-json';
import { objectFor } from './sized-object';

export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** The object's own property, never an inherited one. */
export function getOwn(obj: object, key: string): unknown {
  return hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** Sets an own, enumerable data property, whatever the key. */
export function setOwn(obj: object, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    (obj as Record<string, unknown>)[key] = value;
  }
}

export function deleteOwn(obj: object, key: string): void {
  if (hasOwn(obj, key)) delete (obj as Record<string, unknown>)[key];
}

/**
 * Deep copy of plain JSON data; own "__proto__" keys stay own data properties. `undefined` members are
 * dropped, as JSON.stringify would.
 */
export function deepCopy<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyValue(v[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  // for-in with the own-property test walks the map's enum cache without allocating Object.keys' array.
  for (const key in v) {
    if (!hasOwn(v, key)) continue;
    const child = (v as Record<string, unknown>)[key];
    if (child === undefined) continue;
    if (key === '__proto__') setOwn(out, key, copyValue(child));
    else out[key] = copyValue(child);
  }
  return out;
}

/**
 * A frozen deep copy of value (undefined members dropped, as deepCopy does) that reuses prev's subtrees
 * wherever they are identical, key order included: a stored object's new version shares every unchanged
 * subtree with the old one (structural sharing), so a status write copies only what it changed. prev must be
 * frozen (a stored value); value is never modified. Frozen subtrees of value are taken as they are (they are
 * already someone's frozen copy).
 */
export function frozenCopy<T>(value: T, prev?: unknown, sharing?: SharingNode): T {
  return shareValue(value, prev, sharing) as T;
}

/**
 * Where a frozen copy shares subtrees with other objects too, not only with its prev: the node of a member (by
 * key) or of every element of an array, and at a node whose values are shared, where they are kept.
 */
export interface SharingNode {
  readonly members?: ReadonlyMap<string, SharingNode>;
  readonly elements?: SharingNode;
  readonly values?: SharedValues;
}

/** Frozen values with the same JSON text as the ones a kind's objects repeat at one place (storage/recent-values.ts). */
export interface SharedValues {
  /** A frozen value seen recently with v's JSON text, if any. */
  recall(v: object): object | undefined;
  /** A new frozen copy, remembered for the next; returns what to store. */
  remember(frozen: object): object;
}

function memberNode(s: SharingNode | undefined, key: string): SharingNode | undefined {
  return s === undefined || s.members === undefined ? undefined : s.members.get(key);
}

function shareValue(v: unknown, p: unknown, s: SharingNode | undefined): unknown {
  if (typeof v !== 'object' || v === null || v === p || Object.isFrozen(v)) return v;
  if (s !== undefined && s.values !== undefined) return sharedValue(v, p, s, s.values);
  return copyOf(v, p, s);
}

/**
 * v at a place whose values are shared: prev's when v has its JSON text (an unchanged part stays the stored
 * one), else an equal value known already, else a new copy they remember.
 */
function sharedValue(v: object, p: unknown, s: SharingNode, values: SharedValues): object {
  if (typeof p === 'object' && p !== null && sameJson(v, p)) return p;
  return values.recall(v) ?? values.remember(copyOf(v, p, s));
}

/** v frozen: against prev when it is an object or array, else from scratch. */
function copyOf(v: object, p: unknown, s: SharingNode | undefined): object {
  return typeof p !== 'object' || p === null ? freshCopy(v, s) : (copyAgainst(v, p, s) as object);
}

/** v frozen, sharing prev's members wherever they are identical (prev is an object or array). */
function copyAgainst(v: object, p: object, s: SharingNode | undefined): unknown {
  if (Array.isArray(v)) {
    if (!Array.isArray(p) || p.length !== v.length) return freshCopy(v, s);
    const pa = p as unknown[];
    const es = s === undefined ? undefined : s.elements;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const c = shareValue(v[i], pa[i], es);
      if (out) out[i] = c;
      else if (c !== pa[i]) {
        // At its exact length: an array grown by push keeps room for 16 more elements as long as it is stored.
        out = new Array(v.length);
        for (let j = 0; j < i; j++) out[j] = pa[j];
        out[i] = c;
      }
    }
    return out ? Object.freeze(out) : pa;
  }
  if (Array.isArray(p)) return freshCopy(v, s);
  const po = p as Record<string, unknown>;
  const pKeys = Object.keys(po);
  const keys = Object.keys(v);
  const src = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  let n = 0; // defined members of v so far: prev matches only if they are its keys, in its order
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const child = src[key];
    if (child === undefined) continue;
    if (out) {
      setOwn(out, key, shareValue(child, hasOwn(po, key) ? po[key] : undefined, memberNode(s, key)));
      n++;
      continue;
    }
    const same = pKeys[n] === key;
    const c = shareValue(child, same || hasOwn(po, key) ? po[key] : undefined, memberNode(s, key));
    if (!same || c !== po[key]) {
      // First difference: copy the members so far (all identical to prev's) and go on building.
      out = objectFor(definedKeys(src, keys));
      for (let j = 0; j < i; j++) {
        const k = keys[j]!;
        if (src[k] !== undefined) setOwn(out, k, po[k]);
      }
      setOwn(out, key, c);
    }
    n++;
  }
  if (!out) return n === pKeys.length ? po : Object.freeze(copyMembers(src, po));
  return Object.freeze(out);
}

/** A frozen deep copy with nothing to share but what s shares (a new object, or a part prev does not have). */
function freshCopy(v: object, s: SharingNode | undefined): object {
  if (Array.isArray(v)) {
    const es = s === undefined ? undefined : s.elements;
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = shareValue(v[i], undefined, es);
    return Object.freeze(out);
  }
  const src = v as Record<string, unknown>;
  const keys = definedKeys(src, Object.keys(src));
  const out = objectFor(keys);
  for (const key of keys) {
    const copy = shareValue(src[key], undefined, memberNode(s, key));
    if (key === '__proto__') setOwn(out, key, copy);
    else out[key] = copy;
  }
  return Object.freeze(out);
}

/** v's defined members in v's order, each taken from prev (they are known to be identical to prev's). */
function copyMembers(v: Record<string, unknown>, prev: Record<string, unknown>): Record<string, unknown> {
  const keys = definedKeys(v, Object.keys(v));
  const out = objectFor(keys);
  for (const k of keys) setOwn(out, k, prev[k]);
  return out;
}

/** keys without those whose member is undefined (a copy drops them); keys itself when none is. */
function definedKeys(v: Record<string, unknown>, keys: string[]): string[] {
  for (let i = 0; i < keys.length; i++) {
    if (v[keys[i]!] !== undefined) continue;
    const out = keys.slice(0, i);
    for (let j = i + 1; j < keys.length; j++) if (v[keys[j]!] !== undefined) out.push(keys[j]!);
    return out;
  }
  return keys;
}

/** Whether an object or array holds an undefined member anywhere (a deep copy would drop or keep it as is). */
export function containsUndefined(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (containsUndefined(v[i])) return true;
    return false;
  }
  for (const key in v) {
    if (!hasOwn(v, key)) continue;
    const child = (v as Record<string, unknown>)[key];
    if (child === undefined || containsUndefined(child)) return true;
  }
  return false;
}

/**
 * Structural equality of JSON values (key order ignored, array order significant, an undefined member the same
 * as an absent one). Allocates nothing: the field manager compares a request's managedFields on every update.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let unmatched = 0;
  for (const k in ao) {
    if (!hasOwn(ao, k) || ao[k] === undefined) continue;
    unmatched++;
    if (!hasOwn(bo, k) || !deepEqual(ao[k], bo[k])) return false;
  }
  for (const k in bo) if (hasOwn(bo, k) && bo[k] !== undefined) unmatched--;
  return unmatched === 0;
}

/** Go's %+v rendering of a decoded JSON map, as apiserver error texts show patches: map[a:1 b:map[c:x]]. */
export function goFormat(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goFormat((v as Record<string, unknown>)[k])}`).join(' ')}]`;
  }
  return String(v);
}
