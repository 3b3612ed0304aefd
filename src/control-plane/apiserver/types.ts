// Contracts between the API server's request pipeline and the pieces it is made of: registry strategies,
// admission plugins, the authorizer and the decoder. Each piece lives in its own folder; server.ts composes them.
import type { FieldError } from '../../shared/api/field-errors';
import type { ResourceType, ResourceRegistry } from '../../shared/api/resources';
import type { GroupResource, KubeObject } from '../../shared/api/types';
import type { SharingNode } from './patch/json-value';
import type { Clock } from '../sim/clock';
import type { Rng } from '../sim/rng';
import type { TraceSink } from '../../shared/protocol/trace';

// ---------------------------------------------------------------- requests

export {
  Verb,
  PatchType,
  defaultAdminUser,
  type FieldValidation,
  type PropagationPolicy,
  type UserInfo,
  type DeleteOptions,
  type ApiRequest,
  type ApiResponse,
} from '../../shared/api/request';
import type { ApiRequest, UserInfo } from '../../shared/api/request';

/** Request identity for traces: every stage decision carries it so the UI can follow one request. */
export interface RequestScope {
  requestId: string;
  request: ApiRequest;
  user: UserInfo;
  resourceType: ResourceType;
  /** Simulated time the request began, ms. */
  startedAt: number;
}

// ---------------------------------------------------------------- storage reads for plugins

/** Read access to current objects, for admission plugins, the authorizer and strategies. */
export interface ObjectReader {
  get(gr: GroupResource, namespace: string | undefined, name: string): KubeObject | undefined;
  /** Objects of a resource in one namespace (or all, when namespace is undefined). */
  list(gr: GroupResource, namespace?: string): KubeObject[];
}

// ---------------------------------------------------------------- registry strategies

export interface StrategyContext {
  clock: Clock;
  reader: ObjectReader;
  registry: ResourceRegistry;
  resourceType: ResourceType;
  subresource?: 'status' | 'scale' | 'binding' | 'finalize' | 'eviction';
}

/**
 * Per-resource behaviour, like pkg/registry/<group>/<resource>/strategy.go. Objects passed in are private
 * copies the strategy may mutate, but for the frozen parts an update kept (keptStoredParts).
 */
export interface ResourceStrategy {
  /** SetDefaults_*: applied after decoding and again after mutating admission. */
  applyDefaults(obj: KubeObject, ctx: StrategyContext): void;
  /** Clears status on create where the kind has a status subresource, sets generation = 1, etc. */
  prepareForCreate(obj: KubeObject, ctx: StrategyContext): void;
  /** Copies status from old where the kind has a status subresource, bumps generation when spec changed, etc. */
  prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  validate(obj: KubeObject, ctx: StrategyContext): FieldError[];
  validateUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  /** Whether an update without resourceVersion is allowed (last write wins). */
  allowUnconditionalUpdate: boolean;
  /** Whether a create/update may be submitted with a metadata.name the server generated (always true today). */
  namespaceScoped: boolean;
  /** status subresource: copy everything but status from old, then validate. Absent = no status subresource. */
  status?: {
    prepareForUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
    validateUpdate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  };
  /** scale subresource (autoscaling/v1 Scale). Absent = no scale subresource. */
  scale?: {
    specReplicasPath: string; // e.g. ".spec.replicas"
    statusReplicasPath: string; // e.g. ".status.replicas"
    /** The label selector in string form, as Scale.status.selector carries it. */
    selector(obj: KubeObject): string;
  };
  /** Default grace period for DELETE when the request gives none (30 s for pods from the pod spec, 0 otherwise). */
  defaultGracePeriodSeconds(obj: KubeObject): number;
  /**
   * rest.GarbageCollectionDeleteStrategy: what a DELETE that names no propagation policy does to dependents.
   * Absent = DeleteDependents (background). batch/v1 Jobs and v1 ReplicationControllers orphan, for backward
   * compatibility; a Job delete then warns.
   */
  defaultGarbageCollectionPolicy?: { policy: 'OrphanDependents'; warning?: string };
  /** Fields the kind supports in field selectors, with how to read them (metadata.name/namespace always). */
  selectableFields?(obj: KubeObject): Record<string, string>;
  /** One field of selectableFields (metadata ones included) without computing the rest; undefined: not one of them. */
  selectableField?(obj: KubeObject, field: string): string | undefined;
  /**
   * Where the stored copy of a created or updated object takes frozen values shared with other objects of the
   * kind for its repeated subtrees (SharedSubtrees). The same JSON; the object (the answer) is not modified.
   */
  storedSharing?: SharingNode;
  /**
   * Top-level parts (["spec"]) an update body may hand back from a stored object of the kind as they are: the
   * decoder takes such a part without copying it, so it stays frozen, and the kind's defaulting, admission and
   * PrepareForUpdate leave a frozen part alone (it was defaulted and admitted when it was stored).
   */
  keptStoredParts?: readonly string[];
}

// ---------------------------------------------------------------- admission

export const AdmissionOperation = { Create: 'CREATE', Update: 'UPDATE', Delete: 'DELETE', Connect: 'CONNECT' } as const;
export type AdmissionOperation = (typeof AdmissionOperation)[keyof typeof AdmissionOperation];

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  resourceType: ResourceType;
  subresource?: string;
  namespace: string; // "" for cluster-scoped
  name: string;
  /** The object being written (mutable for mutating plugins); undefined for DELETE. */
  object?: KubeObject;
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
}

export interface AdmissionContext {
  clock: Clock;
  /** The cluster's seeded randomness (generated volume names and the like). */
  rng?: Rng;
  reader: ObjectReader;
  registry: ResourceRegistry;
  /**
   * Extra writes to commit in the same store transaction as the object (e.g. ResourceQuota status.used).
   * Applied only if the request is not dry-run and the main write succeeds.
   */
  addSideWrite(write: SideWrite): void;
}

export interface SideWrite {
  gr: GroupResource;
  namespace: string | undefined;
  name: string;
  /** Computes the new object from the current one (undefined = it does not exist); return undefined to skip. */
  mutate(current: KubeObject | undefined): KubeObject | undefined;
}

/** A plugin refuses by throwing a StatusError (usually Forbidden, 403). */
export interface MutatingAdmissionPlugin {
  readonly name: string;
  handles(op: AdmissionOperation): boolean;
  admit(attrs: AdmissionAttributes, ctx: AdmissionContext): void;
}

export interface ValidatingAdmissionPlugin {
  readonly name: string;
  handles(op: AdmissionOperation): boolean;
  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): void;
}

// ---------------------------------------------------------------- authorization

export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  /** Resource requests. */
  group?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Non-resource requests ("/healthz"). */
  path?: string;
}

export const Decision = { Allow: 'Allow', Deny: 'Deny', NoOpinion: 'NoOpinion' } as const;
export type Decision = (typeof Decision)[keyof typeof Decision];

export interface AuthorizationResult {
  decision: Decision;
  /** Why: the matching binding and role for Allow, empty otherwise (for the trace and `kubectl auth can-i`). */
  reason: string;
}

export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): AuthorizationResult;
}

// ---------------------------------------------------------------- decoding

export interface DecodeResult {
  object: KubeObject;
  /** Strict-decoding findings in Warn mode, as `unknown field "spec.x"` strings. */
  warnings: string[];
}

export interface ServerDeps {
  clock: Clock;
  registry: ResourceRegistry;
  trace: TraceSink;
}
