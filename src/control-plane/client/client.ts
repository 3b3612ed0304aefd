// The in-process client: the only way components read from and write to the cluster outside their caches.
// Every call becomes an ApiRequest through APIServer.handle (so authentication, RBAC, admission and the trace
// see it) and is synchronous: it returns the response body or throws the server's StatusError.
//
//   client.deployments.get('web', { namespace: 'default' })
//   client.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).list({ labelSelector: 'app=web' })
//   client.withUser({ username: 'jane', groups: [] }).pods.create(pod)      // kubectl --as jane
import type { Scale } from 'kubernetes-types/autoscaling/v1';
import type { Status } from '../../shared/api/status';
import type { GroupVersionResource, KubeList, KubeObject, WatchEvent } from '../../shared/api/types';
import type {
  ApiRequest,
  ApiResponse,
  DeleteOptions,
  FieldValidation,
  PatchType,
  UserInfo,
} from '../apiserver/types';
import { Verb, PatchType as PatchTypes } from '../apiserver/types';
import { typedResources, type ObjectOf, type TypedResourceName } from './resources';

export type WatchHandler = (events: WatchEvent[]) => void;

export interface WatchHandle {
  stop(): void;
}

/** What the client needs of the API server (APIServer implements it). */
export interface ApiServerPort {
  handle(req: ApiRequest): ApiResponse;
  watch(req: ApiRequest, handler: WatchHandler): WatchHandle;
  /** The User-Agent requests through this port carry (a component's connection has one). */
  readonly userAgent?: string;
}

/** An object as the server returns it: the kubernetes-types type with the envelope fields present. */
export type Typed<T> = T & KubeObject;

/** What a typed client accepts: the kubernetes-types shape, or any API object (controllers build them generically). */
export type Input<T> = T | KubeObject;

export interface ListOptions {
  /** Omit (or leave undefined) to list across all namespaces. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  limit?: number;
  continue?: string;
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Unset: synthetic ADDED events for current objects first; "N": only events after N. */
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
}

export interface WriteOptions {
  /** Defaults to obj.metadata.namespace. */
  namespace?: string;
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: FieldValidation;
}

export interface PatchOptions {
  namespace?: string;
  fieldManager?: string;
  force?: boolean;
  dryRun?: boolean;
  fieldValidation?: FieldValidation;
  subresource?: 'status' | 'scale';
}

export interface ApplyOptions {
  fieldManager: string;
  force?: boolean;
  dryRun?: boolean;
  fieldValidation?: FieldValidation;
  subresource?: 'status';
}

export type DeleteCallOptions = { namespace?: string } & Omit<DeleteOptions, 'dryRun'> & { dryRun?: boolean };

/**
 * Request options as the client sets them. ApiRequest['options'] intersects DeleteOptions (dryRun: string[]) with
 * dryRun: boolean, which no value satisfies; the client always sends the boolean form.
 */
type RequestOptions = Omit<NonNullable<ApiRequest['options']>, 'dryRun'> & { dryRun?: boolean };

/** One request made while recording (see Client.record): what a reconcile wrote. */
export interface RequestRecord {
  verb: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** HTTP code, or the error code when it failed. */
  code: number;
}

export interface ResourceClient<T extends object = KubeObject> {
  readonly gvr: GroupVersionResource;
  create(obj: Input<T>, opts?: WriteOptions): Typed<T>;
  get(name: string, opts?: { namespace?: string; resourceVersion?: string }): Typed<T>;
  list(opts?: ListOptions): KubeList<Typed<T>>;
  update(obj: Input<T>, opts?: WriteOptions): Typed<T>;
  updateStatus(obj: Input<T>, opts?: WriteOptions): Typed<T>;
  patch(name: string, patchType: PatchType, patch: unknown, opts?: PatchOptions): Typed<T>;
  /** Server-side apply: a patch of type application/apply-patch+yaml whose body is the object. */
  apply(obj: Input<T>, opts: ApplyOptions): Typed<T>;
  /** The deleted object (200), the object now terminating (200/202), or a Success Status. */
  delete(name: string, opts?: DeleteCallOptions): Typed<T> | Status;
  deleteCollection(opts?: ListOptions & Omit<DeleteCallOptions, 'namespace'>): KubeList<Typed<T>> | Status;
  watch(opts: WatchOptions, handler: WatchHandler): WatchHandle;
  getScale(name: string, opts?: { namespace?: string }): Typed<Scale>;
  updateScale(name: string, scale: Scale, opts?: { namespace?: string; dryRun?: boolean }): Typed<Scale>;
}

type TypedClients = { readonly [K in TypedResourceName]: ResourceClient<ObjectOf<K> & object> };

// The typed accessors (client.pods, …) are getters added to the prototype below, from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Client extends TypedClients {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Client {
  private readonly resources = new Map<string, ResourceClient<never>>();
  private readonly recorders: RequestRecord[][] = [];
  /**
   * @internal The typed accessors' clients by accessor name (client.pods…): components use them on every
   * request, and a constant name finds the client without building an id string.
   */
  readonly typedResourceClients = new Map<string, ResourceClient<never>>();

  /** user undefined: requests run as the server's current user. */
  constructor(
    readonly server: ApiServerPort,
    readonly user?: UserInfo,
  ) {}

  /** A client acting as another user (kubectl --as). */
  withUser(user: UserInfo): Client {
    return new Client(this.server, user);
  }

  resource<T extends object = KubeObject>(gvr: GroupVersionResource): ResourceClient<T> {
    const id = `${gvr.group}/${gvr.version}/${gvr.resource}`;
    let rc = this.resources.get(id);
    if (!rc) {
      rc = new ResourceClientImpl<never>(this, { group: gvr.group, version: gvr.version, resource: gvr.resource });
      this.resources.set(id, rc);
    }
    return rc as unknown as ResourceClient<T>;
  }

  /** Raw passthrough: the request goes to the server as given, as this client's user unless it names one. */
  handle<B = unknown>(req: ApiRequest): ApiResponse<B> {
    const full = this.completed(req);
    if (this.recorders.length === 0) return this.server.handle(full) as ApiResponse<B>;
    try {
      const res = this.server.handle(full) as ApiResponse<B>;
      this.noteRequest(full, res.code);
      return res;
    } catch (err) {
      this.noteRequest(full, (err as { code?: unknown }).code as number | undefined ?? 500);
      throw err;
    }
  }

  watch(req: ApiRequest, handler: WatchHandler): WatchHandle {
    return this.server.watch(this.completed(req), handler);
  }

  /** req as this client sends it: as its user and with its connection's User-Agent unless req names them (one copy at most). */
  private completed(req: ApiRequest): ApiRequest {
    const user = req.user || !this.user ? undefined : this.user;
    const userAgent = req.userAgent === undefined ? this.server.userAgent : undefined;
    if (user === undefined && userAgent === undefined) return req;
    const full: ApiRequest = { ...req };
    if (user !== undefined) full.user = user;
    if (userAgent !== undefined) full.userAgent = userAgent;
    return full;
  }

  /**
   * Runs fn, appending to `requests` every write request it makes through this client (reads are not listed),
   * even when fn throws, e.g. so a reconcile trace can say what it wrote.
   */
  record<R>(requests: RequestRecord[], fn: () => R): R {
    this.recorders.push(requests);
    try {
      return fn();
    } finally {
      this.recorders.splice(this.recorders.lastIndexOf(requests), 1);
    }
  }

  private noteRequest(req: ApiRequest, code: number): void {
    if (req.verb === Verb.Get || req.verb === Verb.List || req.verb === Verb.Watch) return;
    const rec: RequestRecord = { verb: req.verb, resource: req.resource, code };
    if (req.subresource) rec.subresource = req.subresource;
    if (req.namespace) rec.namespace = req.namespace;
    if (req.name) rec.name = req.name;
    for (const r of this.recorders) r.push(rec);
  }
}

for (const [name, gvr] of Object.entries(typedResources)) {
  Object.defineProperty(Client.prototype, name, {
    get(this: Client) {
      let rc = this.typedResourceClients.get(name);
      if (!rc) this.typedResourceClients.set(name, (rc = this.resource(gvr) as ResourceClient<never>));
      return rc;
    },
  });
}

/** The options that are set (the server reads an absent option and an undefined one alike; the trace and tests see keys). */
function definedOptions(options: RequestOptions): RequestOptions {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(options) as (keyof RequestOptions)[]) {
    if (options[k] !== undefined) out[k] = options[k];
  }
  return out as RequestOptions;
}

function metaOf(obj: object): { name?: string; namespace?: string } {
  return ((obj as { metadata?: { name?: string; namespace?: string } }).metadata ?? {}) as { name?: string; namespace?: string };
}

class ResourceClientImpl<T extends object> implements ResourceClient<T> {
  constructor(
    private readonly client: Client,
    readonly gvr: GroupVersionResource,
  ) {}

  /**
   * The request: an undefined namespace or name is left out, and so is every undefined option. Built field by
   * field, in the order the methods below list them, rather than spread-then-delete: deleting properties turns
   * an object into a slow dictionary, and every stage of the server reads this one.
   */
  private request(verb: Verb, extra: Omit<Partial<ApiRequest>, 'options'> & { options?: RequestOptions }): ApiRequest {
    const req: ApiRequest = { verb, group: this.gvr.group, version: this.gvr.version, resource: this.gvr.resource };
    if (extra.namespace !== undefined) req.namespace = extra.namespace;
    if (extra.name !== undefined) req.name = extra.name;
    if ('subresource' in extra) req.subresource = extra.subresource;
    if ('patchType' in extra) req.patchType = extra.patchType;
    if ('body' in extra) req.body = extra.body;
    if ('options' in extra) req.options = extra.options && (definedOptions(extra.options) as ApiRequest['options']);
    // Last, where Client.handle's and the connection's copies would put them: the request is built once, not
    // copied to add the user or the User-Agent.
    const user = this.client.user;
    if (user) req.user = user;
    const userAgent = this.client.server.userAgent;
    if (userAgent !== undefined) req.userAgent = userAgent;
    return req;
  }

  private call<B>(verb: Verb, extra: Omit<Partial<ApiRequest>, 'options'> & { options?: RequestOptions }): B {
    return this.client.handle<B>(this.request(verb, extra)).body;
  }

  create(obj: Input<T>, opts: WriteOptions = {}): Typed<T> {
    return this.call(Verb.Create, {
      namespace: opts.namespace ?? metaOf(obj).namespace,
      body: obj,
      options: { dryRun: opts.dryRun, fieldManager: opts.fieldManager, fieldValidation: opts.fieldValidation },
    });
  }

  get(name: string, opts: { namespace?: string; resourceVersion?: string } = {}): Typed<T> {
    return this.call(Verb.Get, { namespace: opts.namespace, name, options: { resourceVersion: opts.resourceVersion } });
  }

  list(opts: ListOptions = {}): KubeList<Typed<T>> {
    const { namespace, ...options } = opts;
    return this.call(Verb.List, { namespace, options: { ...options } });
  }

  update(obj: Input<T>, opts: WriteOptions = {}): Typed<T> {
    return this.write(obj, opts, undefined);
  }

  updateStatus(obj: Input<T>, opts: WriteOptions = {}): Typed<T> {
    return this.write(obj, opts, 'status');
  }

  private write(obj: Input<T>, opts: WriteOptions, subresource: 'status' | undefined): Typed<T> {
    const meta = metaOf(obj);
    return this.call(Verb.Update, {
      namespace: opts.namespace ?? meta.namespace,
      name: meta.name,
      subresource,
      body: obj,
      options: { dryRun: opts.dryRun, fieldManager: opts.fieldManager, fieldValidation: opts.fieldValidation },
    });
  }

  patch(name: string, patchType: PatchType, patch: unknown, opts: PatchOptions = {}): Typed<T> {
    return this.call(Verb.Patch, {
      namespace: opts.namespace,
      name,
      subresource: opts.subresource,
      patchType,
      body: patch,
      options: { dryRun: opts.dryRun, fieldManager: opts.fieldManager, force: opts.force, fieldValidation: opts.fieldValidation },
    });
  }

  apply(obj: Input<T>, opts: ApplyOptions): Typed<T> {
    const meta = metaOf(obj);
    return this.patch(meta.name ?? '', PatchTypes.ApplyPatch, obj, { ...opts, namespace: meta.namespace });
  }

  delete(name: string, opts: DeleteCallOptions = {}): Typed<T> | Status {
    const { namespace, dryRun, ...deleteOptions } = opts;
    return this.call(Verb.Delete, { namespace, name, options: { ...deleteOptions, dryRun } });
  }

  deleteCollection(opts: ListOptions & Omit<DeleteCallOptions, 'namespace'> = {}): KubeList<Typed<T>> | Status {
    const { namespace, ...options } = opts;
    return this.call(Verb.DeleteCollection, { namespace, options: { ...options } });
  }

  watch(opts: WatchOptions, handler: WatchHandler): WatchHandle {
    const { namespace, ...options } = opts;
    return this.client.watch(this.request(Verb.Watch, { namespace, options: { ...options } }), handler);
  }

  getScale(name: string, opts: { namespace?: string } = {}): Typed<Scale> {
    return this.call(Verb.Get, { namespace: opts.namespace, name, subresource: 'scale' });
  }

  updateScale(name: string, scale: Scale, opts: { namespace?: string; dryRun?: boolean } = {}): Typed<Scale> {
    return this.call(Verb.Update, {
      namespace: opts.namespace ?? scale.metadata?.namespace,
      name,
      subresource: 'scale',
      body: scale,
      options: { dryRun: opts.dryRun },
    });
  }
}
