// For the inspector's unit tests: a real headless cluster running the gallery's nginx Deployment, and the page's
// store filled from it the way the watches fill it (objects keyed by namespace/name under "group/resource").
import type { KubeList, KubeObject } from '../../../shared/api/types';
import { objectKey } from '../../../shared/protocol/diff';
import type { TraceEvent } from '../../../shared/protocol/trace';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
import type { AppStore } from '../../state/store';
import { createAppStore } from '../../state/store';
import { samples } from '../editor/samples';

export const nginxManifest = samples.find((s) => s.id === 'nginx-deployment')!.manifest;

const watched = [
  { group: '', version: 'v1', resource: 'namespaces' },
  { group: '', version: 'v1', resource: 'nodes' },
  { group: '', version: 'v1', resource: 'pods' },
  { group: '', version: 'v1', resource: 'events' },
  { group: '', version: 'v1', resource: 'serviceaccounts' },
  { group: 'apps', version: 'v1', resource: 'deployments' },
  { group: 'apps', version: 'v1', resource: 'replicasets' },
];

export interface Fixture {
  h: HeadlessCluster;
  store: AppStore;
  /** Every trace event since before the apply. */
  trace: TraceEvent[];
  /** Re-reads every watched resource into the store (a relist). */
  sync(): Promise<void>;
  get(resourceKey: string, key: string): KubeObject;
}

export async function nginxFixture(seed = 1): Promise<Fixture> {
  const h = await createHeadlessCluster({ seed });
  const trace: TraceEvent[] = [];
  h.cluster.trace.subscribe((e) => trace.push(e));
  // The cluster settles first (the default ServiceAccount exists), as it has long before a person applies anything.
  h.cluster.advance(5_000);
  const store = createAppStore();
  const sync = async () => {
    for (const r of watched) {
      const res = await h.client.call('api/request', { verb: 'list', ...r });
      const list = res.body as KubeList;
      const added = Object.fromEntries(list.items.map((o) => [objectKey(o), o]));
      store.getState().applyBatch(`${r.group}/${r.resource}`, { diff: { added, updated: {}, removed: {} }, resourceVersion: list.metadata.resourceVersion ?? '', relist: true });
    }
  };
  await h.client.call('api/apply', { manifest: nginxManifest });
  h.cluster.advance(30_000);
  await sync();
  const get = (resourceKey: string, key: string) => {
    const obj = store.getState().resources[resourceKey]?.objects.get(key);
    if (!obj) throw new Error(`${resourceKey} ${key} not in the store`);
    return obj;
  };
  return { h, store, trace, sync, get };
}

/** The keys of one resource's objects whose name starts with prefix. */
export function keysNamed(store: AppStore, resourceKey: string, prefix: string): string[] {
  return [...(store.getState().resources[resourceKey]?.objects.values() ?? [])].filter((o) => o.metadata.name?.startsWith(prefix)).map(objectKey);
}
