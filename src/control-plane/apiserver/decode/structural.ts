// Decoding a custom resource against its CRD's structural schema (openAPIV3Schema), as the apiextensions
// server does: the body is decoded as unstructured JSON (repeated keys reported), then fields the schema does
// not declare are pruned and reported (`unknown field "spec.foo"`) unless x-kubernetes-preserve-unknown-fields.
// metadata, at the root and in x-kubernetes-embedded-resource objects, is coerced as ObjectMeta: unknown fields
// reported, malformed ones dropped. Type checks against the schema belong to validation, not here.
import { codecForDefinition } from './typed';
import {
  DROP,
  type DecodeState,
  MAX_SAFE_BIG,
  copyAnyJSON,
  isPlainObject,
  forEachField,
  setOwn,
  strictPath,
  unsafeIntegerError,
} from './state';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The parts of a structural schema that pruning reads. */
export interface StructuralSchema {
  type?: string;
  properties?: Record<string, StructuralSchema>;
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema | StructuralSchema[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

export interface StructuralResult {
  object: Record<string, unknown>;
  /** Pruned field paths, in document order. */
  unknown: string[];
}

/**
 * Prunes a custom resource. `schema` undefined (a CRD without a schema) preserves everything but metadata.
 * Duplicate keys go to st.strict as they are met; pruned fields are returned separately because the real
 * server lists them after the decoding errors.
 */
export function pruneCustomResource(root: Record<string, unknown>, schema: StructuralSchema | undefined, st: DecodeState): StructuralResult {
  const unknown: string[] = [];
  const object = pruneObject(root, schema ?? { 'x-kubernetes-preserve-unknown-fields': true }, st, unknown, true);
  return { object, unknown };
}

function pruneValue(value: unknown, schema: StructuralSchema | undefined, st: DecodeState, unknown: string[]): unknown {
  if (schema === undefined) return copyAnyJSON(value, st, true);
  if (isPlainObject(value)) return pruneObject(value, schema, st, unknown, schema['x-kubernetes-embedded-resource'] === true);
  if (Array.isArray(value)) {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    if (!items) return copyAnyJSON(value, st, true);
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      st.segs.push(i);
      out[i] = pruneValue(value[i], items, st, unknown);
      st.segs.pop();
    }
    return out;
  }
  if (typeof value === 'bigint') {
    if (value <= MAX_SAFE_BIG && value >= -MAX_SAFE_BIG) return Number(value);
    throw unsafeIntegerError(st, value.toString());
  }
  return copyAnyJSON(value, st, true);
}

/** `resource` = the root of the custom resource or an embedded resource: apiVersion, kind, metadata implied. */
function pruneObject(obj: Record<string, unknown>, schema: StructuralSchema, st: DecodeState, unknown: string[], resource: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const props = schema.properties;
  const additional = schema.additionalProperties;
  forEachField(st, obj, (key, value) => {
    if (resource && key === 'metadata' && isPlainObject(value)) {
      setOwn(out, key, coerceObjectMeta(value, st, unknown));
    } else if (resource && (key === 'apiVersion' || key === 'kind')) {
      setOwn(out, key, copyAnyJSON(value, st, true));
    } else if (props && Object.hasOwn(props, key)) {
      setOwn(out, key, pruneValue(value, props[key], st, unknown));
    } else if (additional && typeof additional === 'object') {
      setOwn(out, key, pruneValue(value, additional, st, unknown));
    } else if (preserve || additional === true) {
      setOwn(out, key, copyAnyJSON(value, st, true));
    } else {
      unknown.push(strictPath(st.segs));
    }
  });
  return out;
}

/** ObjectMeta coercion for custom resources: unknown fields reported and dropped, malformed fields dropped. */
function coerceObjectMeta(meta: Record<string, unknown>, st: DecodeState, unknown: string[]): unknown {
  const before = st.strict.length;
  const seenBefore = new Set(st.strictSeen);
  const dropMalformed = st.dropMalformed;
  st.dropMalformed = true;
  const fields = st.fields;
  const struct = st.struct;
  st.fields = [];
  st.struct = '';
  try {
    const decoded = codecForDefinition(OBJECT_META).decode(meta, st);
    // The typed walk records unknown metadata fields as strict errors; for custom resources they are pruned
    // fields, listed with the others.
    const found = st.strict.splice(before);
    for (const f of found) {
      if (f.startsWith('unknown field ')) unknown.push(JSON.parse(f.slice('unknown field '.length)) as string);
      else st.strict.push(f);
    }
    st.strictSeen = new Set([...seenBefore, ...st.strict]);
    return decoded === DROP ? {} : decoded;
  } finally {
    st.dropMalformed = dropMalformed;
    st.fields = fields;
    st.struct = struct;
  }
}
