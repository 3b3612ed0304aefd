// PATCH: handlers/patch.go. JSON patch, JSON merge patch and strategic merge patch are applied to the stored
// object and the result goes through the update path; server-side apply (application/apply-patch+yaml) merges
// the applied configuration with field ownership and may create the object. Custom resources take no
// strategic merge patch (415), as on a real server.
import { fieldErr } from '../../../shared/api/field-errors';
import {
  StatusError,
  newBadRequest,
  newInvalid,
  newNotFound,
  newRequestEntityTooLarge,
  type Status,
} from '../../../shared/api/status';
import { formatApiVersion, type KubeObject } from '../../../shared/api/types';
import { parseYamlDocument } from '../../../shared/lib/yaml';
import { rfc3339 } from '../../sim/clock';
import { decodeObject } from '../decode/decoder';
import { PatchType, type ApiResponse } from '../types';
import { Stage, runStage, type ResourceContext } from '../pipeline/context';
import { fieldValidationOf } from '../pipeline/decode';
import { checkName, ensureObjectNamespaceMatchesRequest } from '../pipeline/object-meta';
import { applyMergePatch } from '../patch/json-merge-patch';
import { JsonPatchError, applyJsonPatch, decodeJsonPatch, maxJsonPatchOperations } from '../patch/json-patch';
import { StrategicPatchError, applyStrategicMergePatch } from '../patch/strategic-merge-patch';
import { goFormat, isJsonObject } from '../patch/json-value';
import { guaranteedUpdate, type UpdateSubresource } from './guaranteed-update';
import { scaleWorkload } from './scale';
import { writableMeta } from '../storage/object-codec';

const builtinPatchTypes = [PatchType.JSONPatch, PatchType.MergePatch, PatchType.StrategicMergePatch, PatchType.ApplyPatch];
const customPatchTypes = [PatchType.JSONPatch, PatchType.MergePatch, PatchType.ApplyPatch];

function unsupportedMediaType(accepted: readonly string[]): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    reason: 'UnsupportedMediaType',
    code: 415,
  };
  return new StatusError(status);
}

/** A 422 with the generic text NewGenericServerResponse gives (the patch library's message is not kept). */
function unprocessable(): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    code: 422,
  };
  return new StatusError(status);
}

/** ValidatePatchOptions. */
function validatePatchOptions(ctx: ResourceContext, isApply: boolean): void {
  const opts = ctx.req.options ?? {};
  const errs = [];
  if (isApply) {
    if (!opts.fieldManager) errs.push(fieldErr.required('fieldManager', 'is required for apply patch'));
  } else if (opts.force !== undefined) {
    errs.push(fieldErr.forbidden('force', 'may not be specified for non-apply patch'));
  }
  if (errs.length) throw newInvalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', errs);
}

export function patchHandler(ctx: ResourceContext): ApiResponse<unknown> {
  const patchType = ctx.req.patchType;
  const accepted = ctx.rt.custom ? customPatchTypes : builtinPatchTypes;
  if (!patchType || !accepted.includes(patchType)) throw unsupportedMediaType(accepted);
  const isApply = patchType === PatchType.ApplyPatch;
  validatePatchOptions(ctx, isApply);
  const patch = readPatchDocument(ctx, isApply);
  const name = ctx.req.name ?? '';
  const sub = ctx.req.subresource as UpdateSubresource | undefined;

  if (sub === 'scale') {
    // The patch applies to the Scale view; an applied Scale merges into it like a merge patch.
    return scaleWorkload(ctx, (scale) => (isApply ? applyMergePatch(scale, patch) : applyNonApplyPatch(ctx, patchType, scale, patch)));
  }

  const result = guaranteedUpdate(ctx, {
    name,
    subresource: sub,
    forceAllowCreate: isApply,
    managedFieldsDone: isApply,
    // JSON, merge and strategic patches copy the document they patch, and the result is decoded afresh.
    readsExistingOnly: !isApply,
    transform: (existing) => {
      const obj = isApply ? applyConfiguration(ctx, existing, patch) : patchExisting(ctx, patchType, existing, patch);
      checkName(ctx, obj);
      ensureObjectNamespaceMatchesRequest(ctx, obj);
      return obj;
    },
  });
  return { code: result.created ? 201 : 200, body: result.object, warnings: ctx.warnings.length ? ctx.warnings : undefined };
}

function readPatchDocument(ctx: ResourceContext, isApply: boolean): unknown {
  if (ctx.req.rawBody === undefined) return ctx.req.body;
  if (isApply) {
    const parsed = parseYamlDocument(ctx.req.rawBody);
    if (parsed.error) throw newBadRequest(`error decoding YAML: ${parsed.error.message}`);
    return parsed.value;
  }
  try {
    return JSON.parse(ctx.req.rawBody) as unknown;
  } catch (err) {
    throw newBadRequest(`error decoding patch: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function applyNonApplyPatch(ctx: ResourceContext, patchType: PatchType, current: KubeObject, patch: unknown): unknown {
  switch (patchType) {
    case PatchType.JSONPatch: {
      let ops;
      try {
        ops = decodeJsonPatch(patch);
      } catch (err) {
        throw newBadRequest(err instanceof Error ? err.message : String(err));
      }
      if (ops.length > maxJsonPatchOperations) {
        throw newRequestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${ops.length}`);
      }
      try {
        return applyJsonPatch(current, ops);
      } catch (err) {
        if (err instanceof JsonPatchError) throw err.malformed ? newBadRequest(err.message) : unprocessable();
        throw err;
      }
    }
    case PatchType.MergePatch:
      if (!isJsonObject(patch)) throw newBadRequest('Invalid JSON Patch');
      return applyMergePatch(current, patch);
    case PatchType.StrategicMergePatch:
      try {
        return applyStrategicMergePatch(current, patch, ctx.server.schemaHintsFor(ctx.rt));
      } catch (err) {
        if (err instanceof StrategicPatchError) throw err.code === 400 ? newBadRequest(err.message) : unprocessable();
        throw err;
      }
    default:
      throw unsupportedMediaType(builtinPatchTypes);
  }
}

/** JSON, merge or strategic patch of the stored object, then decoded as the kind (unknown fields per fieldValidation). */
function patchExisting(ctx: ResourceContext, patchType: PatchType, existing: KubeObject | undefined, patch: unknown): KubeObject {
  if (!existing) throw newNotFound(ctx.rt, ctx.req.name ?? '');
  const patched = applyNonApplyPatch(ctx, patchType, existing, patch);
  return runStage(ctx, Stage.Decode, (note) => {
    const badValue = patchType === PatchType.StrategicMergePatch ? goFormat(patch) : JSON.stringify(patched);
    if (!isJsonObject(patched)) {
      throw newInvalid({ group: '', kind: '' }, '', [fieldErr.invalid('patch', badValue, 'json: cannot unmarshal into Go value of type map[string]interface {}')]);
    }
    const decoded = decodeObject({
      body: patched,
      resourceType: ctx.rt,
      fieldValidation: 'Warn',
      customSchema: ctx.server.customSchemaFor(ctx.rt),
    });
    const mode = fieldValidationOf(ctx);
    if (decoded.warnings.length > 0 && mode === 'Strict') {
      throw newInvalid({ group: '', kind: '' }, '', [
        fieldErr.invalid('patch', badValue, `strict decoding error: ${decoded.warnings.join(', ')}`),
      ]);
    }
    if (mode === 'Warn') ctx.warnings.push(...decoded.warnings);
    if (decoded.warnings.length) note(decoded.warnings.join('; '));
    return decoded.object;
  });
}

/** Server-side apply: the configuration is decoded (unknown fields are never accepted), then merged with ownership. */
function applyConfiguration(ctx: ResourceContext, existing: KubeObject | undefined, patch: unknown): KubeObject {
  const config = runStage(ctx, Stage.Decode, () => {
    if (!isJsonObject(patch)) throw newBadRequest('error decoding YAML: the applied configuration must be an object');
    const expected = formatApiVersion(ctx.rt.group, ctx.rt.version);
    if (typeof patch.apiVersion === 'string' && patch.apiVersion !== expected) {
      throw newBadRequest(`Incorrect version specified in apply patch. Specified patch version: ${patch.apiVersion}, expected: ${expected}`);
    }
    if (typeof patch.kind === 'string' && patch.kind !== ctx.rt.kind) {
      throw newBadRequest(`Incorrect kind specified in apply patch. Specified patch kind: ${patch.kind}, expected: ${ctx.rt.kind}`);
    }
    const decoded = decodeObject({
      body: patch,
      resourceType: ctx.rt,
      fieldValidation: 'Warn',
      customSchema: ctx.server.customSchemaFor(ctx.rt),
      appliedConfiguration: true,
    });
    const unknown = decoded.warnings
      .map((w) => /^unknown field "(.*)"$/.exec(w)?.[1])
      .filter((f): f is string => f !== undefined);
    if (unknown.length > 0) {
      const gvk = `${ctx.rt.group}/${ctx.rt.version}, Kind=${ctx.rt.kind}`;
      throw newBadRequest(`failed to create typed patch object (${gvk}): ${unknown.map((f) => `.${f}: field not declared in schema`).join('\n')}`);
    }
    return decoded.object;
  });
  const sub = ctx.req.subresource === 'status' ? 'status' : undefined;
  const applied = ctx.server.fieldManagerFor(ctx.rt).apply(existing, config, ctx.req.options?.fieldManager ?? '', !!ctx.req.options?.force, {
    apiVersion: formatApiVersion(ctx.rt.group, ctx.rt.version),
    subresource: sub,
    time: rfc3339(ctx.server.clock.now()),
    hasStatusSubresource: ctx.rt.subresources.status,
  });
  // The merged object becomes the Go type (the configuration named only some of its fields): its zero values too.
  const merged = decodeObject({ body: applied, resourceType: ctx.rt, fieldValidation: 'Ignore', customSchema: ctx.server.customSchemaFor(ctx.rt) }).object;
  // A resourceVersion in the applied configuration is a precondition, as for any other write.
  const rv = config.metadata?.resourceVersion;
  if (rv) writableMeta(merged).resourceVersion = rv;
  return merged;
}
