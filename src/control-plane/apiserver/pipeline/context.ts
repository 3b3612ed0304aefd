// What every pipeline stage and handler works with: the request, who makes it, the resource it addresses, and
// the server's parts. runStage records each stage's decision as an api.stage trace event, so the UI can show
// where a request passed and where it was refused.
import type { ResourceRegistry, ResourceType } from '../../../shared/api/resources';
import { StatusError, toStatus } from '../../../shared/api/status';
import { TraceKind, type TraceSink } from '../../../shared/protocol/trace';
import { wantsEvent } from '../../trace/trace-bus';
import type { Clock } from '../../sim/clock';
import type { Rng } from '../../sim/rng';
import type { Store } from '../../store/types';
import type { SchemaHints } from '../patch/list-types';
import type { FieldManager } from '../patch/apply/field-manager';
import type {
  ApiRequest,
  Authorizer,
  MutatingAdmissionPlugin,
  ObjectReader,
  ResourceStrategy,
  StrategyContext,
  UserInfo,
  ValidatingAdmissionPlugin,
} from '../types';

/** Stage names as the trace carries them: ApiStage of shared/protocol/trace.ts, plus impersonation. */
export const Stage = {
  Authentication: 'authentication',
  Impersonation: 'impersonation',
  Authorization: 'authorization',
  Decode: 'decode',
  Defaulting: 'defaulting',
  MutatingAdmission: 'mutating-admission',
  Validation: 'validation',
  ValidatingAdmission: 'validating-admission',
  Persistence: 'persistence',
} as const;
export type Stage = (typeof Stage)[keyof typeof Stage];

/** The server's parts, as handlers see them. */
export interface ServerParts {
  clock: Clock;
  store: Store;
  registry: ResourceRegistry;
  trace: TraceSink;
  rng: Rng;
  reader: ObjectReader;
  authorizer: Authorizer;
  mutatingPlugins: readonly MutatingAdmissionPlugin[];
  validatingPlugins: readonly ValidatingAdmissionPlugin[];
  /** Cached per resource type. */
  strategyFor(rt: ResourceType): ResourceStrategy;
  schemaHintsFor(rt: ResourceType): SchemaHints;
  fieldManagerFor(rt: ResourceType): FieldManager;
  /** The openAPIV3Schema of a custom resource's served version (undefined for built-ins). */
  customSchemaFor(rt: ResourceType): object | undefined;
  /** Called after a revision that wrote objects of rt was committed (the CRD registrar listens). */
  afterCommit(rt: ResourceType): void;
}

export interface RequestContext {
  readonly id: string;
  readonly req: ApiRequest;
  /** seq of the api.request trace event: the cause of every stage event. */
  readonly requestSeq: number;
  user: UserInfo;
  readonly server: ServerParts;
  readonly dryRun: boolean;
  readonly warnings: string[];
  rt?: ResourceType;
  strategy?: ResourceStrategy;
}

/** The request after resource resolution: rt and strategy are known. */
export interface ResourceContext extends RequestContext {
  rt: ResourceType;
  strategy: ResourceStrategy;
  /** The namespace the request addresses: undefined for cluster-scoped resources and all-namespace lists. */
  namespace: string | undefined;
}

export function strategyContext(ctx: ResourceContext, subresource?: 'status' | 'scale'): StrategyContext {
  return {
    clock: ctx.server.clock,
    reader: ctx.server.reader,
    registry: ctx.server.registry,
    resourceType: ctx.rt,
    subresource,
  };
}

/** The resource as the trace names it: "pods" or "pods/status". */
function traceResource(req: ApiRequest): string {
  return req.subresource ? `${req.resource}/${req.subresource}` : req.resource;
}

export function emitStage(ctx: RequestContext, stage: Stage, decision: 'pass' | 'refuse', message?: string, extra?: Record<string, unknown>): void {
  if (!wantsEvent(ctx.server.trace, TraceKind.ApiStage)) return;
  // Built field by field (no spreads: this runs ~9 times per request), in the order the UI and histories see.
  const req = ctx.req;
  const data: Record<string, unknown> = {
    stage,
    decision,
    verb: req.verb,
    resource: traceResource(req),
    group: req.group,
    namespace: req.namespace ?? '',
    name: req.name ?? '',
  };
  if (extra) for (const k of Object.keys(extra)) data[k] = extra[k];
  if (message) data.message = message;
  ctx.server.trace.emit({ kind: TraceKind.ApiStage, component: 'apiserver', requestId: ctx.id, cause: ctx.requestSeq, data });
}

/** Records a stage's pass (the pipeline's own stages call this instead of runStage: no closures per request). */
export function passStage(ctx: RequestContext, stage: Stage, message?: string): void {
  emitStage(ctx, stage, 'pass', message);
}

/** Records a stage's refusal with the Status message, and gives the error to rethrow (runStage's catch). */
export function refuseStage(ctx: RequestContext, stage: Stage, err: unknown): StatusError {
  const status = toStatus(err);
  emitStage(ctx, stage, 'refuse', status.message, { code: status.code, reason: status.reason });
  return err instanceof StatusError ? err : new StatusError(status);
}

/**
 * Runs one stage: records "pass" when fn returns, "refuse" (with the Status message) when it throws, and
 * rethrows. fn may return a message for the pass event through the note callback.
 */
export function runStage<T>(ctx: RequestContext, stage: Stage, fn: (note: (message: string) => void) => T): T {
  let message: string | undefined;
  let result: T;
  try {
    result = fn((m) => {
      message = m;
    });
  } catch (err) {
    throw refuseStage(ctx, stage, err);
  }
  emitStage(ctx, stage, 'pass', message);
  return result;
}

/** A create names its object in the body (a generateName create's name is known only at its response). */
function nameInBody(body: unknown): string {
  const name = (body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
  return typeof name === 'string' ? name : '';
}

export function emitRequest(trace: TraceSink, id: string, req: ApiRequest, user: UserInfo | undefined): number {
  return trace.emit({
    kind: TraceKind.ApiRequest,
    component: 'apiserver',
    requestId: id,
    data: {
      verb: req.verb,
      resource: traceResource(req),
      group: req.group,
      version: req.version,
      namespace: req.namespace ?? '',
      name: req.name ?? nameInBody(req.body),
      user: user?.username,
      dryRun: !!req.options?.dryRun,
    },
  });
}

export function emitResponse(ctx: RequestContext, code: number, extra?: Record<string, unknown>): void {
  if (!wantsEvent(ctx.server.trace, TraceKind.ApiResponse)) return;
  const req = ctx.req;
  const data: Record<string, unknown> = {
    verb: req.verb,
    resource: traceResource(req),
    group: req.group,
    namespace: req.namespace ?? '',
    name: req.name ?? '',
    code,
  };
  if (extra) for (const k of Object.keys(extra)) data[k] = extra[k];
  ctx.server.trace.emit({ kind: TraceKind.ApiResponse, component: 'apiserver', requestId: ctx.id, cause: ctx.requestSeq, data });
}
