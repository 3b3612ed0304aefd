// api/apply: applies every object of a YAML manifest through the API server as plain `kubectl apply` does
// (client-side apply with the last-applied-configuration three-way merge, src/kubectl/apply.ts), one object
// per document, in order. Each outcome reads like kubectl's "configmap/demo created" / "configured" / "unchanged";
// a refused document gets the error kubectl or the API server gives, and changes nothing. (The editor refuses a
// manifest with a YAML syntax error before it sends anything, see src/ui/features/editor/EditorPanel.tsx.)
import { decodeObject, unknownKindError } from '../control-plane/apiserver/decode/decoder';
import { describeJSON, isPlainObject } from '../control-plane/apiserver/decode/state';
import type { ApiRequest, ApiResponse } from '../control-plane/apiserver/types';
import { clientSideApply } from '../kubectl/apply';
import type { ResourceRegistry, ResourceType } from '../shared/api/resources';
import { newBadRequest, toStatus } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';
import { parseApiVersion } from '../shared/api/types';
import type { ParsedDocument } from '../shared/lib/yaml';
import { parseManifests } from '../shared/lib/yaml';
import type { ApplyOutcome, ApplyParams, ApplyResult } from '../shared/protocol/methods';

export interface ApplyTarget {
  readonly apiserver: { handle(req: ApiRequest): ApiResponse };
  readonly registry: ResourceRegistry;
  readonly store: { readonly revision: number };
}

export function applyManifest(cluster: ApplyTarget, params: ApplyParams): ApplyResult {
  const outcomes: ApplyOutcome[] = [];
  parseManifests(params.manifest).forEach((doc, i) => {
    const document = i + 1;
    if (doc.error) {
      outcomes.push({ ok: false, document, status: newBadRequest(`error parsing manifest: ${doc.error.message}`).status, line: doc.error.line, column: doc.error.column });
      return;
    }
    try {
      outcomes.push(applyDocument(cluster, doc, params.namespace));
    } catch (err) {
      outcomes.push({ ok: false, document, status: toStatus(err), line: doc.range.startLine });
    }
  });
  return { outcomes };
}

function applyDocument(cluster: ApplyTarget, doc: ParsedDocument, enforcedNamespace: string | undefined): ApplyOutcome & { ok: true } {
  const obj = doc.object;
  if (!isPlainObject(obj)) throw newBadRequest(`json: cannot unmarshal ${describeJSON(obj)} into Go value of type map[string]interface {}`);
  // The unstructured decoder's order: kind, then apiVersion, each naming the data it could not place.
  if (typeof obj.kind !== 'string' && obj.kind !== undefined && obj.kind !== null) throw typeMetaTypeError('kind', obj.kind);
  if (typeof obj.apiVersion !== 'string' && obj.apiVersion !== undefined && obj.apiVersion !== null) throw typeMetaTypeError('apiVersion', obj.apiVersion);
  if (!obj.kind) throw newBadRequest(`Object 'Kind' is missing in '${goJson(obj)}'`);
  if (!obj.apiVersion) throw newBadRequest(`Object 'apiVersion' is missing in '${goJson(obj)}'`);
  const apiVersion = obj.apiVersion as string;
  const kind = obj.kind as string;
  const { group, version } = parseApiVersion(apiVersion);
  const rt = cluster.registry.forKind({ group, version, kind });
  if (!rt) throw unknownKindError(apiVersion, kind);

  // Metadata of the wrong shape (`metadata: web`, `name: yes` read as a YAML 1.1 boolean) and repeated keys: the
  // server's strict decoder says exactly what is wrong, before kubectl's GET-then-create/patch sends anything.
  if (!wellFormedMeta(obj.metadata) || doc.duplicates?.length) strictDecode(rt, doc, obj);

  const metadata = (obj.metadata ?? {}) as KubeObject['metadata'];
  const name = metadata.name;
  if (!name) {
    if (metadata.generateName) throw newBadRequest(`from ${metadata.generateName}: cannot use generate name with apply`);
    throw newBadRequest('resource name may not be empty');
  }
  // kubectl's builder: with -n given, an object naming another namespace is refused (RequireNamespace).
  if (rt.namespaced && enforcedNamespace !== undefined && metadata.namespace && metadata.namespace !== enforcedNamespace) {
    throw newBadRequest(
      `the namespace from the provided object ${JSON.stringify(metadata.namespace)} does not match the namespace ${JSON.stringify(enforcedNamespace)}. You must pass '--namespace=${metadata.namespace}' to perform this operation.`,
    );
  }
  const namespace = rt.namespaced ? (metadata.namespace || enforcedNamespace || 'default') : undefined;

  const object = structuredClone(obj) as unknown as KubeObject;
  // kubectl's builder sets the default namespace on namespaced objects that name none.
  if (namespace !== undefined) object.metadata = { ...object.metadata, namespace };
  // The document's own text lets the server report duplicate fields as it does for a strict create (the
  // parsed object has lost them); not for List items, whose source is the whole List.
  const rawBody = doc.duplicates?.length && doc.listItem === undefined ? doc.source : undefined;
  const result = clientSideApply(cluster.apiserver, rt, object, { rawBody });
  const outcome: ApplyOutcome & { ok: true } = { ok: true, action: result.action, object: result.object };
  if (result.warnings?.length) outcome.warnings = result.warnings;
  return outcome;
}

function wellFormedMeta(metadata: unknown): boolean {
  if (metadata === undefined || metadata === null) return true;
  if (!isPlainObject(metadata)) return false;
  const text = (v: unknown) => v === undefined || v === null || typeof v === 'string';
  return text(metadata.name) && text(metadata.namespace) && text(metadata.generateName);
}

/** Decodes the document as the API server would with fieldValidation=Strict; throws its 400 when it is refused. */
function strictDecode(rt: ResourceType, doc: ParsedDocument, obj: Record<string, unknown>): void {
  if (doc.listItem === undefined) {
    decodeObject({ rawBody: doc.source, resourceType: rt, fieldValidation: 'Strict' });
    return;
  }
  // A List item has no text of its own: decode the object, then report the repeats the parser found in it.
  decodeObject({ body: obj, resourceType: rt, fieldValidation: 'Strict' });
  if (doc.duplicates?.length) {
    const { version } = parseApiVersion(obj.apiVersion as string);
    const found = doc.duplicates.map((d) => `duplicate field ${JSON.stringify(d.path)}`).join(', ');
    throw newBadRequest(`${rt.kind} in version ${JSON.stringify(version)} cannot be handled as a ${rt.kind}: strict decoding error: ${found}`);
  }
}

/** The unstructured decoder reading apiVersion/kind of the wrong JSON type. */
function typeMetaTypeError(field: 'kind' | 'apiVersion', value: unknown) {
  return newBadRequest(`json: cannot unmarshal ${describeJSON(value)} into Go struct field .${field} of type string`);
}

/** The document as kubectl's YAML-to-JSON conversion prints it: compact, keys sorted (Go maps marshal sorted). */
function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (typeof v === 'bigint') return Number(v);
    if (Array.isArray(v)) return v.map(sorted);
    if (isPlainObject(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) Object.defineProperty(out, k, { value: sorted(v[k]), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return v;
  };
  return JSON.stringify(sorted(value)) ?? '';
}
