// api/apply: applies every object of a YAML manifest through the API server with server-side apply (PATCH,
// application/apply-patch+yaml, field manager "kubectl", conflicts forced the way a client-side
// `kubectl apply` overwrites them), one request per document, in order. Each outcome reads like kubectl's
// "configmap/demo created" / "configured" / "unchanged".
import { unknownKindError } from '../control-plane/apiserver/decode/decoder';
import type { ApiRequest, ApiResponse } from '../control-plane/apiserver/types';
import { PatchType, Verb } from '../control-plane/apiserver/types';
import type { ResourceRegistry } from '../shared/api/resources';
import { newBadRequest, toStatus } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';
import { parseApiVersion } from '../shared/api/types';
import type { ParsedDocument } from '../shared/lib/yaml';
import { parseManifests } from '../shared/lib/yaml';
import type { ApplyOutcome, ApplyParams, ApplyResult } from '../shared/protocol/methods';

export const applyFieldManager = 'kubectl';

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

  const before = cluster.store.revision;
  const req: ApiRequest = {
    verb: Verb.Patch,
    group,
    version,
    resource: rt.resource,
    namespace,
    name,
    patchType: PatchType.ApplyPatch,
    body: obj,
    options: { fieldManager: applyFieldManager, force: true },
  };
  // The document's own text lets the decoder report duplicate fields as a strict server does (not for List
  // items, whose source is the whole List).
  if (doc.listItem === undefined) req.rawBody = doc.source;
  const res = cluster.apiserver.handle(req) as ApiResponse<KubeObject>;
  const rv = Number(res.body.metadata.resourceVersion);
  const action = res.code === 201 ? 'created' : rv > before ? 'configured' : 'unchanged';
  const outcome: ApplyOutcome & { ok: true } = { ok: true, action, object: res.body };
  if (res.warnings?.length) outcome.warnings = res.warnings;
  return outcome;
}
