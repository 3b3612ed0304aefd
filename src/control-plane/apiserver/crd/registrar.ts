// Serving custom resources (apiextensions-apiserver). A CustomResourceDefinition in the store becomes a
// resource type in the ResourceRegistry the moment its write commits (plural, singular, kind, short names,
// scope and subresources of its storage version, with the version's openAPIV3Schema for decoding); the
// controllers of apiextensions then run as deferred work:
//   - naming + establishing: status.acceptedNames and the NamesAccepted and Established conditions;
//   - finalizing: a deleted CRD carries the customresourcecleanup.apiextensions.k8s.io finalizer; its custom
//     resources are deleted, then the finalizer is removed and the CRD goes away, and with it the type.
// A server built over a restored store registers the CRDs it finds (sync() in the constructor).
import { builtinResourceTypes, type ResourceRegistry, type ResourceType } from '../../../shared/api/resources';
import { formatApiVersion, type KubeObject } from '../../../shared/api/types';
import { rfc3339, type Clock } from '../../sim/clock';
import { resourcePrefix } from '../../store/keys';
import type { Store } from '../../store/types';
import type { ApiRequest, ApiResponse } from '../types';
import { toStatus } from '../../../shared/api/status';
import { TraceKind, type TraceSink } from '../../../shared/protocol/trace';
import { deepCopy, deepEqual, isJsonObject } from '../patch/json-value';
import { fromStored } from '../storage/object-codec';

export const CustomResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

export const crdGroupResource = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' } as const;

export interface CustomResourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceInfo {
  crdName: string;
  rt: ResourceType;
  storageVersion: string;
  schema?: object;
  scale?: CustomResourceScale;
  acceptedNames: Record<string, unknown>;
}

const allVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

interface CrdShape {
  spec?: {
    group?: string;
    scope?: string;
    names?: { plural?: string; singular?: string; kind?: string; listKind?: string; shortNames?: string[]; categories?: string[] };
    versions?: {
      name?: string;
      served?: boolean;
      storage?: boolean;
      schema?: { openAPIV3Schema?: object };
      subresources?: { status?: object; scale?: CustomResourceScale };
    }[];
  };
  status?: { conditions?: { type?: string; status?: string }[]; acceptedNames?: unknown };
}

/** The served type a CRD defines, or undefined when it defines none (no served version, no names). */
export function customResourceInfo(crd: KubeObject): CustomResourceInfo | undefined {
  const spec = (crd as CrdShape).spec;
  const names = spec?.names;
  if (!spec?.group || !names?.plural || !names.kind) return undefined;
  const versions = (spec.versions ?? []).filter((v) => v.name);
  const version = versions.find((v) => v.storage && v.served !== false) ?? versions.find((v) => v.served !== false);
  if (!version?.name) return undefined;
  const singular = names.singular || names.kind.toLowerCase();
  const rt: ResourceType = {
    group: spec.group,
    version: version.name,
    kind: names.kind,
    resource: names.plural,
    singular,
    namespaced: spec.scope !== 'Cluster',
    shortNames: [...(names.shortNames ?? [])],
    categories: [...(names.categories ?? [])],
    subresources: { status: !!version.subresources?.status, scale: !!version.subresources?.scale },
    verbs: allVerbs,
    custom: true,
  };
  const acceptedNames: Record<string, unknown> = { plural: names.plural, singular, kind: names.kind, listKind: names.listKind || `${names.kind}List` };
  if (names.shortNames?.length) acceptedNames.shortNames = [...names.shortNames];
  if (names.categories?.length) acceptedNames.categories = [...names.categories];
  const info: CustomResourceInfo = {
    crdName: crd.metadata.name ?? '',
    rt,
    storageVersion: (versions.find((v) => v.storage) ?? version).name!,
    acceptedNames,
  };
  if (isJsonObject(version.schema?.openAPIV3Schema)) info.schema = version.schema!.openAPIV3Schema;
  if (version.subresources?.scale) info.scale = { ...version.subresources.scale };
  return info;
}

function grKey(g: { group: string; resource: string }): string {
  return `${g.group}/${g.resource}`;
}

const builtinKeys = new Set(builtinResourceTypes.map(grKey));

function conditionTrue(crd: KubeObject, type: string): boolean {
  return ((crd as CrdShape).status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

export interface CrdRegistrarDeps {
  store: Store;
  registry: ResourceRegistry;
  clock: Clock;
  /** Sends a request as the API server itself (system:apiserver), through the whole pipeline. */
  request(req: ApiRequest): ApiResponse;
  trace?: TraceSink;
}

export class CrdRegistrar {
  private readonly infos = new Map<string, CustomResourceInfo>();
  private reconcileScheduled = false;

  constructor(private readonly deps: CrdRegistrarDeps) {}

  private crdType(): ResourceType | undefined {
    return this.deps.registry.forGroupResource(crdGroupResource);
  }

  private crds(): KubeObject[] {
    const rt = this.crdType();
    if (!rt) return [];
    return this.deps.store.range(resourcePrefix(rt)).kvs.map((kv) => fromStored(kv));
  }

  info(rt: { group: string; resource: string }): CustomResourceInfo | undefined {
    return this.infos.get(grKey(rt));
  }

  /** Whether the CRD behind a custom resource type is being deleted. */
  isTerminating(rt: { group: string; resource: string }): boolean {
    const info = this.info(rt);
    if (!info) return false;
    return this.crds().some((c) => c.metadata.name === info.crdName && !!c.metadata.deletionTimestamp);
  }

  /** Makes the registry serve exactly the types the stored CRDs define. Objects carry their resourceVersion. */
  sync(): void {
    const desired = new Map<string, CustomResourceInfo>();
    for (const crd of this.crds()) {
      const info = customResourceInfo(crd);
      if (!info) continue;
      const key = grKey(info.rt);
      if (builtinKeys.has(key) || desired.has(key)) continue; // names not accepted: a conflict
      desired.set(key, info);
    }
    for (const [key, info] of this.infos) {
      if (!desired.has(key)) {
        this.deps.registry.removeCustom(info.rt);
        this.infos.delete(key);
      }
    }
    for (const [key, info] of desired) {
      const current = this.infos.get(key);
      if (current && deepEqual(current, info)) continue;
      if (current) this.deps.registry.removeCustom(current.rt);
      this.deps.registry.addCustom(info.rt);
      this.infos.set(key, info);
    }
  }

  /** Called after a commit that wrote objects of rt. */
  afterCommit(rt: ResourceType): void {
    if (grKey(rt) === grKey(crdGroupResource)) {
      this.sync();
      this.scheduleReconcile();
    } else if (rt.custom && this.isTerminating(rt)) {
      this.scheduleReconcile();
    }
  }

  private scheduleReconcile(): void {
    if (this.reconcileScheduled) return;
    this.reconcileScheduled = true;
    this.deps.clock.defer(() => {
      this.reconcileScheduled = false;
      this.reconcile();
    }, 'apiextensions controllers');
  }

  /** The establishing and finalizing controllers, run to completion for every CRD that needs them. */
  reconcile(): void {
    for (const crd of this.crds()) {
      // A controller's failed write is retried on the next CRD commit, as a requeue would; it is on the trace.
      try {
        this.reconcileOne(crd);
      } catch (err) {
        this.deps.trace?.emit({
          kind: TraceKind.Custom,
          component: 'apiextensions-controller',
          data: { crd: crd.metadata.name, error: toStatus(err).message },
        });
      }
    }
  }

  private reconcileOne(crd: KubeObject): void {
    const info = customResourceInfo(crd);
    if (crd.metadata.deletionTimestamp) {
      if ((crd.metadata.finalizers ?? []).includes(CustomResourceCleanupFinalizer)) this.finalize(crd, info);
      return;
    }
    if (!info || this.info(info.rt)?.crdName !== info.crdName) return;
    const status = (crd as CrdShape).status;
    if (conditionTrue(crd, 'Established') && conditionTrue(crd, 'NamesAccepted') && deepEqual(status?.acceptedNames, info.acceptedNames)) return;
    this.establish(crd, info);
  }

  private establish(crd: KubeObject, info: CustomResourceInfo): void {
    const now = rfc3339(this.deps.clock.now());
    const next = deepCopy(crd);
    const status = ((next.status ??= {}) as Record<string, unknown>);
    const others = ((status.conditions as { type?: string }[] | undefined) ?? []).filter((c) => c.type !== 'NamesAccepted' && c.type !== 'Established');
    status.conditions = [
      ...others,
      { type: 'NamesAccepted', status: 'True', lastTransitionTime: now, reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', lastTransitionTime: now, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ];
    status.acceptedNames = info.acceptedNames;
    const stored = Array.isArray(status.storedVersions) ? (status.storedVersions as string[]) : [];
    if (!stored.includes(info.storageVersion)) status.storedVersions = [...stored, info.storageVersion];
    this.deps.request({ ...crdRequest('update', crd), subresource: 'status', body: next, options: { fieldManager: 'kube-apiserver' } });
  }

  private finalize(crd: KubeObject, info: CustomResourceInfo | undefined): void {
    if (info && this.info(info.rt)?.crdName === info.crdName) {
      const prefix = resourcePrefix(info.rt);
      if (this.deps.store.count(prefix) > 0) {
        this.deps.request({
          verb: 'deletecollection',
          group: info.rt.group,
          version: info.rt.version,
          resource: info.rt.resource,
          options: {},
        });
        // Custom resources with finalizers of their own keep the CRD until they are gone; their commits
        // bring us back here.
        if (this.deps.store.count(prefix) > 0) return;
      }
    }
    const next = deepCopy(crd);
    next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== CustomResourceCleanupFinalizer);
    this.deps.request({ ...crdRequest('update', crd), body: next, options: { fieldManager: 'kube-apiserver' } });
  }
}

function crdRequest(verb: 'update', crd: KubeObject): ApiRequest {
  return {
    verb,
    group: crdGroupResource.group,
    version: 'v1',
    resource: crdGroupResource.resource,
    name: crd.metadata.name,
  };
}

export function apiVersionOf(rt: ResourceType): string {
  return formatApiVersion(rt.group, rt.version);
}
