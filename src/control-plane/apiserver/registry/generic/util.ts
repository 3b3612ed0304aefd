// Small helpers the strategies share: semantic equality, typed access into plain JSON objects, and the common
// numeric/immutability checks of apimachinery/pkg/api/validation.
import { fieldErr, type FieldError } from '../../../../shared/api/field-errors';
import type { KubeObject, ObjectMeta } from '../../../../shared/api/types';
import { IsNegativeErrorMsg } from '../../../../shared/lib/validation';

export type Obj = Record<string, unknown>;

/** ObjectMeta without kubernetes-types' readonly markers: strategies edit the private copies they are given. */
export type MutableMeta = { -readonly [K in keyof ObjectMeta]: ObjectMeta[K] extends ReadonlyArray<infer U> | undefined ? U[] | undefined : ObjectMeta[K] };

export function meta(obj: KubeObject): MutableMeta {
  if (!isObj(obj.metadata)) (obj as { metadata: ObjectMeta }).metadata = {};
  return obj.metadata as MutableMeta;
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object at obj[key], created (as {}) when missing or not an object. */
export function ensureObj(obj: Obj, key: string): Obj {
  const v = obj[key];
  if (isObj(v)) return v;
  const created: Obj = {};
  obj[key] = created;
  return created;
}

export function objAt(obj: unknown, ...path: string[]): Obj | undefined {
  let cur: unknown = obj;
  for (const p of path) {
    if (!isObj(cur)) return undefined;
    cur = cur[p];
  }
  return isObj(cur) ? cur : undefined;
}

export function arrAt(obj: unknown, ...path: string[]): unknown[] {
  let cur: unknown = obj;
  for (const p of path) {
    if (!isObj(cur)) return [];
    cur = cur[p];
  }
  return Array.isArray(cur) ? cur : [];
}

/** The array at obj[key] with its object items (non-objects are dropped from the view, not from the object). */
export function objItems(obj: unknown, key: string): Obj[] {
  return arrAt(obj, key).filter(isObj);
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

export function strMap(v: unknown): Record<string, string> {
  return isObj(v) ? (v as Record<string, string>) : {};
}

export function hasKey(obj: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined && obj[key] !== null;
}

/**
 * Sets an own data property. Use it for keys that come from user data: plain assignment with the key
 * "__proto__" would call the prototype setter instead of storing the key (and could swap the object's prototype).
 * (json-value's setOwn: defineProperty for that one key, a plain assignment otherwise.)
 */
export { setOwn } from '../../patch/json-value';

export function hasOwn(obj: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Sets obj[key] = value when the field is absent (undefined, null). The SetDefaults_* idiom. */
export function setDefault(obj: Obj, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/** Sets a string field when it is absent or "" (Go's zero value for strings). */
export function setDefaultString(obj: Obj, key: string, value: string): void {
  if (obj[key] === undefined || obj[key] === null || obj[key] === '') obj[key] = value;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObj(v)) return Object.keys(v).every((k) => v[k] === undefined);
  return false;
}

/**
 * apiequality.Semantic.DeepEqual for JSON: absent, null, empty list and empty map are the same (as nil and
 * empty slices/maps are in Kubernetes' forked reflect.DeepEqual); key order does not matter.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (isObj(a) && isObj(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : structuredClone(v);
}

// ---------------------------------------------------------------- common checks

/** ValidateNonnegativeField: `must be greater than or equal to 0`. */
export function validateNonnegativeField(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [fieldErr.invalid(path, value, IsNegativeErrorMsg)] : [];
}

export const FieldImmutableErrorMsg = 'field is immutable';

/** ValidateImmutableField: `<path>: Invalid value: <new>: field is immutable` when new differs from old. */
export function validateImmutableField(newVal: unknown, oldVal: unknown, path: string): FieldError[] {
  return semanticEqual(newVal, oldVal) ? [] : [fieldErr.invalid(path, newVal ?? null, FieldImmutableErrorMsg)];
}

/** Wraps validator messages into Invalid errors at one path, the `for _, msg := range IsX(v)` idiom. */
export function invalidEach(path: string, value: unknown, msgs: string[]): FieldError[] {
  return msgs.map((m) => fieldErr.invalid(path, value, m));
}

/** Removes exact duplicates (same type, field, value and detail), keeping the first of each. */
export function dedupeErrors(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errs) {
    const key = `${e.type}\u0000${e.field}\u0000${typeof e.badValue === 'symbol' ? '' : JSON.stringify(e.badValue)}\u0000${e.detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(e);
  }
  return out;
}
