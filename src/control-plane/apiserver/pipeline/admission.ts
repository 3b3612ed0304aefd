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

/** The plugins of a chain that handle one operation, and the stage's pass message naming them. */
interface ChainPlan<P> {
  /** The chain's length when planned: a chain changed in place is planned again. */
  size: number;
  plugins: P[];
  message: string;
}

/**
 * Plans by chain and operation: which plugins handle an operation depends on the operation alone (handles(op)),
 * so each request need not ask every plugin nor join their names again for the trace.
 */
const plans = new WeakMap<readonly unknown[], Map<AdmissionOperation, ChainPlan<unknown>>>();

function chainPlan<P extends { name: string; handles(op: AdmissionOperation): boolean }>(chain: readonly P[], op: AdmissionOperation): ChainPlan<P> {
  let byOp = plans.get(chain);
  if (!byOp) plans.set(chain, (byOp = new Map()));
  const known = byOp.get(op) as ChainPlan<P> | undefined;
  if (known && known.size === chain.length) return known;
  const plugins = chain.filter((p) => p.handles(op));
  const plan: ChainPlan<P> = {
    size: chain.length,
    plugins,
    message: plugins.length > 0 ? `plugins: ${plugins.map((p) => p.name).join(', ')}` : 'no plugins',
  };
  byOp.set(op, plan);
  return plan;
}

export function mutatingAdmissionStage(ctx: ResourceContext, attrs: AdmissionAttributes, sideWrites: SideWrite[]): void {
  const plan = chainPlan(ctx.server.mutatingPlugins, attrs.operation);
  try {
    const actx = admissionContext(ctx, sideWrites);
    const plugins = plan.plugins;
    for (let i = 0; i < plugins.length; i++) plugins[i]!.admit(attrs, actx);
  } catch (err) {
    throw refuseStage(ctx, Stage.MutatingAdmission, err);
  }
  passStage(ctx, Stage.MutatingAdmission, plan.message);
}

export function validatingAdmissionStage(ctx: ResourceContext, attrs: AdmissionAttributes, sideWrites: SideWrite[]): void {
  const plan = chainPlan(ctx.server.validatingPlugins, attrs.operation);
  try {
    const actx = admissionContext(ctx, sideWrites);
    const plugins = plan.plugins;
    for (let i = 0; i < plugins.length; i++) plugins[i]!.validate(attrs, actx);
  } catch (err) {
    throw refuseStage(ctx, Stage.ValidatingAdmission, err);
  }
  passStage(ctx, Stage.ValidatingAdmission, plan.message);
}

/** DELETE admission, run against the stored object before anything changes (AdmissionToValidateObjectDeleteFunc). */
export function deleteAdmission(ctx: ResourceContext, existing: KubeObject, sideWrites: SideWrite[]): void {
  const attrs = admissionAttributes(ctx, AdmissionOperation.Delete, undefined, existing);
  mutatingAdmissionStage(ctx, attrs, sideWrites);
  validatingAdmissionStage(ctx, attrs, sideWrites);
}
