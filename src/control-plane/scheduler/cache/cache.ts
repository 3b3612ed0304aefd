// The scheduler's cache (pkg/scheduler/backend/cache/cache.go) and the snapshot it serves: a NodeInfo per node,
// kept current incrementally from the informers' pod and node events, plus the pods the scheduler has assumed
// (decided but not yet seen bound), so the next pod is placed as if those bindings had already happened.
// Scheduling cycles run synchronously on the clock, so the live cache is the cycle's consistent snapshot.
import type { SharedLister } from '../framework/interface';
import { NodeInfo, type NodeObject, type PodInfo } from '../framework/types';
import { NodeTree } from './node-tree';

interface PodState {
  podInfo: PodInfo;
  nodeName: string;
  /** Placed by this scheduler and not yet confirmed by the informer. */
  assumed: boolean;
  bindingFinished: boolean;
}

export class SchedulerCache implements SharedLister {
  /** NodeInfos by node name; one may exist without its Node while pods on a deleted or unseen node remain. */
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly podStates = new Map<string, PodState>();
  private readonly tree = new NodeTree();
  private nodeList: NodeInfo[] | undefined;
  private affinityList: NodeInfo[] | undefined;
  private antiAffinityList: NodeInfo[] | undefined;

  // ---------------------------------------------------------------- nodes

  addNode(node: NodeObject): void {
    const name = node.metadata.name ?? '';
    let ni = this.nodes.get(name);
    if (!ni) this.nodes.set(name, (ni = new NodeInfo()));
    const hadNode = !!ni.node;
    const old = ni.node;
    ni.setNode(node);
    if (hadNode) {
      if (this.tree.updateNode(old, node)) this.invalidate();
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
    else ni.node = undefined;
    this.invalidate();
  }

  // ---------------------------------------------------------------- pods

  /** AssumePod: the scheduler decided; account for the pod on the node before the binding is seen. */
  assumePod(pi: PodInfo, nodeName: string): void {
    if (this.podStates.has(pi.key)) throw new Error(`pod ${pi.key} is in the cache, so can't be assumed`);
    this.addPodToNode(pi, nodeName);
    this.podStates.set(pi.key, { podInfo: pi, nodeName, assumed: true, bindingFinished: false });
  }

  finishBinding(key: string): void {
    const ps = this.podStates.get(key);
    if (ps?.assumed) ps.bindingFinished = true;
  }

  /** ForgetPod: the binding failed; undo the assumption. */
  forgetPod(key: string): void {
    const ps = this.podStates.get(key);
    if (!ps || !ps.assumed) return;
    this.removePodFromNode(key, ps.nodeName);
    this.podStates.delete(key);
  }

  isAssumedPod(key: string): boolean {
    return !!this.podStates.get(key)?.assumed;
  }

  /** AddPod for a pod the informer reports bound: confirms an assumed pod (wherever it really landed). */
  addPod(pi: PodInfo): void {
    const nodeName = pi.pod.spec?.nodeName ?? '';
    const ps = this.podStates.get(pi.key);
    if (ps) this.removePodFromNode(pi.key, ps.nodeName);
    this.addPodToNode(pi, nodeName);
    this.podStates.set(pi.key, { podInfo: pi, nodeName, assumed: false, bindingFinished: true });
  }

  updatePod(pi: PodInfo): void {
    this.addPod(pi);
  }

  removePod(key: string): void {
    const ps = this.podStates.get(key);
    if (!ps) return;
    this.removePodFromNode(key, ps.nodeName);
    this.podStates.delete(key);
  }

  getPod(key: string): PodInfo | undefined {
    return this.podStates.get(key)?.podInfo;
  }

  private addPodToNode(pi: PodInfo, nodeName: string): void {
    let ni = this.nodes.get(nodeName);
    if (!ni) this.nodes.set(nodeName, (ni = new NodeInfo()));
    const hadAffinity = ni.podsWithAffinity.length > 0;
    const hadAnti = ni.podsWithRequiredAntiAffinity.length > 0;
    ni.addPod(pi);
    if (hadAffinity !== ni.podsWithAffinity.length > 0 || hadAnti !== ni.podsWithRequiredAntiAffinity.length > 0) this.invalidateAffinity();
  }

  private removePodFromNode(key: string, nodeName: string): void {
    const ni = this.nodes.get(nodeName);
    if (!ni) return;
    const hadAffinity = ni.podsWithAffinity.length > 0;
    const hadAnti = ni.podsWithRequiredAntiAffinity.length > 0;
    ni.removePod(key);
    if (hadAffinity !== ni.podsWithAffinity.length > 0 || hadAnti !== ni.podsWithRequiredAntiAffinity.length > 0) this.invalidateAffinity();
    if (!ni.node && ni.pods.length === 0) this.nodes.delete(nodeName);
  }

  // ---------------------------------------------------------------- snapshot (SharedLister)

  private invalidate(): void {
    this.nodeList = undefined;
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
    return this.podStates.size;
  }

  get assumedPodCount(): number {
    let n = 0;
    for (const ps of this.podStates.values()) if (ps.assumed) n++;
    return n;
  }
}
