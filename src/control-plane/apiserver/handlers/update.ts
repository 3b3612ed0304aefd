// PUT: handlers/update.go. The body is decoded and checked against the URL (name, namespace), then the
// generic read-modify-write of guaranteed-update.ts runs with it. The status subresource uses the kind's
// status strategy; namespaces/finalize may change only spec.finalizers.
import { fieldErr } from '../../../shared/api/field-errors';
import { newInvalid } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import type { ApiResponse } from '../types';
import { runStage, Stage, type ResourceContext } from '../pipeline/context';
import { decodeStage } from '../pipeline/decode';
import { checkName, ensureObjectNamespaceMatchesRequest } from '../pipeline/object-meta';
import { isJsonObject } from '../patch/json-value';
import { guaranteedUpdate, type UpdateSpec, type UpdateSubresource } from './guaranteed-update';
import { updateScale } from './scale';
import { writableMeta } from '../storage/object-codec';

export function updateHandler(ctx: ResourceContext): ApiResponse<unknown> {
  const sub = ctx.req.subresource as UpdateSubresource | undefined;
  if (sub === 'scale') return updateScale(ctx);
  // A PUT usually hands back most of what it read (a status write, all but status): stored parts the kind keeps
  // are not decoded again.
  const obj = decodeStage(ctx, { body: ctx.req.body, rawBody: ctx.req.rawBody, keepStored: ctx.strategy.keptStoredParts });
  checkName(ctx, obj);
  ensureObjectNamespaceMatchesRequest(ctx, obj);
  const name = ctx.req.name ?? '';
  const result =
    sub === 'finalize'
      ? guaranteedUpdate(ctx, { name, subresource: 'finalize', transform: (existing) => finalizeTransform(obj, existing), validate: validateFinalize(ctx, name) })
      : guaranteedUpdate(ctx, new ReplaceWithBody(name, sub, obj));
  return { code: result.created ? 201 : 200, body: result.object, warnings: ctx.warnings.length ? ctx.warnings : undefined };
}

/** A PUT: the body replaces the stored object whole. A class, so a PUT makes no closure. */
class ReplaceWithBody implements UpdateSpec {
  readonly ignoresExisting = true;
  constructor(
    readonly name: string,
    readonly subresource: UpdateSubresource | undefined,
    private readonly body: KubeObject,
  ) {}
  transform(): KubeObject {
    return this.body;
  }
}

/** namespaces/finalize: everything but spec.finalizers comes from the stored namespace (finalizeStrategy). */
function finalizeTransform(body: KubeObject, existing: KubeObject | undefined): KubeObject {
  const out = existing ?? body;
  const finalizers = isJsonObject(body.spec) ? body.spec.finalizers : undefined;
  const spec = isJsonObject(out.spec) ? out.spec : (out.spec = {});
  if (finalizers === undefined) delete (spec as Record<string, unknown>).finalizers;
  else (spec as Record<string, unknown>).finalizers = finalizers;
  writableMeta(out).resourceVersion = body.metadata.resourceVersion;
  return out;
}

function validateFinalize(ctx: ResourceContext, name: string): (obj: KubeObject) => void {
  return (obj) =>
    runStage(ctx, Stage.Validation, () => {
      const finalizers = (obj.spec as { finalizers?: unknown } | undefined)?.finalizers;
      if (finalizers === undefined) return;
      const errs = Array.isArray(finalizers)
        ? finalizers.flatMap((f, i) => (typeof f === 'string' && f !== '' ? [] : [fieldErr.invalid(`spec.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified')]))
        : [fieldErr.invalid('spec.finalizers', finalizers, 'must be a list of finalizer names')];
      if (errs.length) throw newInvalid({ group: '', kind: 'Namespace' }, name, errs);
    });
}
