// Admission: the mutating chain may change the object (and queue writes to other objects, such as quota usage,
// that commit in the same transaction); the validating chain may only refuse. Each chain stops at the first
// plugin that throws, as chainAdmissionHandler does.
import type { KubeObject } from '../../../shared/api/types';
import {
  AdmissionOperation,
  type AdmissionAttributes,
  type AdmissionContext,
  type SideWrite,
} from '../types';
import { Stage, runStage, type ResourceContext } from './context';

export function admissionAttributes(
  ctx: ResourceContext,
  operation: AdmissionOperation,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  subresource?: string,
): AdmissionAttributes {
  const name = object?.metadata?.name || oldObject?.metadata?.name || ctx.req.name || '';
  return {
    operation,
    resourceType: ctx.rt,
    subresource,
    namespace: ctx.rt.namespaced ? (ctx.namespace ?? object?.metadata?.namespace ?? '') : '',
    name,
    object,
    oldObject,
    user: ctx.user,
    dryRun: ctx.dryRun,
  };
}

/** The plugins' view of the server; rng is an extra the ServiceAccount plugin uses for generated names. */
export function admissionContext(ctx: ResourceContext, sideWrites: SideWrite[]): AdmissionContext & { rng: { next(): number } } {
  return {
    rng: ctx.server.rng,
    clock: ctx.server.clock,
    reader: ctx.server.reader,
    registry: ctx.server.registry,
    addSideWrite: (w) => sideWrites.push(w),
  };
}

export function mutatingAdmissionStage(ctx: ResourceContext, attrs: AdmissionAttributes, sideWrites: SideWrite[]): void {
  runStage(ctx, Stage.MutatingAdmission, (note) => {
    const actx = admissionContext(ctx, sideWrites);
    const ran: string[] = [];
    for (const plugin of ctx.server.mutatingPlugins) {
      if (!plugin.handles(attrs.operation)) continue;
      ran.push(plugin.name);
      try {
        plugin.admit(attrs, actx);
      } catch (err) {
        note(plugin.name);
        throw err;
      }
    }
    note(ran.length ? `plugins: ${ran.join(', ')}` : 'no plugins');
  });
}

export function validatingAdmissionStage(ctx: ResourceContext, attrs: AdmissionAttributes, sideWrites: SideWrite[]): void {
  runStage(ctx, Stage.ValidatingAdmission, (note) => {
    const actx = admissionContext(ctx, sideWrites);
    const ran: string[] = [];
    for (const plugin of ctx.server.validatingPlugins) {
      if (!plugin.handles(attrs.operation)) continue;
      ran.push(plugin.name);
      plugin.validate(attrs, actx);
    }
    note(ran.length ? `plugins: ${ran.join(', ')}` : 'no plugins');
  });
}

/** DELETE admission, run against the stored object before anything changes (AdmissionToValidateObjectDeleteFunc). */
export function deleteAdmission(ctx: ResourceContext, existing: KubeObject, sideWrites: SideWrite[]): void {
  const attrs = admissionAttributes(ctx, AdmissionOperation.Delete, undefined, existing);
  mutatingAdmissionStage(ctx, attrs, sideWrites);
  validatingAdmissionStage(ctx, attrs, sideWrites);
}
