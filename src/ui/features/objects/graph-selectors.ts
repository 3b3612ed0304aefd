// Store selectors for the Objects graph: the structure is recomputed on every batch but keeps its identity while
// only statuses change, so the layout (and React Flow's node list) is rebuilt only when ids or edges change.
import type { KubeObject } from '../../../shared/api/types';
import type { ResourceObjects } from '../../state/objects-slice';
import type { AppState } from '../../state/store';
import type { GraphInput, ObjectGraph } from './object-graph';
import { buildObjectGraph } from './object-graph';

/** A fresh selector per view instance (it caches on the namespace it was made for). */
export function makeSelectObjectGraph(namespace: string): (s: AppState) => ObjectGraph {
  let lastResources: AppState['resources'] | undefined;
  let last: ObjectGraph | undefined;
  return (s) => {
    if (last && s.resources === lastResources) return last;
    const next = buildObjectGraph(graphInputs(s.resources), namespace);
    lastResources = s.resources;
    if (!last || last.signature !== next.signature) last = next;
    return last;
  };
}

function graphInputs(resources: AppState['resources']): GraphInput[] {
  const inputs: GraphInput[] = [];
  for (const [resourceKey, view] of Object.entries(resources) as [string, ResourceObjects][]) {
    for (const [key, obj] of view.objects) inputs.push({ id: `${resourceKey}|${key}`, obj });
  }
  return inputs;
}

/** One object by its graph id ("group/resource|namespace/name"). */
export function objectById(s: AppState, id: string): KubeObject | undefined {
  const bar = id.indexOf('|');
  return s.resources[id.slice(0, bar)]?.objects.get(id.slice(bar + 1));
}

/** The namespaces to offer in the filter: those the cluster has, and "default" always. */
let lastNsResources: AppState['resources'] | undefined;
let lastNamespaces: string[] = ['default'];
export function selectNamespaceNames(s: AppState): string[] {
  if (s.resources === lastNsResources) return lastNamespaces;
  lastNsResources = s.resources;
  const names = new Set(['default']);
  for (const obj of s.resources['/namespaces']?.objects.values() ?? []) if (obj.metadata.name) names.add(obj.metadata.name);
  const next = [...names].sort();
  if (next.join(',') !== lastNamespaces.join(',')) lastNamespaces = next;
  return lastNamespaces;
}
