// Strategic merge patch (application/strategic-merge-patch+json), as apimachinery/pkg/util/strategicpatch
// applies it on the server: maps merge recursively and null deletes; lists merge by their patch merge key
// (containers by name, ports by containerPort, …), primitive lists with the merge strategy merge as sets,
// every other list is replaced. Directives: $patch (merge | replace | delete), $retainKeys,
// $deleteFromPrimitiveList/<field> and $setElementOrder/<field>.
import type { SchemaHints } from './list-types';
import { deepCopy, deepEqual, getOwn, hasOwn, isJsonObject, setOwn, type JsonObject } from './json-value';

/** A malformed patch (400) or one that cannot apply (422), with mergepatch's texts. */
export class StrategicPatchError extends Error {
  constructor(
    message: string,
    readonly code: 400 | 422 = 400,
  ) {
    super(message);
    this.name = 'StrategicPatchError';
  }
}

const directiveMarker = '$patch';
const retainKeysDirective = '$retainKeys';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList/';
const setElementOrderPrefix = '$setElementOrder/';

function isDirectiveKey(key: string): boolean {
  return (
    key === directiveMarker ||
    key === retainKeysDirective ||
    key.startsWith(deleteFromPrimitiveListPrefix) ||
    key.startsWith(setElementOrderPrefix)
  );
}

export function applyStrategicMergePatch(original: unknown, patch: unknown, hints: SchemaHints): unknown {
  if (!isJsonObject(patch)) throw new StrategicPatchError('invalid JSON document');
  const base = isJsonObject(original) ? original : {};
  return mergeMap(base, patch, [], hints) ?? {};
}

/** Merges patch into a copy of original; undefined means "$patch: delete" removed the map. */
function mergeMap(original: JsonObject, patch: JsonObject, path: string[], hints: SchemaHints): JsonObject | undefined {
  const directive = getOwn(patch, directiveMarker);
  if (directive !== undefined) {
    if (directive === 'delete') return undefined;
    if (directive === 'replace') return stripDirectives(patch);
    if (directive !== 'merge') throw new StrategicPatchError(`Unknown patch type: ${String(directive)}`);
  }

  const out: JsonObject = deepCopy(original);

  const retain = getOwn(patch, retainKeysDirective);
  if (retain !== undefined) {
    if (!Array.isArray(retain) || !retain.every((k) => typeof k === 'string')) {
      throw new StrategicPatchError('invalid patch format: $retainKeys must be a list of strings');
    }
    const keep = new Set(retain as string[]);
    for (const key of Object.keys(out)) if (!keep.has(key)) delete out[key];
  }

  for (const key of Object.keys(patch)) {
    if (!key.startsWith(deleteFromPrimitiveListPrefix)) continue;
    const field = key.slice(deleteFromPrimitiveListPrefix.length);
    const toDelete = getOwn(patch, key);
    if (!Array.isArray(toDelete)) throw new StrategicPatchError('invalid patch format: delete from primitive list must be a list');
    const current = getOwn(out, field);
    if (Array.isArray(current)) {
      setOwn(out, field, current.filter((item) => !toDelete.some((d) => deepEqual(d, item))));
    }
  }

  for (const key of Object.keys(patch)) {
    if (isDirectiveKey(key)) continue;
    const value = patch[key];
    const childPath = [...path, key];
    if (value === null) {
      if (hasOwn(out, key)) delete out[key];
      continue;
    }
    const current = getOwn(out, key);
    if (isJsonObject(value)) {
      const merged = mergeMap(isJsonObject(current) ? current : {}, value, childPath, hints);
      if (merged === undefined) {
        if (hasOwn(out, key)) delete out[key];
      } else {
        setOwn(out, key, merged);
      }
    } else if (Array.isArray(value)) {
      setOwn(out, key, mergeList(Array.isArray(current) ? current : [], value, childPath, hints));
    } else {
      setOwn(out, key, value);
    }
  }

  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const field = key.slice(setElementOrderPrefix.length);
    const order = getOwn(patch, key);
    if (!Array.isArray(order)) throw new StrategicPatchError('invalid patch format: $setElementOrder list must be a list');
    const current = getOwn(out, field);
    if (Array.isArray(current)) setOwn(out, field, applyElementOrder(current, order, [...path, field], hints));
  }
  return out;
}

function mergeList(original: unknown[], patch: unknown[], path: string[], hints: SchemaHints): unknown[] {
  const replaceMarker = patch.findIndex((p) => isJsonObject(p) && getOwn(p, directiveMarker) === 'replace');
  if (replaceMarker >= 0) {
    return patch.filter((_, i) => i !== replaceMarker).map(cleanValue);
  }
  const listType = hints.listType(path);
  if (listType.type === 'map') {
    const mergeKey = listType.mergeKey;
    const out = original.map((v) => deepCopy(v));
    for (const item of patch) {
      if (!isJsonObject(item)) {
        throw new StrategicPatchError(`unable to find api field in struct for the patch: expected a map in a list with merge key ${mergeKey}`);
      }
      if (!hasOwn(item, mergeKey)) {
        // A "$patch: delete" element with no key has nothing to match; anything else is a malformed patch.
        throw new StrategicPatchError(`map: ${formatGoMap(item)} does not contain declared merge key: ${mergeKey}`);
      }
      const keyValue = getOwn(item, mergeKey);
      const at = out.findIndex((o) => isJsonObject(o) && deepEqual(getOwn(o, mergeKey), keyValue));
      if (getOwn(item, directiveMarker) === 'delete') {
        if (at >= 0) {
          for (let i = out.length - 1; i >= 0; i--) {
            const o = out[i];
            if (isJsonObject(o) && deepEqual(getOwn(o, mergeKey), keyValue)) out.splice(i, 1);
          }
        }
        continue;
      }
      if (at >= 0) {
        const merged = mergeMap(out[at] as JsonObject, item, path, hints);
        if (merged === undefined) out.splice(at, 1);
        else out[at] = merged;
      } else {
        const created = mergeMap({}, item, path, hints);
        if (created !== undefined) out.push(created);
      }
    }
    return out;
  }
  if (listType.type === 'set') {
    const out = original.map((v) => deepCopy(v));
    for (const item of patch) {
      if (isJsonObject(item) || Array.isArray(item)) throw new StrategicPatchError('invalid patch format: a primitive list may hold only primitives');
      if (!out.some((o) => deepEqual(o, item))) out.push(item);
    }
    return out;
  }
  return patch.map(cleanValue);
}

/** Orders a merged list as $setElementOrder asks; items the order does not name keep their order, after. */
function applyElementOrder(list: unknown[], order: unknown[], path: string[], hints: SchemaHints): unknown[] {
  const listType = hints.listType(path);
  const keyOf = (item: unknown): unknown =>
    listType.type === 'map' && isJsonObject(item) ? getOwn(item, listType.mergeKey) : item;
  const rank = (item: unknown): number => order.findIndex((o) => deepEqual(keyOf(o), keyOf(item)));
  const named = list.filter((item) => rank(item) >= 0).sort((a, b) => rank(a) - rank(b));
  const rest = list.filter((item) => rank(item) < 0);
  return [...named, ...rest];
}

/** A value placed where nothing was before: its directives are resolved against an empty original. */
function cleanValue(value: unknown): unknown {
  if (isJsonObject(value)) return stripDirectives(value);
  if (Array.isArray(value)) return value.map(cleanValue);
  return value;
}

function stripDirectives(obj: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(obj)) {
    if (isDirectiveKey(key)) continue;
    const v = obj[key];
    if (v === null) continue;
    setOwn(out, key, cleanValue(v));
  }
  return out;
}

function formatGoMap(obj: JsonObject): string {
  const keys = Object.keys(obj).sort();
  return `map[${keys.map((k) => `${k}:${typeof obj[k] === 'object' ? JSON.stringify(obj[k]) : String(obj[k])}`).join(' ')}]`;
}
