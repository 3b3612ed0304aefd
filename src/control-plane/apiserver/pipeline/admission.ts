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
import { Stage, passStage, refuseStage, type ResourceContext } from './context';

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

/**
 * The plugins' view of the server; rng is an extra the ServiceAccount plugin uses for generated names. A class
 * rather than an object literal with an arrow: no closure to make (and name) for every admission stage.
 */
class WriteAdmissionContext implements AdmissionContext {
  readonly rng: ResourceContext['server']['rng'];
  readonly clock: AdmissionContext['clock'];
  readonly reader: AdmissionContext['reader'];
  readonly registry: AdmissionContext['registry'];
  constructor(ctx: ResourceContext, private readonly sideWrites: SideWrite[]) {
    this.rng = ctx.server.rng;
    this.clock = ctx.server.clock;
    this.reader = ctx.server.reader;
    this.registry = ctx.server.registry;
  }
  addSideWrite(w: SideWrite): void {
    this.sideWrites.push(w);
  }
}

export function admissionContext(ctx: ResourceContext, sideWrites: SideWrite[]): AdmissionContext & { rng: { next(): number } } {
  return new WriteAdmissionContext(ctx, sideWrites);
}

export function mutatingAdmissionStage(ctx: ResourceContext, attrs: AdmissionAttributes, sideWrites: SideWrite[]): void {
  let ran = '';
  let count = 0;
  try {
    const actx = admissionContext(ctx, sideWrites);
    for (const plugin of ctx.server.mutatingPlugins) {
      if (!plugin.handles(attrs.operation)) continue;
      ran = count++ === 0 ? plugin.name : `${ran}, ${plugin.name}`;
      plugin.admit(attrs, actx);
    }
  } catch (err) {
    throw refuseStage(ctx, Stage.MutatingAdmission, err);
  }
  passStage(ctx, Stage.MutatingAdmission, count > 0 ? `plugins: ${ran}` : 'no plugins');
}

export function validatingAdmissionStage(ctx: ResourceContext, attrs: AdmissionAttributes, sideWrites: SideWrite[]): void {
  let ran = '';
  let count = 0;
  try {
    const actx = admissionContext(ctx, sideWrites);
    for (const plugin of ctx.server.validatingPlugins) {
      if (!plugin.handles(attrs.operation)) continue;
      ran = count++ === 0 ? plugin.name : `${ran}, ${plugin.name}`;
      plugin.validate(attrs, actx);
    }
  } catch (err) {
    throw refuseStage(ctx, Stage.ValidatingAdmission, err);
  }
  passStage(ctx, Stage.ValidatingAdmission, count > 0 ? `plugins: ${ran}` : 'no plugins');
}

/** DELETE admission, run against the stored object before anything changes (AdmissionToValidateObjectDeleteFunc). */
export function deleteAdmission(ctx: ResourceContext, existing: KubeObject, sideWrites: SideWrite[]): void {
  const attrs = admissionAttributes(ctx, AdmissionOperation.Delete, undefined, existing);
  mutatingAdmissionStage(ctx, attrs, sideWrites);
  validatingAdmissionStage(ctx, attrs, sideWrites);
}
