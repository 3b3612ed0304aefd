// api/apply: applies every object of a YAML manifest through the API server as plain `kubectl apply` does
// (client-side apply with the last-applied-configuration three-way merge, src/kubectl/apply.ts), one object
// per document, in order. Each outcome reads like kubectl's "configmap/demo created" / "configured" / "unchanged".
import { unknownKindError } from '../control-plane/apiserver/decode/decoder';
import type { ApiRequest, ApiResponse } from '../control-plane/apiserver/types';
import { clientSideApply } from '../kubectl/apply';
import type { ResourceRegistry } from '../shared/api/resources';
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

function applyDocument(cluster: ApplyTarget, doc: ParsedDocument, defaultNamespace: string | undefined): ApplyOutcome & { ok: true } {
  const obj = doc.object as KubeObject;
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw newBadRequest('a manifest document must be an object');
  if (!obj.apiVersion) throw newBadRequest("Object 'apiVersion' is missing");
  if (!obj.kind) throw newBadRequest("Object 'Kind' is missing");
  const { group, version } = parseApiVersion(obj.apiVersion);
  const rt = cluster.registry.forKind({ group, version, kind: obj.kind });
  if (!rt) throw unknownKindError(obj.apiVersion, obj.kind);
  const name = obj.metadata?.name;
  if (!name) throw newBadRequest('resource name may not be empty');
  const namespace = rt.namespaced ? (obj.metadata?.namespace ?? defaultNamespace ?? 'default') : undefined;

  const object: KubeObject = structuredClone(obj);
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
