// The API server's decode stage (apimachinery's json serializer + handlers/rest.go transformDecodeError):
// body → object of the addressed kind, with strict field validation. Texts follow the real server:
//   Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicaz"
//   Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
import type { ResourceType } from '../../../shared/api/resources';
import { removedApiVersions } from '../../../shared/api/resources';
import { definitionNameForKind } from '../../../shared/api/schemas';
import { StatusError, StatusReason, newBadRequest } from '../../../shared/api/status';
import { type KubeObject, formatApiVersion, parseApiVersion } from '../../../shared/api/types';
import { parseYamlDocument } from '../../../shared/lib/yaml';
import type { DecodeResult, FieldValidation } from '../types';
import { JsonSyntaxError, readJson } from './json-reader';
import { DROP, DecodeFailure, type DecodeState, copyAnyJSON, describeJSON, isPlainObject, newDecodeState } from './state';
import { type StructuralSchema, pruneCustomResource } from './structural';
import { type Codec, StructCodec, codecForDefinition } from './typed';
import { isStoredPart } from '../storage/object-codec';

export interface DecodeArgs {
  /** The body as an already-parsed value (the in-process client, the UI's parsed manifests). */
  body?: unknown;
  /** The body as sent (JSON or YAML text); preferred over body, so duplicate keys can be reported. */
  rawBody?: string;
  resourceType: ResourceType;
  fieldValidation: FieldValidation;
  /** A CRD version's openAPIV3Schema, for custom resources; absent = no schema, anything is accepted. */
  customSchema?: object;
  /** How rawBody is encoded; by default JSON when it parses as JSON, YAML otherwise. */
  contentType?: 'json' | 'yaml';
  /**
   * Top-level fields taken as they are when the body hands back a stored object's own (frozen) part of the same
   * kind: decoding one would give an equal value (see keptStoredParts in types.ts).
   */
  keepStored?: readonly string[];
  /** The body is a server-side apply configuration: a partial object, so the Go type's zero values are not filled in. */
  appliedConfiguration?: boolean;
}

const legacyScheme = 'k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30';

/** `no matches for kind "Deploymnt" in version "apps/v1"`: what a client's REST mapping says for a kind the server does not serve. */
export function unknownKindError(apiVersion: string, kind: string): StatusError {
  const { group } = parseApiVersion(apiVersion);
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`,
    reason: StatusReason.NotFound,
    details: { group, kind },
    code: 404,
  });
}

interface RawValue {
  value: unknown;
  keyOrder?: Map<string, string[]>;
  /** The body text as the server received it; absent for a parsed body (see rawData). */
  text?: string;
}

/** The body text as the server received it (for `Object 'Kind' is missing in '…'` and error summaries). */
function rawData(raw: RawValue): string {
  return raw.text ?? stringifyBody(raw.value);
}

/** transformDecodeError without a kind: `the object provided is unrecognized (must be of type X): err (summary)`. */
function unrecognized(rt: ResourceType, err: string, data: string): StatusError {
  return newBadRequest(`the object provided is unrecognized (must be of type ${rt.kind}): ${err} (${summarizeData(data, 30)})`);
}

/** transformDecodeError with a kind: `<Kind> in version "<v>" cannot be handled as a <Kind>: err`. */
function cannotBeHandled(kind: string, version: string, rt: ResourceType, err: string): StatusError {
  return newBadRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${rt.kind}: ${err}`);
}

const utf8 = new TextEncoder();

/** handlers/rest.go summarizeData: JSON bodies as text, anything else as hex, cut at maxLength bytes. */
function summarizeData(data: string, maxLength: number): string {
  const bytes = utf8.encode(data);
  if (bytes.length === 0) return '<empty>';
  const cut = bytes.length > maxLength ? bytes.subarray(0, maxLength) : bytes;
  const suffix = bytes.length > maxLength ? ' ...' : '';
  if (bytes[0] === 0x7b) return new TextDecoder().decode(cut) + suffix;
  return Array.from(cut, (b) => b.toString(16).padStart(2, '0')).join('') + suffix;
}

function stringifyBody(body: unknown): string {
  try {
    return JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '';
  } catch {
    return '';
  }
}

function readRawBody(raw: string, contentType: 'json' | 'yaml' | undefined, rt: ResourceType): RawValue {
  const trimmed = raw.trimStart();
  const looksJson = trimmed.startsWith('{') || trimmed.startsWith('[');
  let jsonError: JsonSyntaxError | undefined;
  if (contentType === 'json' || (contentType === undefined && looksJson)) {
    try {
      const { value, keyOrder } = readJson(raw);
      return { value, keyOrder, text: raw };
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      if (contentType === 'json') throw unrecognized(rt, `couldn't get version/kind; json parse error: ${err.message}`, raw);
      jsonError = err;
    }
  }
  const parsed = parseYamlDocument(raw);
  if (parsed.error) {
    // Flow-style YAML is tried only because it looked like JSON: a JSON body's error is the JSON one.
    if (jsonError && /^\s*\{\s*"/.test(raw)) throw unrecognized(rt, `couldn't get version/kind; json parse error: ${jsonError.message}`, raw);
    const message = parsed.error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw unrecognized(rt, `error converting YAML to JSON: yaml: line ${parsed.error.line}: ${message}`, raw);
  }
  return { value: parsed.value, keyOrder: parsed.keyOrder, text: raw };
}

/** SimpleMetaFactory.Interpret: reads apiVersion and kind with encoding/json into an anonymous struct. */
function interpretTypeMeta(value: unknown): { apiVersion: string; kind: string } | { error: string } {
  const struct = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  if (value === null || value === undefined) return { apiVersion: '', kind: '' };
  if (!isPlainObject(value)) {
    return { error: `json: cannot unmarshal ${describeJSON(value)} into Go value of type ${struct}` };
  }
  const apiVersion = typeMetaField(value, 'apiVersion');
  if (typeof apiVersion !== 'string') return apiVersion;
  const kind = typeMetaField(value, 'kind');
  if (typeof kind !== 'string') return kind;
  return { apiVersion, kind };
}

function typeMetaField(value: Record<string, unknown>, name: 'apiVersion' | 'kind'): string | { error: string } {
  const v = Object.hasOwn(value, name) ? value[name] : undefined;
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  return { error: `json: cannot unmarshal ${describeJSON(v)} into Go struct field .${name} of type string` };
}

/** Go's internal package name for a group, as conversion errors print types ("core.Pod", "apps.Deployment"). */
function internalPackage(group: string): string {
  if (group === '') return 'core';
  return group.split('.')[0];
}

function checkKind(apiVersion: string, kind: string, rt: ResourceType): void {
  const expected = formatApiVersion(rt.group, rt.version);
  const gv = parseApiVersion(apiVersion);
  if (apiVersion !== expected) {
    if (Object.hasOwn(removedApiVersions, apiVersion)) throw unknownKindError(apiVersion, kind);
    throw newBadRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected})`);
  }
  if (kind === rt.kind) return;
  if (rt.custom || !definitionNameForKind({ group: gv.group, version: gv.version, kind })) {
    if (rt.custom) throw unknownKindError(apiVersion, kind);
    throw cannotBeHandled(kind, gv.version, rt, `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(legacyScheme)}`);
  }
  throw cannotBeHandled(kind, gv.version, rt, `converting (${gv.version}.${kind}) to (${internalPackage(rt.group)}.${rt.kind}): unknown conversion`);
}

/** A built-in type's codec, looked up once per type object (undefined: a kind without a schema). */
const typeCodecs = new WeakMap<ResourceType, Codec | null>();

function codecForType(rt: ResourceType): Codec | undefined {
  let codec = typeCodecs.get(rt);
  if (codec === undefined) {
    const name = definitionNameForKind({ group: rt.group, version: rt.version, kind: rt.kind });
    codec = name ? codecForDefinition(name) : null;
    typeCodecs.set(rt, codec);
  }
  return codec ?? undefined;
}

/**
 * Decodes a create/update body into an object of resourceType. Throws a 400 StatusError for malformed bodies,
 * type errors, and (in Strict mode) unknown or duplicate fields; in Warn mode those come back as warnings.
 * Unknown fields are dropped in every mode. The returned object is a fresh plain copy.
 */
export function decodeObject(args: DecodeArgs): DecodeResult {
  const rt = args.resourceType;
  const raw: RawValue = args.rawBody !== undefined ? readRawBody(args.rawBody, args.contentType, rt) : { value: args.body };

  const meta = interpretTypeMeta(raw.value);
  if ('error' in meta) throw unrecognized(rt, `couldn't get version/kind; json parse error: ${meta.error}`, rawData(raw));
  if (!meta.kind) throw unrecognized(rt, `Object 'Kind' is missing in '${rawData(raw)}'`, rawData(raw));
  const { version } = parseApiVersion(meta.apiVersion);
  if (!meta.apiVersion) throw cannotBeHandled(meta.kind, '', rt, `Object 'apiVersion' is missing in '${rawData(raw)}'`);
  checkKind(meta.apiVersion, meta.kind, rt);

  const root = raw.value as Record<string, unknown>;
  const st: DecodeState = newDecodeState(args.fieldValidation === 'Ignore' ? undefined : raw.keyOrder);
  if (args.appliedConfiguration) st.fillZeroValues = false;
  let object: unknown;
  let findings: string[];
  try {
    if (rt.custom) {
      const pruned = pruneCustomResource(root, args.customSchema as StructuralSchema | undefined, st);
      object = pruned.object;
      findings = [...st.strict, ...pruned.unknown.map((p) => `unknown field ${JSON.stringify(p)}`)].slice(0, 100);
    } else {
      const codec = codecForType(rt);
      const kept = args.keepStored;
      const keep = kept?.length ? (field: string, v: unknown): boolean => kept.includes(field) && isStoredPart(v, meta.apiVersion, meta.kind, field) : undefined;
      object = codec ? (codec instanceof StructCodec ? codec.decode(root, st, keep) : codec.decode(root, st)) : copyAnyJSON(root, st, true);
      findings = st.strict;
    }
  } catch (err) {
    if (err instanceof DecodeFailure) throw cannotBeHandled(meta.kind, version, rt, err.message);
    throw err;
  }
  if (object === DROP) object = {};

  const warnings: string[] = [];
  if (findings.length > 0) {
    if (args.fieldValidation === 'Strict') throw cannotBeHandled(meta.kind, version, rt, `strict decoding error: ${findings.join(', ')}`);
    if (args.fieldValidation === 'Warn') warnings.push(...findings);
  }
  return { object: object as KubeObject, warnings };
}
