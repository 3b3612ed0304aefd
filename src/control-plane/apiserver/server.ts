// The API server: every read and write of the cluster passes through here, synchronously, stage by stage
// (see README.md). handle() serves get/list/create/update/patch/delete/deletecollection; watch() serves
// list+watch; both record the request, each stage's decision and the response on the trace.
import type { ResourceRegistry, ResourceType } from '../../shared/api/resources';
import { StatusError, newBadRequest, newMethodNotAllowed, toStatus, type Status } from '../../shared/api/status';
import { parseApiVersion, type KubeObject, type WatchEvent } from '../../shared/api/types';
import type { TraceSink } from '../../shared/protocol/trace';
import type { Clock } from '../sim/clock';
import { createRng, type Rng } from '../sim/rng';
import type { Store } from '../store/types';
import { withCause } from '../trace/trace-bus';
import { defaultAdmissionChain } from './admission/chain';
import { unknownKindError } from './decode/decoder';
import { RBACAuthorizer } from './rbac/authorizer';
import { bootstrapPolicy } from './rbac/bootstrap-policy';
import { strategyFor } from './registry/strategies';
import { kubernetesServiceObjects } from './registry/core/service/kubernetes-service';
import {
  defaultAdminUser,
  Verb,
  type ApiRequest,
  type ApiResponse,
  type Authorizer,
  type MutatingAdmissionPlugin,
  type ObjectReader,
  type ResourceStrategy,
  type UserInfo,
  type ValidatingAdmissionPlugin,
} from './types';
import { crdSchemaHints } from './crd/schema-hints';
import { CrdRegistrar } from './crd/registrar';
import { deleteCustomResourceDefinition, isCustomResourceDefinitions } from './crd/delete';
import { conversionFor } from './conversion/served-versions';
import { handleAtServedVersion, watchHandlerAtServedVersion } from './conversion/converted-request';
import { accessReviewHandler, isAccessReview } from './handlers/access-review';
import { bindingHandler, isBinding } from './handlers/binding';
import { createHandler } from './handlers/create';
import { evictionHandler, isEviction } from './handlers/eviction';
import { deleteCollectionHandler } from './handlers/delete-collection';
import { deleteObject, type DeleteOutcome } from './handlers/delete';
import { discoveryDocuments, type DiscoveryDocuments } from './handlers/discovery';
import { getHandler, listHandler } from './handlers/list';
import { deleteNamespace, isNamespaces } from './handlers/namespace';
import { patchHandler } from './handlers/patch';
import { updateHandler } from './handlers/update';
import { startWatch, type ServerWatch } from './handlers/watch';
import { FieldManager } from './patch/apply/field-manager';
import { builtinSchemaHints, type SchemaHints } from './patch/list-types';
import { isJsonObject } from './patch/json-value';
import { authenticationStage } from './pipeline/authentication';
import { authorizationStage } from './pipeline/authorization';
import { emitRequest, emitResponse, type RequestContext, type ResourceContext, type ServerParts } from './pipeline/context';
import { impersonationStage } from './pipeline/impersonation';
import { StoreObjectReader } from './storage/reader';

export interface APIServerOptions {
  clock: Clock;
  store: Store;
  registry: ResourceRegistry;
  trace: TraceSink;
  rng: Rng;
  /** Defaults to RBAC over this server's objects (system:masters may do anything). */
  authorizer?: Authorizer;
  /** Default: the admission plugins a kubeadm v1.32 server enables (admission/chain.ts). */
  mutatingPlugins?: MutatingAdmissionPlugin[];
  validatingPlugins?: ValidatingAdmissionPlugin[];
}

/** The identity the server uses for its own writes (bootstrap, the apiextensions controllers). */
export const apiserverUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

export const bootstrapNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

function notFoundResource(): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  };
  return new StatusError(status);
}

function isDryRun(req: ApiRequest): boolean {
  const d = req.options?.dryRun as unknown;
  return d === true || (Array.isArray(d) && d.includes('All'));
}

export class APIServer {
  readonly reader: ObjectReader;
  readonly authorizer: Authorizer;
  private user: UserInfo = defaultAdminUser;
  private requestCount = 0;
  private readonly parts: ServerParts;
  private readonly crds: CrdRegistrar;
  private readonly strategies = new Map<string, ResourceStrategy>();
  private readonly hints = new Map<string, SchemaHints>();
  private readonly fieldManagers = new Map<string, FieldManager>();
  /**
   * strategyFor by type object: the registry hands out the same object for a type on every request, so most
   * lookups need not build the string key. Dropped whole on any registry change (the string-keyed caches stay
   * the truth).
   */
  private strategiesByType = new WeakMap<ResourceType, ResourceStrategy>();

  constructor(private readonly options: APIServerOptions) {
    const { clock, store, registry, trace, rng } = options;
    this.reader = new StoreObjectReader(store, registry);
    this.authorizer = options.authorizer ?? new RBACAuthorizer(this.reader);
    const chain = options.mutatingPlugins && options.validatingPlugins ? undefined : defaultAdmissionChain(() => rng.next());
    this.crds = new CrdRegistrar({ store, registry, clock, trace, request: (req) => this.handle({ ...req, user: apiserverUser }) });
    this.parts = {
      clock,
      store,
      registry,
      trace,
      rng,
      reader: this.reader,
      authorizer: this.authorizer,
      mutatingPlugins: options.mutatingPlugins ?? chain!.mutating,
      validatingPlugins: options.validatingPlugins ?? chain!.validating,
      strategyFor: (rt) => this.strategyFor(rt),
      schemaHintsFor: (rt) => this.schemaHintsFor(rt),
      fieldManagerFor: (rt) => this.fieldManagerFor(rt),
      customSchemaFor: (rt) => (rt.custom ? this.crds.info(rt)?.schema : undefined),
      afterCommit: (rt) => this.crds.afterCommit(rt),
    };
    // Custom resource types come and go with their CRDs; their cached strategies and schemas go with them.
    registry.onChange(() => {
      this.strategiesByType = new WeakMap();
      for (const cache of [this.strategies, this.hints, this.fieldManagers]) {
        for (const key of [...cache.keys()]) if (key.startsWith('custom:')) cache.delete(key);
      }
    });
    // A server over a restored store serves the custom resources of the CRDs it holds.
    this.crds.sync();
  }

  /** The acting user for requests that name none (the UI's "act as" switch). */
  get currentUser(): UserInfo {
    return this.user;
  }

  set currentUser(user: UserInfo) {
    this.user = user;
  }

  // ------------------------------------------------------------ requests

  handle(req: ApiRequest): ApiResponse {
    if (req.verb === Verb.Watch) throw newBadRequest('watch requests are served by APIServer.watch');
    const storage = this.options.registry.forGroupResource(req);
    const conversion = conversionFor(req, storage);
    if (conversion) return handleAtServedVersion(this, req, conversion, storage!);
    const ctx = this.begin(req);
    return withCause(this.options.trace, ctx.requestSeq, () => {
      try {
        // The access reviews (kubectl auth can-i) are answered by the authorizer, not by a stored resource.
        const response = isAccessReview(req) ? this.review(ctx) : this.dispatch(this.admit(ctx, storage));
        emitResponse(ctx, response.code);
        return response;
      } catch (err) {
        throw this.fail(ctx, err);
      }
    });
  }

  watch(req: ApiRequest, handler: (events: WatchEvent[]) => void): ServerWatch {
    const storage = this.options.registry.forGroupResource(req);
    const conversion = conversionFor(req, storage);
    if (conversion) return this.watch({ ...req, version: storage!.version }, watchHandlerAtServedVersion(handler, conversion));
    const ctx = this.begin({ ...req, verb: Verb.Watch });
    return withCause(this.options.trace, ctx.requestSeq, () => {
      try {
        const rctx = this.admit(ctx, storage);
        const watch = startWatch(rctx, handler);
        emitResponse(ctx, 200);
        return watch;
      } catch (err) {
        throw this.fail(ctx, err);
      }
    });
  }

  private begin(req: ApiRequest): RequestContext {
    const id = `req-${++this.requestCount}`;
    const requestSeq = emitRequest(this.options.trace, id, req, req.user ?? this.user);
    return { id, req, requestSeq, user: req.user ?? this.user, server: this.parts, dryRun: isDryRun(req), warnings: [] };
  }

  private fail(ctx: RequestContext, err: unknown): StatusError {
    const status = toStatus(err);
    emitResponse(ctx, status.code, { reason: status.reason, message: status.message });
    return err instanceof StatusError ? err : new StatusError(status);
  }

  /** An access review: the filter chain, then the authorizer's answer about the subject it names. */
  private review(ctx: RequestContext): ApiResponse {
    authenticationStage(ctx, this.user);
    impersonationStage(ctx);
    authorizationStage(ctx);
    return accessReviewHandler(ctx);
  }

  /** The filter chain: authentication → impersonation → authorization, then the resource the request names. */
  /** storage: the registry's type for the request's group and resource, as handle() and watch() looked it up. */
  private admit(ctx: RequestContext, storage: ResourceType | undefined): ResourceContext {
    authenticationStage(ctx, this.user);
    impersonationStage(ctx);
    // Resolve first (the namespace of a create may come from the body), but refuse unknown resources only
    // after authorization, as the real server's handler does.
    let resolved: ResourceContext | undefined;
    let resolveError: unknown;
    try {
      resolved = this.resolve(ctx, storage);
    } catch (err) {
      resolveError = err;
    }
    const authzCtx: RequestContext = resolved?.namespace && !ctx.req.namespace ? { ...ctx, req: { ...ctx.req, namespace: resolved.namespace } } : ctx;
    authorizationStage(authzCtx);
    if (!resolved) throw resolveError;
    resolved.user = ctx.user;
    return resolved;
  }

  private resolve(ctx: RequestContext, rt: ResourceType | undefined): ResourceContext {
    const req = ctx.req;
    const body = isJsonObject(req.body) ? req.body : undefined;
    const bodyKind = typeof body?.kind === 'string' ? body.kind : undefined;
    const bodyApiVersion = typeof body?.apiVersion === 'string' ? body.apiVersion : undefined;
    if (!rt || rt.version !== req.version) {
      if (bodyKind && bodyApiVersion && (req.verb === Verb.Create || req.verb === Verb.Update || req.verb === Verb.Patch)) {
        const gv = parseApiVersion(bodyApiVersion);
        if (!this.options.registry.forKind({ ...gv, kind: bodyKind })) throw unknownKindError(bodyApiVersion, bodyKind);
      }
      throw notFoundResource();
    }
    if (!rt.verbs.includes(req.verb)) throw newMethodNotAllowed(rt, req.verb);
    const sub = req.subresource as string | undefined;
    if (sub !== undefined) {
      const known =
        (sub === 'status' && rt.subresources.status) ||
        (sub === 'scale' && rt.subresources.scale) ||
        (sub === 'finalize' && rt.group === '' && rt.resource === 'namespaces' && req.verb === Verb.Update) ||
        (sub === 'binding' && rt.group === '' && rt.resource === 'pods' && req.verb === Verb.Create) ||
        (sub === 'eviction' && rt.group === '' && rt.resource === 'pods' && req.verb === Verb.Create);
      if (!known) throw notFoundResource();
      const allowed = sub === 'binding' || sub === 'eviction' ? [Verb.Create] : [Verb.Get, Verb.Update, Verb.Patch];
      if (!(allowed as string[]).includes(req.verb)) throw newMethodNotAllowed(rt, req.verb);
    }
    let namespace: string | undefined;
    if (rt.namespaced) {
      namespace = req.namespace || undefined;
      const named = req.verb !== Verb.List && req.verb !== Verb.Watch && req.verb !== Verb.DeleteCollection;
      if (!namespace && named) {
        const meta = body && isJsonObject(body.metadata) ? body.metadata : undefined;
        namespace = typeof meta?.namespace === 'string' && meta.namespace ? meta.namespace : undefined;
        if (!namespace) throw newBadRequest('Namespace parameter required.');
      }
    }
    if (rt.custom && req.verb === Verb.Create && this.crds.isTerminating(rt)) {
      throw newMethodNotAllowed(rt, 'create not allowed while custom resource definition is terminating');
    }
    // Field by field rather than a spread of ctx (every request passes here); RequestContext has no other fields.
    return {
      id: ctx.id,
      req: ctx.req,
      requestSeq: ctx.requestSeq,
      user: ctx.user,
      server: ctx.server,
      dryRun: ctx.dryRun,
      warnings: ctx.warnings,
      rt,
      strategy: this.strategyFor(rt),
      namespace,
    };
  }

  private dispatch(ctx: ResourceContext): ApiResponse {
    switch (ctx.req.verb) {
      case Verb.Get:
        return getHandler(ctx);
      case Verb.List:
        return listHandler(ctx);
      case Verb.Create:
        if (isBinding(ctx)) return bindingHandler(ctx);
        return isEviction(ctx) ? evictionHandler(ctx) : createHandler(ctx);
      case Verb.Update:
        return updateHandler(ctx);
      case Verb.Patch:
        return patchHandler(ctx);
      case Verb.Delete: {
        const outcome = this.deleter(ctx)(ctx, ctx.req.name ?? '', ctx.req.options ?? {});
        // handlers/delete.go answers 202 only when a cascading delete (orphanDependents=false) is still pending.
        const code = !outcome.deleted && ctx.req.options?.orphanDependents === false ? 202 : 200;
        return { code, body: outcome.body, warnings: ctx.warnings.length ? ctx.warnings : undefined };
      }
      case Verb.DeleteCollection:
        return deleteCollectionHandler(ctx, this.deleter(ctx));
      default:
        throw newBadRequest(`unsupported verb ${JSON.stringify(ctx.req.verb)}`);
    }
  }

  private deleter(ctx: ResourceContext): (ctx: ResourceContext, name: string, options: NonNullable<ApiRequest['options']>) => DeleteOutcome {
    if (isNamespaces(ctx)) return deleteNamespace;
    if (isCustomResourceDefinitions(ctx)) return deleteCustomResourceDefinition;
    return deleteObject;
  }

  // ------------------------------------------------------------ per-kind parts

  private cacheKey(rt: ResourceType): string {
    return `${rt.custom ? 'custom:' : ''}${rt.group}/${rt.version}/${rt.resource}/${rt.kind}`;
  }

  private strategyFor(rt: ResourceType): ResourceStrategy {
    const known = this.strategiesByType.get(rt);
    if (known) return known;
    const s = this.strategyForKey(rt);
    this.strategiesByType.set(rt, s);
    return s;
  }

  private strategyForKey(rt: ResourceType): ResourceStrategy {
    const key = this.cacheKey(rt);
    const cached = this.strategies.get(key);
    if (cached) return cached;
    let s: ResourceStrategy = strategyFor(rt);
    // A custom resource's scale paths come from its CRD, which the generic custom-resource strategy cannot see.
    const scale = rt.custom ? this.crds.info(rt)?.scale : undefined;
    if (scale && !s.scale) {
      s = {
        ...s,
        scale: {
          specReplicasPath: scale.specReplicasPath,
          statusReplicasPath: scale.statusReplicasPath,
          selector: (obj) => labelSelectorAt(obj, scale.labelSelectorPath),
        },
      };
    }
    this.strategies.set(key, s);
    return s;
  }

  schemaHintsFor(rt: ResourceType): SchemaHints {
    const key = this.cacheKey(rt);
    let h = this.hints.get(key);
    if (!h) {
      h = rt.custom ? crdSchemaHints(rt.kind, this.crds.info(rt)?.schema) : builtinSchemaHints(rt.kind);
      this.hints.set(key, h);
    }
    return h;
  }

  private fieldManagerFor(rt: ResourceType): FieldManager {
    const key = this.cacheKey(rt);
    let f = this.fieldManagers.get(key);
    if (!f) {
      f = new FieldManager(this.schemaHintsFor(rt));
      this.fieldManagers.set(key, f);
    }
    return f;
  }

  // ------------------------------------------------------------ discovery and bootstrap

  /** The APIGroupList / APIResourceList documents kubectl api-versions and api-resources read. */
  discovery(): DiscoveryDocuments {
    return discoveryDocuments(this.options.registry);
  }

  /**
   * What a fresh API server creates: the namespaces every cluster has, the RBAC bootstrap policy and the
   * default/kubernetes Service with its endpoints. Each
   * object goes through the normal create path as system:apiserver; objects already there are left alone, so
   * a restarted server changes nothing. `addons` are cluster add-on objects created the same way after them
   * (minikube's addon manager: the ingress addon's IngressClass).
   */
  bootstrap(addons: readonly KubeObject[] = []): void {
    const { registry } = this.options;
    const create = (obj: KubeObject): void => {
      const gv = parseApiVersion(obj.apiVersion);
      const rt = registry.forKind({ ...gv, kind: obj.kind });
      if (!rt) return;
      const namespace = rt.namespaced ? obj.metadata.namespace : undefined;
      if (this.reader.get(rt, namespace, obj.metadata.name ?? '')) return;
      this.handle({
        verb: Verb.Create,
        group: rt.group,
        version: rt.version,
        resource: rt.resource,
        namespace,
        body: obj,
        user: apiserverUser,
        options: { fieldManager: 'kube-apiserver' },
      });
    };
    for (const name of bootstrapNamespaces) create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    for (const obj of bootstrapPolicy()) create(obj);
    // The kubernetes service controller's default/kubernetes Service, Endpoints and EndpointSlice. Their uids come
    // from a side stream derived from (not drawn from) the cluster's rng, so adding them did not shift every name
    // generated after bootstrap.
    const parts = this.parts as { rng: Rng };
    const main = parts.rng;
    parts.rng = createRng((main.state() ^ 0x6b756265) >>> 0);
    try {
      for (const obj of [...kubernetesServiceObjects(), ...addons]) create(obj);
    } finally {
      parts.rng = main;
    }
  }
}

/** A CR's Scale selector: the string at labelSelectorPath (the CRD says it must be in string form). */
function labelSelectorAt(obj: KubeObject, path: string | undefined): string {
  if (!path) return '';
  let cur: unknown = obj;
  for (const p of path.split('.').filter(Boolean)) {
    if (!isJsonObject(cur)) return '';
    cur = cur[p];
  }
  return typeof cur === 'string' ? cur : '';
}

