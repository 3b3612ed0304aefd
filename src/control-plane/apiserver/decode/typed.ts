// Decoding into a built-in kind, as encoding/json (sigs.k8s.io/json, case-sensitive) decodes into the Go
// structs: each definition compiles once, lazily, into a codec; a codec checks the JSON types, records unknown
// and duplicate fields, drops what the Go struct has no field for, and returns a fresh plain copy.
import { type JSONSchemaDefinition, definition, definitionRefPrefix } from '../../../shared/api/schemas';
import { QuantityError, parseQuantityJSON, quantityToString } from '../../../shared/lib/quantity';
import { hasOwn } from '../patch/json-value';
import { Base64Error, canonicalBase64 } from './base64';
import {
  DROP,
  DecodeFailure,
  type DecodeState,
  type Decoded,
  INT64_MAX,
  INT64_MIN,
  MAX_SAFE_BIG,
  addStrictError,
  copyAnyJSON,
  describeJSON,
  isFrozenPlainJSON,
  isPlainObject,
  forEachField,
  repeatedKeys,
  setFresh,
  setOwn,
  strictPath,
  unmarshalTypeError,
  unmarshalValueError,
  unsafeIntegerError,
} from './state';
import { TimeParseError, canonicalMicroTime, canonicalTime } from './time';
import { zeroTimeFields } from './zero-times';

export interface Codec {
  /** The Go type as reflect prints it in encoding/json errors ("int32", "[]v1.Container", "v1.PodSpec"). */
  readonly goType: string;
  /** Which JSON value shape the codec takes (used to pick an anyOf branch). */
  readonly accepts: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'any';
  /**
   * The typeof of values the codec returns as they are, with nothing to check or record (a string for a string
   * field): containers take such a value without decode's path bookkeeping, which only errors read.
   */
  readonly passes?: 'string' | 'boolean';
  decode(value: unknown, st: DecodeState): Decoded;
  /** The Go zero value, for nulls inside arrays and maps. */
  zero(): unknown;
}

// ------------------------------------------------------------------ scalars

const stringCodec = (goType = 'string'): Codec => ({
  goType,
  accepts: 'string',
  passes: 'string',
  decode(value, st) {
    if (typeof value === 'string') return value;
    if (value === null) return DROP;
    throw unmarshalTypeError(st, describeJSON(value), goType);
  },
  zero: () => '',
});

const boolCodec: Codec = {
  goType: 'bool',
  accepts: 'boolean',
  passes: 'boolean',
  decode(value, st) {
    if (typeof value === 'boolean') return value;
    if (value === null) return DROP;
    throw unmarshalTypeError(st, describeJSON(value), 'bool');
  },
  zero: () => false,
};

function numberLiteral(value: number | bigint): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

const intCodec = (bits: 32 | 64, goType = bits === 32 ? 'int32' : 'int64'): Codec => {
  const min = bits === 32 ? -(2 ** 31) : Number.MIN_SAFE_INTEGER;
  const max = bits === 32 ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
  return {
    goType,
    accepts: 'number',
    decode(value, st) {
      if (typeof value === 'number') {
        if (Number.isInteger(value) && value >= min && value <= max) return value;
        if (bits === 64 && Number.isInteger(value) && Math.abs(value) < 2 ** 63) throw unsafeIntegerError(st, numberLiteral(value));
        throw unmarshalTypeError(st, `number ${numberLiteral(value)}`, goType);
      }
      if (typeof value === 'bigint') {
        if (value >= BigInt(min) && value <= BigInt(max)) return Number(value);
        if (bits === 64 && value >= INT64_MIN && value <= INT64_MAX) throw unsafeIntegerError(st, value.toString());
        throw unmarshalTypeError(st, `number ${value.toString()}`, goType);
      }
      if (value === null) return DROP;
      throw unmarshalTypeError(st, describeJSON(value), goType);
    },
    zero: () => 0,
  };
};

const floatCodec: Codec = {
  goType: 'float64',
  accepts: 'number',
  decode(value, st) {
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new DecodeFailure(`json: unsupported value: ${value}`);
      return value;
    }
    if (typeof value === 'bigint') return Number(value);
    if (value === null) return DROP;
    throw unmarshalTypeError(st, describeJSON(value), 'float64');
  },
  zero: () => 0,
};

/** []byte: base64 on the wire; stored re-encoded, as Go decodes and re-encodes it. */
const bytesCodec: Codec = {
  goType: '[]uint8',
  accepts: 'string',
  decode(value, st) {
    if (typeof value === 'string') {
      try {
        return canonicalBase64(value);
      } catch (err) {
        if (err instanceof Base64Error) throw new DecodeFailure(err.message);
        throw err;
      }
    }
    if (value === null) return DROP;
    throw unmarshalTypeError(st, describeJSON(value), '[]uint8');
  },
  zero: () => '',
};

/** Canonical forms of recently seen quantity strings: the same few values ("100m", "128Mi") recur in every pod. */
const canonicalQuantities = new Map<string, string>();

/** resource.Quantity: its UnmarshalJSON parses the raw JSON text and fails with the parser's own message. */
const quantityCodec: Codec = {
  goType: 'resource.Quantity',
  accepts: 'any',
  decode(value) {
    if (value === null) return DROP;
    if (typeof value === 'string') {
      const known = canonicalQuantities.get(value);
      if (known !== undefined) return known;
    }
    try {
      const canonical = quantityToString(parseQuantityJSON(value));
      if (typeof value === 'string') {
        if (canonicalQuantities.size >= 4096) canonicalQuantities.clear();
        canonicalQuantities.set(value, canonical);
      }
      return canonical;
    } catch (err) {
      if (err instanceof QuantityError) throw new DecodeFailure(err.message);
      throw err;
    }
  },
  zero: () => '0',
};

/** intstr.IntOrString: a string, or an int32 decoded by a nested json.Unmarshal. */
const intOrStringCodec: Codec = {
  goType: 'intstr.IntOrString',
  accepts: 'any',
  decode(value, st) {
    if (typeof value === 'string') return value;
    if (value === null) return DROP;
    if (typeof value === 'number' || typeof value === 'bigint') {
      const n = typeof value === 'bigint' ? (value <= MAX_SAFE_BIG && value >= -MAX_SAFE_BIG ? Number(value) : NaN) : value;
      if (Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1) return n;
      throw unmarshalValueError(`number ${numberLiteral(value)}`, 'int32');
    }
    void st;
    throw unmarshalValueError(describeJSON(value), 'int32');
  },
  zero: () => 0,
};

/**
 * Canonical forms of recently seen timestamps (the function is pure): objects written within one virtual
 * second carry the same few strings, and every status write sends its conditions' times back.
 */
const canonicalTimes = { time: new Map<string, string>(), micro: new Map<string, string>() };

/** metav1.Time / MicroTime: a string parsed with time.Parse, stored in the server's canonical form. */
const timeCodec = (micro: boolean): Codec => ({
  goType: micro ? 'v1.MicroTime' : 'v1.Time',
  accepts: 'string',
  decode(value) {
    if (value === null) return DROP;
    if (typeof value !== 'string') throw unmarshalValueError(describeJSON(value), 'string');
    const cache = micro ? canonicalTimes.micro : canonicalTimes.time;
    const known = cache.get(value);
    if (known !== undefined) return known;
    try {
      const canonical = micro ? canonicalMicroTime(value) : canonicalTime(value);
      if (cache.size >= 4096) cache.clear();
      cache.set(value, canonical);
      return canonical;
    } catch (err) {
      if (err instanceof TimeParseError) throw new DecodeFailure(err.message);
      throw err;
    }
  },
  zero: () => null,
});

/** RawExtension, apiextensions JSON, FieldsV1: any JSON value, kept as it is (no strictness inside). */
const anyCodec = (goType: string): Codec => ({
  goType,
  accepts: 'any',
  decode(value, st) {
    return copyAnyJSON(value, st, false);
  },
  zero: () => null,
});

/**
 * metav1.FieldsV1 (managedFields[].fieldsV1): kept as raw JSON, like anyCodec. A frozen document that is plain
 * JSON already (a stored object's, handed back by the in-process client inside the object it read) decodes to
 * an equal copy, so it is taken as it is: no copy, and the field manager recognises the same document again.
 */
const fieldsV1Codec: Codec = {
  goType: 'v1.FieldsV1',
  accepts: 'any',
  decode(value, st) {
    if (typeof value === 'object' && value !== null && isFrozenPlainJSON(value)) return value;
    return copyAnyJSON(value, st, false);
  },
  zero: () => null,
};

// ------------------------------------------------------------------ collections

class ArrayCodec implements Codec {
  readonly accepts = 'array';
  constructor(
    private readonly item: Codec,
    readonly goType = `[]${item.goType}`,
  ) {}
  decode(value: unknown, st: DecodeState): Decoded {
    if (value === null) return DROP;
    if (!Array.isArray(value)) throw unmarshalTypeError(st, describeJSON(value), this.goType);
    const out = new Array<unknown>(value.length);
    const passes = this.item.passes;
    for (let i = 0; i < value.length; i++) {
      if (passes !== undefined && typeof value[i] === passes) {
        out[i] = value[i];
        continue;
      }
      st.segs.push(i);
      const v = value[i] === null || value[i] === undefined ? this.item.zero() : this.item.decode(value[i], st);
      out[i] = v === DROP ? this.item.zero() : v;
      st.segs.pop();
    }
    return out;
  }
  zero(): unknown {
    return null;
  }
}

class MapCodec implements Codec {
  readonly accepts = 'object';
  constructor(
    private readonly value: Codec,
    readonly goType = `map[string]${value.goType}`,
  ) {}
  decode(value: unknown, st: DecodeState): Decoded {
    if (value === null) return DROP;
    if (!isPlainObject(value)) throw unmarshalTypeError(st, describeJSON(value), this.goType);
    const out: Record<string, unknown> = {};
    if (repeatedKeys(st)) {
      forEachField(st, value, (key, raw) => {
        const v = raw === null ? this.value.zero() : this.value.decode(raw, st);
        setOwn(out, key, v === DROP ? this.value.zero() : v);
      });
      return out;
    }
    // No repeated keys (every in-process body): a plain walk, no visitor closure per map, no keys array.
    const passes = this.value.passes;
    for (const key in value) {
      if (!hasOwn(value, key)) continue;
      const raw = value[key];
      if (raw === undefined) continue;
      if (passes !== undefined && typeof raw === passes) {
        setFresh(out, key, raw);
        continue;
      }
      st.segs.push(key);
      const v = raw === null ? this.value.zero() : this.value.decode(raw, st);
      setFresh(out, key, v === DROP ? this.value.zero() : v);
      st.segs.pop();
    }
    return out;
  }
  zero(): unknown {
    return null;
  }
}

export class StructCodec implements Codec {
  readonly accepts = 'object';
  /** Filled after construction, so recursive definitions (JSONSchemaProps) resolve to this same codec. */
  fields = new Map<string, Codec>();
  /**
   * Whether no field name is a member of Object.prototype ("constructor", "__proto__"…): then a plain assignment
   * makes each decoded field an own data property and setFresh's check is not needed. Known at first decode
   * (fields are filled after construction).
   */
  private plainFieldNames: boolean | undefined;
  /** Fields the Go struct holds by value whose zero value encodes as null (zero-times.ts). */
  zeroNullFields: readonly string[] = [];
  constructor(
    readonly goName: string,
    readonly goType: string,
  ) {}
  /** keep: fields whose value is taken as it is (a stored object's part, which would decode to an equal value). */
  decode(value: unknown, st: DecodeState, keep?: (field: string, v: unknown) => boolean): Decoded {
    if (value === null) return DROP;
    if (!isPlainObject(value)) throw unmarshalTypeError(st, describeJSON(value), this.goType);
    const out: Record<string, unknown> = {};
    const repeated = repeatedKeys(st);
    const plainNames = (this.plainFieldNames ??= [...this.fields.keys()].every((k) => !(k in Object.prototype)));
    if (repeated) {
      const seen = new Set<string>();
      for (let i = 0; i < repeated.length; i++) {
        const key = repeated[i];
        if (seen.has(key)) {
          // Only a known field is reported as a duplicate: an unknown one was reported as unknown already.
          if (this.fields.has(key) && value[key] !== undefined) {
            st.segs.push(key);
            addStrictError(st, 'duplicate field', strictPath(st.segs));
            st.segs.pop();
          }
          continue;
        }
        if (this.fields.has(key)) seen.add(key);
        this.decodeField(out, key, value[key], st, plainNames);
      }
      return this.withZeroValues(out, st);
    }
    // No repeated keys (every in-process body): for-in walks the enum cache without Object.keys' array.
    for (const key in value) {
      if (!hasOwn(value, key)) continue;
      const v = value[key];
      if (keep !== undefined && keep(key, v)) setFresh(out, key, v);
      else this.decodeField(out, key, v, st, plainNames);
    }
    return this.withZeroValues(out, st);
  }

  /** out with its unset by-value time fields as null, last (where a Go round trip would not put them: see zero-times.ts). */
  private withZeroValues(out: Record<string, unknown>, st: DecodeState): Record<string, unknown> {
    const fields = this.zeroNullFields;
    if (fields.length === 0 || !st.fillZeroValues) return out;
    for (let i = 0; i < fields.length; i++) if (!hasOwn(out, fields[i]!)) out[fields[i]!] = null;
    return out;
  }

  private decodeField(out: Record<string, unknown>, key: string, raw: unknown, st: DecodeState, plainNames: boolean): void {
    if (raw === undefined) return; // not JSON: an absent field (objects built in code may carry undefined)
    const field = this.fields.get(key);
    if (field !== undefined && field.passes !== undefined && typeof raw === field.passes) {
      if (plainNames) out[key] = raw;
      else setFresh(out, key, raw);
      return;
    }
    st.segs.push(key);
    if (field === undefined) {
      addStrictError(st, 'unknown field', strictPath(st.segs));
      st.segs.pop();
      return;
    }
    const outerStruct = st.struct;
    st.fields.push(key);
    st.struct = this.goName;
    let v: Decoded;
    if (st.dropMalformed) {
      try {
        v = field.decode(raw, st);
      } catch (err) {
        if (!(err instanceof DecodeFailure)) throw err;
        v = DROP;
      }
    } else {
      v = field.decode(raw, st);
    }
    st.struct = outerStruct;
    st.fields.pop();
    st.segs.pop();
    // Each key is set once (repeats are skipped), so the fresh-object form of setOwn holds; key is a field name
    // (unknown keys were skipped), so with plain field names an assignment is that form.
    if (v !== DROP) {
      if (plainNames) out[key] = v;
      else setFresh(out, key, v);
    }
  }
  zero(): unknown {
    return {};
  }
}

/** JSONSchemaPropsOrBool and friends: the branch is chosen by the JSON value's shape. */
class AnyOfCodec implements Codec {
  readonly accepts = 'any';
  constructor(
    private readonly branches: Codec[],
    readonly goType: string,
  ) {}
  decode(value: unknown, st: DecodeState): Decoded {
    if (value === null) return DROP;
    const shape = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value === 'bigint' ? 'number' : typeof value;
    const branch = this.branches.find((b) => b.accepts === shape) ?? this.branches.find((b) => b.accepts === 'any');
    if (!branch) throw unmarshalTypeError(st, describeJSON(value), this.goType);
    // These types have their own UnmarshalJSON, which decodes the branch with a fresh, non-strict json.Unmarshal:
    // no unknown-field findings inside, and type errors without the outer context.
    const { fields, struct } = st;
    const found = st.strict.length;
    st.fields = [];
    st.struct = '';
    try {
      return branch.decode(value, st);
    } finally {
      st.fields = fields;
      st.struct = struct;
      for (const f of st.strict.splice(found)) st.strictSeen.delete(f);
    }
  }
  zero(): unknown {
    return null;
  }
}

// ------------------------------------------------------------------ compilation

const structCache = new Map<string, Codec>();

function packageOf(definitionName: string): string {
  const parts = definitionName.split('.');
  return parts[parts.length - 2];
}

const specialDefinitions: Record<string, () => Codec> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': () => quantityCodec,
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': () => intOrStringCodec,
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': () => timeCodec(false),
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': () => timeCodec(true),
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': () => fieldsV1Codec,
};

/** The codec of a definition by name (cached: compiled once per process). */
export function codecForDefinition(name: string): Codec {
  const cached = structCache.get(name);
  if (cached) return cached;
  const special = specialDefinitions[name];
  if (special) {
    const c = special();
    structCache.set(name, c);
    return c;
  }
  const def = definition(name);
  if (!def) throw new Error(`no schema definition ${name}`);
  const goName = def['x-go-name'] ?? name.slice(name.lastIndexOf('.') + 1);
  const goType = `${packageOf(name)}.${goName}`;
  if (def['x-kubernetes-preserve-unknown-fields']) {
    const c = anyCodec(goType);
    structCache.set(name, c);
    return c;
  }
  if (def.anyOf) {
    const c = new AnyOfCodec([], goType);
    structCache.set(name, c);
    (c as unknown as { branches: Codec[] }).branches = def.anyOf.map((b) => compileSchema(b, undefined));
    return c;
  }
  if (def.type !== 'object' || !def.properties) {
    const c = compileSchema(def, goType);
    structCache.set(name, c);
    return c;
  }
  const codec = new StructCodec(goName, goType);
  structCache.set(name, codec);
  for (const [field, schema] of Object.entries(def.properties)) codec.fields.set(field, compileSchema(schema, schema['x-go-type']));
  codec.zeroNullFields = (zeroTimeFields[name] ?? []).filter((f) => codec.fields.has(f));
  return codec;
}

function compileSchema(schema: JSONSchemaDefinition, goType: string | undefined): Codec {
  if (schema.$ref) return codecForDefinition(schema.$ref.slice(definitionRefPrefix.length));
  if (schema.anyOf) return new AnyOfCodec(schema.anyOf.map((b) => compileSchema(b, undefined)), goType ?? 'interface {}');
  switch (schema.type) {
    case 'string':
      return schema.format === 'byte' ? bytesCodec : stringCodec(goType);
    case 'integer':
      return intCodec(schema.format === 'int64' ? 64 : 32);
    case 'number':
      return floatCodec;
    case 'boolean':
      return boolCodec;
    case 'array':
      return new ArrayCodec(compileSchema(schema.items ?? {}, undefined), goType);
    case 'object':
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return new MapCodec(compileSchema(schema.additionalProperties, undefined), goType);
      }
      return anyCodec(goType ?? 'map[string]interface {}');
    default:
      return anyCodec(goType ?? 'interface {}');
  }
}
