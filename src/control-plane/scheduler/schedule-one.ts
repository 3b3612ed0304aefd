// One scheduling attempt (pkg/scheduler/schedule_one.go): pop a pod, filter the nodes (all of them in small
// clusters, an adaptive share in large ones, starting where the previous pod stopped), score the feasible ones,
// pick the highest total (ties broken at random, by reservoir sampling, with the seeded rng), assume the pod on
// that node in the cache, and bind it in a separate, deferred binding cycle. When no node fits, PostFilter
// (preemption) runs and the failure is reported as kube-scheduler reports it: a FailedScheduling event and the
// PodScheduled=False condition carrying the FitError message.
import type { PodCondition } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../shared/api/status';
import { TraceKind, type TraceSink } from '../../shared/protocol/trace';
import { wantsEvent } from '../trace/trace-bus';
import { rfc3339 } from '../sim/clock';
import type { SchedulerCache } from './cache/cache';
import { CycleState } from './framework/cycle-state';
import { ErrNoNodesAvailable, fitErrorMessage, newDiagnosis, type Diagnosis } from './framework/fit-error';
import type { Handle } from './framework/handle';
import type { Framework, ScoreTable } from './framework/runtime';
import { Code, isRejected, isSuccess, newStatus, statusMessage, type Status } from './framework/status';
import { newPodInfo, type NodeInfo, type PodInfo, type PodObject } from './framework/types';
import { FilterPrecheck } from './filter-precheck';
import { DecisionResult, newDecisionRecord, positionsArray, recordScores, type DecisionRecord, type DecisionStore, type FeasibleNodes } from './decisions';
import type { QueuedPodInfo, SchedulingQueue } from './queue/scheduling-queue';
import { EventResource, ActionType } from './framework/interface';

/** VolumeBinding's PreBind polls its bindings every second for at most bindTimeoutSeconds (600 s). */
const preBindPollMs = 1000;
const preBindTimeoutMs = 600_000;

/** minFeasibleNodesToFind / minFeasibleNodesPercentageToFind. */
export const MinFeasibleNodesToFind = 100;
export const MinFeasibleNodesPercentageToFind = 5;

export const PodReasonUnschedulable = 'Unschedulable';
export const PodReasonSchedulerError = 'SchedulerError';
/** Events and condition messages longer than this are cut (truncateMessage). */
export const MessageSizeLimit = 1024;

export const SchedulerComponent = 'scheduler';

/** numFeasibleNodesToFind: how many feasible nodes to look for before stopping the filter phase. */
export function numFeasibleNodesToFind(percentageOfNodesToScore: number | undefined, numAllNodes: number): number {
  if (numAllNodes < MinFeasibleNodesToFind) return numAllNodes;
  let percentage = percentageOfNodesToScore ?? 0;
  if (percentage === 0) {
    percentage = 50 - Math.trunc(numAllNodes / 125);
    if (percentage < MinFeasibleNodesPercentageToFind) percentage = MinFeasibleNodesPercentageToFind;
  }
  const numNodes = Math.trunc((numAllNodes * percentage) / 100);
  return numNodes < MinFeasibleNodesToFind ? MinFeasibleNodesToFind : numNodes;
}

/** selectHost: the highest total score; among equals each is picked with equal probability (reservoir sampling). */
export function selectHost(table: Pick<ScoreTable, 'names' | 'totals'>, rng: { int(n: number): number }): string {
  const { names, totals } = table;
  if (names.length === 0) throw new Error('empty priorityList');
  let best = 0;
  let count = 1;
  for (let i = 1; i < names.length; i++) {
    if (totals[i] > totals[best]) {
      best = i;
      count = 1;
    } else if (totals[i] === totals[best]) {
      count++;
      if (rng.int(count) === 0) best = i;
    }
  }
  return names[best];
}

export function truncateMessage(message: string): string {
  const suffix = ' ...';
  return message.length <= MessageSizeLimit ? message : message.slice(0, MessageSizeLimit - suffix.length) + suffix;
}

class FitError extends Error {
  constructor(
    readonly numAllNodes: number,
    readonly diagnosis: Diagnosis,
  ) {
    super('FitError');
  }
  /** FitError.Error(), built when asked: PostFilter adds its message to the diagnosis first. */
  describe(): string {
    return fitErrorMessage(this.numAllNodes, this.diagnosis);
  }
}

class NoNodesAvailableError extends Error {
  constructor() {
    super(ErrNoNodesAvailable);
  }
}

interface ScheduleResult {
  suggestedHost: string;
  evaluatedNodes: number;
  feasibleNodes: number;
}

export interface ScheduleOneOptions {
  framework: Framework;
  cache: SchedulerCache;
  queue: SchedulingQueue;
  handle: Handle;
  decisions: DecisionStore;
  trace: TraceSink;
  percentageOfNodesToScore?: number;
  /** False once the scheduler was stopped: deferred binding cycles then drop their work. */
  isRunning: () => boolean;
}

export class ScheduleOne {
  /** Where the next filter pass starts, so every node gets its turn (nextStartNodeIndex). */
  private nextStartNodeIndex = 0;

  constructor(private readonly o: ScheduleOneOptions) {}

  // ---------------------------------------------------------------- the scheduling cycle

  /** ScheduleOne: pops and schedules one pod; returns false when activeQ was empty. */
  scheduleOne(): boolean {
    const { queue, cache, handle } = this.o;
    const qpi = queue.pop();
    if (!qpi) return false;
    const pod = qpi.podInfo;
    // skipPodSchedule: a pod being deleted, or one already assumed (its update raced the binding).
    if (pod.pod.metadata.deletionTimestamp || cache.isAssumedPod(pod.key)) {
      queue.done(pod.key);
      return true;
    }
    const cycle = queue.schedulingCycle;
    const rec = newDecisionRecord({
      pod: pod.key,
      uid: pod.uid,
      attempt: qpi.attempts,
      cycle,
      time: handle.clock.now(),
      result: DecisionResult.Unschedulable,
      numAllNodes: cache.nodeCount,
      evaluatedNodes: 0,
      feasibleNodes: 0,
    });
    this.o.decisions.add(rec);
    this.emit('schedule.attempt', { pod: pod.key, uid: pod.uid, attempt: qpi.attempts, cycle });

    const state = new CycleState();
    let result: ScheduleResult;
    try {
      result = this.schedulePod(state, pod, rec);
    } catch (err) {
      this.handleScheduleError(state, qpi, err, rec);
      return true;
    }
    rec.result = DecisionResult.Scheduled;
    rec.node = result.suggestedHost;
    rec.evaluatedNodes = result.evaluatedNodes;
    rec.feasibleNodes = result.feasibleNodes;

    // assume: account for the pod on the node now, before the binding round-trip.
    // Informer objects are frozen and never changed in place, so a shallow copy is enough.
    const assumedPod = { ...pod.pod, spec: { ...pod.pod.spec!, nodeName: result.suggestedHost } } as PodObject;
    const assumed = newPodInfo(assumedPod);
    cache.assumePod(assumed, result.suggestedHost);
    const fw = this.o.framework;
    const reserve = fw.runReservePluginsReserve(state, assumed, result.suggestedHost);
    const permit = isSuccess(reserve) ? fw.runPermitPlugins(state, assumed, result.suggestedHost) : undefined;
    if (!isSuccess(reserve) || !isSuccess(permit)) {
      fw.runReservePluginsUnreserve(state, assumed, result.suggestedHost);
      cache.forgetPod(pod.key);
      const s = (reserve ?? permit)!;
      rec.result = isRejected(s) ? DecisionResult.Unschedulable : DecisionResult.Error;
      this.handleSchedulingFailure(qpi, s, statusMessage(s), undefined, rec);
      return true;
    }
    // The binding cycle runs later, as kube-scheduler's binding goroutine does; the next pod sees this one assumed.
    handle.clock.defer(() => this.bindingCycle(state, qpi, assumed, result.suggestedHost, rec), `scheduler/bind ${pod.key}`);
    return true;
  }

  /** schedulePod: filter, then score (skipped when a single node fits). Throws FitError / NoNodesAvailable. */
  private schedulePod(state: CycleState, pod: PodInfo, rec: DecisionRecord): ScheduleResult {
    const { cache } = this.o;
    if (cache.nodeCount === 0) throw new NoNodesAvailableError();
    const { feasible, diagnosis } = this.findNodesThatFitPod(state, pod);
    rec.filtered = diagnosis.nodeToStatus;
    if (feasible.length === 0) throw new FitError(cache.nodeCount, diagnosis);
    const evaluatedNodes = feasible.length + diagnosis.nodeToStatus.size;
    const names = new Array<string>(feasible.length);
    for (let i = 0; i < feasible.length; i++) names[i] = feasible[i].name;
    rec.feasible = this.feasibleNodes(feasible, names);
    if (feasible.length === 1) return { suggestedHost: feasible[0].name, evaluatedNodes, feasibleNodes: 1 };
    const scores = this.prioritizeNodes(state, pod, feasible, names);
    recordScores(rec, scores);
    return { suggestedHost: selectHost(scores, this.o.handle.rng), evaluatedNodes, feasibleNodes: feasible.length };
  }

  /**
   * The feasible nodes as the record keeps them: their positions in the cache's node list (its fit rows follow it),
   * or their names when the list is short (a typed array's own objects are bigger) or a node is not in it.
   */
  private feasibleNodes(feasible: readonly NodeInfo[], names: string[]): FeasibleNodes {
    if (feasible.length <= 16) return names;
    const rows = this.o.cache.fitRows();
    const at = positionsArray(feasible.length, rows.nodes.length);
    for (let i = 0; i < feasible.length; i++) {
      const row = rows.rowOf(feasible[i]);
      if (row < 0) return names;
      at[i] = row;
    }
    return { nodes: rows.nodes, at };
  }

  private findNodesThatFitPod(state: CycleState, pod: PodInfo): { feasible: NodeInfo[]; diagnosis: Diagnosis } {
    const { framework: fw, cache } = this.o;
    const diagnosis = newDiagnosis();
    const allNodes = cache.nodeInfos();
    const pre = fw.runPreFilterPlugins(state, pod, cache);
    if (!isSuccess(pre.status)) {
      if (!isRejected(pre.status)) throw Object.assign(new Error(statusMessage(pre.status)), { status: pre.status });
      // A PreFilter rejection applies to every node; its message replaces the per-node histogram.
      diagnosis.preFilterMsg = statusMessage(pre.status);
      for (const n of allNodes) diagnosis.nodeToStatus.set(n.name, pre.status!);
      for (const p of pre.plugins) diagnosis.unschedulablePlugins.add(p);
      return { feasible: [], diagnosis };
    }
    // A pod nominated by an earlier preemption tries its nominated node first.
    const nominated = pod.pod.status?.nominatedNodeName;
    if (nominated) {
      const ni = cache.getNodeInfo(nominated);
      if (ni && isSuccess(this.runFilters(state, pod, ni))) return { feasible: [ni], diagnosis };
    }
    let nodes = allNodes;
    if (pre.result?.nodeNames) {
      const names = pre.result.nodeNames;
      nodes = allNodes.filter((n) => names.has(n.name));
      diagnosis.absentNodesStatus = newStatus(Code.UnschedulableAndUnresolvable, `node(s) didn't satisfy plugin(s) [${[...pre.plugins].sort().join(' ')}]`);
      for (const p of pre.plugins) diagnosis.unschedulablePlugins.add(p);
    }
    return { feasible: this.findNodesThatPassFilters(state, pod, diagnosis, nodes), diagnosis };
  }

  private runFilters(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    const { framework: fw, queue } = this.o;
    if (!queue.hasNominatedPods) return fw.runFilterPlugins(state, pod, nodeInfo);
    return fw.runFilterPluginsWithNominatedPods(state, pod, nodeInfo, queue.nominatedPodsForNode(nodeInfo.name));
  }

  private findNodesThatPassFilters(state: CycleState, pod: PodInfo, diagnosis: Diagnosis, nodes: readonly NodeInfo[]): NodeInfo[] {
    const numAllNodes = nodes.length;
    if (numAllNodes === 0) return [];
    const numNodesToFind = numFeasibleNodesToFind(this.o.percentageOfNodesToScore, numAllNodes);
    const feasible: NodeInfo[] = [];
    const precheck = this.filterPrecheck(state, pod, nodes);
    let processed = 0;
    for (let i = 0; i < numAllNodes && feasible.length < numNodesToFind; i++) {
      const index = (this.nextStartNodeIndex + i) % numAllNodes;
      const nodeInfo = nodes[index];
      processed++;
      let s: Status | undefined;
      if (precheck !== undefined && precheck.passes(index)) {
        // The row vouches for the default filters; only the other active ones (if any) are left to run.
        if (precheck.rest.length === 0) {
          feasible.push(nodeInfo);
          continue;
        }
        s = this.o.framework.runFilterPluginList(state, pod, nodeInfo, precheck.rest);
      } else {
        s = this.runFilters(state, pod, nodeInfo);
      }
      if (isSuccess(s)) {
        feasible.push(nodeInfo);
        continue;
      }
      if (s!.code === Code.Error) throw Object.assign(new Error(statusMessage(s)), { status: s });
      diagnosis.nodeToStatus.set(nodeInfo.name, s!);
      if (s!.plugin && isRejected(s)) diagnosis.unschedulablePlugins.add(s!.plugin);
    }
    this.nextStartNodeIndex = (this.nextStartNodeIndex + processed) % numAllNodes;
    return feasible;
  }

  /**
   * The rows pre-check for this pod, when it applies: over the cache's whole node list (not a PreFilter's subset),
   * and with no nominated pods, which runFilters would count on their nodes.
   */
  private filterPrecheck(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): FilterPrecheck | undefined {
    const { framework: fw, cache, queue } = this.o;
    if (queue.hasNominatedPods || nodes !== cache.nodeInfos()) return undefined;
    return FilterPrecheck.forPod(fw.activeFilterPlugins(state), pod, cache.fitRows());
  }

  private prioritizeNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], names: string[]): ScoreTable {
    const { framework: fw, cache } = this.o;
    if (fw.scorePlugins.length === 0) return { names, plugins: [], weights: [], raw: [], scores: [], totals: new Float64Array(nodes.length).fill(1) };
    const s = fw.runPreScorePlugins(state, pod, nodes, cache);
    if (!isSuccess(s)) throw Object.assign(new Error(statusMessage(s)), { status: s });
    return fw.runScorePlugins(state, pod, nodes, names, cache.fitRows());
  }

  private handleScheduleError(state: CycleState, qpi: QueuedPodInfo, err: unknown, rec: DecisionRecord): void {
    const fw = this.o.framework;
    if (err instanceof NoNodesAvailableError) {
      rec.result = DecisionResult.Unschedulable;
      this.handleSchedulingFailure(qpi, newStatus(Code.UnschedulableAndUnresolvable, ErrNoNodesAvailable), ErrNoNodesAvailable, undefined, rec);
      return;
    }
    if (err instanceof FitError) {
      let nominatedNodeName: string | undefined;
      if (fw.postFilterPlugins.length > 0) {
        const pf = fw.runPostFilterPlugins(state, qpi.podInfo, err.diagnosis.nodeToStatus, this.o.cache);
        err.diagnosis.postFilterMsg = statusMessage(pf.status);
        nominatedNodeName = pf.result?.nominatedNodeName;
        if (nominatedNodeName) rec.nominatedNode = nominatedNodeName;
      }
      qpi.unschedulablePlugins = new Set(err.diagnosis.unschedulablePlugins);
      rec.evaluatedNodes = err.diagnosis.nodeToStatus.size;
      const msg = err.describe();
      this.handleSchedulingFailure(qpi, newStatus(Code.Unschedulable, msg), msg, nominatedNodeName, rec);
      return;
    }
    rec.result = DecisionResult.Error;
    const message = err instanceof Error ? err.message : String(err);
    this.handleSchedulingFailure(qpi, newStatus(Code.Error, message), message, undefined, rec);
  }

  // ---------------------------------------------------------------- the binding cycle

  private bindingCycle(state: CycleState, qpi: QueuedPodInfo, assumed: PodInfo, nodeName: string, rec: DecisionRecord, preBindSince?: number): void {
    const { framework: fw, cache, queue, handle } = this.o;
    const key = assumed.key;
    if (!this.o.isRunning()) return;
    // The pod was deleted (or bound elsewhere) while its binding waited.
    if (!cache.isAssumedPod(key)) {
      queue.done(key);
      return;
    }
    let s = fw.runPreBindPlugins(state, assumed, nodeName);
    if (s?.code === Code.Wait) {
      // VolumeBinding's PreBind waits (polling every second, up to its bind timeout) for the volume bindings.
      const since = preBindSince ?? handle.clock.now();
      if (handle.clock.now() - since < preBindTimeoutMs) {
        handle.clock.setTimer(preBindPollMs, () => this.bindingCycle(state, qpi, assumed, nodeName, rec, since), `scheduler/preBind ${key}`);
        return;
      }
      s = newStatus(Code.Error, 'binding volumes: context deadline exceeded');
    }
    if (isSuccess(s)) s = fw.runBindPlugins(state, assumed, nodeName);
    if (isSuccess(s)) {
      queue.done(key);
      rec.bound = true;
      handle.recorder.event(assumed.pod, 'Normal', 'Scheduled', `Successfully assigned ${assumed.namespace}/${assumed.pod.metadata.name} to ${nodeName}`);
      this.emit('schedule.bound', { pod: key, uid: assumed.uid, node: nodeName, attempt: qpi.attempts });
      return;
    }
    // handleBindingCycleError: undo the assumption; the room it held may let other pods fit.
    fw.runReservePluginsUnreserve(state, assumed, nodeName);
    cache.forgetPod(key);
    rec.bound = false;
    rec.result = DecisionResult.Error;
    rec.message = statusMessage(s);
    queue.moveAllToActiveOrBackoffQueue({ resource: EventResource.AssignedPod, actionType: ActionType.Delete, label: 'AssignedPodDelete' }, assumed.pod, undefined);
    const err = s?.error;
    if (isStatusError(err, StatusReason.Conflict) || isStatusError(err, StatusReason.NotFound)) {
      // Already bound (by an earlier incarnation of this scheduler or another one), being deleted, or gone:
      // nothing to retry. The informer's update or delete takes the pod out of every queue.
      queue.delete(assumed.pod);
      this.emit('schedule.failed', { pod: key, uid: assumed.uid, reason: 'BindingRejected', message: statusMessage(s), attempt: qpi.attempts });
      return;
    }
    this.handleSchedulingFailure(qpi, s!, statusMessage(s), undefined, rec);
  }

  // ---------------------------------------------------------------- failures

  /**
   * handleSchedulingFailure: back to the queue (unless the pod is gone or got bound meanwhile), then the
   * FailedScheduling event and the PodScheduled=False condition (and nominatedNodeName, after a preemption).
   */
  private handleSchedulingFailure(qpi: QueuedPodInfo, status: Status, errMsg: string, nominatedNodeName: string | undefined, rec: DecisionRecord): void {
    const { queue, handle } = this.o;
    const pod = qpi.podInfo;
    rec.message = errMsg;
    const cached = handle.podLister.get(pod.namespace, pod.pod.metadata.name ?? '');
    if (!cached || cached.metadata.uid !== pod.uid) {
      queue.done(pod.key);
    } else if (cached.spec?.nodeName) {
      queue.done(pod.key);
    } else {
      qpi.podInfo = newPodInfo(cached);
      queue.addUnschedulableIfNotPresent(qpi);
    }
    if (nominatedNodeName !== undefined && cached) queue.updateNominatedPod(cached, nominatedNodeName);
    const reason = status.code === Code.Error ? PodReasonSchedulerError : PodReasonUnschedulable;
    this.emit('schedule.failed', { pod: pod.key, uid: pod.uid, reason, message: errMsg, attempt: qpi.attempts, nominatedNode: nominatedNodeName });
    if (!cached) return;
    handle.recorder.event(cached, 'Warning', 'FailedScheduling', truncateMessage(errMsg));
    this.updatePod(cached, { type: 'PodScheduled', status: 'False', reason, message: errMsg }, nominatedNodeName);
  }

  /** updatePod: patch the condition (and nominatedNodeName) only when something changes. */
  private updatePod(pod: PodObject, condition: PodCondition, nominatedNodeName: string | undefined): void {
    const existing = (pod.status?.conditions ?? []).find((c) => c.type === condition.type);
    const conditionChanged = !existing || existing.status !== condition.status || existing.reason !== condition.reason || existing.message !== condition.message;
    const nnnChanged = nominatedNodeName !== undefined && (pod.status?.nominatedNodeName ?? '') !== nominatedNodeName;
    if (!conditionChanged && !nnnChanged) return;
    const now = rfc3339(this.o.handle.clock.now());
    const status: Record<string, unknown> = {};
    if (conditionChanged) {
      const lastTransitionTime = existing && existing.status === condition.status ? existing.lastTransitionTime : now;
      status.conditions = [{ ...condition, lastProbeTime: null, lastTransitionTime }];
    }
    if (nnnChanged) status.nominatedNodeName = nominatedNodeName === '' ? null : nominatedNodeName;
    try {
      this.o.handle.client.pods.patch(pod.metadata.name ?? '', 'application/strategic-merge-patch+json', { status }, {
        namespace: pod.metadata.namespace,
        subresource: 'status',
      });
    } catch (err) {
      // The pod may be gone; the next attempt (or the informer) sorts it out.
      if (!isStatusError(err)) throw err;
    }
  }

  /** Reports a scheduling step: a leaf (the scheduler never names it as a cause). */
  private emit(type: string, data: Record<string, unknown>): void {
    if (!wantsEvent(this.o.trace, TraceKind.Custom, true)) return;
    this.o.trace.emit({ kind: TraceKind.Custom, component: SchedulerComponent, data: { type, ...data } }, true);
  }
}
