// The Objects graph as data: which API objects are nodes and how they are linked (owner → dependent,
// Service → Pods, Pod → Node, Pod → ConfigMap/Secret/PVC). Pure, so it is tested without React Flow.
import type { KubeObject } from '../../../shared/api/types';

/** The kinds the graph shows; everything else stays in the table. */
export const graphKinds: ReadonlySet<string> = new Set([
  'Deployment',
  'ReplicaSet',
  'Pod',
  'Service',
  'ConfigMap',
  'Secret',
  'Node',
  'PersistentVolumeClaim',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
]);

/** A ReplicaSet owning more pods than this shows them as one "N pods" node. */
export const podGroupThreshold = 20;

/** An object with the id the store knows it by ("group/resource|namespace/name"). */
export interface GraphInput {
  id: string;
  obj: KubeObject;
}

export interface ObjectGraphNode {
  id: string;
  type: 'object' | 'pods';
  kind: string;
  name: string;
  /** For a "pods" node: how many pods it stands for. */
  count?: number;
}

export interface ObjectGraphEdge {
  id: string;
  source: string;
  target: string;
}

export interface ObjectGraph {
  nodes: ObjectGraphNode[];
  edges: ObjectGraphEdge[];
  /** Changes only when the set of node ids, group sizes or edges changes: what the layout depends on. */
  signature: string;
}

interface PodSpecLike {
  nodeName?: string;
  volumes?: {
    configMap?: { name?: string };
    secret?: { secretName?: string };
    persistentVolumeClaim?: { claimName?: string };
  }[];
  containers?: ContainerLike[];
  initContainers?: ContainerLike[];
}

interface ContainerLike {
  envFrom?: { configMapRef?: { name?: string }; secretRef?: { name?: string } }[];
}

/** The graph of one namespace's workload objects (and the cluster's Nodes). */
export function buildObjectGraph(inputs: readonly GraphInput[], namespace: string): ObjectGraph {
  const shown = inputs
    .filter(({ obj }) => graphKinds.has(obj.kind) && (obj.kind === 'Node' || (obj.metadata.namespace ?? '') === namespace))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const byUid = new Map<string, string>();
  const byKindName = new Map<string, string>();
  for (const { id, obj } of shown) {
    if (obj.metadata.uid) byUid.set(obj.metadata.uid, id);
    byKindName.set(`${obj.kind}/${obj.metadata.name ?? ''}`, id);
  }

  // Pods of big ReplicaSets collapse into one node per ReplicaSet; `nodeOf` maps a pod to where it is drawn.
  const podsOfOwner = new Map<string, string[]>();
  for (const { id, obj } of shown) {
    if (obj.kind !== 'Pod') continue;
    const owner = controllerOf(obj, byUid);
    if (owner && owner.startsWith('apps/replicasets|')) podsOfOwner.set(owner, [...(podsOfOwner.get(owner) ?? []), id]);
  }
  const nodeOf = new Map<string, string>();
  const nodes: ObjectGraphNode[] = [];
  const edgeIds = new Set<string>();
  const edges: ObjectGraphEdge[] = [];
  const link = (source: string | undefined, target: string | undefined) => {
    if (!source || !target || source === target) return;
    const id = `${source}->${target}`;
    if (edgeIds.has(id)) return;
    edgeIds.add(id);
    edges.push({ id, source, target });
  };

  for (const [owner, pods] of podsOfOwner) {
    if (pods.length <= podGroupThreshold) continue;
    const groupId = `pods:${owner}`;
    nodes.push({ id: groupId, type: 'pods', kind: 'Pod', name: `${pods.length} pods`, count: pods.length });
    for (const pod of pods) nodeOf.set(pod, groupId);
  }
  for (const { id, obj } of shown) {
    if (nodeOf.has(id)) continue;
    nodeOf.set(id, id);
    nodes.push({ id, type: 'object', kind: obj.kind, name: obj.metadata.name ?? '' });
  }

  for (const { id, obj } of shown) {
    const self = nodeOf.get(id);
    for (const ref of obj.metadata.ownerReferences ?? []) link(byUid.get(ref.uid), self);
    if (obj.kind === 'Service') {
      const selector = (obj as { spec?: { selector?: Record<string, string> } }).spec?.selector;
      if (selector && Object.keys(selector).length > 0) {
        for (const pod of shown) {
          if (pod.obj.kind === 'Pod' && matches(selector, pod.obj.metadata.labels)) link(self, nodeOf.get(pod.id));
        }
      }
    }
    if (obj.kind === 'Pod') {
      const spec = (obj as { spec?: PodSpecLike }).spec ?? {};
      if (spec.nodeName) link(self, byKindName.get(`Node/${spec.nodeName}`));
      for (const v of spec.volumes ?? []) {
        if (v.configMap?.name) link(self, byKindName.get(`ConfigMap/${v.configMap.name}`));
        if (v.secret?.secretName) link(self, byKindName.get(`Secret/${v.secret.secretName}`));
        if (v.persistentVolumeClaim?.claimName) link(self, byKindName.get(`PersistentVolumeClaim/${v.persistentVolumeClaim.claimName}`));
      }
      for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
        for (const e of c.envFrom ?? []) {
          if (e.configMapRef?.name) link(self, byKindName.get(`ConfigMap/${e.configMapRef.name}`));
          if (e.secretRef?.name) link(self, byKindName.get(`Secret/${e.secretRef.name}`));
        }
      }
    }
  }

  const signature = `${nodes.map((n) => `${n.id}#${n.count ?? ''}`).join(',')}|${edges.map((e) => e.id).join(',')}`;
  return { nodes, edges, signature };
}

function controllerOf(obj: KubeObject, byUid: ReadonlyMap<string, string>): string | undefined {
  const refs = obj.metadata.ownerReferences ?? [];
  const ref = refs.find((r) => r.controller) ?? refs[0];
  return ref ? byUid.get(ref.uid) : undefined;
}

function matches(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}
