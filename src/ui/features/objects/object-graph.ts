// The Objects graph as data: which API objects are nodes and how they are linked (owner → dependent,
// Service → Pods, Pod → Node, Pod → ConfigMap/Secret/PVC, PVC → PV). Pure, so it is tested without React Flow.
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

/** An object with the id the store knows it by ("group/resource|namespace/name"). */
export interface GraphInput {
  id: string;
  obj: KubeObject;
}

export const GraphNodeType = { Object: 'object', Pods: 'pods' } as const;
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
  /** Changes only when node ids or edges change: what the layout and React Flow's lists depend on. */
  signature: string;
}

export interface BuildOptions {
  /** Owner graph ids whose pods are shown one by one even above the threshold. */
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

/** The graph of one namespace's (or every namespace's) workload objects, with the cluster's Nodes and volumes. */
export function buildObjectGraph(inputs: readonly GraphInput[], namespace: string, options: BuildOptions = {}): ObjectGraph {
  const all = namespace === AllNamespaces;
  const shown = inputs
    .filter(({ obj }) => graphKinds.has(obj.kind) && inNamespace(obj, namespace, all))
    .sort((a, b) => cmp(a.id, b.id));

  const byUid = new Map<string, string>();
  const byRef = new Map<string, string>();
  for (const { id, obj } of shown) {
    if (obj.metadata.uid) byUid.set(obj.metadata.uid, id);
    byRef.set(refKey(obj.kind, obj.metadata.namespace, obj.metadata.name), id);
  }
  const inputById = new Map(shown.map((i) => [i.id, i.obj]));

  // Pods of big owners collapse into one node per owner; `drawnAs` maps an object to the node it is drawn in.
  const podsOfOwner = new Map<string, string[]>();
  for (const { id, obj } of shown) {
    if (obj.kind !== 'Pod') continue;
    const owner = controllerOf(obj, byUid);
    // Only controllers drawn left of pods group them (a mirror pod's Node does not).
    if (!owner || graphColumns[inputById.get(owner)!.kind] >= graphColumns.Pod) continue;
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
      const spec = (obj as { spec?: PodSpecLike }).spec ?? {};
      const uses = (kind: string, name: string | undefined, edge: EdgeKind = EdgeKind.Uses) => {
        if (name) link(self, byRef.get(refKey(kind, ns, name)), edge);
      };
      if (spec.nodeName) link(self, byRef.get(refKey('Node', undefined, spec.nodeName)), EdgeKind.RunsOn);
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
      for (const s of spec.imagePullSecrets ?? []) uses('Secret', s.name);
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

  const signature = `${nodes.map((n) => `${n.id}${n.expanded ? '+' : ''}`).join(',')}|${edges.map((e) => e.id).join(',')}`;
  return { nodes, edges, signature };
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
  if (node.type === GraphNodeType.Pods && node.owner) return `Pods of ${node.owner.kind} ${withNamespace && node.namespace ? `${node.namespace}/` : ''}${node.owner.name}`;
  return `${node.kind} ${withNamespace && node.namespace ? `${node.namespace}/` : ''}${node.name}`;
}
