// Store selectors for the Objects graph. The structure is rebuilt only when a resource the graph shows changed
// (not on Events or Leases) and keeps its identity while only statuses change, so the layout and React Flow's
// lists are rebuilt only when ids or edges change; each node reads its own object.
import type { KubeObject } from '../../../shared/api/types';
import type { ResourceObjects } from '../../state/objects-slice';
import type { AppState } from '../../state/store';
import type { PodChipState } from '../nodes/node-model';
import { podChipState } from '../nodes/node-model';
import type { GraphInput, ObjectGraph } from './object-graph';
import { buildObjectGraph } from './object-graph';

/** The resources (store keys) whose objects the graph can show. */
export const graphResourceKeys: readonly string[] = [
  'apps/deployments',
  'batch/cronjobs',
  'apps/replicasets',
  '/replicationcontrollers',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  '/services',
  '/pods',
  '/nodes',
  '/configmaps',
  '/secrets',
  '/persistentvolumeclaims',
  '/persistentvolumes',
];

/**
 * What buildObjectGraph reads from an object (identity, owners, labels, and the spec fields that make edges), as
 * a string, once per object version: a status update (most of a rollout's writes) leaves it unchanged.
 */
const structureCache = new WeakMap<KubeObject, string>();
export function graphStructureOf(obj: KubeObject): string {
  let s = structureCache.get(obj);
  if (s === undefined) {
    const m = obj.metadata;
    const spec = (obj as { spec?: unknown }).spec;
    s = JSON.stringify([obj.kind, m.namespace, m.name, m.uid, m.ownerReferences?.map((r) => [r.uid, r.controller]), m.labels, spec]);
    structureCache.set(obj, s);
  }
  return s;
}

/** Same keys, and every object either the same version or one with the same graph structure. */
function sameStructure(next: ReadonlyMap<string, KubeObject> | undefined, prev: ReadonlyMap<string, KubeObject> | undefined): boolean {
  if (next === prev) return true;
  if (!next || !prev || next.size !== prev.size) return false;
  for (const [key, obj] of next) {
    const before = prev.get(key);
    if (before === obj) continue;
    if (!before || graphStructureOf(before) !== graphStructureOf(obj)) return false;
  }
  return true;
}

/**
 * A fresh selector per view instance, for one namespace (or AllNamespaces) and set of expanded owners. The graph
 * is rebuilt only when an object it shows changed in structure (added, removed, re-owned, relabelled, a spec
 * change such as a pod's binding), not on status updates: checking that is a walk of the changed resources'
 * maps, rebuilding is ~10 map operations per object.
 */
export function makeSelectObjectGraph(namespace: string, expanded: ReadonlySet<string>): (s: AppState) => ObjectGraph {
  let lastMaps: (ReadonlyMap<string, KubeObject> | undefined)[] = [];
  let last: ObjectGraph | undefined;
  return (s) => {
    const maps = graphResourceKeys.map((k) => s.resources[k]?.objects);
    if (last && maps.every((m, i) => m === lastMaps[i])) return last;
    const unchanged = last !== undefined && maps.every((m, i) => sameStructure(m, lastMaps[i]));
    lastMaps = maps;
    if (unchanged) return last!;
    const next = buildObjectGraph(graphInputs(s.resources), namespace, { expanded });
    if (!last || last.signature !== next.signature) last = next;
    return last;
  };
}

/** Each stored object's graph input, once per object version: a rebuild over 10,000 objects builds no id strings. */
const inputCache = new WeakMap<KubeObject, GraphInput>();

function graphInputs(resources: AppState['resources']): GraphInput[] {
  const inputs: GraphInput[] = [];
  for (const resourceKey of graphResourceKeys) {
    const view: ResourceObjects | undefined = resources[resourceKey];
    for (const [key, obj] of view?.objects ?? []) {
      let input = inputCache.get(obj);
      if (!input) inputCache.set(obj, (input = { id: `${resourceKey}|${key}`, obj }));
      inputs.push(input);
    }
  }
  return inputs;
}

/** One object by its graph id ("group/resource|namespace/name"). */
export function objectById(s: AppState, id: string): KubeObject | undefined {
  const bar = id.indexOf('|');
  return s.resources[id.slice(0, bar)]?.objects.get(id.slice(bar + 1));
}

/** The namespaces to offer in the filter: those the cluster has, and "default" always. */
let lastNsMap: ReadonlyMap<string, KubeObject> | undefined;
let lastNamespaces: string[] = ['default'];
export function selectNamespaceNames(s: AppState): string[] {
  const map = s.resources['/namespaces']?.objects;
  if (map === lastNsMap) return lastNamespaces;
  lastNsMap = map;
  const names = new Set(['default']);
  for (const obj of map?.values() ?? []) if (obj.metadata.name) names.add(obj.metadata.name);
  const next = [...names].sort();
  if (next.join(',') !== lastNamespaces.join(',')) lastNamespaces = next;
  return lastNamespaces;
}

/** The order a pod group lists its counts in. */
export const groupStateOrder: readonly PodChipState[] = ['Running', 'NotReady', 'Pending', 'ImagePullBackOff', 'CrashLoopBackOff', 'Failed', 'Succeeded', 'Terminating'];

let lastPodsMap: ReadonlyMap<string, KubeObject> | undefined;
let lastCounts = new Map<string, string>();

/**
 * The pods a controller (by uid) owns, counted by chip state, as a stable string "Running=480,Pending=20" (so a
 * group node re-renders only when a count changed); '' when it owns none.
 */
export function selectPodCountsOfOwner(s: AppState, ownerUid: string): string {
  const map = s.resources['/pods']?.objects;
  if (map !== lastPodsMap) {
    lastPodsMap = map;
    const counts = new Map<string, Map<PodChipState, number>>();
    for (const pod of map?.values() ?? []) {
      const refs = pod.metadata.ownerReferences ?? [];
      const ref = refs.find((r) => r.controller) ?? refs[0];
      if (!ref) continue;
      let byState = counts.get(ref.uid);
      if (!byState) counts.set(ref.uid, (byState = new Map()));
      const state = podChipState(pod);
      byState.set(state, (byState.get(state) ?? 0) + 1);
    }
    lastCounts = new Map(
      [...counts].map(([uid, byState]) => [
        uid,
        groupStateOrder
          .filter((st) => byState.has(st))
          .map((st) => `${st}=${byState.get(st)}`)
          .join(','),
      ]),
    );
  }
  return lastCounts.get(ownerUid) ?? '';
}

/** "Running=480,Pending=20" → [['Running', 480], ['Pending', 20]]. */
export function parsePodCounts(counts: string): [PodChipState, number][] {
  if (!counts) return [];
  return counts.split(',').map((part) => {
    const [state, n] = part.split('=');
    return [state as PodChipState, Number(n)];
  });
}
