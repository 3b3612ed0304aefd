// The parts of structured-merge-diff's typed values that server-side apply needs, over plain JSON with the
// list and map types of patch/list-types.ts standing in for the OpenAPI schema:
//   toFieldSet: the fields an applied configuration sets (what its manager will own);
//   compareValues: the fields added, modified and removed between two objects (what an update takes over);
//   mergeValues: an applied configuration merged onto the live object;
//   removePath: drops one field, list item or set item.
import type { SchemaHints } from '../list-types';
import { deepCopy, deepEqual, getOwn, hasOwn, isJsonObject, setOwn, type JsonObject } from '../json-value';
import { FieldSet, compareElements, emptyFieldsV1, type PathElement } from './field-set';

/**
 * Map-typed fields (map[string]T rather than structs): a map that appears or disappears is itself a member
 * of the changed set, as labels ("f:labels": {".": {}, "f:app": {}}) shows in real managedFields.
 */
const mapFields = new Set([
  'labels',
  'annotations',
  'data',
  'binaryData',
  'stringData',
  'matchLabels',
  'limits',
  'requests',
  'capacity',
  'allocatable',
  'hard',
  'used',
  'parameters',
]);

/** List fields without omitempty: present (as null) in a Go zero value, so never "added". */
const alwaysSerialisedLists = new Set(['containers']);

/** Default values of list-map key fields, which the schema declares (`protocol` defaults to TCP). */
const keyDefaults: Record<string, unknown> = { protocol: 'TCP' };

/**
 * The `f:` elements of field names seen, one string each: an object's fields recur in every write of its kind,
 * and a string made once keeps its hash for the field sets' maps. Bounded: it starts again when full.
 */
const fieldElements = new Map<string, PathElement>();

export function fieldElement(name: string): PathElement {
  let pe = fieldElements.get(name);
  if (pe === undefined) {
    if (fieldElements.size >= 4096) fieldElements.clear();
    pe = `f:${name}`;
    fieldElements.set(name, pe);
  }
  return pe;
}

/** The `k:{...}` element of an associative-list item, keys sorted; undefined when it has none of them. */
export function keyElement(item: unknown, keys: readonly string[]): PathElement | undefined {
  if (!isJsonObject(item)) return undefined;
  // Built as JSON.stringify of the key object would print it, without building the object: every list
  // item of every compared object gets one.
  let out = 'k:{';
  let found = false;
  let first = true;
  let prev: string | undefined;
  for (const k of sortedKeys(keys)) {
    if (k === prev) continue;
    prev = k;
    let v = getOwn(item, k);
    // A member set to undefined is absent, as in a copy of the item.
    if (v !== undefined) found = true;
    else if (hasOwn(keyDefaults, k)) v = keyDefaults[k];
    const json = v === undefined ? undefined : JSON.stringify(v);
    if (json === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${json}`;
    first = false;
  }
  return found ? `${out}}` : undefined;
}

/** List-map key names sorted, once per schema list (the hints hand out the same array each time). */
const sortedKeyNames = new WeakMap<readonly string[], readonly string[]>();

function sortedKeys(keys: readonly string[]): readonly string[] {
  if (keys.length < 2) return keys;
  let sorted = sortedKeyNames.get(keys);
  if (!sorted) {
    sorted = [...keys].sort();
    sortedKeyNames.set(keys, sorted);
  }
  return sorted;
}

export function valueElement(v: unknown): PathElement {
  return `v:${JSON.stringify(v)}`;
}

interface ItemEntry {
  pe: PathElement;
  value: unknown;
}

function listItems(list: unknown[], path: readonly string[], hints: SchemaHints): ItemEntry[] | undefined {
  const lt = hints.listType(path);
  if (lt.type === 'atomic') return undefined;
  const out: ItemEntry[] = [];
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const pe = lt.type === 'set' ? valueElement(item) : (keyElement(item, lt.keys) ?? `i:${i}`);
    out.push({ pe, value: item });
  }
  return out;
}

// ---------------------------------------------------------------- toFieldSet

export function toFieldSet(value: unknown, hints: SchemaHints): FieldSet {
  const set = new FieldSet();
  walkSet(value, [], [], hints, set);
  return set;
}

function walkSet(v: unknown, names: string[], pes: PathElement[], hints: SchemaHints, out: FieldSet): void {
  if (isJsonObject(v)) {
    if (pes.length > 0 && hints.isAtomicMap(names)) {
      out.insert(pes);
      return;
    }
    for (const key of Object.keys(v)) {
      const child = v[key];
      const childPes = [...pes, fieldElement(key)];
      if (child === null || (isJsonObject(child) && Object.keys(child).length === 0)) out.insert(childPes);
      walkSet(child, [...names, key], childPes, hints, out);
    }
    return;
  }
  if (Array.isArray(v)) {
    const items = listItems(v, names, hints);
    if (!items) {
      out.insert(pes);
      return;
    }
    for (const { pe, value } of items) {
      const itemPes = [...pes, pe];
      out.insert(itemPes);
      if (pe.startsWith('k:')) walkSet(value, names, itemPes, hints, out);
    }
    return;
  }
  if (pes.length > 0) out.insert(pes);
}

// ---------------------------------------------------------------- added fields of a new object

/**
 * The fieldsV1 document of compareValues(undefined, value).added (what a create's manager owns), built
 * straight from the object: the same members and keys, in the order FieldSet.toFieldsV1 emits them, without
 * building the set first. Leaves share emptyFieldsV1.
 */
export function addedFieldsV1(value: unknown, hints: SchemaHints): Record<string, unknown> {
  if (value === undefined) return {};
  const names: string[] = [];
  const doc = isJsonObject(value) || Array.isArray(value) ? addedChildren(value, names, hints, false) : undefined;
  return doc ?? {};
}

/**
 * The document of an added value at names whose last path element is last: undefined when the set holds
 * nothing at or below it (compareNode's added branch).
 */
function addedNode(v: unknown, names: string[], last: PathElement, hints: SchemaHints): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  if (isLeaf(v, names, hints)) return emptyFieldsV1;
  const name = names[names.length - 1];
  const selfMember =
    last.startsWith('k:') || last.startsWith('i:') || mapFields.has(name) || (Array.isArray(v) && !alwaysSerialisedLists.has(name));
  const doc = addedChildren(v, names, hints, selfMember);
  if (doc) return doc;
  return selfMember ? emptyFieldsV1 : undefined;
}

/** The children of a composite added value, sorted as emitted, under "." when it is a member itself. */
function addedChildren(v: unknown, names: string[], hints: SchemaHints, selfMember: boolean): Record<string, unknown> | undefined {
  const pes: PathElement[] = [];
  const subs: Record<string, unknown>[] = [];
  if (isJsonObject(v)) {
    for (const key in v) {
      if (!hasOwn(v, key)) continue;
      const child = v[key];
      if (child === undefined) continue;
      names.push(key);
      const pe = fieldElement(key);
      const sub = addedNode(child, names, pe, hints);
      names.pop();
      if (sub === undefined) continue;
      pes.push(pe);
      subs.push(sub);
    }
  } else if (Array.isArray(v)) {
    const items = listItems(v, names, hints) ?? [];
    // As compareNode's descend: one element per distinct item element, the last item of that element read.
    const byPe = new Map<PathElement, unknown>();
    for (const { pe, value } of items) byPe.set(pe, value);
    for (const [pe, value] of byPe) {
      const sub = pe.startsWith('v:') ? emptyFieldsV1 : addedNode(value, names, pe, hints);
      if (sub === undefined) continue;
      pes.push(pe);
      subs.push(sub);
    }
  }
  if (pes.length === 0) return undefined;
  const doc: Record<string, unknown> = selfMember ? { '.': emptyFieldsV1 } : {};
  if (pes.length === 1) {
    setOwn(doc, pes[0], subs[0]);
    return doc;
  }
  const order = pes.map((_, i) => i);
  order.sort((a, b) => compareElements(pes[a], pes[b]));
  for (const i of order) setOwn(doc, pes[i], subs[i]);
  return doc;
}

/** matchNode's answers: the value adds nothing, adds exactly the document given, or something else. */
const Absent = 0;
const Match = 1;
const Mismatch = 2;
type MatchResult = typeof Absent | typeof Match | typeof Mismatch;

/**
 * Whether addedFieldsV1(value, hints) would hold the same members as doc, a canonical document (as encoding
 * emits: equal members then mean equal text). It walks value and doc together without building anything, so
 * a create whose fields a recent document already describes costs no document at all.
 */
export function matchesAddedFieldsV1(value: unknown, hints: SchemaHints, doc: Record<string, unknown>): boolean {
  if (value === undefined || !(isJsonObject(value) || Array.isArray(value))) return ownKeyCount(doc) === 0;
  const r = matchChildren(value, [], hints, false, doc);
  return r === Match || (r === Absent && ownKeyCount(doc) === 0);
}

function matchNode(v: unknown, names: string[], last: PathElement, hints: SchemaHints, d: unknown): MatchResult {
  if (v === undefined) return d === undefined ? Absent : Mismatch;
  if (isLeaf(v, names, hints)) return isEmptyDoc(d) ? Match : Mismatch;
  const name = names[names.length - 1];
  const selfMember =
    last.startsWith('k:') || last.startsWith('i:') || mapFields.has(name) || (Array.isArray(v) && !alwaysSerialisedLists.has(name));
  const r = matchChildren(v, names, hints, selfMember, d);
  if (r !== Absent) return r;
  if (selfMember) return isEmptyDoc(d) ? Match : Mismatch;
  return d === undefined ? Absent : Mismatch;
}

/** Whether v's children, under "." when it is a member itself, are exactly d's members; Absent when it has none. */
function matchChildren(v: unknown, names: string[], hints: SchemaHints, selfMember: boolean, d: unknown): MatchResult {
  const doc = isJsonObject(d) ? d : undefined;
  let matched = 0;
  if (isJsonObject(v)) {
    for (const key in v) {
      if (!hasOwn(v, key)) continue;
      const child = v[key];
      if (child === undefined) continue;
      const pe = fieldElement(key);
      names.push(key);
      const r = matchNode(child, names, pe, hints, doc && getOwn(doc, pe));
      names.pop();
      if (r === Mismatch) return Mismatch;
      if (r === Match) matched++;
    }
  } else if (Array.isArray(v)) {
    const items = listItems(v, names, hints) ?? [];
    const byPe = new Map<PathElement, unknown>();
    for (const { pe, value } of items) byPe.set(pe, value);
    for (const [pe, value] of byPe) {
      const sub = doc && getOwn(doc, pe);
      const r = pe.startsWith('v:') ? (isEmptyDoc(sub) ? Match : Mismatch) : matchNode(value, names, pe, hints, sub);
      if (r === Mismatch) return Mismatch;
      if (r === Match) matched++;
    }
  }
  if (matched === 0) return Absent;
  if (!doc) return Mismatch;
  if (selfMember && !isEmptyDoc(getOwn(doc, '.'))) return Mismatch;
  return ownKeyCount(doc) === matched + (selfMember ? 1 : 0) ? Match : Mismatch;
}

function isEmptyDoc(d: unknown): boolean {
  return isJsonObject(d) && ownKeyCount(d) === 0;
}

function ownKeyCount(d: Record<string, unknown>): number {
  let n = 0;
  for (const key in d) if (hasOwn(d, key)) n++;
  return n;
}

// ---------------------------------------------------------------- compare

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compareValues(lhs: unknown, rhs: unknown, hints: SchemaHints): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  // names and pes are stacks shared by the whole walk (pushed on the way down, popped on the way up): the
  // walk visits every field of both objects, and a fresh path array per field was most of its garbage.
  compareNode(lhs, rhs, [], [], hints, c);
  return c;
}

/**
 * Whether the comparison found no difference at all. An update that changes nothing in the managed view
 * cannot change the object either (the view is part of it), which lets the caller skip its no-op check.
 */
export function comparisonEmpty(c: Comparison): boolean {
  return c.added.empty() && c.modified.empty() && c.removed.empty();
}

/** An object with no defined member reads as {} (what a copy of it holds: copies drop undefined members). */
function hasDefinedMember(v: Record<string, unknown>): boolean {
  for (const key in v) if (hasOwn(v, key) && v[key] !== undefined) return true;
  return false;
}

function isLeaf(v: unknown, names: readonly string[], hints: SchemaHints): boolean {
  if (isJsonObject(v)) return names.length > 0 && (!hasDefinedMember(v) || hints.isAtomicMap(names));
  if (Array.isArray(v)) return hints.listType(names).type === 'atomic';
  return true;
}

function compareNode(
  l: unknown,
  r: unknown,
  names: string[],
  pes: PathElement[],
  hints: SchemaHints,
  c: Comparison,
): void {
  if (l === undefined && r === undefined) return;
  // The same value on both sides has no differences. Stored objects are frozen and may share subtrees with
  // the next version of the object; this skips those without walking them.
  if (l === r) return;
  const root = pes.length === 0;
  const lComposite = l !== undefined && !isLeaf(l, names, hints);
  const rComposite = r !== undefined && !isLeaf(r, names, hints);
  if (l !== undefined && r !== undefined) {
    if (!(lComposite && rComposite && Array.isArray(l) === Array.isArray(r))) {
      if (!root && !deepEqual(l, r)) c.modified.insert(pes);
      return;
    }
    descend(l, r, names, pes, hints, c);
    return;
  }
  // Present on one side only: the whole subtree was added (or removed).
  const into = l === undefined ? c.added : c.removed;
  if (!(l === undefined ? rComposite : lComposite)) {
    if (!root) into.insert(pes);
    return;
  }
  // List items, maps and lists are members themselves; structs are not (their zero value always exists in
  // Go), nor are the few lists Go serialises even when empty (a PodSpec's containers).
  if (!root) {
    const last = pes[pes.length - 1];
    const name = names[names.length - 1];
    const present = l === undefined ? r : l;
    const selfMember =
      last.startsWith('k:') || last.startsWith('i:') || mapFields.has(name) || (Array.isArray(present) && !alwaysSerialisedLists.has(name));
    if (selfMember) into.insert(pes);
  }
  descend(l, r, names, pes, hints, c);
}

function descend(l: unknown, r: unknown, names: string[], pes: PathElement[], hints: SchemaHints, c: Comparison): void {
  if (isJsonObject(l) || isJsonObject(r)) {
    const lm = isJsonObject(l) ? l : undefined;
    const rm = isJsonObject(r) ? r : undefined;
    // l's keys in order, then the keys only r has.
    if (lm) {
      for (const key in lm) if (hasOwn(lm, key)) compareField(lm[key], rm && getOwn(rm, key), key, names, pes, hints, c);
    }
    if (rm) {
      for (const key in rm) {
        if (!hasOwn(rm, key) || (lm && hasOwn(lm, key))) continue;
        compareField(undefined, rm[key], key, names, pes, hints, c);
      }
    }
    return;
  }
  const la = Array.isArray(l) ? (listItems(l, names, hints) ?? []) : [];
  const ra = Array.isArray(r) ? (listItems(r, names, hints) ?? []) : [];
  if (la.length + ra.length <= listMatching.smallLists) {
    descendSmallLists(la, ra, names, pes, hints, c);
    return;
  }
  const lByPe = new Map(la.map((e) => [e.pe, e.value] as const));
  const rByPe = new Map(ra.map((e) => [e.pe, e.value] as const));
  const order = [...lByPe.keys(), ...[...rByPe.keys()].filter((pe) => !lByPe.has(pe))];
  for (const pe of order) {
    pes.push(pe);
    if (pe.startsWith('v:')) {
      if (!lByPe.has(pe)) c.added.insert(pes);
      else if (!rByPe.has(pe)) c.removed.insert(pes);
    } else {
      compareNode(lByPe.get(pe), rByPe.get(pe), names, pes, hints, c);
    }
    pes.pop();
  }
}

/**
 * Lists this short (both sides' items together) are matched item by item, without maps: most lists in objects
 * are a few conditions or ports. A setting so tests can compare both ways.
 */
export const listMatching = { smallLists: 16 };

/** The last entry with element pe (as a map built from the entries holds), or -1. */
function lastWith(entries: ItemEntry[], pe: PathElement): number {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.pe === pe) return i;
  return -1;
}

/** The first entry with element pe before index end, or -1. */
function firstWith(entries: ItemEntry[], pe: PathElement, end: number): number {
  for (let i = 0; i < end; i++) if (entries[i]!.pe === pe) return i;
  return -1;
}

/** descend's list comparison for short lists: the same order and pairing as its maps give. */
function descendSmallLists(la: ItemEntry[], ra: ItemEntry[], names: string[], pes: PathElement[], hints: SchemaHints, c: Comparison): void {
  // l's elements in first-seen order, each with its last item on either side; then the elements only r has.
  for (let i = 0; i < la.length; i++) {
    const pe = la[i]!.pe;
    if (firstWith(la, pe, i) >= 0) continue;
    const ri = lastWith(ra, pe);
    pes.push(pe);
    if (pe.startsWith('v:')) {
      if (ri < 0) c.removed.insert(pes);
    } else {
      compareNode(la[lastWith(la, pe)]!.value, ri < 0 ? undefined : ra[ri]!.value, names, pes, hints, c);
    }
    pes.pop();
  }
  for (let i = 0; i < ra.length; i++) {
    const pe = ra[i]!.pe;
    if (firstWith(ra, pe, i) >= 0 || lastWith(la, pe) >= 0) continue;
    pes.push(pe);
    if (pe.startsWith('v:')) c.added.insert(pes);
    else compareNode(undefined, ra[lastWith(ra, pe)]!.value, names, pes, hints, c);
    pes.pop();
  }
}

function compareField(l: unknown, r: unknown, key: string, names: string[], pes: PathElement[], hints: SchemaHints, c: Comparison): void {
  // Equal scalars and shared subtrees (most of an update) have no differences: compareNode would say so at once.
  if (l === r) return;
  names.push(key);
  pes.push(fieldElement(key));
  compareNode(l, r, names, pes, hints, c);
  names.pop();
  pes.pop();
}

// ---------------------------------------------------------------- merge

/** The applied configuration merged onto the live object (structured-merge-diff's TypedValue.Merge). */
export function mergeValues(live: unknown, config: unknown, hints: SchemaHints): unknown {
  return mergeNode(live, config, [], hints);
}

function mergeNode(live: unknown, config: unknown, names: string[], hints: SchemaHints): unknown {
  if (isJsonObject(config)) {
    if (!isJsonObject(live) || (names.length > 0 && hints.isAtomicMap(names))) return deepCopy(config);
    const out: JsonObject = deepCopy(live);
    for (const key of Object.keys(config)) {
      const cv = config[key];
      if (cv === null) {
        if (hasOwn(out, key)) delete out[key];
        continue;
      }
      setOwn(out, key, mergeNode(getOwn(out, key), cv, [...names, key], hints));
    }
    return out;
  }
  if (Array.isArray(config)) {
    const lt = hints.listType(names);
    if (!Array.isArray(live) || lt.type === 'atomic') return deepCopy(config);
    const liveItems = listItems(live, names, hints) ?? [];
    const configItems = listItems(config, names, hints) ?? [];
    const out: unknown[] = liveItems.map((e) => deepCopy(e.value));
    const index = new Map(liveItems.map((e, i) => [e.pe, i] as const));
    for (const { pe, value } of configItems) {
      const at = index.get(pe);
      if (at === undefined) {
        index.set(pe, out.length);
        out.push(deepCopy(value));
      } else if (lt.type === 'map') {
        out[at] = mergeNode(out[at], value, names, hints);
      }
    }
    return out;
  }
  return config;
}

// ---------------------------------------------------------------- remove

/** Removes the field or item a path names; empty parents are left in place, as in Kubernetes. */
export function removePath(obj: unknown, path: readonly PathElement[], hints: SchemaHints): void {
  let cur: unknown = obj;
  const names: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const pe = path[i];
    const lastStep = i === path.length - 1;
    if (pe.startsWith('f:')) {
      const name = pe.slice(2);
      if (!isJsonObject(cur) || !hasOwn(cur, name)) return;
      if (lastStep) {
        delete cur[name];
        return;
      }
      cur = cur[name];
      names.push(name);
      continue;
    }
    if (!Array.isArray(cur)) return;
    const items = listItems(cur, names, hints) ?? cur.map((value, idx) => ({ pe: `i:${idx}`, value }));
    const at = items.findIndex((e) => e.pe === pe);
    if (at < 0) return;
    if (lastStep) {
      cur.splice(at, 1);
      return;
    }
    cur = cur[at];
  }
}
