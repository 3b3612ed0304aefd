// kubectl apply for one object, client-side (k8s.io/kubectl/pkg/cmd/apply, v1.32 without --server-side):
// GET the live object; when it does not exist, create it carrying the kubectl.kubernetes.io/last-applied-
// configuration annotation; otherwise compute the three-way patch from (original = that annotation,
// modified = the new configuration with its new annotation, current = the live object) and PATCH it —
// a strategic merge patch for built-in kinds, a JSON merge patch for custom resources — or send nothing
// when the patch is empty ("unchanged"). Requests go through a synchronous `handle(req)` port.
import type { ApiRequest, ApiResponse } from '../control-plane/apiserver/types';
import { PatchType, Verb } from '../control-plane/apiserver/types';
import type { SchemaHints } from '../control-plane/apiserver/patch/list-types';
import { builtinSchemaHints } from '../control-plane/apiserver/patch/list-types';
import { deepEqual, isJsonObject, setOwn, type JsonObject } from '../control-plane/apiserver/patch/json-value';
import type { ResourceType } from '../shared/api/resources';
import { isStatusError, StatusReason } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';

export const lastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';
/** The field manager kubectl's client-side apply names in create and patch requests. */
export const clientSideApplyFieldManager = 'kubectl-client-side-apply';

export interface ApplyPort {
  handle(req: ApiRequest): ApiResponse;
}

export interface ClientSideApplyResult {
  action: 'created' | 'configured' | 'unchanged';
  object: KubeObject;
  warnings?: string[];
}

/**
 * Applies one object (its metadata.namespace already defaulted for namespaced kinds, as kubectl's builder
 * does). rawBody, when given, is sent with the create so the server can report duplicate fields.
 * Throws the API server's StatusError.
 */
export function clientSideApply(port: ApplyPort, rt: ResourceType, obj: KubeObject, options: { rawBody?: string } = {}): ClientSideApplyResult {
  const name = obj.metadata.name ?? '';
  const namespace = rt.namespaced ? obj.metadata.namespace : undefined;
  const target = { group: rt.group, version: rt.version, resource: rt.resource, namespace, name };
  const modified = withLastApplied(obj);

  let current: KubeObject;
  try {
    current = (port.handle({ ...target, verb: Verb.Get }) as ApiResponse<KubeObject>).body;
  } catch (err) {
    if (!isStatusError(err) || err.status.reason !== StatusReason.NotFound) throw err;
    const req: ApiRequest = {
      ...target,
      name: undefined,
      verb: Verb.Create,
      // kubectl's resource.Helper.Create(modify=true) clears resourceVersion, so a manifest saved from
      // `get -o yaml` creates cleanly (the last-applied annotation still records what was applied).
      body: withoutResourceVersion(modified),
      options: { fieldManager: clientSideApplyFieldManager, fieldValidation: 'Strict' },
    };
    if (options.rawBody !== undefined) req.rawBody = options.rawBody;
    const res = port.handle(req) as ApiResponse<KubeObject>;
    return withWarnings({ action: 'created', object: res.body }, res.warnings);
  }

  const warnings: string[] = [];
  const annotation = current.metadata?.annotations?.[lastAppliedConfigAnnotation];
  if (annotation === undefined) {
    // kubectl's warningNoLastAppliedConfigAnnotation (printed with its "Warning: " prefix).
    warnings.push(
      `resource ${rt.resource}/${name} is missing the ${lastAppliedConfigAnnotation} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.`,
    );
  }
  const original = annotation ? parseLastApplied(annotation) : undefined;
  const hints = rt.custom ? undefined : builtinSchemaHints(rt.kind);
  const patch = threeWayMergePatch(original, modified as unknown as JsonObject, current as unknown as JsonObject, hints);
  if (Object.keys(patch).length === 0) return withWarnings({ action: 'unchanged', object: current }, warnings);
  const res = port.handle({
    ...target,
    verb: Verb.Patch,
    patchType: rt.custom ? PatchType.MergePatch : PatchType.StrategicMergePatch,
    body: patch,
    options: { fieldManager: clientSideApplyFieldManager, fieldValidation: 'Strict' },
  }) as ApiResponse<KubeObject>;
  return withWarnings({ action: 'configured', object: res.body }, [...warnings, ...(res.warnings ?? [])]);
}

function withWarnings(result: ClientSideApplyResult, warnings: readonly string[] | undefined): ClientSideApplyResult {
  if (warnings?.length) result.warnings = [...warnings];
  return result;
}

function parseLastApplied(text: string): JsonObject | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return isJsonObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * util.GetModifiedConfiguration(obj, annotate=false): the object without the last-applied annotation,
 * encoded as Go's json.Encoder encodes an unstructured object (map keys sorted, <>& escaped, trailing newline).
 */
export function modifiedConfiguration(obj: KubeObject): string {
  return goJsonEncode(withoutLastApplied(obj)) + '\n';
}

/** The object as kubectl sends and diffs it: a copy carrying the last-applied annotation of itself. */
export function withLastApplied(obj: KubeObject): KubeObject {
  const copy = withoutLastApplied(obj);
  const config = goJsonEncode(copy) + '\n';
  copy.metadata = { ...copy.metadata, annotations: { ...(copy.metadata?.annotations ?? {}), [lastAppliedConfigAnnotation]: config } };
  return copy;
}

function withoutLastApplied(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  // GetModifiedConfiguration sets the annotations back as a non-nil map even when there were none, and
  // Unstructured.SetAnnotations keeps an empty map: the last-applied configuration always has "annotations":{}.
  const rest = { ...(copy.metadata?.annotations ?? {}) };
  delete rest[lastAppliedConfigAnnotation];
  copy.metadata = { ...copy.metadata, annotations: rest };
  return copy;
}

/** encoding/json's output for decoded JSON values: sorted keys, HTML-safe strings, exact big integers. */
export function goJsonEncode(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'string') return goString(value);
  if (Array.isArray(value)) return `[${value.map(goJsonEncode).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${goString(k)}:${goJsonEncode(obj[k])}`).join(',')}}`;
}

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * strategicpatch.CreateThreeWayMergePatch (or jsonmergepatch's, with no hints): changes and additions from
 * current to modified, plus deletions from original to modified. Lists the schema merges by key get
 * per-item patches, `$patch: delete` for removed items and `$setElementOrder`; other lists are replaced whole.
 */
export function threeWayMergePatch(original: JsonObject | undefined, modified: JsonObject, current: JsonObject, hints: SchemaHints | undefined): JsonObject {
  return diffMap(original, modified, current, [], hints);
}

function diffMap(original: JsonObject | undefined, modified: JsonObject, current: JsonObject, path: string[], hints: SchemaHints | undefined): JsonObject {
  const patch: JsonObject = {};
  for (const key of Object.keys(modified)) {
    const m = modified[key];
    const c = Object.hasOwn(current, key) ? current[key] : undefined;
    const o = original && Object.hasOwn(original, key) ? original[key] : undefined;
    const childPath = [...path, key];
    if (isJsonObject(m) && isJsonObject(c)) {
      const sub = diffMap(isJsonObject(o) ? o : undefined, m, c, childPath, hints);
      if (Object.keys(sub).length > 0) setOwn(patch, key, sub);
    } else if (Array.isArray(m) && Array.isArray(c) && hints) {
      diffList(patch, key, Array.isArray(o) ? o : undefined, m, c, childPath, hints);
    } else if (!deepEqual(m, c)) {
      setOwn(patch, key, m);
    }
  }
  if (original) {
    for (const key of Object.keys(original)) if (!Object.hasOwn(modified, key)) setOwn(patch, key, null);
  }
  return patch;
}

function diffList(patch: JsonObject, key: string, original: unknown[] | undefined, modified: unknown[], current: unknown[], path: string[], hints: SchemaHints): void {
  const listType = hints.listType(path);
  if (listType.type === 'map' && [...modified, ...current, ...(original ?? [])].every((i) => isJsonObject(i) && Object.hasOwn(i, listType.mergeKey))) {
    const mergeKey = listType.mergeKey;
    const keyOf = (item: unknown) => (item as JsonObject)[mergeKey];
    const find = (list: unknown[] | undefined, k: unknown) => list?.find((i) => deepEqual(keyOf(i), k)) as JsonObject | undefined;
    const items: JsonObject[] = [];
    for (const item of modified as JsonObject[]) {
      const c = find(current, keyOf(item));
      if (!c) {
        items.push(item);
        continue;
      }
      const sub = diffMap(find(original, keyOf(item)), item, c, path, hints);
      if (Object.keys(sub).length > 0) items.push({ [mergeKey]: keyOf(item), ...sub });
    }
    for (const item of (original ?? []) as JsonObject[]) {
      if (!find(modified, keyOf(item))) items.push({ [mergeKey]: keyOf(item), $patch: 'delete' });
    }
    if (items.length > 0) {
      setOwn(patch, `$setElementOrder/${key}`, (modified as JsonObject[]).map((i) => ({ [mergeKey]: keyOf(i) })));
      setOwn(patch, key, items);
    }
    return;
  }
  if (listType.type === 'set') {
    const added = modified.filter((i) => !current.some((c) => deepEqual(c, i)));
    const removed = (original ?? []).filter((i) => !modified.some((m) => deepEqual(m, i)));
    if (added.length > 0) setOwn(patch, key, added as JsonObject[]);
    if (removed.length > 0) setOwn(patch, `$deleteFromPrimitiveList/${key}`, removed as JsonObject[]);
    if (added.length > 0 || removed.length > 0) setOwn(patch, `$setElementOrder/${key}`, modified as JsonObject[]);
    return;
  }
  if (!deepEqual(modified, current)) setOwn(patch, key, modified as JsonObject[]);
}

function withoutResourceVersion(obj: KubeObject): KubeObject {
  if (obj.metadata.resourceVersion === undefined) return obj;
  const { resourceVersion: _ignored, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
