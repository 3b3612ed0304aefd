// Discovery documents, as /api, /apis and /apis/<group>/<version> serve them: what `kubectl api-versions`
// and `kubectl api-resources` print. Built from the ResourceRegistry, so custom resources appear as soon as
// their CRD is registered.
import type { ResourceRegistry, ResourceType } from '../../../shared/api/resources';
import { formatApiVersion } from '../../../shared/api/types';

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

export interface APIGroup {
  name: string;
  versions: { groupVersion: string; version: string }[];
  preferredVersion: { groupVersion: string; version: string };
}

export interface DiscoveryDocuments {
  /** /api */
  coreVersions: { kind: 'APIVersions'; versions: string[] };
  /** /apis */
  groups: { kind: 'APIGroupList'; apiVersion: 'v1'; groups: APIGroup[] };
  /** /api/v1 and /apis/<group>/<version>, by groupVersion. */
  resources: APIResourceList[];
}

const subresourceVerbs = ['get', 'patch', 'update'];

function entries(rt: ResourceType): APIResource[] {
  const main: APIResource = { name: rt.resource, singularName: rt.singular, namespaced: rt.namespaced, kind: rt.kind, verbs: [...rt.verbs] };
  if (rt.shortNames.length) main.shortNames = [...rt.shortNames];
  if (rt.categories.length) main.categories = [...rt.categories];
  const out = [main];
  if (rt.subresources.status) {
    out.push({ name: `${rt.resource}/status`, singularName: '', namespaced: rt.namespaced, kind: rt.kind, verbs: subresourceVerbs });
  }
  if (rt.subresources.scale) {
    out.push({ name: `${rt.resource}/scale`, singularName: '', namespaced: rt.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: subresourceVerbs });
  }
  if (rt.group === '' && rt.resource === 'namespaces') {
    out.push({ name: 'namespaces/finalize', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['update'] });
  }
  return out;
}

export function discoveryDocuments(registry: ResourceRegistry): DiscoveryDocuments {
  const byGroupVersion = new Map<string, APIResource[]>();
  const groups = new Map<string, Set<string>>();
  const types = registry.all().sort((a, b) => (a.group === b.group ? a.resource.localeCompare(b.resource) : a.group.localeCompare(b.group)));
  // The preferred (storage) version first, so it becomes the group's preferredVersion.
  const served = types.flatMap((rt) => [rt, ...(rt.alsoServedAt ?? []).map((version) => ({ ...rt, version }))]);
  for (const rt of served) {
    const gv = formatApiVersion(rt.group, rt.version);
    const list = byGroupVersion.get(gv) ?? [];
    list.push(...entries(rt));
    byGroupVersion.set(gv, list);
    if (rt.group !== '') {
      const versions = groups.get(rt.group) ?? new Set<string>();
      versions.add(rt.version);
      groups.set(rt.group, versions);
    }
  }
  const groupList: APIGroup[] = [...groups].map(([name, versions]) => {
    const vs = [...versions].map((version) => ({ groupVersion: `${name}/${version}`, version }));
    return { name, versions: vs, preferredVersion: vs[0] };
  });
  return {
    coreVersions: { kind: 'APIVersions', versions: ['v1'] },
    groups: { kind: 'APIGroupList', apiVersion: 'v1', groups: groupList },
    resources: [...byGroupVersion].map(([groupVersion, resources]) => ({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources })),
  };
}
