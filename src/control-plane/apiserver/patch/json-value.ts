// Plain-JSON helpers every patch and merge routine goes through. User documents can carry keys such as
// "__proto__", "constructor" and "prototype"; they are data here. Reads go through getOwn (a plain
// `obj[key]` would return Object.prototype for "__proto__") and writes through setOwn (a plain assignment
// to "__proto__" would swap the prototype), so no user input can reach a prototype.

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
  for (const key of Object.keys(v)) {
    const child = (v as Record<string, unknown>)[key];
    if (child === undefined) continue;
    if (key === '__proto__') setOwn(out, key, copyValue(child));
    else out[key] = copyValue(child);
  }
  return out;
}

/** Whether an object or array holds an undefined member anywhere (a deep copy would drop or keep it as is). */
export function containsUndefined(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (containsUndefined(v[i])) return true;
    return false;
  }
  for (const key of Object.keys(v)) {
    const child = (v as Record<string, unknown>)[key];
    if (child === undefined || containsUndefined(child)) return true;
  }
  return false;
}

/** Freezes a JSON value in place, skipping parts already frozen (their subtrees were frozen with them). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/** Structural equality of JSON values (key order ignored, array order significant). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const bk = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ak.length !== bk.length) return false;
  for (const k of ak) {
    if (!hasOwn(b, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
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
