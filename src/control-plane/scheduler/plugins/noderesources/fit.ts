// NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go): the pod's requests must fit in the
// node's allocatable minus what its pods (assumed ones included) already request, and the node must have room
// for one more pod. Scoring: LeastAllocated over cpu and memory (weight 1 each) — emptier nodes score higher.
import type { CycleState } from '../../framework/cycle-state';
import {
  ActionType,
  EventResource,
  MaxNodeScore,
  QueueingHint,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  type FilterPlugin,
  type PreFilterPlugin,
  type ScorePlugin,
} from '../../framework/interface';
import { Code, newStatus, type Status } from '../../framework/status';
import { NodeInfo, newPodInfo, type NodeObject, type PodInfo, type PodObject } from '../../framework/types';
import type { NodeFitRows } from '../../cache/node-fit-rows';
import { defaultResources, NodeAmount, NodeResourceReader, resourcePair, scoredResources, type ResourceSpec } from './resource-allocation';

export const Name = 'NodeResourcesFit';
export const ReasonTooManyPods = 'Too many pods';
export const ReasonInsufficientCPU = 'Insufficient cpu';
export const ReasonInsufficientMemory = 'Insufficient memory';
export const ReasonInsufficientEphemeralStorage = 'Insufficient ephemeral-storage';
/** "Insufficient nvidia.com/gpu" and the like. */
export function reasonInsufficient(resource: string): string {
  return `Insufficient ${resource}`;
}

export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
}

/** fitsRequest: every resource the pod does not fit on the node, pods first (then cpu, memory, storage, extended). */
export function fitsRequest(pod: PodInfo, nodeInfo: NodeInfo): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const allowedPodNumber = nodeInfo.allocatable.allowedPodNumber;
  if (nodeInfo.pods.length + 1 > allowedPodNumber) {
    out.push({ resourceName: 'pods', reason: ReasonTooManyPods, requested: 1, used: nodeInfo.pods.length, capacity: allowedPodNumber });
  }
  const req = pod.requests;
  let scalarNames: string[] | undefined;
  for (const k in req.scalar) if (req.scalar[k] > 0) (scalarNames ??= []).push(k);
  scalarNames?.sort();
  if (req.milliCPU === 0 && req.memory === 0 && req.ephemeralStorage === 0 && !scalarNames) return out;
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - used.milliCPU) {
    out.push({ resourceName: 'cpu', reason: ReasonInsufficientCPU, requested: req.milliCPU, used: used.milliCPU, capacity: alloc.milliCPU });
  }
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) {
    out.push({ resourceName: 'memory', reason: ReasonInsufficientMemory, requested: req.memory, used: used.memory, capacity: alloc.memory });
  }
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) {
    out.push({
      resourceName: 'ephemeral-storage',
      reason: ReasonInsufficientEphemeralStorage,
      requested: req.ephemeralStorage,
      used: used.ephemeralStorage,
      capacity: alloc.ephemeralStorage,
    });
  }
  for (const name of scalarNames ?? []) {
    const want = req.scalar[name];
    const have = (alloc.scalar[name] ?? 0) - (used.scalar[name] ?? 0);
    if (want > have) out.push({ resourceName: name, reason: reasonInsufficient(name), requested: want, used: used.scalar[name] ?? 0, capacity: alloc.scalar[name] ?? 0 });
  }
  return out;
}

/** fitsRequest(...).length === 0 without building the list: the answer for almost every node tried. */
function fits(pod: PodInfo, nodeInfo: NodeInfo): boolean {
  if (nodeInfo.pods.length + 1 > nodeInfo.allocatable.allowedPodNumber) return false;
  const req = pod.requests;
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (req.milliCPU > 0 && req.milliCPU > alloc.milliCPU - used.milliCPU) return false;
  if (req.memory > 0 && req.memory > alloc.memory - used.memory) return false;
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) return false;
  for (const name in req.scalar) {
    const want = req.scalar[name];
    if (want > 0 && want > (alloc.scalar[name] ?? 0) - (used.scalar[name] ?? 0)) return false;
  }
  return true;
}

/** leastRequestedScore: the share of the resource left free, scaled to MaxNodeScore (integer division). */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MaxNodeScore) / capacity);
}

/** leastResourceScorer: the weighted mean of leastRequestedScore over the scored resources. */
export function leastAllocatedScore(requested: number[], allocatable: number[], resources: readonly ResourceSpec[]): number {
  let nodeScore = 0;
  let weightSum = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    nodeScore += leastRequestedScore(requested[i], allocatable[i]) * resources[i].weight;
    weightSum += resources[i].weight;
  }
  return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
}

export class Fit {
  readonly name = Name;
  constructor(private readonly resources: readonly ResourceSpec[] = defaultResources) {}

  preFilter(): { status?: Status } {
    // The pod's requests are precomputed in its PodInfo.
    return {};
  }

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    if (fits(pod, nodeInfo)) return undefined;
    const insufficient = fitsRequest(pod, nodeInfo);
    if (insufficient.length === 0) return undefined;
    // v1.32 reports Unschedulable (preemption may free the room) whatever the shortfall.
    return newStatus(Code.Unschedulable, ...insufficient.map((r) => r.reason));
  }

  score(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number {
    // leastAllocatedScore without the intermediate arrays: this runs for every scored node of every pod.
    let nodeScore = 0;
    let weightSum = 0;
    const pair = this.pair;
    for (const r of this.resources) {
      if (!resourcePair(nodeInfo, pod, r.name, false, pair) || pair[0] === 0) continue;
      nodeScore += leastRequestedScore(pair[1], pair[0]) * r.weight;
      weightSum += r.weight;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  }

  private readonly pair = [0, 0];

  /** score for every node: the scored resources and the pod's requests looked up once. */
  scoreNodes(_state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array, rows?: NodeFitRows): void {
    const { names, weights, podRequests } = scoredResources(pod, this.resources, false);
    const reader = new NodeResourceReader(names, NodeAmount.NonZeroRequested, rows);
    const { table, columns } = reader;
    const count = names.length;
    for (let n = 0; n < nodes.length; n++) {
      const nodeInfo = nodes[n];
      const o = reader.offsetOf(nodeInfo);
      let nodeScore = 0;
      let weightSum = 0;
      for (let r = 0; r < count; r++) {
        const allocatable = o >= 0 ? table[o + columns[2 * r]] : reader.allocatableOf(nodeInfo, r);
        if (allocatable === 0) continue;
        const requested = (o >= 0 ? table[o + columns[2 * r + 1]] : reader.requestedOf(nodeInfo, r)) + podRequests[r];
        nodeScore += leastRequestedScore(requested, allocatable) * weights[r];
        weightSum += weights[r];
      }
      out[n] = weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
    }
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      // A deleted pod frees what it requested.
      { event: { resource: EventResource.AssignedPod, actionType: ActionType.Delete }, hint: () => QueueingHint.Queue },
      {
        event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeAllocatable | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel },
        // Queue when the pod would fit the (empty) node: isFit against allocatable only.
        hint: (pod, _old, newObj) => {
          if (!newObj) return QueueingHint.QueueSkip;
          const empty = new NodeInfo(newObj as NodeObject);
          const needs = fitsRequest(newPodInfo(pod as PodObject), empty);
          return needs.length === 0 ? QueueingHint.Queue : QueueingHint.QueueSkip;
        },
      },
    ];
  }
}

Fit.prototype satisfies PreFilterPlugin & FilterPlugin & ScorePlugin & EnqueueExtensions;
