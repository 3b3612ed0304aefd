// The plugin extension points of the scheduling framework (pkg/scheduler/framework/interface.go). A plugin
// implements the points it needs and declares conformance with `satisfies FilterPlugin & ScorePlugin`.
//
//   scheduling cycle:  PreFilter → Filter (per node) → [PostFilter when no node fits] → PreScore → Score (per node)
//                      → NormalizeScore → Reserve → Permit
//   binding cycle:     PreBind → Bind → PostBind
import type { Selector } from '../../../shared/lib/labels';
import type { NodeFitRows } from '../cache/node-fit-rows';
import type { CycleState } from './cycle-state';
import type { Status } from './status';
import type { NodeInfo, NodeObject, PodInfo, PodObject } from './types';

/** framework.MaxNodeScore / MinNodeScore. */
export const MaxNodeScore = 100;
export const MinNodeScore = 0;

export interface Plugin {
  readonly name: string;
}

/** What plugins may read besides their arguments (framework.Handle, reduced to what is used). */
export interface SharedLister {
  /** Every node, in the snapshot's (zone round-robin) order. */
  nodeInfos(): readonly NodeInfo[];
  getNodeInfo(name: string): NodeInfo | undefined;
  /** Nodes hosting at least one pod with (anti-)affinity. */
  havePodsWithAffinityList(): readonly NodeInfo[];
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
  /**
   * Pods matching (namespace, selector) per value of a node label, over every node carrying the label; kept
   * current incrementally, so spreading scores need not walk every node for every pod. countKey is
   * selectorCountKey(selector, namespace). Optional: plugins fall back to walking nodeInfos().
   */
  topologyPodCounts?(selector: Selector, namespace: string, countKey: number, topologyKey: string): ReadonlyMap<string, number>;
}

/** A PreFilter may narrow the nodes to try (framework.PreFilterResult); undefined means all. */
export interface PreFilterResult {
  nodeNames?: Set<string>;
}

export interface PreFilterExtensions {
  /** The dry runs of preemption add and remove pods on a cloned node; plugins with pod-dependent state update it here. */
  addPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): Status | undefined;
  removePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | undefined;
}

export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: PodInfo, lister: SharedLister): { result?: PreFilterResult; status?: Status };
  preFilterExtensions?(): PreFilterExtensions | undefined;
}

export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined;
}

/** Per-node statuses of a failed Filter phase (framework.NodeToStatus). */
export type NodeToStatus = Map<string, Status>;

export interface PostFilterResult {
  nominatedNodeName?: string;
}

export interface PostFilterPlugin extends Plugin {
  postFilter(state: CycleState, pod: PodInfo, filteredNodeStatus: NodeToStatus, lister: SharedLister): { result?: PostFilterResult; status?: Status };
}

export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], lister: SharedLister): Status | undefined;
}

export interface NodeScore {
  name: string;
  score: number;
}

export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number;
  /**
   * Score for every node at once, out[i] = score(state, pod, nodes[i]): the same per-node work with the
   * cycle's state read once rather than once per node (the framework uses it when a plugin has it). rows, when
   * given, are the cache's NodeFitRows: a node's row (rows.rowOf) holds copies of its cpu and memory sums.
   */
  scoreNodes?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array, rows?: NodeFitRows): void;
  /** ScoreExtensions.NormalizeScore: brings the plugin's raw scores into [0, MaxNodeScore]. */
  normalizeScore?(state: CycleState, pod: PodInfo, scores: NodeScore[]): void;
  /**
   * normalizeScore over a column (scores[i] is node names[i]'s), in place: the same arithmetic without a
   * NodeScore object per node. A plugin with normalizeScore may add it; the framework then uses it.
   */
  normalizeScoreColumn?(state: CycleState, pod: PodInfo, names: readonly string[], scores: Float64Array): void;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: PodInfo, nodeName: string): Status | undefined;
  unreserve(state: CycleState, pod: PodInfo, nodeName: string): void;
}

export interface PermitPlugin extends Plugin {
  /** Wait is not supported in the simulation: a permit plugin allows or rejects. */
  permit(state: CycleState, pod: PodInfo, nodeName: string): Status | undefined;
}

export interface PreBindPlugin extends Plugin {
  /**
   * Prepares the binding (VolumeBinding writes the volume bindings). The real plugin blocks until they are
   * done; here Wait asks the binding cycle to call again a little later (the pod stays assumed meanwhile).
   */
  preBind(state: CycleState, pod: PodInfo, nodeName: string): Status | undefined;
}

export interface BindPlugin extends Plugin {
  /** Skip passes to the next bind plugin. */
  bind(state: CycleState, pod: PodInfo, nodeName: string): Status | undefined;
}

// ---------------------------------------------------------------- cluster events and queueing hints

/** framework.EventResource, as far as the simulated plugins care. */
export const EventResource = {
  Node: 'Node',
  /** A pod bound to a node. */
  AssignedPod: 'AssignedPod',
  UnscheduledPod: 'UnscheduledPod',
  /** Any pod (AssignedPod or UnscheduledPod). */
  Pod: 'Pod',
  PersistentVolumeClaim: 'PersistentVolumeClaim',
  StorageClass: 'StorageClass',
  WildCard: '*',
} as const;
export type EventResource = (typeof EventResource)[keyof typeof EventResource];

/** framework.ActionType: a bit set, so one registration can cover several kinds of update. */
export const ActionType = {
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdatePodLabel: 1 << 7,
  UpdatePodScaleDown: 1 << 8,
  UpdatePodToleration: 1 << 9,
  UpdatePodSchedulingGatesEliminated: 1 << 10,
  Update: (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10),
  All: (1 << 11) - 1,
} as const;

export interface ClusterEvent {
  resource: EventResource;
  actionType: number;
  /** "NodeAdd", "AssignedPodDelete", "UnschedulableTimeout", … for traces and the UI. */
  label: string;
}

export const QueueingHint = { Queue: 'Queue', QueueSkip: 'QueueSkip' } as const;
export type QueueingHint = (typeof QueueingHint)[keyof typeof QueueingHint];

/** Decides whether an event may make a pod that this plugin rejected schedulable. */
export type QueueingHintFn = (pod: PodObject, oldObj: PodObject | NodeObject | undefined, newObj: PodObject | NodeObject | undefined) => QueueingHint;

export interface ClusterEventWithHint {
  event: { resource: EventResource; actionType: number };
  /** No hint: every matching event requeues. */
  hint?: QueueingHintFn;
}

export interface EnqueueExtensions {
  eventsToRegister(): ClusterEventWithHint[];
}

/** MatchClusterEvents: the registration covers the incoming event's resource and (more specific) action. */
export function matchClusterEvent(registered: { resource: EventResource; actionType: number }, incoming: ClusterEvent): boolean {
  if (registered.resource === EventResource.WildCard) return true;
  const resourceMatches =
    registered.resource === incoming.resource ||
    (registered.resource === EventResource.Pod && (incoming.resource === EventResource.AssignedPod || incoming.resource === EventResource.UnscheduledPod));
  return resourceMatches && (registered.actionType & incoming.actionType) !== 0;
}

export type AnyPlugin = Plugin &
  Partial<
    Pick<PreFilterPlugin, 'preFilter' | 'preFilterExtensions'> &
      Pick<FilterPlugin, 'filter'> &
      Pick<PostFilterPlugin, 'postFilter'> &
      Pick<PreScorePlugin, 'preScore'> &
      Pick<ScorePlugin, 'score' | 'normalizeScore'> &
      Pick<ReservePlugin, 'reserve' | 'unreserve'> &
      Pick<PermitPlugin, 'permit'> &
      Pick<PreBindPlugin, 'preBind'> &
      Pick<BindPlugin, 'bind'> &
      EnqueueExtensions
  >;
