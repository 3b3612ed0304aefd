// Store selectors for the Objects graph. The structure is rebuilt only when a resource the graph shows changed
// (not on Events or Leases) and keeps its identity while only statuses change, so the layout and React Flow's
// lists are rebuilt only when ids or edges change; each node reads its own object.
import type { KubeObject } from '../../../shared/api/types';
import type { ResourceObjects } from '../../state/objects-slice';
import type { AppState } from '../../state/store';
import type { PodChipState } from '../nodes/node-model';
import { podChipState } from '../nodes/node-model';
import type { GraphInput, ObjectGraph } from './object-graph';
import { AllNamespaces, GraphNodeType, buildObjectGraph, forEachPodLink, graphSignature, leafGroupId, rootCAConfigMapName } from './object-graph';
import { sameJson } from '../../../shared/lib/same-json';

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

/**
 * Whether next is the map that directly succeeded prev (one store update apart): then only next.change.touched
 * can differ between them.
 */
function succeeds(next: ResourceObjects, prev: ResourceObjects): boolean {
  const change = next.change;
  return !!change && !!prev.change && change.baseGeneration !== 0 && change.baseGeneration === prev.change.generation;
}

/** Whether key holds the same version in both maps, or one with the same graph structure. */
function sameAt(key: string, next: ResourceObjects, prev: ResourceObjects): boolean {
  const obj = next.objects.get(key);
  const before = prev.objects.get(key);
  return obj === before || (!!obj && !!before && graphStructureOf(before) === graphStructureOf(obj));
}

/** Same keys, and every object either the same version or one with the same graph structure. */
function sameStructure(next: ResourceObjects | undefined, prev: ResourceObjects | undefined): boolean {
  if (next === prev) return true;
  if (!next || !prev) return false;
  if (next.objects === prev.objects) return true;
  if (succeeds(next, prev)) return [...next.change!.touched].every((key) => sameAt(key, next, prev));
  if (next.objects.size !== prev.objects.size) return false;
  for (const [key, obj] of next.objects) {
    const before = prev.objects.get(key);
    if (before === obj) continue;
    if (!before || graphStructureOf(before) !== graphStructureOf(obj)) return false;
  }
  return true;
}

/**
 * Whether the pods map `next` draws the same graph as `prev` did, given `graph` (what `prev` and the other maps
 * drew) and the state. Besides same-structure updates, it recognises a rollout's common changes without a rebuild
 * (a rebuild walks every object): a pod created into an owner drawn as a pod group, or bound, whose every link (the
 * owner, its Node, the ConfigMaps, Secrets and claims it uses, the Services selecting it) the group already has.
 * Anything else — a removal, an owner not grouped, a new link, relabelling — says no, and the graph is rebuilt.
 * Nothing can link to a new pod yet: an object naming its uid is created after it, and its own change rebuilds.
 */
function podsKeepGraph(next: ResourceObjects | undefined, prev: ResourceObjects | undefined, graph: ObjectGraph, s: AppState): boolean {
  if (!next || !prev || next.objects === prev.objects) return next === prev || next?.objects === prev?.objects;
  if (!succeeds(next, prev)) return sameStructure(next, prev);
  let groups: GraphGroups | undefined;
  for (const key of next.change!.touched) {
    if (sameAt(key, next, prev)) continue;
    const pod = next.objects.get(key);
    const before = prev.objects.get(key);
    if (!pod) return false;
    groups ??= groupsOf(graph);
    if (!podKeepsGraph(pod, before, groups, s)) return false;
  }
  return true;
}

interface GraphGroups {
  /** Owner uid → the id of the group node drawing its pods. */
  byOwner: Map<string, string>;
  edges: Set<string>;
}

const groupsCache = new WeakMap<ObjectGraph, GraphGroups>();
function groupsOf(graph: ObjectGraph): GraphGroups {
  let groups = groupsCache.get(graph);
  if (!groups) {
    const byOwner = new Map<string, string>();
    for (const n of graph.nodes) if (n.type === GraphNodeType.Pods && n.owner) byOwner.set(n.owner.uid, n.id);
    groups = { byOwner, edges: new Set(graph.edges.map((e) => e.id)) };
    groupsCache.set(graph, groups);
  }
  return groups;
}

function podKeepsGraph(pod: KubeObject, before: KubeObject | undefined, groups: GraphGroups, s: AppState): boolean {
  const refs = pod.metadata.ownerReferences ?? [];
  // One owner, drawn as a group: the owner → group edge is there already.
  if (refs.length !== 1) return false;
  const groupId = groups.byOwner.get(refs[0].uid);
  if (!groupId) return false;
  const links = podLinkTargets(pod);
  if (before) {
    // Bound, or given another volume: still the same group and labels, and no link it had is lost.
    if (before.metadata.uid !== pod.metadata.uid) return false; // another incarnation under the same name
    const was = before.metadata.ownerReferences ?? [];
    if (was.length !== 1 || was[0].uid !== refs[0].uid || was[0].controller !== refs[0].controller) return false;
    if (!sameJson(before.metadata.labels ?? {}, pod.metadata.labels ?? {})) return false;
    for (const target of podLinkTargets(before)) if (!links.includes(target)) return false;
  }
  for (const target of links) {
    if (groups.edges.has(`${groupId}->${target}`)) continue;
    // A target that is not drawn makes no edge: one that does not exist, or the root CA ConfigMap.
    const bar = target.indexOf('|');
    const key = target.slice(bar + 1);
    if (target.startsWith('/configmaps|') && key.endsWith(`/${rootCAConfigMapName}`)) continue;
    if (s.resources[target.slice(0, bar)]?.objects.has(key)) return false;
  }
  const ns = pod.metadata.namespace;
  const labels = pod.metadata.labels;
  for (const [key, svc] of s.resources['/services']?.objects ?? []) {
    if (svc.metadata.namespace !== ns) continue;
    const selector = (svc as { spec?: { selector?: Record<string, string> } }).spec?.selector;
    if (!selector || Object.keys(selector).length === 0) continue;
    if (!Object.entries(selector).every(([k, v]) => labels?.[k] === v)) continue;
    if (!groups.edges.has(`/services|${key}->${groupId}`)) return false;
  }
  return true;
}

/**
 * The graph after ConfigMaps (Secrets) were added to a leaf group (a reload's list arriving in parts, or a script
 * creating thousands): the group's count patched in, without a rebuild over every object. Only additions that
 * a rebuild would put in an existing group are patched: no owner, not used by any pod, in the namespace shown,
 * sorting after the group's first member (so the group keeps its place); anything else gives undefined (rebuild).
 */
function withLeavesAdded(resourceKey: string, next: ResourceObjects | undefined, prev: ResourceObjects | undefined, graph: ObjectGraph, s: AppState, namespace: string): ObjectGraph | undefined {
  if (next?.objects === prev?.objects) return graph;
  if (!next || !prev || !succeeds(next, prev)) return sameStructure(next, prev) ? graph : undefined;
  let added: Map<string, number> | undefined;
  for (const key of next.change!.touched) {
    if (sameAt(key, next, prev)) continue;
    const obj = next.objects.get(key);
    const before = prev.objects.get(key);
    if (!obj || before || obj.metadata.ownerReferences?.length) return undefined;
    if (obj.kind === 'ConfigMap' && obj.metadata.name === rootCAConfigMapName) continue; // never drawn
    const ns = obj.metadata.namespace ?? '';
    if (namespace !== AllNamespaces && ns !== namespace) continue; // not shown
    const id = `${resourceKey}|${key}`;
    if (podTargetsOf(s).has(id)) return undefined;
    const groupId = leafGroupId(obj.kind, ns);
    const first = graph.leafGroupFirst?.get(groupId);
    if (first === undefined || id < first) return undefined;
    added ??= new Map();
    added.set(groupId, (added.get(groupId) ?? 0) + 1);
  }
  if (!added) return graph;
  const nodes = graph.nodes.map((n) => {
    const more = added!.get(n.id);
    return more === undefined ? n : { ...n, count: (n.count ?? 0) + more };
  });
  return { nodes, edges: graph.edges, signature: graphSignature(nodes, graph.edges), leafGroupFirst: graph.leafGroupFirst };
}

const podTargetsCache = new WeakMap<ReadonlyMap<string, KubeObject>, Set<string>>();
/** What any pod links to (podLinkTargets of every pod), once per pods map. */
function podTargetsOf(s: AppState): Set<string> {
  const pods = s.resources['/pods']?.objects;
  if (!pods) return new Set();
  let targets = podTargetsCache.get(pods);
  if (!targets) {
    targets = new Set();
    for (const pod of pods.values()) for (const t of podLinkTargets(pod)) targets.add(t);
    podTargetsCache.set(pods, targets);
  }
  return targets;
}

/** The store key of each kind a pod links to. */
const podLinkResource: Readonly<Record<string, string>> = {
  Node: '/nodes',
  PersistentVolumeClaim: '/persistentvolumeclaims',
  ConfigMap: '/configmaps',
  Secret: '/secrets',
};

const linkTargetsCache = new WeakMap<KubeObject, string[]>();
/** The graph ids a pod links to (forEachPodLink, as buildObjectGraph reads them), once per pod version. */
function podLinkTargets(pod: KubeObject): string[] {
  let targets = linkTargetsCache.get(pod);
  if (targets) return targets;
  const found: string[] = [];
  const ns = pod.metadata.namespace ?? '';
  forEachPodLink(pod, (kind, name) => {
    const resource = podLinkResource[kind];
    const id = kind === 'Node' ? `${resource}|${name}` : `${resource}|${ns}/${name}`;
    if (!found.includes(id)) found.push(id);
  });
  targets = found;
  linkTargetsCache.set(pod, targets);
  return targets;
}

/**
 * A fresh selector per view instance, for one namespace (or AllNamespaces) and set of expanded owners. The graph
 * is rebuilt only when an object it shows changed in structure (added, removed, re-owned, relabelled, a spec
 * change such as a pod's binding), not on status updates: checking that is a walk of the changed resources'
 * maps, rebuilding is ~10 map operations per object.
 */
export function makeSelectObjectGraph(namespace: string, expanded: ReadonlySet<string>): (s: AppState) => ObjectGraph {
  let lastViews: (ResourceObjects | undefined)[] = [];
  let last: ObjectGraph | undefined;
  return (s) => {
    const views = graphResourceKeys.map((k) => s.resources[k]);
    if (last && views.every((v, i) => v?.objects === lastViews[i]?.objects)) {
      lastViews = views;
      return last;
    }
    // The graph as it stands, patched or kept resource by resource; undefined as soon as one needs a rebuild.
    let kept: ObjectGraph | undefined = last;
    for (let i = 0; i < views.length && kept; i++) {
      const key = graphResourceKeys[i];
      if (key === '/pods') kept = podsKeepGraph(views[i], lastViews[i], kept, s) ? kept : undefined;
      else if (key === '/configmaps' || key === '/secrets') kept = withLeavesAdded(key, views[i], lastViews[i], kept, s, namespace);
      else kept = sameStructure(views[i], lastViews[i]) ? kept : undefined;
    }
    lastViews = views;
    if (kept) return (last = kept);
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

let lastPods: ResourceObjects | undefined;
/** Per owner uid, its pods counted by chip state; and what each pod (by key) adds to it. */
let podCounts = new Map<string, Map<PodChipState, number>>();
let podContribution = new Map<string, { uid: string; state: PodChipState }>();
let lastCounts = new Map<string, string>();

function podContributionOf(pod: KubeObject): { uid: string; state: PodChipState } | undefined {
  const refs = pod.metadata.ownerReferences ?? [];
  const ref = refs.find((r) => r.controller) ?? refs[0];
  return ref ? { uid: ref.uid, state: podChipState(pod) } : undefined;
}

function countsText(byState: ReadonlyMap<PodChipState, number> | undefined): string {
  if (!byState) return '';
  return groupStateOrder
    .filter((st) => (byState.get(st) ?? 0) > 0)
    .map((st) => `${st}=${byState.get(st)}`)
    .join(',');
}

/** Moves one pod's contribution (by key) to what `pod` (undefined: gone) adds; adds the owners touched to `owners`. */
function recount(key: string, pod: KubeObject | undefined, owners: Set<string>): void {
  const before = podContribution.get(key);
  const after = pod && podContributionOf(pod);
  if (before && after && before.uid === after.uid && before.state === after.state) return;
  if (before) {
    const byState = podCounts.get(before.uid)!;
    const n = (byState.get(before.state) ?? 0) - 1;
    if (n > 0) byState.set(before.state, n);
    else byState.delete(before.state);
    if (byState.size === 0) podCounts.delete(before.uid);
    owners.add(before.uid);
    podContribution.delete(key);
  }
  if (after) {
    let byState = podCounts.get(after.uid);
    if (!byState) podCounts.set(after.uid, (byState = new Map()));
    byState.set(after.state, (byState.get(after.state) ?? 0) + 1);
    owners.add(after.uid);
    podContribution.set(key, after);
  }
}

/**
 * The pods a controller (by uid) owns, counted by chip state, as a stable string "Running=480,Pending=20" (so a
 * group node re-renders only when a count changed); '' when it owns none. Kept up to date from each pods map's
 * touched keys when it succeeds the one last counted (a rollout's frame changes a few dozen of 1,000 pods).
 */
export function selectPodCountsOfOwner(s: AppState, ownerUid: string): string {
  const view = s.resources['/pods'];
  if (view !== lastPods) {
    if (view && lastPods && succeeds(view, lastPods)) {
      const owners = new Set<string>();
      for (const key of view.change!.touched) recount(key, view.objects.get(key), owners);
      if (owners.size > 0) {
        lastCounts = new Map(lastCounts);
        for (const uid of owners) {
          const text = countsText(podCounts.get(uid));
          if (text) lastCounts.set(uid, text);
          else lastCounts.delete(uid);
        }
      }
    } else {
      podCounts = new Map();
      podContribution = new Map();
      const owners = new Set<string>();
      for (const [key, pod] of view?.objects ?? []) recount(key, pod, owners);
      lastCounts = new Map([...podCounts].map(([uid, byState]) => [uid, countsText(byState)]));
    }
    lastPods = view;
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
