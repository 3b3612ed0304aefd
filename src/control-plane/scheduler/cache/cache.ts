// The scheduler's cache (pkg/scheduler/backend/cache/cache.go) and the snapshot it serves: a NodeInfo per node,
// kept current incrementally from the informers' pod and node events, plus the pods the scheduler has assumed
// (decided but not yet seen bound), so the next pod is placed as if those bindings had already happened.
// Scheduling cycles run synchronously on the clock, so the live cache is the cycle's consistent snapshot.
import { selectorMatches, type Selector } from '../../../shared/lib/labels';
import type { SharedLister } from '../framework/interface';
import { isTerminating, NodeInfo, type NodeObject, type PodInfo } from '../framework/types';
import { NodeFitRows } from './node-fit-rows';
import { NodeTree } from './node-tree';
import { sameJson } from '../../../shared/lib/same-json';

interface TopologyCount {
  selector: Selector;
  namespace: string;
  topologyKey: string;
  counts: Map<string, number>;
}

/** How many (selector, topology key) aggregates to maintain before starting over. */
const maxTopologyCounts = 64;

export class SchedulerCache implements SharedLister {
  /** NodeInfos by node name; one may exist without its Node while pods on a deleted or unseen node remain. */
  private readonly nodes = new Map<string, NodeInfo>();
  /**
   * cache.go's podStates, split: every pod's PodInfo, and the few assumed ones' nodes. A confirmed pod is on
   * the node its PodInfo's pod names (addPod files it there), so it needs no record of its own.
   */
  private readonly podInfos = new Map<string, PodInfo>();
  /** Pods placed by this scheduler and not yet confirmed by the informer → the node they were assumed on. */
  private readonly assumedPods = new Map<string, string>();
  private readonly tree = new NodeTree();
  private nodeList: NodeInfo[] | undefined;
  private affinityList: NodeInfo[] | undefined;
  private antiAffinityList: NodeInfo[] | undefined;
  private readonly topologyCounts = new Map<string, TopologyCount>();
  private readonly rows = new NodeFitRows();

  // ---------------------------------------------------------------- nodes

  addNode(node: NodeObject): void {
    const name = node.metadata.name ?? '';
    let ni = this.nodes.get(name);
    if (!ni) this.nodes.set(name, (ni = new NodeInfo()));
    const hadNode = !!ni.node;
    const old = ni.node;
    ni.setNode(node);
    this.rows.refresh(ni);
    if (hadNode) {
      if (this.tree.updateNode(old, node)) this.invalidate();
      // Domains follow labels: a relabelled node invalidates the aggregates.
      else if (!sameJson(old?.metadata.labels ?? {}, node.metadata.labels ?? {})) this.topologyCounts.clear();
    } else {
      this.tree.addNode(node);
      this.invalidate();
    }
  }

  updateNode(node: NodeObject): void {
    this.addNode(node);
  }

  removeNode(name: string): void {
    const ni = this.nodes.get(name);
    if (!ni) return;
    this.tree.removeNode(name);
    // Pods still bound to it keep the NodeInfo (without Node) until they are deleted.
    if (ni.pods.length === 0) this.nodes.delete(name);
    else ni.clearNode(); // keeps its name until its pods are gone
    this.invalidate();
  }

  // ---------------------------------------------------------------- pods

  /** AssumePod: the scheduler decided; account for the pod on the node before the binding is seen. */
  assumePod(pi: PodInfo, nodeName: string): void {
    if (this.podInfos.has(pi.key)) throw new Error(`pod ${pi.key} is in the cache, so can't be assumed`);
    this.addPodToNode(pi, nodeName);
    this.podInfos.set(pi.key, pi);
    this.assumedPods.set(pi.key, nodeName);
  }

  /** ForgetPod: the binding failed; undo the assumption. */
  forgetPod(key: string): void {
    const nodeName = this.assumedPods.get(key);
    if (nodeName === undefined) return;
    this.removePodFromNode(key, nodeName);
    this.podInfos.delete(key);
    this.assumedPods.delete(key);
  }

  isAssumedPod(key: string): boolean {
    return this.assumedPods.has(key);
  }

  /** The node the cache files the pod under: the assumed one, else the one its pod names. */
  private nodeNameOf(pi: PodInfo): string {
    return this.assumedPods.get(pi.key) ?? pi.pod.spec?.nodeName ?? '';
  }

  /** AddPod for a pod the informer reports bound: confirms an assumed pod (wherever it really landed). */
  addPod(pi: PodInfo): void {
    const nodeName = pi.pod.spec?.nodeName ?? '';
    const old = this.podInfos.get(pi.key);
    if (old) this.removePodFromNode(pi.key, this.nodeNameOf(old));
    this.addPodToNode(pi, nodeName);
    this.podInfos.set(pi.key, pi);
    this.assumedPods.delete(pi.key);
  }

  /**
   * UpdatePod: usually a status write to a pod already confirmed on its node, which changes nothing the node's
   * sums or aggregates count: then only the PodInfo is replaced (see NodeInfo.replacePod).
   */
  updatePod(pi: PodInfo): void {
    const old = this.podInfos.get(pi.key);
    const nodeName = pi.pod.spec?.nodeName ?? '';
    if (old && !this.assumedPods.has(pi.key) && (old.pod.spec?.nodeName ?? '') === nodeName && this.nodes.get(nodeName)?.replacePod(pi)) {
      this.podInfos.set(pi.key, pi);
      return;
    }
    this.addPod(pi);
  }

  removePod(key: string): void {
    const old = this.podInfos.get(key);
    if (!old) return;
    this.removePodFromNode(key, this.nodeNameOf(old));
    this.podInfos.delete(key);
    this.assumedPods.delete(key);
  }

  getPod(key: string): PodInfo | undefined {
    return this.podInfos.get(key);
  }

  private addPodToNode(pi: PodInfo, nodeName: string): void {
    let ni = this.nodes.get(nodeName);
    if (!ni) this.nodes.set(nodeName, (ni = new NodeInfo()));
    const hadAffinity = ni.podsWithAffinity.length > 0;
    const hadAnti = ni.podsWithRequiredAntiAffinity.length > 0;
    ni.addPod(pi);
    this.rows.refresh(ni);
    this.updateTopologyCounts(pi, ni, 1);
    if (hadAffinity !== ni.podsWithAffinity.length > 0 || hadAnti !== ni.podsWithRequiredAntiAffinity.length > 0) this.invalidateAffinity();
  }

  private removePodFromNode(key: string, nodeName: string): void {
    const ni = this.nodes.get(nodeName);
    if (!ni) return;
    const hadAffinity = ni.podsWithAffinity.length > 0;
    const hadAnti = ni.podsWithRequiredAntiAffinity.length > 0;
    const removed = ni.removePod(key);
    this.rows.refresh(ni);
    if (removed) this.updateTopologyCounts(removed, ni, -1);
    if (hadAffinity !== ni.podsWithAffinity.length > 0 || hadAnti !== ni.podsWithRequiredAntiAffinity.length > 0) this.invalidateAffinity();
    if (!ni.node && ni.pods.length === 0) this.nodes.delete(nodeName);
  }

  private updateTopologyCounts(pi: PodInfo, ni: NodeInfo, delta: number): void {
    if (this.topologyCounts.size === 0 || !ni.node || isTerminating(pi.pod)) return;
    const labels = ni.node.metadata.labels ?? {};
    for (const tc of this.topologyCounts.values()) {
      if (tc.namespace !== pi.namespace || !(tc.topologyKey in labels)) continue;
      if (!selectorMatches(tc.selector, pi.pod.metadata.labels)) continue;
      const v = labels[tc.topologyKey];
      tc.counts.set(v, (tc.counts.get(v) ?? 0) + delta);
    }
  }

  // ---------------------------------------------------------------- snapshot (SharedLister)

  topologyPodCounts(selector: Selector, namespace: string, countKey: number, topologyKey: string): ReadonlyMap<string, number> {
    const key = `${countKey}\u0000${topologyKey}`;
    const cached = this.topologyCounts.get(key);
    if (cached) return cached.counts;
    const counts = new Map<string, number>();
    for (const ni of this.nodeInfos()) {
      const labels = ni.node!.metadata.labels ?? {};
      if (!(topologyKey in labels)) continue;
      const v = labels[topologyKey];
      counts.set(v, (counts.get(v) ?? 0) + ni.countPodsMatchSelector(selector, namespace, countKey));
    }
    if (this.topologyCounts.size >= maxTopologyCounts) this.topologyCounts.clear();
    this.topologyCounts.set(key, { selector, namespace, topologyKey, counts });
    return counts;
  }

  private invalidate(): void {
    this.nodeList = undefined;
    this.topologyCounts.clear();
    this.invalidateAffinity();
  }

  private invalidateAffinity(): void {
    this.affinityList = undefined;
    this.antiAffinityList = undefined;
  }

  /** Nodes (with their Node object) in node-tree order. */
  nodeInfos(): readonly NodeInfo[] {
    if (!this.nodeList) this.nodeList = this.tree.list().map((n) => this.nodes.get(n)!).filter((ni) => !!ni?.node);
    return this.nodeList;
  }

  /** The default filters' per-node rows, row i for nodeInfos()[i] (laid out again when the node list changes). */
  fitRows(): NodeFitRows {
    const nodes = this.nodeInfos();
    if (this.rows.nodes !== nodes) this.rows.rebuild(nodes);
    return this.rows;
  }

  getNodeInfo(name: string): NodeInfo | undefined {
    const ni = this.nodes.get(name);
    return ni?.node ? ni : undefined;
  }

  havePodsWithAffinityList(): readonly NodeInfo[] {
    if (!this.affinityList) this.affinityList = this.nodeInfos().filter((n) => n.podsWithAffinity.length > 0);
    return this.affinityList;
  }

  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    if (!this.antiAffinityList) this.antiAffinityList = this.nodeInfos().filter((n) => n.podsWithRequiredAntiAffinity.length > 0);
    return this.antiAffinityList;
  }

  get nodeCount(): number {
    return this.nodeInfos().length;
  }

  get podCount(): number {
    return this.podInfos.size;
  }

  get assumedPodCount(): number {
    return this.assumedPods.size;
  }
}
