// kubectl explain's plaintext output (k8s.io/kubectl v0.32.4 pkg/explain/v2/templates/plaintext.tmpl), rendered
// from an OpenAPI v3 document as the API server serves it at /openapi/v3/apis/<group>/<version>. The functions
// follow the template's definitions one for one: output (follow the field path, then DESCRIPTION and FIELDS),
// fieldList, fieldDetail, description, typeGuess and extractEnum; word wrapping is go-wordwrap's.
//
//   renderExplain(doc, { group: '', version: 'v1', kind: 'Pod' }, ['spec', 'containers'], false)
//   // "KIND:       Pod\nVERSION:    v1\n\nFIELD: containers <[]Container>\n\n\nDESCRIPTION:\n    List of …"
//
// v3 documents wrap a property's $ref in allOf when the property has its own description, so a field's
// DESCRIPTION reads the field's text followed by its type's; openApiV3Document() builds such a document from the
// generated schemas (src/shared/api/schemas), the same the API server validates with.
import { allDefinitions, type JSONSchemaDefinition } from '../../shared/api/schemas';
import type { GroupVersionKind } from '../../shared/api/types';
import { CommandError } from '../resource-builder';

/** A schema as JSON (the template reads it as a map). */
export type Schema = { [key: string]: unknown };

export interface OpenAPIV3Document {
  components: { schemas: Record<string, Schema> };
}

const refPrefix = '#/components/schemas/';

// ------------------------------------------------------------------ the document

/** A v2-style schema ($ref with siblings) as the v3 document has it: the ref inside allOf. */
function toV3(schema: JSONSchemaDefinition | boolean | undefined, topLevel = false): Schema | boolean | undefined {
  if (schema === undefined || typeof schema === 'boolean') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'x-go-name' || k === 'x-go-type') continue;
    if (k === 'properties') {
      const props: Record<string, Schema | boolean | undefined> = {};
      for (const [name, p] of Object.entries(v as Record<string, JSONSchemaDefinition>)) {
        const converted = toV3(p) as Schema;
        // The generator pins apiVersion and kind with an enum; the server's document does not.
        if (topLevel && (name === 'apiVersion' || name === 'kind')) delete converted.enum;
        props[name] = converted;
      }
      out.properties = props;
    } else if (k === 'items' || k === 'additionalProperties') {
      out[k] = toV3(v as JSONSchemaDefinition);
    } else if (k === 'anyOf') {
      out.oneOf = (v as JSONSchemaDefinition[]).map((s) => toV3(s));
    } else if (k === '$ref') {
      out.$ref = (v as string).replace('#/definitions/', refPrefix);
    } else {
      out[k] = v;
    }
  }
  if (typeof out.$ref === 'string' && Object.keys(out).some((k) => k !== '$ref')) {
    const ref = out.$ref;
    delete out.$ref;
    out.allOf = [{ $ref: ref }];
  }
  return out;
}

let builtinDocument: OpenAPIV3Document | undefined;

/** The built-in kinds' schemas as one OpenAPI v3 document (built once). */
export function openApiV3Document(): OpenAPIV3Document {
  if (builtinDocument) return builtinDocument;
  const schemas: Record<string, Schema> = {};
  for (const [name, def] of Object.entries(allDefinitions())) {
    schemas[name] = toV3(def, !!def['x-kubernetes-group-version-kind']) as Schema;
  }
  builtinDocument = { components: { schemas } };
  return builtinDocument;
}

/**
 * A document for a custom resource: the CRD version's openAPIV3Schema as its kind's schema, with apiVersion, kind
 * and metadata as the apiextensions-apiserver adds them, next to the built-in schemas (for ObjectMeta).
 */
export function customResourceDocument(gvk: GroupVersionKind, openAPIV3Schema: Schema | undefined): OpenAPIV3Document {
  const builtin = openApiV3Document();
  const objectMeta = builtin.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
  const base = (openAPIV3Schema ?? { type: 'object' }) as Schema;
  const typeMeta = builtin.components.schemas['io.k8s.api.core.v1.Pod'];
  const props = (typeMeta.properties ?? {}) as Record<string, Schema>;
  const schema: Schema = {
    ...base,
    properties: {
      ...((base.properties as Record<string, Schema> | undefined) ?? {}),
      apiVersion: { description: props.apiVersion?.description, type: 'string' },
      kind: { description: props.kind?.description, type: 'string' },
      metadata: { allOf: [{ $ref: `${refPrefix}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` }], description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata" },
    },
    'x-kubernetes-group-version-kind': [{ group: gvk.group, kind: gvk.kind, version: gvk.version }],
  };
  const reversed = gvk.group.split('.').reverse().join('.');
  return { components: { schemas: { ...builtin.components.schemas, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': objectMeta, [`${reversed}.${gvk.version}.${gvk.kind}`]: schema } } };
}

// ------------------------------------------------------------------ template functions

function isMap(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function resolveRef(ref: unknown, doc: OpenAPIV3Document): Schema | undefined {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let cur: unknown = doc;
  for (const k of ref.slice(2).split('/')) {
    if (!k) continue;
    if (!isMap(cur)) return undefined;
    cur = cur[k];
  }
  return isMap(cur) ? cur : undefined;
}

/** go-wordwrap WrapString: breaks at whitespace so lines stay within lim runes; long words are not split. */
export function wordWrap(s: string, lim: number): string {
  let buf = '';
  let current = 0;
  let wordBuf = '';
  let spaceBuf = '';
  let wordLen = 0;
  let spaceLen = 0;
  for (const ch of s) {
    if (ch === '\n') {
      if (wordLen === 0) {
        if (current + spaceLen > lim) current = 0;
        else buf += spaceBuf;
        spaceBuf = '';
        spaceLen = 0;
      } else {
        buf += spaceBuf + wordBuf;
        spaceBuf = '';
        spaceLen = 0;
        wordBuf = '';
        wordLen = 0;
      }
      buf += ch;
      current = 0;
    } else if (/\s/u.test(ch) && ch !== '\u00a0') {
      if (spaceLen === 0 || wordLen > 0) {
        current += spaceLen + wordLen;
        buf += spaceBuf + wordBuf;
        spaceBuf = '';
        spaceLen = 0;
        wordBuf = '';
        wordLen = 0;
      }
      spaceBuf += ch;
      spaceLen++;
    } else {
      wordBuf += ch;
      wordLen++;
      if (current + wordLen + spaceLen > lim && wordLen < lim) {
        buf += '\n';
        current = 0;
        spaceBuf = '';
        spaceLen = 0;
      }
    }
  }
  if (wordLen === 0) {
    if (current + spaceLen <= lim) buf += spaceBuf;
  } else {
    buf += spaceBuf + wordBuf;
  }
  return buf;
}

function indent(amount: number, s: string): string {
  const pad = ' '.repeat(amount);
  return pad + s.replaceAll('\n', `\n${pad}`);
}

/** The "description" template: the schema's description, then its allOf/items/additionalProperties ones. */
function description(schema: Schema, doc: OpenAPIV3Document): string {
  const s = resolveRef(schema.$ref, doc) ?? schema;
  let out = '';
  if (typeof s.description === 'string' && s.description) out += `${s.description}\n`;
  for (const a of Array.isArray(s.allOf) ? s.allOf : []) if (isMap(a)) out += description(a, doc);
  if (isMap(s.items)) out += description(s.items, doc);
  if (isMap(s.additionalProperties)) out += description(s.additionalProperties, doc);
  return out;
}

/** The "typeGuess" template: string, integer, []Container, map[string]string, Object, ObjectMeta… */
export function typeGuess(schema: Schema, doc: OpenAPIV3Document): string {
  if (isMap(schema.items)) return `[]${typeGuess(schema.items, doc)}`;
  if (isMap(schema.additionalProperties)) return `map[string]${typeGuess(schema.additionalProperties, doc)}`;
  const allOf = Array.isArray(schema.allOf) ? schema.allOf : [];
  if (allOf.length === 1 && !schema.properties && isMap(allOf[0])) return typeGuess(allOf[0], doc);
  if (typeof schema.$ref === 'string' && schema.$ref) {
    const refSchema = resolveRef(schema.$ref, doc);
    if (!refSchema || !refSchema.type || refSchema.type === 'object') {
      const name = schema.$ref.split('/').pop() ?? '';
      return name.split('.').pop() || 'Object';
    }
    return String(refSchema.type);
  }
  if (schema.type === 'object') return 'Object';
  return typeof schema.type === 'string' && schema.type ? schema.type : 'Object';
}

/** The "extractEnum" template: "ENUM:\n    a\n    b" (long view) or "\n<indent>enum: a, b, ...." (field list). */
function extractEnum(schema: Schema, longView: boolean, limit: number, indentAmount = 0): string {
  const values = Array.isArray(schema.enum) ? schema.enum : [];
  if (values.length === 0) return '';
  let out = longView ? 'ENUM:' : `\n${' '.repeat(indentAmount)}enum: `;
  for (let i = 0; i < values.length; i++) {
    if (limit > -1 && i >= limit) {
      out += ', ....';
      break;
    }
    if (i > 0 && !longView) out += ', ';
    else if (longView) out += `\n${' '.repeat(4)}`;
    const v = values[i];
    out += v === '' ? '""' : String(v);
  }
  return out;
}

/** The "fieldDetail" template. */
function fieldDetail(name: string, parent: Schema, short: boolean, level: number, doc: OpenAPIV3Document): string {
  const indentAmount = level * 2;
  const field = ((parent.properties as Record<string, Schema>) ?? {})[name] ?? {};
  const required = Array.isArray(parent.required) && parent.required.includes(name);
  let out = `${indent(indentAmount, name)}\t<${typeGuess(field, doc)}>${required ? ' -required-' : ''}`;
  out += extractEnum(field, false, 4, indentAmount);
  out += '\n';
  if (!short) {
    const text = typeof field.description === 'string' && field.description ? field.description : '<no description>';
    out += `${indent(indentAmount + 2, wordWrap(text, 78 - indentAmount))}\n\n`;
  }
  return out;
}

/** The "fieldList" template: every property (sorted), recursing with --recursive, through allOf/items/maps. */
function fieldList(schema: Schema, level: number, history: ReadonlySet<string>, recursive: boolean, doc: OpenAPIV3Document): string {
  const ref = typeof schema.$ref === 'string' ? schema.$ref : '';
  if (ref && history.has(ref)) return '';
  const next = new Set(history).add(ref);
  const resolved = resolveRef(ref, doc) ?? schema;
  let out = '';
  const props = isMap(resolved.properties) ? resolved.properties : {};
  for (const name of Object.keys(props).sort()) {
    out += fieldDetail(name, resolved, recursive, level, doc);
    if (recursive && isMap(props[name])) out += fieldList(props[name] as Schema, level + 1, next, recursive, doc);
  }
  for (const a of Array.isArray(resolved.allOf) ? resolved.allOf : []) if (isMap(a)) out += fieldList(a, level, next, recursive, doc);
  if (isMap(resolved.items)) out += fieldList(resolved.items, level, next, recursive, doc);
  if (isMap(resolved.additionalProperties)) out += fieldList(resolved.additionalProperties, level, next, recursive, doc);
  return out;
}

/** The "output" template: follows the field path; prints FIELD, DESCRIPTION and FIELDS where it ends. */
function output(schema: Schema, fieldPath: string[], history: ReadonlySet<string>, recursive: boolean, doc: OpenAPIV3Document): string {
  const ref = typeof schema.$ref === 'string' ? schema.$ref : '';
  const next = new Set(history).add(ref);
  const resolved = resolveRef(ref, doc) ?? schema;
  if (fieldPath.length === 0) {
    let out = 'DESCRIPTION:\n';
    out += `${indent(4, wordWrap(description(resolved, doc) || '<empty>', 76))}\n`;
    const fields = fieldList(resolved, 1, new Set(), recursive, doc);
    if (fields) out += `FIELDS:\n${fields}`;
    return out;
  }
  if (ref && history.has(ref)) return '';
  const props = isMap(resolved.properties) ? resolved.properties : undefined;
  const sub = props?.[fieldPath[0]];
  if (props && isMap(sub)) {
    let out = '';
    if (fieldPath.length === 1) out += `FIELD: ${fieldPath[0]} <${typeGuess(sub, doc)}>\n${extractEnum(sub, true, -1)}\n\n`;
    return out + output(sub, fieldPath.slice(1), new Set(), recursive, doc);
  }
  if (isMap(resolved.items)) return output(resolved.items, fieldPath, next, recursive, doc);
  if (isMap(resolved.additionalProperties)) return output(resolved.additionalProperties, fieldPath, next, recursive, doc);
  for (const a of Array.isArray(resolved.allOf) ? resolved.allOf : []) {
    if (!isMap(a)) continue;
    const out = output(a, fieldPath, next, recursive, doc);
    if (out) return out;
  }
  return '';
}

function sameGvk(list: unknown, gvk: GroupVersionKind): boolean {
  return Array.isArray(list) && list.some((g) => isMap(g) && (g.group ?? '') === gvk.group && g.version === gvk.version && g.kind === gvk.kind);
}

/**
 * The whole plaintext explain output for a kind (and a field path inside it), ending with the template's final
 * newline. Throws `error: field "x" does not exist` and `error: GVK … not found in OpenAPI schema` as CommandErrors
 * whose message already reads "error: …".
 */
export function renderExplain(doc: OpenAPIV3Document, gvk: GroupVersionKind, fieldPath: string[], recursive: boolean): string {
  let header = '';
  if (gvk.group) header += `GROUP:      ${gvk.group}\n`;
  header += `KIND:       ${gvk.kind}\nVERSION:    ${gvk.version}\n\n`;
  for (const schema of Object.values(doc.components.schemas)) {
    if (!sameGvk(schema['x-kubernetes-group-version-kind'], gvk)) continue;
    const body = output(schema, fieldPath, new Set(), recursive, doc);
    // The template has written the header when it throws: kubectl prints it, then the error.
    if (!body) throw new ExplainError(`error: field "${fieldPath[fieldPath.length - 1]}" does not exist`, header);
    return `${header}${body}\n`;
  }
  throw new ExplainError(`error: GVK map[group:${gvk.group} kind:${gvk.kind} version:${gvk.version}] not found in OpenAPI schema`);
}

/** The template's throw: its message is printed as is (it already starts with "error: "), after `partial`. */
export class ExplainError extends CommandError {
  constructor(
    message: string,
    /** What the template printed before it threw. */
    readonly partial = '',
  ) {
    super(message);
  }
}
