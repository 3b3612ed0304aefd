// Test helpers: an in-memory ObjectReader over plain arrays, an AdmissionContext over it, attributes.
import { ResourceRegistry } from '../../../shared/api/resources';
import type { GroupResource, KubeObject } from '../../../shared/api/types';
import type { Clock } from '../../sim/clock';
import type { AdmissionAttributes, AdmissionContext, ObjectReader, SideWrite } from '../types';
import { AdmissionOperation } from '../types';

/** Kind → resource for the kinds tests use; anything else falls back to lower-case plural. */
const resourceOfKind: Record<string, GroupResource> = {
  Namespace: { group: '', resource: 'namespaces' },
  ServiceAccount: { group: '', resource: 'serviceaccounts' },
  LimitRange: { group: '', resource: 'limitranges' },
  ResourceQuota: { group: '', resource: 'resourcequotas' },
  Pod: { group: '', resource: 'pods' },
  Service: { group: '', resource: 'services' },
  ConfigMap: { group: '', resource: 'configmaps' },
  Secret: { group: '', resource: 'secrets' },
  PersistentVolumeClaim: { group: '', resource: 'persistentvolumeclaims' },
  StorageClass: { group: 'storage.k8s.io', resource: 'storageclasses' },
  IngressClass: { group: 'networking.k8s.io', resource: 'ingressclasses' },
  Deployment: { group: 'apps', resource: 'deployments' },
  Role: { group: 'rbac.authorization.k8s.io', resource: 'roles' },
  ClusterRole: { group: 'rbac.authorization.k8s.io', resource: 'clusterroles' },
  RoleBinding: { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  ClusterRoleBinding: { group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' },
};

function grOf(obj: KubeObject): GroupResource {
  return resourceOfKind[obj.kind] ?? { group: '', resource: `${obj.kind.toLowerCase()}s` };
}

function key(gr: GroupResource): string {
  return `${gr.group}/${gr.resource}`;
}

/**
 * Objects keyed by resource; every put gets the next resourceVersion, as the store would, so caches keyed by
 * resourceVersion see changes.
 */
export class FakeReader implements ObjectReader {
  private readonly objects = new Map<string, KubeObject[]>();
  private revision = 0;
  listCalls = 0;

  constructor(objects: readonly KubeObject[] = []) {
    for (const o of objects) this.put(o);
  }

  put(obj: KubeObject): KubeObject {
    const gr = grOf(obj);
    const stored: KubeObject = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.revision) } };
    const list = (this.objects.get(key(gr)) ?? []).filter(
      (o) => !(o.metadata.name === obj.metadata.name && (o.metadata.namespace ?? '') === (obj.metadata.namespace ?? '')),
    );
    list.push(stored);
    this.objects.set(key(gr), list);
    return stored;
  }

  remove(gr: GroupResource, namespace: string | undefined, name: string): void {
    const list = this.objects.get(key(gr)) ?? [];
    this.objects.set(
      key(gr),
      list.filter((o) => !(o.metadata.name === name && (o.metadata.namespace ?? '') === (namespace ?? ''))),
    );
  }

  get(gr: GroupResource, namespace: string | undefined, name: string): KubeObject | undefined {
    return (this.objects.get(key(gr)) ?? []).find(
      (o) => o.metadata.name === name && (o.metadata.namespace ?? '') === (namespace ?? ''),
    );
  }

  list(gr: GroupResource, namespace?: string): KubeObject[] {
    this.listCalls++;
    const all = this.objects.get(key(gr)) ?? [];
    return namespace === undefined ? [...all] : all.filter((o) => (o.metadata.namespace ?? '') === namespace);
  }
}

/** An AdmissionContext over a FakeReader that records side writes; `apply` commits them into the reader. */
export function fakeAdmissionContext(
  reader: FakeReader,
  now = Date.UTC(2026, 0, 1),
): { ctx: AdmissionContext; sideWrites: SideWrite[]; apply(): void } {
  const sideWrites: SideWrite[] = [];
  const clock: Clock = {
    now: () => now,
    setTimer: () => ({ id: 0 }),
    clearTimer: () => undefined,
    defer: (fn) => fn(),
  };
  const ctx: AdmissionContext = { clock, reader, registry: new ResourceRegistry(), addSideWrite: (w) => sideWrites.push(w) };
  return {
    ctx,
    sideWrites,
    apply() {
      for (const w of sideWrites.splice(0)) {
        const next = w.mutate(reader.get(w.gr, w.namespace, w.name));
        if (next) reader.put(next);
      }
    },
  };
}

/** Admission attributes for a create (or an update when oldObject is given) of a built-in kind. */
export function admissionAttrs(
  resource: GroupResource,
  object: KubeObject | undefined,
  extra: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  const rt = new ResourceRegistry().forGroupResource(resource);
  if (!rt) throw new Error(`unknown resource ${resource.group}/${resource.resource}`);
  return {
    operation: extra.oldObject ? AdmissionOperation.Update : AdmissionOperation.Create,
    resourceType: rt,
    namespace: rt.namespaced ? (object?.metadata.namespace ?? '') : '',
    name: object?.metadata.name ?? '',
    object,
    user: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
    dryRun: false,
    ...extra,
  };
}
