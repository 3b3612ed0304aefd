// kube-controller-manager's node lifecycle controller (pkg/controller/nodelifecycle/node_lifecycle_controller.go),
// on virtual time:
//
// - monitorNodeHealth, every nodeMonitorPeriod: a node whose kubelet has not renewed its Lease (kube-node-lease)
//   nor changed its Ready heartbeat for nodeMonitorGracePeriod gets Ready/MemoryPressure/DiskPressure/PIDPressure
//   Unknown ("Kubelet stopped posting node status."); on the Ready → not-Ready transition its pods are marked
//   not Ready and a NodeNotReady event is recorded. A node seen not Ready (False/Unknown) is queued, per zone, for
//   the node.kubernetes.io/not-ready or unreachable NoExecute taint (the taint eviction controller then evicts);
//   a Ready node loses them.
// - doNoExecuteTaintingPass, every NodeEvictionPeriod while something is queued: applies those taints through
//   each zone's rate limiter (0.1 qps; 0 when a small zone is partially disrupted; 0 everywhere when every zone
//   is fully disrupted, which also removes the taints: "kill every node and nothing is evicted").
// - doNoScheduleTaintingPass (TaintNodesByCondition), per node event: NoSchedule taints mirroring the
//   conditions (not-ready, unreachable, memory-/disk-/pid-pressure, network-unavailable) and
//   node.kubernetes.io/unschedulable for cordoned nodes; plus the beta os/arch label reconciliation.
//
// The pod and node keys share one work queue: pod keys are "namespace/name", node names never contain "/".
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Node, NodeCondition, NodeStatus, Pod, Taint } from 'kubernetes-types/core/v1';
import { StatusReason, isStatusError } from '../../../shared/api/status';
import { PatchType } from '../../../shared/api/request';
import type { KubeObject } from '../../../shared/api/types';
import { TraceKind, nullTraceSink, type TraceSink } from '../../../shared/protocol/trace';
import type { Client, RequestRecord, Typed } from '../../client/client';
import { EventRecorder, EventType } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { NodeNameIndex } from '../../informers/indexer';
import { DeletedFinalStateUnknown, type HandlerRegistration, type Lister } from '../../informers/shared-informer';
import { rfc3339, type Clock, type TimerHandle } from '../../sim/clock';
import type { Rng } from '../../sim/rng';
import { withCause } from '../../trace/trace-bus';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import type { BaseController } from '../shared/controller';
import { LoopController } from './loop-controller';
import { removeTaintOffNode, swapNodeControllerTaint } from './node-taints';
import { RateLimitedTimedQueue, TokenBucketRateLimiter, evictionRateLimiterBurst, nodeEvictionPeriodMs, type ActionResult } from './rate-limited-queue';
import { TaintEffect, TaintKey, taintExists, taintSetDiff } from './taints';
import { getNodeCondition, parseTime, semanticDeepEqual, updatePodCondition } from './util';
import { ZoneState, computeZoneState, getZoneKey, isNodeExcludedFromDisruptionChecks, zoneDisplayName } from './zones';

export const NodeLifecycleControllerName = 'node-lifecycle-controller';
/** The event source component of the node lifecycle controller. */
export const NodeControllerEventComponent = 'node-controller';
export const NamespaceNodeLease = 'kube-node-lease';

/** UnreachableTaintTemplate / NotReadyTaintTemplate. */
export const UnreachableTaintTemplate: Taint = { key: TaintKey.Unreachable, effect: TaintEffect.NoExecute };
export const NotReadyTaintTemplate: Taint = { key: TaintKey.NotReady, effect: TaintEffect.NoExecute };

/** Which condition status maps to which NoSchedule taint key (nodeConditionToTaintKeyStatusMap). */
const nodeConditionToTaintKeyStatusMap: Record<string, Record<string, string>> = {
  Ready: { False: TaintKey.NotReady, Unknown: TaintKey.Unreachable },
  MemoryPressure: { True: TaintKey.MemoryPressure },
  DiskPressure: { True: TaintKey.DiskPressure },
  NetworkUnavailable: { True: TaintKey.NetworkUnavailable },
  PIDPressure: { True: TaintKey.PIDPressure },
};
const taintKeysFromConditions = new Set<string>(Object.values(nodeConditionToTaintKeyStatusMap).flatMap((m) => Object.values(m)));

/** The conditions set to Unknown when the kubelet goes silent (NetworkUnavailable is the network plugin's). */
const conditionsSetUnknown = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** labelReconcileInfo: the beta os/arch labels follow the stable ones. */
const labelReconcileInfo = [
  { primaryKey: 'kubernetes.io/os', secondaryKey: 'beta.kubernetes.io/os', ensureSecondaryExists: true },
  { primaryKey: 'kubernetes.io/arch', secondaryKey: 'beta.kubernetes.io/arch', ensureSecondaryExists: true },
];

/** NodeHealthUpdateRetry: attempts at writing a node's status in one pass. */
const nodeHealthUpdateRetry = 5;

export interface NodeLifecycleControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  /** Accepted for the common constructor shape; the controller makes no random choices. */
  rng?: Rng;
  /**
   * --node-monitor-grace-period. Default 40 s (v1.32's default; see issue 4). A function is read at every
   * health check, so a changed cluster setting applies from the next monitor pass.
   */
  nodeMonitorGracePeriodMs?: number | (() => number);
  /** --node-startup-grace-period: for nodes that never posted a Ready condition. Default 60 s. */
  nodeStartupGracePeriodMs?: number;
  /** --node-monitor-period. Default 5 s. */
  nodeMonitorPeriodMs?: number;
  /**
   * --pod-eviction-timeout: accepted and unused, as in v1.32, where evictions are taint based and each pod's
   * tolerationSeconds (300 s by DefaultTolerationSeconds) decides when it goes.
   */
  podEvictionTimeoutMs?: number;
  /** --large-cluster-size-threshold. Default 50. */
  largeClusterSizeThreshold?: number;
  /** --unhealthy-zone-threshold. Default 0.55. */
  unhealthyZoneThreshold?: number;
  /** --node-eviction-rate. Default 0.1 qps. */
  evictionLimiterQPS?: number;
  /** --secondary-node-eviction-rate. Default 0.01 qps. */
  secondaryEvictionLimiterQPS?: number;
}

interface NodeHealthData {
  /** When the controller last saw a sign of life (ms). */
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  status: NodeStatus | undefined;
  lease?: Typed<Lease>;
}

/** What the UI can show of the controller's view. */
export interface NodeHealthSnapshot {
  node: string;
  zone: string;
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** When the node goes Unknown if nothing is heard (probe + grace period). */
  graceDeadline: number;
}

export interface ZoneSnapshot {
  zone: string;
  state: ZoneState;
  /** The current eviction (tainting) rate of the zone. */
  qps: number;
  /** Nodes waiting for their NoExecute taint. */
  queued: string[];
}

type KubeNode = Typed<Node>;
type KubePod = Typed<Pod>;

export class NodeLifecycleController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly recorder: EventRecorder;
  private readonly nodeLister: Lister<KubeNode>;
  private readonly podLister: Lister<KubePod>;
  private readonly leaseLister: Lister<Typed<Lease>>;
  private readonly registrations: HandlerRegistration[] = [];
  private readonly cacheSyncs: (() => boolean)[];

  private readonly gracePeriodMs: () => number;
  readonly nodeStartupGracePeriodMs: number;
  readonly nodeMonitorPeriodMs: number;
  readonly largeClusterSizeThreshold: number;
  readonly unhealthyZoneThreshold: number;
  readonly evictionLimiterQPS: number;
  readonly secondaryEvictionLimiterQPS: number;

  private readonly knownNodeSet = new Map<string, KubeNode>();
  private readonly nodeHealthMap = new Map<string, NodeHealthData>();
  private readonly zoneNoExecuteTainter = new Map<string, RateLimitedTimedQueue>();
  private readonly zoneStates = new Map<string, ZoneState>();
  private readonly nodesToRetry = new Set<string>();

  private running = false;
  private startPoll: TimerHandle | undefined;
  private monitorTimer: TimerHandle | undefined;
  private taintingTimer: TimerHandle | undefined;
  private taintingDue = Infinity;

  constructor(options: NodeLifecycleControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: NodeControllerEventComponent } });
    const grace = options.nodeMonitorGracePeriodMs ?? 40_000;
    this.gracePeriodMs = typeof grace === 'function' ? grace : () => grace;
    this.nodeStartupGracePeriodMs = options.nodeStartupGracePeriodMs ?? 60_000;
    this.nodeMonitorPeriodMs = options.nodeMonitorPeriodMs ?? 5_000;
    this.largeClusterSizeThreshold = options.largeClusterSizeThreshold ?? 50;
    this.unhealthyZoneThreshold = options.unhealthyZoneThreshold ?? 0.55;
    this.evictionLimiterQPS = options.evictionLimiterQPS ?? 0.1;
    this.secondaryEvictionLimiterQPS = options.secondaryEvictionLimiterQPS ?? 0.01;

    const queue = new RateLimitingQueue<string>({ name: 'node_lifecycle_controller', clock: options.clock, trace: options.trace });
    const nodeInformer = options.informers.nodes;
    const podInformer = options.informers.pods;
    const leaseInformer = options.informers.leases;
    this.nodeLister = nodeInformer.lister;
    this.podLister = podInformer.lister;
    this.leaseLister = leaseInformer.lister;

    const podRegistration = podInformer.addEventHandler({
      onAdd: (pod) => this.podUpdated(undefined, pod, queue),
      onUpdate: (old, pod) => this.podUpdated(old, pod, queue),
    });
    const nodeRegistration = nodeInformer.addEventHandler({
      onAdd: (node) => queue.add(node.metadata.name!),
      onUpdate: (_old, node) => queue.add(node.metadata.name!),
      onDelete: (obj) => {
        const node = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        this.nodesToRetry.delete(node.metadata.name!);
      },
    });
    const leaseRegistration = leaseInformer.addEventHandler({});
    this.registrations.push(podRegistration, nodeRegistration, leaseRegistration);
    this.cacheSyncs = [
      () => nodeInformer.hasSynced() && nodeRegistration.hasSynced(),
      () => podInformer.hasSynced() && podRegistration.hasSynced(),
      () => leaseInformer.hasSynced() && leaseRegistration.hasSynced(),
    ];

    this.controller = new LoopController(
      {
        name: NodeLifecycleControllerName,
        queue,
        clock: options.clock,
        sync: (key) => this.sync(key),
        cacheSyncs: this.cacheSyncs,
        trace: options.trace,
        client: options.client,
      },
      () => this.startLoops(),
    );
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  /** --node-monitor-grace-period now. */
  get nodeMonitorGracePeriodMs(): number {
    return this.gracePeriodMs();
  }

  /** Starts the workers and, once the caches have synced, the health monitor (at once, then every period). */
  run(): void {
    this.controller.run();
  }

  private startLoops(): void {
    if (this.running) return;
    this.running = true;
    this.startWhenSynced();
  }

  shutDown(): void {
    this.running = false;
    this.controller.shutDown();
    for (const r of this.registrations) r.remove();
    this.clock.clearTimer(this.startPoll);
    this.clock.clearTimer(this.monitorTimer);
    this.clock.clearTimer(this.taintingTimer);
    this.startPoll = this.monitorTimer = this.taintingTimer = undefined;
    this.taintingDue = Infinity;
  }

  private startWhenSynced(): void {
    this.startPoll = undefined;
    if (!this.running) return;
    if (!this.cacheSyncs.every((synced) => synced())) {
      this.startPoll = this.clock.setTimer(100, () => this.startWhenSynced(), `${NodeLifecycleControllerName} waitForCacheSync`);
      return;
    }
    this.monitorLoop();
  }

  private monitorLoop(): void {
    this.monitorTimer = undefined;
    if (!this.running) return;
    this.runPass('monitorNodeHealth', () => this.monitorNodeHealth());
    if (this.running) this.monitorTimer = this.clock.setTimer(this.nodeMonitorPeriodMs, () => this.monitorLoop(), `${NodeLifecycleControllerName} monitorNodeHealth`, { background: true });
  }

  /** Runs a periodic pass as a traced unit: its API requests name the pass as their cause. */
  private runPass(pass: string, fn: () => void): void {
    const seq = this.emit({ pass });
    const writes: RequestRecord[] = [];
    let error: unknown;
    try {
      withCause(this.trace, seq || undefined, () => this.client.record(writes, fn));
    } catch (err) {
      error = err;
    }
    if (writes.length > 0 || error !== undefined) {
      const data: Record<string, unknown> = { pass, writes };
      if (error !== undefined) data.error = error instanceof Error ? error.message : String(error);
      this.emit(data, seq);
    }
  }

  private emit(data: Record<string, unknown>, cause?: number): number {
    return this.trace.emit({ kind: TraceKind.Custom, component: NodeLifecycleControllerName, cause, data });
  }

  // ---------------------------------------------------------------- work queue

  private podUpdated(oldPod: KubePod | undefined, newPod: KubePod, queue: RateLimitingQueue<string>): void {
    const nodeName = newPod.spec?.nodeName;
    if (nodeName && (!oldPod || oldPod.spec?.nodeName !== nodeName)) {
      queue.add(`${newPod.metadata.namespace}/${newPod.metadata.name}`);
    }
  }

  /** The key is a node name (NoSchedule taints and labels) or a pod key (mark not Ready on an unhealthy node). */
  sync(key: string): void {
    if (key.includes('/')) {
      this.processPod(key);
      return;
    }
    const errors: unknown[] = [];
    try {
      this.doNoScheduleTaintingPass(key);
    } catch (err) {
      errors.push(err);
    }
    try {
      this.reconcileNodeLabels(key);
    } catch (err) {
      errors.push(err);
    }
    if (errors.length > 0) throw errors[0];
  }

  /** processPod: a pod newly bound to a node that is not Ready is marked not Ready at once. */
  private processPod(key: string): void {
    const [namespace, name] = splitKey(key);
    const pod = this.podLister.get(namespace, name);
    if (!pod) return;
    const nodeName = pod.spec?.nodeName ?? '';
    const nodeHealth = this.nodeHealthMap.get(nodeName);
    // Node data is not gathered yet or node has been removed in the meantime.
    if (!nodeHealth) return;
    if (!this.nodeLister.get(undefined, nodeName)) throw new Error(`node "${nodeName}" not found`);
    const ready = getNodeCondition(nodeHealth.status, 'Ready');
    if (!ready) return;
    if (ready.status !== 'True') this.markPodsNotReady([pod], nodeName);
  }

  /** doNoScheduleTaintingPass: NoSchedule taints mirror the node's conditions and spec.unschedulable. */
  doNoScheduleTaintingPass(nodeName: string): void {
    const node = this.nodeLister.get(undefined, nodeName);
    if (!node) return;
    const taints: Taint[] = [];
    for (const condition of node.status?.conditions ?? []) {
      const key = nodeConditionToTaintKeyStatusMap[condition.type]?.[condition.status];
      if (key) taints.push({ key, effect: TaintEffect.NoSchedule });
    }
    if (node.spec?.unschedulable) taints.push({ key: TaintKey.Unschedulable, effect: TaintEffect.NoSchedule });
    const nodeTaints = (node.spec?.taints ?? []).filter(
      (t) => t.effect === TaintEffect.NoSchedule && (t.key === TaintKey.Unschedulable || taintKeysFromConditions.has(t.key)),
    );
    const { toAdd, toRemove } = taintSetDiff(taints, nodeTaints);
    if (toAdd.length === 0 && toRemove.length === 0) return;
    if (!swapNodeControllerTaint(this.client, this.clock, toAdd, toRemove, node)) {
      throw new Error(`failed to swap taints of node ${nodeName}`);
    }
  }

  /** reconcileNodeLabels: beta.kubernetes.io/os and /arch follow kubernetes.io/os and /arch. */
  private reconcileNodeLabels(nodeName: string): void {
    const node = this.nodeLister.get(undefined, nodeName);
    const labels = node?.metadata.labels;
    if (!labels) return;
    const labelsToUpdate: Record<string, string> = {};
    for (const r of labelReconcileInfo) {
      const primary = labels[r.primaryKey];
      if (primary === undefined) continue;
      const secondary = labels[r.secondaryKey];
      if (secondary !== undefined ? secondary !== primary : r.ensureSecondaryExists) labelsToUpdate[r.secondaryKey] = primary;
    }
    if (Object.keys(labelsToUpdate).length === 0) return;
    this.client.nodes.patch(nodeName, PatchType.StrategicMergePatch, { metadata: { labels: labelsToUpdate } });
  }

  // ---------------------------------------------------------------- monitorNodeHealth

  /**
   * monitorNodeHealth: checks every node's health signals, sets Unknown on silent nodes, queues NoExecute
   * tainting, marks pods not Ready on transitions, then applies the zone-disruption rule.
   */
  monitorNodeHealth(): void {
    const nodes = this.nodeLister.list();
    const { added, deleted, newZoneRepresentatives } = this.classifyNodes(nodes);
    for (const node of newZoneRepresentatives) this.addPodEvictorForNewZone(node);
    for (const node of added) {
      this.recordNodeEvent(node, EventType.Normal, 'RegisteredNode', `Registered Node ${node.metadata.name} in Controller`);
      this.knownNodeSet.set(node.metadata.name!, node);
      this.addPodEvictorForNewZone(node);
      try {
        this.markNodeAsReachable(node);
      } catch {
        // Retried on the next pass, as the original logs and moves on.
      }
    }
    for (const node of deleted) {
      this.recordNodeEvent(node, EventType.Normal, 'RemovingNode', `Removing Node ${node.metadata.name} from Controller`);
      this.knownNodeSet.delete(node.metadata.name!);
    }

    const zoneToNodeConditions = new Map<string, (NodeCondition | undefined)[]>();
    for (const node of nodes) this.updateNodeHealth(node, zoneToNodeConditions);
    this.handleDisruption(zoneToNodeConditions, nodes);
  }

  private updateNodeHealth(initial: KubeNode, zoneToNodeConditions: Map<string, (NodeCondition | undefined)[]>): void {
    let node = initial;
    const name = node.metadata.name!;
    let result: { observed: NodeCondition; current: NodeCondition | undefined } | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        result = this.tryUpdateNodeHealth(node);
        break;
      } catch {
        // "Update health of Node from Controller error, Skipping - no pods will be evicted".
        if (attempt >= nodeHealthUpdateRetry) return;
        try {
          node = this.client.nodes.get(name);
        } catch {
          // Probably the node was deleted.
          return;
        }
      }
    }
    const { observed, current } = result;

    if (!isNodeExcludedFromDisruptionChecks(node)) {
      const zone = getZoneKey(node);
      const list = zoneToNodeConditions.get(zone);
      if (list) list.push(current);
      else zoneToNodeConditions.set(zone, [current]);
    }

    if (current) {
      this.processTaintBaseEviction(node, observed);
      const needsRetry = this.nodesToRetry.has(name);
      const becameNotReady = current.status !== 'True' && observed.status === 'True';
      if (becameNotReady) {
        // Report node event only once when status changed.
        this.recordNodeStatusChange(node, 'NodeNotReady');
      }
      if (becameNotReady || (needsRetry && observed.status !== 'True')) {
        try {
          // The node's pods are only listed on a transition, not on every health check of every node.
          this.markPodsNotReady(this.podLister.byIndex(NodeNameIndex, name), name);
        } catch {
          this.nodesToRetry.add(name);
          return;
        }
      }
    }
    this.nodesToRetry.delete(name);
  }

  /**
   * tryUpdateNodeHealth: updates the controller's record of when it last heard from the node (a new Ready
   * heartbeat or a renewed Lease) and, when that is longer ago than the grace period, writes the conditions as
   * Unknown. Returns the Ready condition as observed and as it is now. Throws when the status write fails.
   */
  private tryUpdateNodeHealth(cached: KubeNode): { observed: NodeCondition; current: NodeCondition | undefined } {
    // The cached node is shared and frozen: it is copied only when the controller is about to change it.
    let node = cached;
    const name = node.metadata.name!;
    const now = this.clock.now();
    let nodeHealth = this.nodeHealthMap.get(name);
    try {
      let gracePeriod: number;
      let observed: NodeCondition;
      let current = getNodeCondition(node.status, 'Ready');
      const created = parseTime(node.metadata.creationTimestamp) ?? now;
      if (!current) {
        // The kubelet (or the controller) never posted a Ready condition: pretend it did at creation.
        observed = {
          type: 'Ready',
          status: 'Unknown',
          lastHeartbeatTime: node.metadata.creationTimestamp,
          lastTransitionTime: node.metadata.creationTimestamp,
        };
        gracePeriod = this.nodeStartupGracePeriodMs;
        if (nodeHealth) nodeHealth.status = node.status;
        else nodeHealth = { status: node.status, probeTimestamp: created, readyTransitionTimestamp: created };
      } else {
        observed = { ...current };
        gracePeriod = this.nodeMonitorGracePeriodMs;
      }

      const saved = nodeHealth ? getNodeCondition(nodeHealth.status, 'Ready') : undefined;
      const savedLease = nodeHealth?.lease;
      if (!nodeHealth) {
        nodeHealth = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
      } else if (!saved && current) {
        nodeHealth = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
      } else if (saved && !current) {
        nodeHealth = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: now };
      } else if (saved && current && saved.lastHeartbeatTime !== current.lastHeartbeatTime) {
        // The transition time only moves when the Ready condition transitioned since the last look.
        const transition = saved.lastTransitionTime !== current.lastTransitionTime ? now : nodeHealth.readyTransitionTimestamp;
        nodeHealth = { status: node.status, probeTimestamp: now, readyTransitionTimestamp: transition };
      }

      // Always update the probe time if the node lease is renewed. A kubelet that renews its lease but never
      // posts status counts as healthy.
      const observedLease = this.leaseLister.get(NamespaceNodeLease, name);
      if (observedLease && (!savedLease || renewTime(savedLease) < renewTime(observedLease))) {
        nodeHealth.lease = observedLease;
        nodeHealth.probeTimestamp = now;
      }

      if (now > nodeHealth.probeTimestamp + gracePeriod) {
        // Nothing heard for longer than the grace period: Unknown, whatever the kubelet last said.
        const nowTimestamp = rfc3339(now);
        node = structuredClone(cached) as KubeNode;
        // Node.status is readonly in kubernetes-types (the kubelet owns it); this copy is ours to change.
        const writable = node as { status?: NodeStatus };
        const status = (writable.status ??= {});
        const conditions: NodeCondition[] = (status.conditions ??= []);
        for (const type of conditionsSetUnknown) {
          const condition = conditions.find((c) => c.type === type);
          if (!condition) {
            conditions.push({
              type,
              status: 'Unknown',
              reason: 'NodeStatusNeverUpdated',
              message: 'Kubelet never posted node status.',
              lastHeartbeatTime: node.metadata.creationTimestamp,
              lastTransitionTime: nowTimestamp,
            });
          } else if (condition.status !== 'Unknown') {
            condition.status = 'Unknown';
            condition.reason = 'NodeStatusUnknown';
            condition.message = 'Kubelet stopped posting node status.';
            condition.lastTransitionTime = nowTimestamp;
          }
        }
        current = getNodeCondition(node.status, 'Ready');
        if (!semanticDeepEqual(current, observed)) {
          this.emit({ event: 'NodeStatusUnknown', node: name, lastHeard: nodeHealth.probeTimestamp, gracePeriodMs: gracePeriod });
          this.client.nodes.updateStatus(node);
          nodeHealth = {
            status: node.status,
            probeTimestamp: nodeHealth.probeTimestamp,
            readyTransitionTimestamp: now,
            lease: observedLease,
          };
        }
      }
      return { observed, current };
    } finally {
      if (nodeHealth) this.nodeHealthMap.set(name, nodeHealth);
    }
  }

  /** processTaintBaseEviction: queue (or swap) the NoExecute taint matching the observed Ready status. */
  private processTaintBaseEviction(node: KubeNode, observed: NodeCondition): void {
    switch (observed.status) {
      case 'False':
        // Swap at once when the node already has the other taint.
        if (taintExists(node.spec?.taints, UnreachableTaintTemplate)) {
          swapNodeControllerTaint(this.client, this.clock, [NotReadyTaintTemplate], [UnreachableTaintTemplate], node);
        } else {
          this.markNodeForTainting(node, 'False');
        }
        break;
      case 'Unknown':
        if (taintExists(node.spec?.taints, NotReadyTaintTemplate)) {
          swapNodeControllerTaint(this.client, this.clock, [UnreachableTaintTemplate], [NotReadyTaintTemplate], node);
        } else {
          this.markNodeForTainting(node, 'Unknown');
        }
        break;
      case 'True':
        try {
          this.markNodeAsReachable(node);
        } catch {
          // Retried on the next pass.
        }
        break;
    }
  }

  private markNodeForTainting(node: KubeNode, status: 'False' | 'Unknown'): boolean {
    const zone = getZoneKey(node);
    const tainter = this.zoneNoExecuteTainter.get(zone);
    if (!tainter) return false;
    const name = node.metadata.name!;
    if (status === 'False' && !taintExists(node.spec?.taints, NotReadyTaintTemplate)) tainter.remove(name);
    if (status === 'Unknown' && !taintExists(node.spec?.taints, UnreachableTaintTemplate)) tainter.remove(name);
    const added = tainter.add(name, node.metadata.uid ?? '');
    if (added) {
      this.emit({ event: 'TaintQueued', node: name, zone: zoneDisplayName(zone), readyStatus: status });
      this.scheduleTaintingPass();
    }
    return added;
  }

  /** markNodeAsReachable: drops both NoExecute taints and the node's place in the tainting queue. */
  private markNodeAsReachable(node: KubeNode): boolean {
    removeTaintOffNode(this.client, node.metadata.name!, node, [UnreachableTaintTemplate]);
    removeTaintOffNode(this.client, node.metadata.name!, node, [NotReadyTaintTemplate]);
    return this.zoneNoExecuteTainter.get(getZoneKey(node))?.remove(node.metadata.name!) ?? false;
  }

  private classifyNodes(allNodes: KubeNode[]): { added: KubeNode[]; deleted: KubeNode[]; newZoneRepresentatives: KubeNode[] } {
    const added: KubeNode[] = [];
    const deleted: KubeNode[] = [];
    const newZoneRepresentatives: KubeNode[] = [];
    for (const node of allNodes) {
      if (!this.knownNodeSet.has(node.metadata.name!)) added.push(node);
      else if (!this.zoneStates.has(getZoneKey(node))) newZoneRepresentatives.push(node);
    }
    if (this.knownNodeSet.size + added.length !== allNodes.length) {
      const present = new Set(allNodes.map((n) => n.metadata.name!));
      for (const [name, node] of this.knownNodeSet) if (!present.has(name)) deleted.push(node);
    }
    return { added, deleted, newZoneRepresentatives };
  }

  private addPodEvictorForNewZone(node: KubeNode): void {
    const zone = getZoneKey(node);
    if (this.zoneStates.has(zone)) return;
    this.zoneStates.set(zone, ZoneState.Initial);
    this.zoneNoExecuteTainter.set(
      zone,
      new RateLimitedTimedQueue(new TokenBucketRateLimiter(this.evictionLimiterQPS, evictionRateLimiterBurst, this.clock), this.clock),
    );
  }

  /** HealthyQPSFunc: the full-disruption rate of a zone (when not every zone is down). */
  private healthyQPS(): number {
    return this.evictionLimiterQPS;
  }

  /** ReducedQPSFunc: large zones slow down, small ones stop. */
  private reducedQPS(zoneSize: number): number {
    return zoneSize > this.largeClusterSizeThreshold ? this.secondaryEvictionLimiterQPS : 0;
  }

  private setLimiterInZone(zone: string, zoneSize: number, state: ZoneState): void {
    const tainter = this.zoneNoExecuteTainter.get(zone);
    if (!tainter) return;
    if (state === ZoneState.Normal) tainter.swapLimiter(this.evictionLimiterQPS);
    else if (state === ZoneState.PartialDisruption) tainter.swapLimiter(this.reducedQPS(zoneSize));
    else if (state === ZoneState.FullDisruption) tainter.swapLimiter(this.healthyQPS());
  }

  /** handleDisruption: per-zone states and limiters; every zone fully disrupted stops all evictions. */
  private handleDisruption(zoneToNodeConditions: Map<string, (NodeCondition | undefined)[]>, nodes: KubeNode[]): void {
    const newZoneStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, conditions] of zoneToNodeConditions) {
      const { state } = computeZoneState(conditions, this.unhealthyZoneThreshold);
      if (state !== ZoneState.FullDisruption) allAreFullyDisrupted = false;
      newZoneStates.set(zone, state);
      if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, ZoneState.Initial);
    }

    let allWasFullyDisrupted = true;
    for (const [zone, state] of [...this.zoneStates]) {
      if (!zoneToNodeConditions.has(zone)) {
        this.zoneStates.delete(zone);
        continue;
      }
      if (state !== ZoneState.FullDisruption) {
        allWasFullyDisrupted = false;
        break;
      }
    }

    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      // Entering master disruption mode: every node is down, which says more about the control plane's view
      // than about the nodes. Stop all evictions and take the NoExecute taints back off.
      this.emit({ event: 'MasterDisruptionMode', entered: true });
      for (const node of nodes) {
        try {
          this.markNodeAsReachable(node);
        } catch {
          // Logged and left for the next pass in the original.
        }
      }
      for (const zone of this.zoneStates.keys()) this.zoneNoExecuteTainter.get(zone)?.swapLimiter(0);
      for (const zone of this.zoneStates.keys()) this.zoneStates.set(zone, ZoneState.FullDisruption);
      return;
    }
    if (allWasFullyDisrupted) {
      // Exiting master disruption mode: every node gets a fresh grace period.
      this.emit({ event: 'MasterDisruptionMode', entered: false });
      const now = this.clock.now();
      for (const node of nodes) {
        const health = this.nodeHealthMap.get(node.metadata.name!);
        if (health) {
          health.probeTimestamp = now;
          health.readyTransitionTimestamp = now;
        }
      }
      for (const zone of this.zoneStates.keys()) {
        const state = newZoneStates.get(zone)!;
        this.setLimiterInZone(zone, zoneToNodeConditions.get(zone)?.length ?? 0, state);
        this.zoneStates.set(zone, state);
      }
      this.scheduleTaintingPass();
      return;
    }
    for (const [zone, state] of [...this.zoneStates]) {
      const newState = newZoneStates.get(zone)!;
      if (state === newState) continue;
      this.setLimiterInZone(zone, zoneToNodeConditions.get(zone)?.length ?? 0, newState);
      this.zoneStates.set(zone, newState);
      this.emit({ event: 'ZoneStateChanged', zone: zoneDisplayName(zone), from: state, to: newState, qps: this.zoneNoExecuteTainter.get(zone)?.limiter.qps ?? 0 });
    }
    this.scheduleTaintingPass();
  }

  // ---------------------------------------------------------------- NoExecute tainting

  /**
   * Arms the tainting pass for when some zone can next make progress. The original polls every 100 ms; here
   * the pass runs on the same 100 ms steps, but only while a zone has a node queued and tokens to spend.
   */
  private scheduleTaintingPass(): void {
    if (!this.running) return;
    let next = Infinity;
    for (const tainter of this.zoneNoExecuteTainter.values()) next = Math.min(next, tainter.nextAttemptAt());
    if (next === Infinity) return;
    const now = this.clock.now();
    const delay = Math.max(nodeEvictionPeriodMs, Math.ceil((next - now) / nodeEvictionPeriodMs) * nodeEvictionPeriodMs);
    if (this.taintingTimer && this.taintingDue <= now + delay) return;
    this.clock.clearTimer(this.taintingTimer);
    this.taintingDue = now + delay;
    this.taintingTimer = this.clock.setTimer(
      delay,
      () => {
        this.taintingTimer = undefined;
        this.taintingDue = Infinity;
        if (!this.running) return;
        this.runPass('doNoExecuteTaintingPass', () => this.doNoExecuteTaintingPass());
        this.scheduleTaintingPass();
      },
      `${NodeLifecycleControllerName} doNoExecuteTaintingPass`,
    );
  }

  /** doNoExecuteTaintingPass: each zone's queue, through its rate limiter. */
  doNoExecuteTaintingPass(): void {
    for (const tainter of [...this.zoneNoExecuteTainter.values()]) {
      tainter.try((value): ActionResult => {
        const node = this.nodeLister.get(undefined, value.value);
        // Node no longer present.
        if (!node) return { ok: true };
        const condition = getNodeCondition(node.status, 'Ready');
        if (!condition) return { ok: false, waitMs: 50 };
        // Unreachable and not-ready are mutually exclusive, like the Ready condition they mirror.
        let taintToAdd: Taint;
        let oppositeTaint: Taint;
        if (condition.status === 'False') {
          taintToAdd = NotReadyTaintTemplate;
          oppositeTaint = UnreachableTaintTemplate;
        } else if (condition.status === 'Unknown') {
          taintToAdd = UnreachableTaintTemplate;
          oppositeTaint = NotReadyTaintTemplate;
        } else {
          // The node is ready again: nothing to taint.
          return { ok: true };
        }
        const ok = swapNodeControllerTaint(this.client, this.clock, [taintToAdd], [oppositeTaint], node);
        if (ok) this.emit({ event: 'TaintApplied', node: value.value, taint: `${taintToAdd.key}:${taintToAdd.effect}` });
        return ok ? { ok: true } : { ok: false, waitMs: 0 };
      });
    }
  }

  // ---------------------------------------------------------------- pods and events

  /** MarkPodsNotReady: the pods' Ready condition becomes False, with a NodeNotReady event on each. */
  private markPodsNotReady(pods: readonly KubePod[], nodeName: string): void {
    const errors: unknown[] = [];
    for (const cached of pods) {
      if (cached.spec?.nodeName !== nodeName) continue;
      const pod = structuredClone(cached) as KubePod;
      const status = pod.status ?? {};
      const ready = status.conditions?.find((c) => c.type === 'Ready');
      if (!ready) continue;
      if (!updatePodCondition(status, { ...ready, status: 'False' }, this.clock.now())) continue;
      try {
        this.client.pods.updateStatus(pod);
      } catch (err) {
        // NotFound: the pod was already deleted; there is nothing left to do with it.
        if (isStatusError(err, StatusReason.NotFound)) continue;
        errors.push(err);
      }
      // Recorded after the status write, so the pod is known to exist.
      this.recorder.event(pod, EventType.Warning, 'NodeNotReady', 'Node is not ready');
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new Error(`[${errors.map((e) => (e instanceof Error ? e.message : String(e))).join(', ')}]`);
  }

  /** RecordNodeStatusChange: "Node node-2 status is now: NodeNotReady". */
  private recordNodeStatusChange(node: KubeNode, newStatus: string): void {
    this.emit({ event: newStatus, node: node.metadata.name });
    this.recorder.event(nodeRef(node), EventType.Normal, newStatus, `Node ${node.metadata.name} status is now: ${newStatus}`);
  }

  /** RecordNodeEvent: "Node node-1 event: Registered Node node-1 in Controller". */
  private recordNodeEvent(node: KubeNode, type: EventType, reason: string, event: string): void {
    this.recorder.event(nodeRef(node), type, reason, `Node ${node.metadata.name} event: ${event}`);
  }

  // ---------------------------------------------------------------- for the UI and tests

  /** The controller's health record of each node it has seen. */
  nodeHealth(): NodeHealthSnapshot[] {
    const out: NodeHealthSnapshot[] = [];
    for (const [name, health] of this.nodeHealthMap) {
      const node = this.nodeLister.get(undefined, name);
      const hasReady = getNodeCondition(node?.status, 'Ready') !== undefined;
      out.push({
        node: name,
        zone: node ? zoneDisplayName(getZoneKey(node)) : '',
        probeTimestamp: health.probeTimestamp,
        readyTransitionTimestamp: health.readyTransitionTimestamp,
        graceDeadline: health.probeTimestamp + (hasReady ? this.nodeMonitorGracePeriodMs : this.nodeStartupGracePeriodMs),
      });
    }
    return out;
  }

  zones(): ZoneSnapshot[] {
    return [...this.zoneStates].map(([zone, state]) => {
      const tainter = this.zoneNoExecuteTainter.get(zone);
      return { zone: zoneDisplayName(zone), state, qps: tainter?.limiter.qps ?? 0, queued: tainter?.items().map((v) => v.value) ?? [] };
    });
  }
}

function renewTime(lease: Lease): number {
  return parseTime(lease.spec?.renewTime) ?? -Infinity;
}

function nodeRef(node: KubeNode): KubeObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: node.metadata.name, uid: node.metadata.uid } };
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}
