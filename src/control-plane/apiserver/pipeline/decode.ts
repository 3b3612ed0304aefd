// Stage 4: the body becomes an object of the addressed kind. Strict field validation (the default for our
// clients, as kubectl's --validate=strict) refuses unknown and duplicate fields with a 400; Warn turns them into
// response warnings; Ignore drops them silently. A kind the server does not serve (a removed API version, a
// custom resource without its CRD) is `no matches for kind "X" in version "Y"`.
import type { KubeObject } from '../../../shared/api/types';
import { decodeObject } from '../decode/decoder';
import type { DecodeResult, FieldValidation } from '../types';
import { Stage, passStage, refuseStage, type ResourceContext } from './context';

export function fieldValidationOf(ctx: ResourceContext): FieldValidation {
  return ctx.req.options?.fieldValidation ?? 'Strict';
}

/** Decodes a create/update body. */
export function decodeStage(ctx: ResourceContext, input: { body?: unknown; rawBody?: string; keepStored?: readonly string[] }): KubeObject {
  let result: DecodeResult;
  try {
    result = decodeObject({
      body: input.body,
      rawBody: input.rawBody,
      resourceType: ctx.rt,
      fieldValidation: fieldValidationOf(ctx),
      customSchema: ctx.server.customSchemaFor(ctx.rt),
      keepStored: input.keepStored,
    });
  } catch (err) {
    throw refuseStage(ctx, Stage.Decode, err);
  }
  if (result.warnings.length > 0) ctx.warnings.push(...result.warnings);
  passStage(ctx, Stage.Decode, result.warnings.length > 0 ? result.warnings.join('; ') : undefined);
  return result.object;
}
