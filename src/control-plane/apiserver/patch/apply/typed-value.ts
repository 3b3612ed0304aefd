// The parts of structured-merge-diff's typed values that server-side apply needs, over plain JSON with the
// list and map types of patch/list-types.ts standing in for the OpenAPI schema:
//   toFieldSet: the fields an applied configuration sets (what its manager will own);
//   compareValues: the fields added, modified and removed between two objects (what an update takes over);
//   mergeValues: an applied configuration merged onto the live object;
//   removePath: drops one field, list item or set item.
import type { SchemaHints } from '../list-types';
import { deepCopy, deepEqual, getOwn, hasOwn, isJsonObject, setOwn, type JsonObject } from '../json-value';
import { FieldSet, type PathElement } from './field-set';

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

export function fieldElement(name: string): PathElement {
  return `f:${name}`;
}

/** The `k:{...}` element of an associative-list item, keys sorted; undefined when it has none of them. */
export function keyElement(item: unknown, keys: readonly string[]): PathElement | undefined {
  if (!isJsonObject(item)) return undefined;
  const sorted = [...keys].sort();
  const key: Record<string, unknown> = {};
  let found = false;
  for (const k of sorted) {
    let v = getOwn(item, k);
    if (v === undefined && hasOwn(keyDefaults, k)) v = keyDefaults[k];
    if (v === undefined) continue;
    if (hasOwn(item, k)) found = true;
    setOwn(key, k, v);
  }
  return found ? `k:${JSON.stringify(key)}` : undefined;
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

// ---------------------------------------------------------------- compare

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compareValues(lhs: unknown, rhs: unknown, hints: SchemaHints): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareNode(lhs, rhs, [], [], hints, c);
  return c;
}

function isLeaf(v: unknown, names: readonly string[], hints: SchemaHints): boolean {
  if (isJsonObject(v)) return names.length > 0 && (Object.keys(v).length === 0 || hints.isAtomicMap(names));
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
    const keys = new Set([...(lm ? Object.keys(lm) : []), ...(rm ? Object.keys(rm) : [])]);
    for (const key of keys) {
      compareNode(lm && getOwn(lm, key), rm && getOwn(rm, key), [...names, key], [...pes, fieldElement(key)], hints, c);
    }
    return;
  }
  const la = Array.isArray(l) ? (listItems(l, names, hints) ?? []) : [];
  const ra = Array.isArray(r) ? (listItems(r, names, hints) ?? []) : [];
  const lByPe = new Map(la.map((e) => [e.pe, e.value] as const));
  const rByPe = new Map(ra.map((e) => [e.pe, e.value] as const));
  const order = [...lByPe.keys(), ...[...rByPe.keys()].filter((pe) => !lByPe.has(pe))];
  for (const pe of order) {
    const itemPes = [...pes, pe];
    if (pe.startsWith('v:')) {
      if (!lByPe.has(pe)) c.added.insert(itemPes);
      else if (!rByPe.has(pe)) c.removed.insert(itemPes);
      continue;
    }
    compareNode(lByPe.get(pe), rByPe.get(pe), names, itemPes, hints, c);
  }
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
