// The Objects graph as data: which API objects are nodes and how they are linked (owner → dependent,
// Service → Pods, Pod → Node, Pod → ConfigMap/Secret/PVC, PVC → PV). Pure, so it is tested without React Flow.
// Its size is bounded by what a person can read: a big owner's pods are one group node, and so are a namespace's
// many ConfigMaps (or Secrets) that nothing links to; what pods use, and what owns or is owned, stays one by one.
import type { KubeObject } from '../../../shared/api/types';

/** The namespace filter's "every namespace" choice. */
export const AllNamespaces = '*';

/**
 * Kinds the graph shows, with the layer (column, left to right) each is drawn in: controllers of controllers,
 * controllers of pods (and Services, which select pods), pods, what pods use or run on, what claims bind.
 */
export const graphColumns: Readonly<Record<string, number>> = {
  Deployment: 0,
  CronJob: 0,
  ReplicaSet: 1,
  ReplicationController: 1,
  StatefulSet: 1,
  DaemonSet: 1,
  Job: 1,
  Service: 1,
  Pod: 2,
  Node: 3,
  ConfigMap: 3,
  Secret: 3,
  PersistentVolumeClaim: 3,
  PersistentVolume: 4,
};

export const graphKinds: ReadonlySet<string> = new Set(Object.keys(graphColumns));

const clusterScoped: ReadonlySet<string> = new Set(['Node', 'PersistentVolume']);

/** An owner with more pods than this shows them as one group node (a 500-replica ReplicaSet is one box). */
export const podGroupThreshold = 20;

/**
 * A namespace with more ConfigMaps (or Secrets) than this that no shown object links to (no pod mounts or reads
 * them, no owner references) shows those as one group node: 10,000 unused ConfigMaps are one box, not a column of
 * 10,000 that no one can read (and that would take seconds to lay out and draw).
 */
export const leafGroupThreshold = 20;

/** Kinds whose unlinked objects are grouped per namespace beyond leafGroupThreshold. */
export const leafGroupKinds: ReadonlySet<string> = new Set(['ConfigMap', 'Secret']);

/**
 * The root CA publisher's ConfigMap: in every namespace, and projected into every pod by its kube-api-access
 * volume. Like the default ServiceAccount it is not drawn (an edge from every pod to it would say nothing); the
 * Objects table and kubectl list it.
 */
export const rootCAConfigMapName = 'kube-root-ca.crt';

/** An object with the id the store knows it by ("group/resource|namespace/name"). */
export interface GraphInput {
  id: string;
  obj: KubeObject;
}

export const GraphNodeType = { Object: 'object', Pods: 'pods', Objects: 'objects' } as const;
export type GraphNodeType = (typeof GraphNodeType)[keyof typeof GraphNodeType];

export interface ObjectGraphNode {
  id: string;
  type: GraphNodeType;
  kind: string;
  name: string;
  /** Set for namespaced objects (and pod groups). */
  namespace?: string;
  /** The layer it is drawn in (graphColumns). */
  column: number;
  /** A pod group: the graph id and uid of the owner whose pods it stands for. */
  owner?: { id: string; uid: string; kind: string; name: string };
  /** An owner whose pods would be grouped but are shown one by one (the user expanded them). */
  expanded?: boolean;
  /** A leaf group (GraphNodeType.Objects): how many objects of `kind` in `namespace` it stands for. */
  count?: number;
}

export const EdgeKind = {
  Owns: 'owns',
  Selects: 'selects',
  RunsOn: 'runs on',
  Uses: 'uses',
  Mounts: 'mounts',
  BoundTo: 'is bound to',
} as const;
export type EdgeKind = (typeof EdgeKind)[keyof typeof EdgeKind];

export interface ObjectGraphEdge {
  id: string;
  source: string;
  target: string;
  kind: EdgeKind;
}

export interface ObjectGraph {
  nodes: ObjectGraphNode[];
  edges: ObjectGraphEdge[];
  /** Changes only when node ids, group counts or edges change: what the layout and React Flow's lists depend on. */
  signature: string;
  /** Each leaf group's first member id (what it sorts by among the objects), for patching in more members. */
  leafGroupFirst?: ReadonlyMap<string, string>;
}

export interface BuildOptions {
  /** Owner graph ids whose pods, and leaf group ids whose objects, are shown one by one even above the threshold. */
  expanded?: ReadonlySet<string>;
}

interface ContainerLike {
  env?: { valueFrom?: { configMapKeyRef?: { name?: string }; secretKeyRef?: { name?: string } } }[];
  envFrom?: { configMapRef?: { name?: string }; secretRef?: { name?: string } }[];
}

interface VolumeProjection {
  configMap?: { name?: string };
  secret?: { name?: string };
}

interface PodSpecLike {
  nodeName?: string;
  volumes?: {
    configMap?: { name?: string };
    secret?: { secretName?: string };
    persistentVolumeClaim?: { claimName?: string };
    projected?: { sources?: VolumeProjection[] };
  }[];
  containers?: ContainerLike[];
  initContainers?: ContainerLike[];
  ephemeralContainers?: ContainerLike[];
  imagePullSecrets?: { name?: string }[];
}

/**
 * Every object a pod links to, as the graph draws it: its Node, what it mounts, what its containers read and
 * the Secrets it pulls with (names may repeat; an unset name is skipped).
 */
export function forEachPodLink(pod: KubeObject, visit: (kind: string, name: string, edge: EdgeKind) => void): void {
  const spec = (pod as { spec?: PodSpecLike }).spec ?? {};
  const uses = (kind: string, name: string | undefined, edge: EdgeKind = EdgeKind.Uses) => {
    if (name) visit(kind, name, edge);
  };
  uses('Node', spec.nodeName, EdgeKind.RunsOn);
  for (const v of spec.volumes ?? []) {
    uses('PersistentVolumeClaim', v.persistentVolumeClaim?.claimName, EdgeKind.Mounts);
    uses('ConfigMap', v.configMap?.name, EdgeKind.Mounts);
    uses('Secret', v.secret?.secretName, EdgeKind.Mounts);
    for (const p of v.projected?.sources ?? []) {
      uses('ConfigMap', p.configMap?.name, EdgeKind.Mounts);
      uses('Secret', p.secret?.name, EdgeKind.Mounts);
    }
  }
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])]) {
    for (const e of c.envFrom ?? []) {
      uses('ConfigMap', e.configMapRef?.name);
      uses('Secret', e.secretRef?.name);
    }
    for (const e of c.env ?? []) {
      uses('ConfigMap', e.valueFrom?.configMapKeyRef?.name);
      uses('Secret', e.valueFrom?.secretKeyRef?.name);
    }
  }
  for (const ps of spec.imagePullSecrets ?? []) uses('Secret', ps.name);
}

/** The graph of one namespace's (or every namespace's) workload objects, with the cluster's Nodes and volumes. */
export function buildObjectGraph(inputs: readonly GraphInput[], namespace: string, options: BuildOptions = {}): ObjectGraph {
  const all = namespace === AllNamespaces;
  // ConfigMaps and Secrets without owners are leaf candidates: they make no edge of their own (only a pod using
  // them, or an object they own, links to them), so they are neither sorted nor drawn until grouping decides.
  const shown: GraphInput[] = [];
  const leaves: GraphInput[] = [];
  const byUid = new Map<string, string>();
  const byRef = new Map<string, string>();
  const inputById = new Map<string, KubeObject>();
  for (const input of inputs) {
    const { id, obj } = input;
    if (!graphKinds.has(obj.kind) || !inNamespace(obj, namespace, all)) continue;
    if (obj.kind === 'ConfigMap' && obj.metadata.name === rootCAConfigMapName) continue;
    if (obj.metadata.uid) byUid.set(obj.metadata.uid, id);
    byRef.set(refKeyOf(obj), id);
    if (leafGroupKinds.has(obj.kind) && !obj.metadata.ownerReferences?.length) {
      leaves.push(input);
      continue;
    }
    shown.push(input);
    inputById.set(id, obj);
  }
  shown.sort((a, b) => cmp(a.id, b.id));

  // Pods of big owners collapse into one node per owner; `drawnAs` maps an object to the node it is drawn in.
  const podsOfOwner = new Map<string, string[]>();
  for (const { id, obj } of shown) {
    if (obj.kind !== 'Pod') continue;
    const owner = controllerOf(obj, byUid);
    // Only controllers drawn left of pods group them (a mirror pod's Node, or a leaf, does not).
    const ownerKind = owner && inputById.get(owner)?.kind;
    if (!ownerKind || graphColumns[ownerKind] >= graphColumns.Pod) continue;
    const list = podsOfOwner.get(owner);
    if (list) list.push(id);
    else podsOfOwner.set(owner, [id]);
  }
  const drawnAs = new Map<string, string>();
  const nodes: ObjectGraphNode[] = [];
  const expandedOwners = new Set<string>();
  for (const [ownerId, pods] of podsOfOwner) {
    if (pods.length <= podGroupThreshold) continue;
    if (options.expanded?.has(ownerId)) {
      expandedOwners.add(ownerId);
      continue;
    }
    const owner = inputById.get(ownerId)!;
    const groupId = podGroupId(ownerId);
    nodes.push({
      id: groupId,
      type: GraphNodeType.Pods,
      kind: 'Pod',
      name: `pods of ${owner.metadata.name ?? ''}`,
      namespace: owner.metadata.namespace,
      column: graphColumns.Pod,
      owner: { id: ownerId, uid: owner.metadata.uid ?? '', kind: owner.kind, name: owner.metadata.name ?? '' },
    });
    for (const pod of pods) drawnAs.set(pod, groupId);
  }
  for (const { id, obj } of shown) {
    if (drawnAs.has(id)) continue;
    drawnAs.set(id, id);
    const node: ObjectGraphNode = { id, type: GraphNodeType.Object, kind: obj.kind, name: obj.metadata.name ?? '', column: graphColumns[obj.kind] };
    if (obj.metadata.namespace) node.namespace = obj.metadata.namespace;
    if (expandedOwners.has(id)) node.expanded = true;
    nodes.push(node);
  }
  // While edges are found a leaf candidate is drawn as itself (one that is linked is never grouped).
  for (const { id } of leaves) drawnAs.set(id, id);

  // Targets linked from each source: the pods of a group repeat the same few edges (owner → group, group →
  // node), found here without building an id string for each.
  const linked = new Map<string, Set<string>>();
  const edges: ObjectGraphEdge[] = [];
  const link = (source: string | undefined, target: string | undefined, kind: EdgeKind) => {
    if (!source || !target || source === target) return;
    let targets = linked.get(source);
    if (!targets) linked.set(source, (targets = new Set()));
    if (targets.has(target)) return;
    targets.add(target);
    edges.push({ id: `${source}->${target}`, source, target, kind });
  };

  const pods = shown.filter((i) => i.obj.kind === 'Pod');
  for (const { id, obj } of shown) {
    const self = drawnAs.get(id);
    const ns = obj.metadata.namespace;
    // Owner references link any kind to any kind, as the garbage collector sees them.
    for (const ref of obj.metadata.ownerReferences ?? []) link(drawnAs.get(byUid.get(ref.uid) ?? ''), self, EdgeKind.Owns);
    if (obj.kind === 'Service') {
      const selector = (obj as { spec?: { selector?: Record<string, string> } }).spec?.selector;
      if (selector && Object.keys(selector).length > 0) {
        for (const pod of pods) {
          if (pod.obj.metadata.namespace === ns && matches(selector, pod.obj.metadata.labels)) link(self, drawnAs.get(pod.id), EdgeKind.Selects);
        }
      }
    }
    if (obj.kind === 'Pod') {
      forEachPodLink(obj, (kind, name, edge) => {
        link(self, byRef.get(refKey(kind, kind === 'Node' ? undefined : ns, name)), edge);
      });
    }
    if (obj.kind === 'PersistentVolumeClaim') {
      const volumeName = (obj as { spec?: { volumeName?: string } }).spec?.volumeName;
      if (volumeName) link(self, byRef.get(refKey('PersistentVolume', undefined, volumeName)), EdgeKind.BoundTo);
    }
    if (obj.kind === 'PersistentVolume') {
      // A PV pre-bound to a claim (claimRef) before the claim names it.
      const claim = (obj as { spec?: { claimRef?: { namespace?: string; name?: string } } }).spec?.claimRef;
      if (claim?.name) link(byRef.get(refKey('PersistentVolumeClaim', claim.namespace, claim.name)), self, EdgeKind.BoundTo);
    }
  }

  const leafGroupFirst = new Map<string, string>();
  const drawn = withLeaves(nodes, leaves, edges, options.expanded, leafGroupFirst);
  return { nodes: drawn, edges, signature: graphSignature(drawn, edges), leafGroupFirst };
}

export function graphSignature(nodes: readonly ObjectGraphNode[], edges: readonly ObjectGraphEdge[]): string {
  return `${nodes.map(nodeSignature).join(',')}|${edges.map((e) => e.id).join(',')}`;
}

const nodeSignature = (n: ObjectGraphNode) => `${n.id}${n.expanded ? '+' : ''}${n.count !== undefined ? `#${n.count}` : ''}`;

/**
 * Adds the leaf candidates to the nodes: each namespace's unlinked ConfigMaps (Secrets) become one group node when
 * there are more than leafGroupThreshold of them (unless the user expanded that group), the others (linked, or
 * few) are nodes one by one. Objects keep the ids' order, a group taking the place of its first member; only the
 * drawn leaves are sorted, so 10,000 grouped ConfigMaps cost a pass, not a sort and 10,000 nodes.
 */
function withLeaves(
  nodes: ObjectGraphNode[],
  leaves: readonly GraphInput[],
  edges: readonly ObjectGraphEdge[],
  expanded: ReadonlySet<string> | undefined,
  groupFirst: Map<string, string>,
): ObjectGraphNode[] {
  if (leaves.length === 0) return nodes;
  const linked = new Set<string>();
  for (const e of edges) {
    linked.add(e.source);
    linked.add(e.target);
  }
  // Unlinked leaves by namespace, then kind (no key string built per object); `bucketOf[i]` is leaves[i]'s.
  const buckets = new Map<string, Map<string, GraphInput[]>>();
  const bucketOf: (GraphInput[] | undefined)[] = new Array(leaves.length);
  for (let i = 0; i < leaves.length; i++) {
    const leaf = leaves[i];
    if (linked.has(leaf.id)) continue;
    const ns = leaf.obj.metadata.namespace ?? '';
    let byKind = buckets.get(ns);
    if (!byKind) buckets.set(ns, (byKind = new Map()));
    let list = byKind.get(leaf.obj.kind);
    if (!list) byKind.set(leaf.obj.kind, (list = []));
    list.push(leaf);
    bucketOf[i] = list;
  }
  // What is added to the objects, each with the id it sorts by.
  const added: { sortId: string; node: ObjectGraphNode }[] = [];
  const grouped = new Set<GraphInput[]>();
  for (const [ns, byKind] of buckets) {
    for (const [kind, members] of byKind) {
      const id = leafGroupId(kind, ns);
      if (members.length <= leafGroupThreshold || expanded?.has(id)) continue;
      let first = members[0].id;
      for (const m of members) if (m.id < first) first = m.id;
      grouped.add(members);
      groupFirst.set(id, first);
      added.push({ sortId: first, node: { id, type: GraphNodeType.Objects, kind, name: `${kind}s`, namespace: ns, column: graphColumns[kind], count: members.length } });
    }
  }
  for (let i = 0; i < leaves.length; i++) {
    const bucket = bucketOf[i];
    if (bucket && grouped.has(bucket)) continue;
    const { id, obj } = leaves[i];
    const node: ObjectGraphNode = { id, type: GraphNodeType.Object, kind: obj.kind, name: obj.metadata.name ?? '', column: graphColumns[obj.kind] };
    if (obj.metadata.namespace) node.namespace = obj.metadata.namespace;
    added.push({ sortId: id, node });
  }
  added.sort((a, b) => cmp(a.sortId, b.sortId));
  // Pod groups come first (as buildObjectGraph puts them), then the objects merged in id order.
  const merged: ObjectGraphNode[] = [];
  let i = 0;
  for (const n of nodes) {
    if (n.type === GraphNodeType.Object) while (i < added.length && added[i].sortId < n.id) merged.push(added[i++].node);
    merged.push(n);
  }
  while (i < added.length) merged.push(added[i++].node);
  return merged;
}

/** The id of the group node standing for a namespace's unlinked objects of a kind. */
export function leafGroupId(kind: string, namespace: string): string {
  return `objects:${kind}:${namespace}`;
}

/** The kind and namespace of a leaf group id; undefined for any other id. */
export function parseLeafGroupId(id: string): { kind: string; namespace: string } | undefined {
  const [prefix, kind, namespace] = id.split(':');
  return prefix === 'objects' && kind && namespace !== undefined ? { kind, namespace } : undefined;
}

export function podGroupId(ownerId: string): string {
  return `pods:${ownerId}`;
}

function inNamespace(obj: KubeObject, namespace: string, all: boolean): boolean {
  if (obj.kind === 'Node') return true;
  if (obj.kind === 'PersistentVolume') {
    if (all) return true;
    // A volume belongs to the namespace of its claim; an unclaimed one is offered to every namespace.
    const claim = (obj as { spec?: { claimRef?: { namespace?: string } } }).spec?.claimRef;
    return !claim?.namespace || claim.namespace === namespace;
  }
  if (clusterScoped.has(obj.kind)) return true;
  return all || (obj.metadata.namespace ?? '') === namespace;
}

const refKeys = new WeakMap<KubeObject, string>();
/** refKey of a stored object, once per object version (stored objects are immutable). */
function refKeyOf(obj: KubeObject): string {
  let key = refKeys.get(obj);
  if (key === undefined) refKeys.set(obj, (key = refKey(obj.kind, obj.metadata.namespace, obj.metadata.name)));
  return key;
}

function refKey(kind: string, namespace: string | undefined, name: string | undefined): string {
  return `${clusterScoped.has(kind) ? '' : (namespace ?? '')}|${kind}|${name ?? ''}`;
}

function controllerOf(obj: KubeObject, byUid: ReadonlyMap<string, string>): string | undefined {
  const refs = obj.metadata.ownerReferences ?? [];
  const ref = refs.find((r) => r.controller) ?? refs[0];
  return ref ? byUid.get(ref.uid) : undefined;
}

function matches(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "Deployment nginx" (or "Deployment default/nginx" when namespaces are mixed): how nodes and edges are named. */
export function objectTitle(node: Pick<ObjectGraphNode, 'kind' | 'name' | 'namespace' | 'type' | 'owner'>, withNamespace: boolean): string {
  // A leaf group always names its namespace: it stands for the namespace's objects of its kind.
  if (node.type === GraphNodeType.Objects) return `${node.kind}s in ${node.namespace ?? ''}`;
  if (node.type === GraphNodeType.Pods && node.owner) return `Pods of ${node.owner.kind} ${withNamespace && node.namespace ? `${node.namespace}/` : ''}${node.owner.name}`;
  return `${node.kind} ${withNamespace && node.namespace ? `${node.namespace}/` : ''}${node.name}`;
}
