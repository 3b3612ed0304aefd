// An in-process API server over a real MvccStore and a VirtualClock, with a recording trace, for the
// integration tests of the request pipeline (apiserver/*.test.ts). Not used by production code.
import { ResourceRegistry } from '../../../shared/api/resources';
import { isStatusError, type Status } from '../../../shared/api/status';
import { parseApiVersion, type KubeList, type KubeObject, type WatchEvent } from '../../../shared/api/types';
import type { TraceEvent, TraceSink } from '../../../shared/protocol/trace';
import { createRng } from '../../sim/rng';
import { VirtualClock } from '../../sim/virtual-clock';
import { MvccStore } from '../../store/mvcc-store';
import { APIServer, type APIServerOptions } from '../server';
import type { ApiRequest, ApiResponse, PatchType, UserInfo } from '../types';

export interface TestServer {
  clock: VirtualClock;
  store: MvccStore;
  registry: ResourceRegistry;
  server: APIServer;
  trace: TraceEvent[];
  /** The request the helpers build for a kind and namespace. */
  target(apiVersion: string, kind: string, namespace?: string): Pick<ApiRequest, 'group' | 'version' | 'resource' | 'namespace'>;
  create<T extends KubeObject>(obj: T, options?: ApiRequest['options'], user?: UserInfo): T;
  get(apiVersion: string, kind: string, namespace: string | undefined, name: string, user?: UserInfo): KubeObject;
  list(apiVersion: string, kind: string, namespace?: string, options?: ApiRequest['options'], user?: UserInfo): KubeList;
  update<T extends KubeObject>(obj: T, options?: ApiRequest['options'] & { subresource?: 'status' }, user?: UserInfo): T;
  patch(apiVersion: string, kind: string, namespace: string | undefined, name: string, patchType: PatchType, body: unknown, options?: ApiRequest['options'] & { subresource?: 'status' | 'scale' }, user?: UserInfo): KubeObject;
  remove(apiVersion: string, kind: string, namespace: string | undefined, name: string, options?: ApiRequest['options'], user?: UserInfo): ApiResponse;
  watch(apiVersion: string, kind: string, namespace: string | undefined, options: ApiRequest['options'], into: WatchEvent[]): { stop(): void };
  /** The Status a request fails with (throws if it succeeds). */
  failure(fn: () => unknown): Status;
}

export function newTestServer(options: Partial<Pick<APIServerOptions, 'authorizer' | 'mutatingPlugins' | 'validatingPlugins'>> & { bootstrap?: boolean; seed?: number } = {}): TestServer {
  const clock = new VirtualClock();
  const store = new MvccStore({ clock });
  const registry = new ResourceRegistry();
  const trace: TraceEvent[] = [];
  const sink: TraceSink = {
    emit(e) {
      const seq = trace.length + 1;
      trace.push({ ...e, seq, time: clock.now() });
      return seq;
    },
  };
  const server = new APIServer({ clock, store, registry, trace: sink, rng: createRng(options.seed ?? 7), ...options });
  if (options.bootstrap !== false) server.bootstrap();

  const target = (apiVersion: string, kind: string, namespace?: string) => {
    const gv = parseApiVersion(apiVersion);
    const rt = registry.forKind({ ...gv, kind });
    if (!rt) throw new Error(`test: unknown kind ${apiVersion} ${kind}`);
    return { group: rt.group, version: rt.version, resource: rt.resource, namespace: rt.namespaced ? namespace : undefined };
  };

  return {
    clock,
    store,
    registry,
    server,
    trace,
    target,
    create(obj, opts, user) {
      return server.handle({ verb: 'create', ...target(obj.apiVersion, obj.kind, obj.metadata.namespace ?? 'default'), body: obj, options: opts, user })
        .body as typeof obj;
    },
    get(apiVersion, kind, namespace, name, user) {
      return server.handle({ verb: 'get', ...target(apiVersion, kind, namespace), name, user }).body as KubeObject;
    },
    list(apiVersion, kind, namespace, opts, user) {
      return server.handle({ verb: 'list', ...target(apiVersion, kind, namespace), options: opts, user }).body as KubeList;
    },
    update(obj, opts, user) {
      const { subresource, ...rest } = opts ?? {};
      return server.handle({
        verb: 'update',
        ...target(obj.apiVersion, obj.kind, obj.metadata.namespace ?? 'default'),
        name: obj.metadata.name,
        subresource,
        body: obj,
        options: rest,
        user,
      }).body as typeof obj;
    },
    patch(apiVersion, kind, namespace, name, patchType, body, opts, user) {
      const { subresource, ...rest } = opts ?? {};
      return server.handle({ verb: 'patch', ...target(apiVersion, kind, namespace), name, subresource, patchType, body, options: rest, user })
        .body as KubeObject;
    },
    remove(apiVersion, kind, namespace, name, opts, user) {
      return server.handle({ verb: 'delete', ...target(apiVersion, kind, namespace), name, options: opts, user });
    },
    watch(apiVersion, kind, namespace, opts, into) {
      return server.watch({ verb: 'watch', ...target(apiVersion, kind, namespace), options: opts }, (events) => into.push(...events));
    },
    failure(fn) {
      try {
        fn();
      } catch (err) {
        if (isStatusError(err)) return err.status;
        throw err;
      }
      throw new Error('test: expected the request to fail');
    },
  };
}

/** options.dryRun as the client sends it (the contract's options type cannot express the boolean form). */
export const dryRun = { dryRun: true } as unknown as NonNullable<ApiRequest['options']>;

export function configMap(name: string, namespace = 'default', extra: Partial<KubeObject> & { data?: Record<string, string> } = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', ...extra, metadata: { name, namespace, ...(extra.metadata ?? {}) } };
}

export function deployment(name: string, replicas = 1, image = 'nginx:1.27', namespace = 'default'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image }] } },
    },
  };
}

export function pod(name: string, namespace = 'default', extra: { nodeName?: string; labels?: Record<string, string> } = {}): KubeObject {
  const spec: Record<string, unknown> = { containers: [{ name: 'app', image: 'busybox' }] };
  if (extra.nodeName) spec.nodeName = extra.nodeName;
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels: extra.labels }, spec };
}
