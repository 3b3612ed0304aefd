// Shared state of one decode walk: the strict path (for unknown/duplicate fields), Go's error context (for
// encoding/json type errors) and the findings so far.

export const DROP: unique symbol = Symbol('drop');
export type Decoded = unknown | typeof DROP;

/** A fatal decode error: the walk stops and the request fails with this text (wrapped by the decoder). */
export class DecodeFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecodeFailure';
  }
}

/** sigs.k8s.io/json stops recording strictness errors after this many. */
const maxStrictErrors = 100;

export interface DecodeState {
  /** Strict path segments: keys and array indices ("spec", "containers", 0, "image"). */
  segs: (string | number)[];
  /** encoding/json's FieldStack: struct field names only (no map keys, no indices). */
  fields: string[];
  /** encoding/json's errorContext.Struct: the Go struct whose field is being decoded. */
  struct: string;
  /** Strict-decoding findings in encounter order: `unknown field "…"`, `duplicate field "…"`. */
  strict: string[];
  strictSeen: Set<string>;
  /** Objects with repeated keys, by strict path: their keys in document order, repeats included. */
  keyOrder?: Map<string, string[]>;
  /** Custom resource metadata: malformed fields are dropped instead of failing the request. */
  dropMalformed: boolean;
  /**
   * Whether the Go type's zero values are filled in, as decoding into the struct and encoding it back gives (the
   * unset time fields of zero-times.ts as null). Not for an applied configuration: that is a partial object.
   */
  fillZeroValues: boolean;
}

export function newDecodeState(keyOrder?: Map<string, string[]>): DecodeState {
  return { segs: [], fields: [], struct: '', strict: [], strictSeen: new Set(), keyOrder: keyOrder?.size ? keyOrder : undefined, dropMalformed: false, fillZeroValues: true };
}

/** "spec.template.spec.containers[0].image", as the strict decoder writes paths. */
export function strictPath(segs: readonly (string | number)[]): string {
  let s = '';
  for (const seg of segs) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else s += s ? `.${seg}` : seg;
  }
  return s;
}

export function addStrictError(st: DecodeState, kind: 'unknown field' | 'duplicate field', path: string): void {
  const text = `${kind} ${JSON.stringify(path)}`;
  if (st.strict.length >= maxStrictErrors || st.strictSeen.has(text)) return;
  st.strictSeen.add(text);
  st.strict.push(text);
}

function describeObject(value: object): string {
  return (value.constructor as { name?: string } | undefined)?.name ?? 'object';
}

/** How encoding/json names a JSON value in type errors. */
export function describeJSON(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
    case 'bigint':
      return 'number';
    default:
      return 'object';
  }
}

/** json.UnmarshalTypeError.Error(), with the error context encoding/json adds. */
export function unmarshalTypeError(st: DecodeState, value: string, goType: string): DecodeFailure {
  if (st.struct || st.fields.length) {
    return new DecodeFailure(`json: cannot unmarshal ${value} into Go struct field ${st.struct}.${st.fields.join('.')} of type ${goType}`);
  }
  return new DecodeFailure(`json: cannot unmarshal ${value} into Go value of type ${goType}`);
}

/** The same error from a nested json.Unmarshal (custom UnmarshalJSON methods): no struct context. */
export function unmarshalValueError(value: string, goType: string): DecodeFailure {
  return new DecodeFailure(`json: cannot unmarshal ${value} into Go value of type ${goType}`);
}

/** A JSON object: plain objects only (class instances such as Date or Map are not JSON). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__' || (key in target && !Object.hasOwn(target, key))) {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * setOwn for a key target does not hold yet (a fresh decode output, each key set once): then `key in target`
 * is true only for Object.prototype's members ("__proto__", "constructor", …), which must become own data
 * properties instead of going through the inherited accessor or shadowing by assignment.
 */
export function setFresh(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key in target) {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
export const INT64_MAX = (1n << 63n) - 1n;
export const INT64_MIN = -(1n << 63n);

/** Our plain-JSON store cannot hold integers beyond 2^53 exactly: refuse rather than round. */
export function unsafeIntegerError(st: DecodeState, literal: string): DecodeFailure {
  return new DecodeFailure(`${strictPath(st.segs)}: Invalid value: ${literal}: exceeds JavaScript safe integer range (playground limitation)`);
}

/**
 * The keys of an object in document order. Where the body repeated a key, every occurrence is listed and
 * `repeats` is true.
 */
export function keysOf(st: DecodeState, obj: Record<string, unknown>): { keys: string[]; repeats: boolean } {
  if (st.keyOrder) {
    const order = st.keyOrder.get(strictPath(st.segs));
    if (order) return { keys: order, repeats: true };
  }
  return { keys: Object.keys(obj), repeats: false };
}

/**
 * The keys of the object at st.segs in document order, repeats included, when the body repeated one of them;
 * undefined otherwise (then Object.keys is the order and no key repeats). Only raw bodies with repeated keys
 * have a keyOrder, so the in-process client's bodies never allocate for this.
 */
export function repeatedKeys(st: DecodeState): string[] | undefined {
  return st.keyOrder ? st.keyOrder.get(strictPath(st.segs)) : undefined;
}

/**
 * Visits obj's fields in decoding order with st.segs pointing at each. Keys repeated in the raw text are
 * reported as duplicate fields and skipped; undefined values are absent. A visitor that throws leaves st.segs
 * at the failing field, which is where the error message points.
 */
export function forEachField(
  st: DecodeState,
  obj: Record<string, unknown>,
  visit: (key: string, value: unknown) => void,
  checkDuplicates = true,
): void {
  const { keys, repeats } = checkDuplicates ? keysOf(st, obj) : { keys: Object.keys(obj), repeats: false };
  const seen = repeats ? new Set<string>() : undefined;
  for (const key of keys) {
    st.segs.push(key);
    if (seen?.has(key)) {
      addStrictError(st, 'duplicate field', strictPath(st.segs));
    } else {
      seen?.add(key);
      const value = obj[key];
      if (value !== undefined) visit(key, value);
    }
    st.segs.pop();
  }
}

/** Frozen documents found to be plain JSON all the way down (they cannot change, so once is enough). */
const frozenPlainJSON = new WeakSet<object>();

/**
 * Whether value is frozen all the way down and is what copyAnyJSON would copy unchanged: plain objects and
 * arrays only, no undefined anywhere, numbers finite and integers safe. Such a value can stand for its copy.
 * Only the document itself is remembered (a WeakSet entry per nested object would cost more than the walk).
 */
export function isFrozenPlainJSON(value: object): boolean {
  if (frozenPlainJSON.has(value)) return true;
  if (!isFrozenPlain(value)) return false;
  frozenPlainJSON.add(value);
  return true;
}

function isFrozenPlain(value: object): boolean {
  if (!Object.isFrozen(value)) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isPlainJSONMember(value[i])) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) if (!isPlainJSONMember(value[keys[i]])) return false;
  return true;
}

function isPlainJSONMember(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && (!Number.isInteger(v) || Number.isSafeInteger(v));
    case 'object':
      return v === null || isFrozenPlain(v);
    default:
      return false;
  }
}

/**
 * Copies a value the schema does not describe (RawExtension, JSON, x-kubernetes-preserve-unknown-fields),
 * refusing what plain JSON cannot hold. `checkDuplicates` reports repeated keys (unstructured decoding does).
 */
export function copyAnyJSON(value: unknown, st: DecodeState, checkDuplicates: boolean): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new DecodeFailure(`json: unsupported value: ${value}`);
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) throw unsafeIntegerError(st, String(value));
      return value;
    case 'bigint':
      if (value <= MAX_SAFE_BIG && value >= -MAX_SAFE_BIG) return Number(value);
      throw unsafeIntegerError(st, value.toString());
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          st.segs.push(i);
          // JSON has no undefined: in arrays it becomes null, as JSON.stringify writes it
          out[i] = value[i] === undefined ? null : copyAnyJSON(value[i], st, checkDuplicates);
          st.segs.pop();
        }
        return out;
      }
      if (!isPlainObject(value)) throw new DecodeFailure(`json: unsupported type: ${describeObject(value)}`);
      const out: Record<string, unknown> = {};
      if (checkDuplicates && repeatedKeys(st)) {
        forEachField(st, value, (key, v) => setOwn(out, key, copyAnyJSON(v, st, checkDuplicates)));
        return out;
      }
      // No repeated keys (every in-process body): a plain walk, no visitor closure per object.
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const v = value[key];
        if (v === undefined) continue;
        st.segs.push(key);
        setFresh(out, key, copyAnyJSON(v, st, checkDuplicates));
        st.segs.pop();
      }
      return out;
    }
    default:
      throw new DecodeFailure(`json: unsupported type: ${typeof value}`);
  }
}
