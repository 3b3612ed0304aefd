// PriorityQueue (pkg/scheduler/backend/queue/scheduling_queue.go), v1.32 with QueueingHints:
//   activeQ            pods to try now, highest priority first, then the longest waiting (PrioritySort);
//   podBackoffQ        pods that failed and wait out their backoff (1 s doubling per attempt, at most 10 s);
//   unschedulablePods  pods no node fits: they wait for a cluster event that one of the plugins that rejected
//                      them says may help (its QueueingHint returns Queue) — a node added or changed, an
//                      assigned pod deleted, … — or for the 5-minute flush (checked every 30 s).
// Pods with scheduling gates wait in unschedulablePods (gated) until the gates are removed.
// Timers exist only while there is something to wait for, so an idle scheduler lets the clock go idle.
import type { Pod } from 'kubernetes-types/core/v1';
import type { Clock, TimerHandle } from '../../sim/clock';
import {
  ActionType,
  EventResource,
  matchClusterEvent,
  QueueingHint,
  type ClusterEvent,
  type ClusterEventWithHint,
} from '../framework/interface';
import { newPodInfo, type NodeObject, type PodInfo, type PodObject } from '../framework/types';
import { KeyedHeap } from './heap';
import { sameJson } from '../../../shared/lib/same-json';

export const DefaultPodInitialBackoffMs = 1_000;
export const DefaultPodMaxBackoffMs = 10_000;
export const DefaultPodMaxInUnschedulablePodsDurationMs = 5 * 60_000;
/** How often unschedulablePods is checked for pods waiting longer than the maximum. */
export const UnschedulablePodsFlushIntervalMs = 30_000;

/** The wildcard event of the 5-minute flush (framework.EventUnschedulableTimeout). */
export const EventUnschedulableTimeout: ClusterEvent = { resource: EventResource.WildCard, actionType: ActionType.All, label: 'UnschedulableTimeout' };

export interface QueuedPodInfo {
  podInfo: PodInfo;
  /** When the pod was last added to the queue (its backoff counts from here). */
  timestamp: number;
  initialAttemptTimestamp?: number;
  attempts: number;
  /** Plugins that rejected the pod in its last attempt: only events they register can requeue it. */
  unschedulablePlugins: Set<string>;
  gated: boolean;
  /** Insertion order, to keep ties deterministic. */
  seq: number;
}

export const QueueName = { ActiveQ: 'activeQ', BackoffQ: 'backoffQ', Unschedulable: 'unschedulablePods' } as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

const Strategy = { Skip: 0, AfterBackoff: 1, Immediately: 2 } as const;
type Strategy = (typeof Strategy)[keyof typeof Strategy];

export interface SchedulingQueueOptions {
  clock: Clock;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulablePodsDurationMs?: number;
  /** Plugin name → its registered events with hints (the framework's EnqueueExtensions). */
  queueingHints: Map<string, ClusterEventWithHint[]>;
  /** Called when activeQ gains a pod, so the scheduling loop can be woken. */
  onActive: () => void;
  /** Told of every move between queues (for traces). */
  onMove?: (pod: string, to: QueueName, event: string) => void;
}

export interface QueueSnapshot {
  active: string[];
  backoff: string[];
  unschedulable: string[];
  inFlight: string[];
}

/** The pod update's action bits (framework.PodSchedulingPropertiesChange), 0 for status-only changes. */
export function podUpdateActionType(oldPod: Pod, newPod: Pod): number {
  let action = 0;
  if (!sameJson(oldPod.metadata?.labels ?? {}, newPod.metadata?.labels ?? {})) action |= ActionType.UpdatePodLabel;
  // A status write keeps the (frozen) spec object: tolerations, gates and requests are the same.
  if (oldPod.spec !== undefined && oldPod.spec === newPod.spec && Object.isFrozen(newPod.spec)) return action;
  if (!sameJson(oldPod.spec?.tolerations ?? [], newPod.spec?.tolerations ?? [])) action |= ActionType.UpdatePodToleration;
  if ((oldPod.spec?.schedulingGates ?? []).length > 0 && (newPod.spec?.schedulingGates ?? []).length === 0) action |= ActionType.UpdatePodSchedulingGatesEliminated;
  const req = (p: Pod) => (p.spec?.containers ?? []).map((c) => c.resources?.requests ?? {});
  if (!sameJson(req(oldPod), req(newPod))) action |= ActionType.UpdatePodScaleDown;
  return action;
}

export class SchedulingQueue {
  private readonly clock: Clock;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxInUnschedulableMs: number;
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  private readonly backoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulablePods = new Map<string, QueuedPodInfo>();
  /** Popped and not yet done (scheduling or binding), with whether a relevant update arrived meanwhile. */
  private readonly inFlight = new Map<string, { qpi: QueuedPodInfo; updated: boolean }>();
  /** nodeName → pods nominated to it by preemption (the nominator). */
  private readonly nominated = new Map<string, Map<string, PodInfo>>();
  private readonly nominatedNodeOf = new Map<string, string>();
  private seq = 0;
  private backoffTimer?: { handle: TimerHandle; due: number };
  private flushTimer?: TimerHandle;
  private closed = false;
  schedulingCycle = 0;

  constructor(private readonly options: SchedulingQueueOptions) {
    this.clock = options.clock;
    this.initialBackoffMs = options.podInitialBackoffMs ?? DefaultPodInitialBackoffMs;
    this.maxBackoffMs = options.podMaxBackoffMs ?? DefaultPodMaxBackoffMs;
    this.maxInUnschedulableMs = options.podMaxInUnschedulablePodsDurationMs ?? DefaultPodMaxInUnschedulablePodsDurationMs;
    // PrioritySort: higher priority first, then earlier timestamp.
    this.activeQ = new KeyedHeap(
      (q) => q.podInfo.key,
      (a, b) => a.podInfo.priority > b.podInfo.priority || (a.podInfo.priority === b.podInfo.priority && (a.timestamp < b.timestamp || (a.timestamp === b.timestamp && a.seq < b.seq))),
    );
    this.backoffQ = new KeyedHeap(
      (q) => q.podInfo.key,
      (a, b) => this.backoffTime(a) < this.backoffTime(b) || (this.backoffTime(a) === this.backoffTime(b) && a.seq < b.seq),
    );
  }

  // ---------------------------------------------------------------- adding and removing pods

  private newQueuedPodInfo(pod: PodObject): QueuedPodInfo {
    return {
      podInfo: newPodInfo(pod),
      timestamp: this.clock.now(),
      attempts: 0,
      unschedulablePlugins: new Set(),
      gated: false,
      seq: this.seq++,
    };
  }

  /** Add: a new unscheduled pod goes to activeQ, or waits gated while it has scheduling gates. */
  add(pod: PodObject): void {
    const key = keyOf(pod);
    if (this.activeQ.has(key) || this.backoffQ.has(key) || this.unschedulablePods.has(key) || this.inFlight.has(key)) {
      this.update(undefined, pod);
      return;
    }
    this.updateNominatedPod(pod);
    this.moveToActiveQ(this.newQueuedPodInfo(pod), 'PodAdd');
  }

  /** PreEnqueue (SchedulingGates): a gated pod is parked instead of entering activeQ. */
  private moveToActiveQ(qpi: QueuedPodInfo, event: string): void {
    const gates = qpi.podInfo.pod.spec?.schedulingGates ?? [];
    if (gates.length > 0) {
      qpi.gated = true;
      this.unschedulablePods.set(qpi.podInfo.key, qpi);
      this.options.onMove?.(qpi.podInfo.key, QueueName.Unschedulable, event);
      return;
    }
    qpi.gated = false;
    this.unschedulablePods.delete(qpi.podInfo.key);
    this.backoffQ.delete(qpi.podInfo.key);
    if (qpi.initialAttemptTimestamp === undefined) qpi.initialAttemptTimestamp = this.clock.now();
    this.activeQ.addOrUpdate(qpi);
    this.options.onMove?.(qpi.podInfo.key, QueueName.ActiveQ, event);
    this.options.onActive();
  }

  /** Update: an unscheduled pod changed. */
  update(oldPod: PodObject | undefined, newPod: PodObject): void {
    const key = keyOf(newPod);
    this.updateNominatedPod(newPod);
    const flight = this.inFlight.get(key);
    if (flight) {
      if (!oldPod || podUpdateActionType(oldPod, newPod) !== 0) flight.updated = true;
      flight.qpi.podInfo = newPodInfo(newPod);
      return;
    }
    for (const q of [this.activeQ, this.backoffQ]) {
      const qpi = q.get(key);
      if (qpi) {
        qpi.podInfo = newPodInfo(newPod);
        q.addOrUpdate(qpi);
        return;
      }
    }
    const qpi = this.unschedulablePods.get(key);
    if (qpi) {
      qpi.podInfo = newPodInfo(newPod);
      const action = oldPod ? podUpdateActionType(oldPod, newPod) : 0;
      if (qpi.gated) {
        if ((newPod.spec?.schedulingGates ?? []).length === 0) this.moveToActiveQ(qpi, 'UnscheduledPodUpdate');
        return;
      }
      // Only a change that may affect scheduling (labels, tolerations, requests) requeues; status updates do not.
      if (action !== 0) this.requeue(qpi, Strategy.AfterBackoff, 'UnscheduledPodUpdate');
      return;
    }
    this.moveToActiveQ(this.newQueuedPodInfo(newPod), 'UnscheduledPodUpdate');
  }

  /** Delete: the pod is gone (or was bound by someone): forget it everywhere. */
  delete(pod: Pick<Pod, 'metadata'>): void {
    const key = keyOf(pod);
    this.activeQ.delete(key);
    this.backoffQ.delete(key);
    this.unschedulablePods.delete(key);
    this.inFlight.delete(key);
    this.deleteNominatedPod(key);
  }

  /** Pop: the next pod to schedule, now in flight until done(). */
  pop(): QueuedPodInfo | undefined {
    const qpi = this.activeQ.pop();
    if (!qpi) return undefined;
    qpi.attempts++;
    this.schedulingCycle++;
    this.inFlight.set(qpi.podInfo.key, { qpi, updated: false });
    return qpi;
  }

  /** Done: the pod's scheduling (and binding) attempt is over. */
  done(key: string): void {
    this.inFlight.delete(key);
  }

  isInFlight(key: string): boolean {
    return this.inFlight.has(key);
  }

  /**
   * AddUnschedulableIfNotPresent: a failed attempt. Without rejecting plugins (an error) or after a relevant
   * update while in flight, the pod retries after its backoff; otherwise it waits in unschedulablePods.
   */
  addUnschedulableIfNotPresent(qpi: QueuedPodInfo): void {
    const key = qpi.podInfo.key;
    const flight = this.inFlight.get(key);
    this.inFlight.delete(key);
    if (this.activeQ.has(key) || this.backoffQ.has(key) || this.unschedulablePods.has(key)) return;
    qpi.timestamp = this.clock.now();
    const strategy = qpi.unschedulablePlugins.size === 0 || flight?.updated ? Strategy.AfterBackoff : Strategy.Skip;
    this.requeue(qpi, strategy, 'ScheduleAttemptFailure');
  }

  /** requeuePodViaQueueingHint. */
  private requeue(qpi: QueuedPodInfo, strategy: Strategy, event: string): QueueName {
    const key = qpi.podInfo.key;
    if (strategy === Strategy.Skip) {
      this.unschedulablePods.set(key, qpi);
      this.options.onMove?.(key, QueueName.Unschedulable, event);
      this.ensureFlushTimer();
      return QueueName.Unschedulable;
    }
    this.unschedulablePods.delete(key);
    if (strategy === Strategy.AfterBackoff && this.isPodBackingOff(qpi)) {
      this.backoffQ.addOrUpdate(qpi);
      this.options.onMove?.(key, QueueName.BackoffQ, event);
      this.ensureBackoffTimer();
      return QueueName.BackoffQ;
    }
    this.moveToActiveQ(qpi, event);
    return QueueName.ActiveQ;
  }

  // ---------------------------------------------------------------- backoff

  /** calculateBackoffDuration: initial × 2^(attempts−1), at most the maximum. */
  backoffDuration(qpi: QueuedPodInfo): number {
    let d = this.initialBackoffMs;
    for (let i = 1; i < qpi.attempts; i++) {
      if (d > this.maxBackoffMs - d) return this.maxBackoffMs;
      d += d;
    }
    return d;
  }

  backoffTime(qpi: QueuedPodInfo): number {
    return qpi.timestamp + this.backoffDuration(qpi);
  }

  isPodBackingOff(qpi: QueuedPodInfo): boolean {
    if (qpi.gated) return false;
    return this.backoffTime(qpi) > this.clock.now();
  }

  private ensureBackoffTimer(): void {
    if (this.closed) return;
    const head = this.backoffQ.peek();
    if (!head) return;
    const due = this.backoffTime(head);
    if (this.backoffTimer && this.backoffTimer.due <= due) return;
    this.clock.clearTimer(this.backoffTimer?.handle);
    const handle = this.clock.setTimer(Math.max(0, due - this.clock.now()), () => {
      this.backoffTimer = undefined;
      this.flushBackoffQCompleted();
    }, 'scheduler/flushBackoffQCompleted');
    this.backoffTimer = { handle, due };
  }

  /** flushBackoffQCompleted: pods whose backoff is over go to activeQ. */
  flushBackoffQCompleted(): void {
    if (this.closed) return;
    for (let head = this.backoffQ.peek(); head && !this.isPodBackingOff(head); head = this.backoffQ.peek()) {
      this.backoffQ.pop();
      this.moveToActiveQ(head, 'BackoffComplete');
    }
    this.ensureBackoffTimer();
  }

  private ensureFlushTimer(): void {
    if (this.closed || this.flushTimer) return;
    this.flushTimer = this.clock.setTimer(UnschedulablePodsFlushIntervalMs, () => {
      this.flushTimer = undefined;
      this.flushUnschedulablePodsLeftover();
      for (const q of this.unschedulablePods.values()) {
        if (!q.gated) {
          this.ensureFlushTimer();
          break;
        }
      }
      // A housekeeping loop: it does not by itself keep the cluster busy.
    }, 'scheduler/flushUnschedulablePodsLeftover', { background: true });
  }

  /** flushUnschedulablePodsLeftover: pods unschedulable for longer than the maximum are retried anyway. */
  flushUnschedulablePodsLeftover(): void {
    const now = this.clock.now();
    const toMove = [...this.unschedulablePods.values()].filter((q) => !q.gated && now - q.timestamp > this.maxInUnschedulableMs);
    for (const q of toMove) this.requeue(q, Strategy.AfterBackoff, EventUnschedulableTimeout.label);
  }

  // ---------------------------------------------------------------- cluster events

  /** isPodWorthRequeuing: ask the hints of the plugins that rejected the pod and registered for the event. */
  private worthRequeuing(qpi: QueuedPodInfo, event: ClusterEvent, oldObj: PodObject | NodeObject | undefined, newObj: PodObject | NodeObject | undefined): Strategy {
    if (qpi.unschedulablePlugins.size === 0) return Strategy.AfterBackoff;
    if (event.resource === EventResource.WildCard) return Strategy.AfterBackoff;
    for (const plugin of qpi.unschedulablePlugins) {
      for (const reg of this.options.queueingHints.get(plugin) ?? []) {
        if (!matchClusterEvent(reg.event, event)) continue;
        let hint: QueueingHint = QueueingHint.Queue;
        try {
          if (reg.hint) hint = reg.hint(qpi.podInfo.pod, oldObj, newObj);
        } catch {
          // A failing hint must not strand the pod.
          hint = QueueingHint.Queue;
        }
        if (hint === QueueingHint.Queue) return Strategy.AfterBackoff;
      }
    }
    return Strategy.Skip;
  }

  /** MoveAllToActiveOrBackoffQueue: offer a cluster event to every waiting unschedulable pod. */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent, oldObj?: PodObject | NodeObject, newObj?: PodObject | NodeObject): void {
    if (this.unschedulablePods.size === 0) return;
    for (const qpi of [...this.unschedulablePods.values()]) {
      if (qpi.gated) continue;
      const strategy = this.worthRequeuing(qpi, event, oldObj, newObj);
      if (strategy !== Strategy.Skip) this.requeue(qpi, strategy, event.label);
    }
  }

  /** Activate: moves specific pods to activeQ at once (framework.Handle.Activate). */
  activate(keys: string[]): void {
    for (const key of keys) {
      const qpi = this.unschedulablePods.get(key) ?? this.backoffQ.get(key);
      if (qpi && !qpi.gated) this.moveToActiveQ(qpi, 'ForceActivate');
    }
  }

  // ---------------------------------------------------------------- nominator

  /** Records (or clears) the pod's status.nominatedNodeName. */
  updateNominatedPod(pod: PodObject, nodeName = pod.status?.nominatedNodeName ?? ''): void {
    const key = keyOf(pod);
    this.deleteNominatedPod(key);
    if (!nodeName) return;
    let m = this.nominated.get(nodeName);
    if (!m) this.nominated.set(nodeName, (m = new Map()));
    m.set(key, newPodInfo(pod));
    this.nominatedNodeOf.set(key, nodeName);
  }

  deleteNominatedPod(key: string): void {
    const node = this.nominatedNodeOf.get(key);
    if (node === undefined) return;
    this.nominatedNodeOf.delete(key);
    const m = this.nominated.get(node);
    m?.delete(key);
    if (m && m.size === 0) this.nominated.delete(node);
  }

  nominatedPodsForNode(nodeName: string): PodInfo[] {
    const m = this.nominated.get(nodeName);
    return m ? [...m.values()] : [];
  }

  get hasNominatedPods(): boolean {
    return this.nominated.size > 0;
  }

  // ---------------------------------------------------------------- inspection and shutdown

  get activeCount(): number {
    return this.activeQ.size;
  }

  snapshot(): QueueSnapshot {
    const keys = (list: QueuedPodInfo[]) => list.map((q) => q.podInfo.key);
    return {
      active: keys(this.activeQ.list()),
      backoff: keys(this.backoffQ.list()),
      unschedulable: [...this.unschedulablePods.keys()],
      inFlight: [...this.inFlight.keys()],
    };
  }

  /** Which queue the pod is in, if any. */
  whereIs(key: string): QueueName | 'inFlight' | undefined {
    if (this.activeQ.has(key)) return QueueName.ActiveQ;
    if (this.backoffQ.has(key)) return QueueName.BackoffQ;
    if (this.unschedulablePods.has(key)) return QueueName.Unschedulable;
    if (this.inFlight.has(key)) return 'inFlight';
    return undefined;
  }

  getQueuedPodInfo(key: string): QueuedPodInfo | undefined {
    return this.activeQ.get(key) ?? this.backoffQ.get(key) ?? this.unschedulablePods.get(key) ?? this.inFlight.get(key)?.qpi;
  }

  close(): void {
    this.closed = true;
    this.clock.clearTimer(this.backoffTimer?.handle);
    this.clock.clearTimer(this.flushTimer);
    this.backoffTimer = undefined;
    this.flushTimer = undefined;
  }
}

function keyOf(pod: Pick<Pod, 'metadata'>): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}
