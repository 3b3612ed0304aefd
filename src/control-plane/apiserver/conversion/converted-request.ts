// Serves a request made at a non-storage version by translating it into storage-version requests through the
// normal pipeline (so authorization, admission and validation all run) and converting what comes back.
import type { ApiRequest, ApiResponse } from '../../../shared/api/request';
import { PatchType, Verb } from '../../../shared/api/request';
import type { ResourceType } from '../../../shared/api/resources';
import { newBadRequest } from '../../../shared/api/status';
import type { KubeObject, WatchEvent } from '../../../shared/api/types';
import { decodeObject } from '../decode/decoder';
import { applyJsonPatch, decodeJsonPatch } from '../patch/json-patch';
import { applyMergePatch } from '../patch/json-merge-patch';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch';
import type { SchemaHints } from '../patch/list-types';
import { convertResponse, convertWatchEvents, type VersionConversion } from './served-versions';

export interface ConvertingServer {
  handle(req: ApiRequest): ApiResponse;
  schemaHintsFor(rt: ResourceType): SchemaHints;
}

export function handleAtServedVersion(server: ConvertingServer, req: ApiRequest, conv: VersionConversion, storage: ResourceType): ApiResponse {
  const requested: ResourceType = { ...storage, version: req.version };
  const atStorage = (r: ApiRequest): ApiRequest => ({ ...r, version: storage.version });
  const back = (res: ApiResponse): ApiResponse => convertResponse(res, conv, req.version, storage);

  switch (req.verb) {
    case Verb.Create:
    case Verb.Update: {
      // Strict decoding at the version the client wrote, so unknown-field texts name that version's fields.
      const decoded = decodeObject({
        body: req.body,
        rawBody: req.rawBody,
        resourceType: requested,
        fieldValidation: req.options?.fieldValidation ?? 'Strict',
      });
      const res = server.handle({ ...atStorage(req), body: conv.toStorage(decoded.object), rawBody: undefined });
      const warnings = [...decoded.warnings, ...(res.warnings ?? [])];
      return back({ ...res, warnings: warnings.length ? warnings : undefined });
    }
    case Verb.Patch: {
      if (req.patchType === PatchType.ApplyPatch) {
        const body = conv.toStorage(req.body as KubeObject);
        return back(server.handle({ ...atStorage(req), body, rawBody: undefined }));
      }
      const current = server.handle({ ...atStorage(req), verb: Verb.Get, body: undefined, rawBody: undefined, patchType: undefined });
      const currentAtVersion = conv.fromStorage(current.body as KubeObject);
      const patch = req.rawBody !== undefined ? parseJson(req.rawBody) : req.body;
      const patched = applyPatch(req.patchType, currentAtVersion, patch, server.schemaHintsFor(requested)) as KubeObject;
      const decoded = decodeObject({ body: patched, resourceType: requested, fieldValidation: req.options?.fieldValidation ?? 'Strict' });
      const updated = conv.toStorage(decoded.object);
      updated.metadata = { ...updated.metadata, resourceVersion: (current.body as KubeObject).metadata.resourceVersion };
      return back(server.handle({ ...atStorage(req), verb: Verb.Update, body: updated, rawBody: undefined, patchType: undefined }));
    }
    default:
      return back(server.handle(atStorage(req)));
  }
}

export function watchHandlerAtServedVersion(handler: (events: WatchEvent[]) => void, conv: VersionConversion): (events: WatchEvent[]) => void {
  return (events) => handler(convertWatchEvents(events, conv));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw newBadRequest(`error decoding patch: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function applyPatch(patchType: PatchType | undefined, current: KubeObject, patch: unknown, hints: SchemaHints): unknown {
  switch (patchType) {
    case PatchType.JSONPatch:
      return applyJsonPatch(current, decodeJsonPatch(patch));
    case PatchType.MergePatch:
      return applyMergePatch(current, patch);
    default:
      return applyStrategicMergePatch(current, patch, hints);
  }
}
