// kube-scheduler (pkg/scheduler/scheduler.go + eventhandlers.go): informer handlers keep the cache (assigned
// pods, nodes) and the scheduling queue (unassigned pods that are ours) current and turn changes into cluster
// events for the queue; a loop on the clock's deferred queue schedules one pod per turn while activeQ has any.
//
//   const client = new Client(endpoint.connect('kube-scheduler'), schedulerUser);
//   const scheduler = new Scheduler({ client, clock, trace, rng });   // its own informers, like a process
//   scheduler.start();
//   …
//   scheduler.lastDecision('default/web-abc')   // why that node
//   scheduler.stop();                            // a later start() rebuilds everything from the informers
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { nullTraceSink, type TraceSink } from '../../shared/protocol/trace';
import type { Client } from '../client/client';
import { EventRecorder } from '../client/record/event-recorder';
import { SharedInformerFactory, type InformerStatus } from '../informers/factory';
import { namespaceIndexers } from '../informers/indexer';
import { DeletedFinalStateUnknown, type HandlerRegistration, type SharedInformer } from '../informers/shared-informer';
import type { Clock, TimerHandle } from '../sim/clock';
import type { Rng } from '../sim/rng';
import { SchedulerCache } from './cache/cache';
import { DecisionStore, type SchedulingDecision } from './decisions';
import type { Handle } from './framework/handle';
import { ActionType, EventResource, type ClusterEvent } from './framework/interface';
import type { Framework } from './framework/runtime';
import { newPodInfo, updatedPodInfo, type NodeObject, type PodObject } from './framework/types';
import { DefaultSchedulerName, newFramework, type SchedulerProfile } from './profile';
import { SchedulingQueue, type QueueSnapshot, podUpdateActionType } from './queue/scheduling-queue';
import { ScheduleOne } from './schedule-one';

/** The identity kube-scheduler runs as. */
export const schedulerUser = { username: 'system:kube-scheduler', groups: ['system:masters'] };

export interface SchedulerOptions {
  client: Client;
  /**
   * Shared informers to use (and leave running on stop). Without them the scheduler runs as its own process:
   * start() creates fresh informers over the client and stop() shuts them down, so a restart relists.
   */
  informers?: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  rng: Rng;
  profile?: SchedulerProfile;
  /** How many scheduling attempts to keep for decisions(). Default 512. */
  decisionCapacity?: number;
}

/** How long to wait before retrying when the informers have not synced yet. */
const cacheSyncRetryMs = 100;

function assigned(pod: Pod): boolean {
  return !!pod.spec?.nodeName;
}

/** The scheduler's pod informer leaves out terminal pods (status.phase!=Succeeded,status.phase!=Failed). */
function terminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

/** NodeSchedulingPropertiesChange: the action bits of a node update (0 when nothing the plugins read changed). */
export function nodeUpdateActionType(oldNode: Node, newNode: Node): number {
  let action = 0;
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  // Becoming schedulable counts as a taint change.
  if (!!oldNode.spec?.unschedulable !== !!newNode.spec?.unschedulable && !newNode.spec?.unschedulable) action |= ActionType.UpdateNodeTaint;
  if (!same(oldNode.status?.allocatable, newNode.status?.allocatable)) action |= ActionType.UpdateNodeAllocatable;
  if (!same(oldNode.metadata?.labels, newNode.metadata?.labels)) action |= ActionType.UpdateNodeLabel;
  if (!same(oldNode.spec?.taints, newNode.spec?.taints)) action |= ActionType.UpdateNodeTaint;
  const conditions = (n: Node) => (n.status?.conditions ?? []).map((c) => [c.type, c.status, c.reason]);
  if (!same(conditions(oldNode), conditions(newNode))) action |= ActionType.UpdateNodeCondition;
  if (!same(oldNode.metadata?.annotations, newNode.metadata?.annotations)) action |= ActionType.UpdateNodeAnnotation;
  return action;
}

export class Scheduler {
  readonly schedulerName: string;
  private readonly options: SchedulerOptions;
  private readonly trace: TraceSink;
  private readonly recorder: EventRecorder;
  private readonly decisionStore: DecisionStore;
  private running = false;
  private cache?: SchedulerCache;
  private queue?: SchedulingQueue;
  private framework?: Framework;
  private loop?: ScheduleOne;
  private registrations: HandlerRegistration[] = [];
  private syncedChecks: (() => boolean)[] = [];
  private loopPending = false;
  private syncTimer?: TimerHandle;
  private ownInformers?: SharedInformerFactory;

  constructor(options: SchedulerOptions) {
    this.options = options;
    this.schedulerName = options.profile?.schedulerName ?? DefaultSchedulerName;
    this.trace = options.trace ?? nullTraceSink;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: this.schedulerName } });
    this.decisionStore = new DecisionStore(options.decisionCapacity ?? 512);
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts from scratch: a new cache and queue, filled by the informers' replay of what they hold. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const { clock, client, rng, profile } = this.options;
    let informers = this.options.informers;
    if (!informers) {
      // Its listers are read whole or by namespace (services), never by owner or node.
      informers = new SharedInformerFactory({ client, clock, trace: this.trace, baseIndexers: namespaceIndexers });
      this.ownInformers = informers;
    }
    const pods = informers.pods as unknown as SharedInformer<Pod>;
    const nodes = informers.nodes as unknown as SharedInformer<Node>;
    const used: SharedInformer<object>[] = [
      pods,
      nodes,
      informers.services,
      informers.replicationControllers,
      informers.replicaSets,
      informers.statefulSets,
      informers.namespaces,
      informers.persistentVolumeClaims,
      informers.storageClasses,
      informers.podDisruptionBudgets,
    ] as unknown as SharedInformer<object>[];
    for (const i of used) i.start();

    const handle: Handle = {
      client,
      clock,
      rng,
      recorder: this.recorder,
      schedulerName: this.schedulerName,
      podLister: pods.lister as unknown as Handle['podLister'],
      serviceLister: informers.services.lister,
      replicationControllerLister: informers.replicationControllers.lister,
      replicaSetLister: informers.replicaSets.lister,
      statefulSetLister: informers.statefulSets.lister,
      namespaceLister: informers.namespaces.lister,
      persistentVolumeClaimLister: informers.persistentVolumeClaims.lister,
      storageClassLister: informers.storageClasses.lister,
      podDisruptionBudgetLister: informers.podDisruptionBudgets.lister,
    };
    const framework = newFramework(handle, profile);
    const cache = new SchedulerCache();
    const queue = new SchedulingQueue({
      clock,
      podInitialBackoffMs: (profile?.podInitialBackoffSeconds ?? 1) * 1000,
      podMaxBackoffMs: (profile?.podMaxBackoffSeconds ?? 10) * 1000,
      queueingHints: framework.enqueueExtensions,
      onActive: () => this.ensureLoop(),
    });
    this.framework = framework;
    this.cache = cache;
    this.queue = queue;
    this.loop = new ScheduleOne({
      framework,
      cache,
      queue,
      handle,
      decisions: this.decisionStore,
      trace: this.trace,
      percentageOfNodesToScore: profile?.percentageOfNodesToScore,
      isRunning: () => this.running && this.queue === queue,
    });

    const nodeReg = nodes.addEventHandler({
      onAdd: (node) => this.onNodeAdd(node as NodeObject),
      onUpdate: (oldNode, newNode) => this.onNodeUpdate(oldNode as NodeObject, newNode as NodeObject),
      onDelete: (obj) => this.onNodeDelete((obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as NodeObject),
    });
    const podReg = pods.addEventHandler({
      onAdd: (pod) => this.onPodAdd(pod as PodObject),
      onUpdate: (oldPod, newPod) => this.onPodUpdate(oldPod as PodObject, newPod as PodObject),
      onDelete: (obj) => this.onPodDelete((obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as PodObject),
    });
    // Claims and classes only wake pods that VolumeBinding turned away.
    const pvcReg = informers.persistentVolumeClaims.addEventHandler({
      onAdd: () => this.event(EventResource.PersistentVolumeClaim, ActionType.Add, 'PvcAdd'),
      onUpdate: () => this.event(EventResource.PersistentVolumeClaim, ActionType.Update, 'PvcUpdate'),
    });
    const scReg = informers.storageClasses.addEventHandler({
      onAdd: () => this.event(EventResource.StorageClass, ActionType.Add, 'StorageClassAdd'),
      onUpdate: () => this.event(EventResource.StorageClass, ActionType.Update, 'StorageClassUpdate'),
    });
    this.registrations = [nodeReg, podReg, pvcReg, scReg];
    this.syncedChecks = [...used.map((i) => () => i.hasSynced()), () => nodeReg.hasSynced(), () => podReg.hasSynced()];
    this.ownInformers?.start();
  }

  /** Stops scheduling; pending binding cycles are dropped. Nothing is kept: start() rebuilds from the informers. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    for (const r of this.registrations) r.remove();
    this.registrations = [];
    this.queue?.close();
    this.options.clock.clearTimer(this.syncTimer);
    this.syncTimer = undefined;
    this.queue = undefined;
    this.cache = undefined;
    this.loop = undefined;
    this.framework = undefined;
    this.loopPending = false;
    this.ownInformers?.shutdown();
    this.ownInformers = undefined;
  }

  // ---------------------------------------------------------------- the loop

  private ensureLoop(): void {
    if (!this.running || this.loopPending) return;
    this.loopPending = true;
    this.options.clock.defer(() => this.step(), 'scheduler/scheduleOne');
  }

  private step(): void {
    this.loopPending = false;
    if (!this.running || !this.loop || !this.queue) return;
    // WaitForCacheSync: no decisions on a partial view of the cluster.
    if (!this.syncedChecks.every((c) => c())) {
      if (!this.syncTimer) {
        this.syncTimer = this.options.clock.setTimer(cacheSyncRetryMs, () => {
          this.syncTimer = undefined;
          this.ensureLoop();
        }, 'scheduler/waitForCacheSync');
      }
      return;
    }
    this.loop.scheduleOne();
    if (this.queue && this.queue.activeCount > 0) this.ensureLoop();
  }

  // ---------------------------------------------------------------- event handlers

  private responsibleFor(pod: Pod): boolean {
    return (pod.spec?.schedulerName || DefaultSchedulerName) === this.schedulerName;
  }

  private event(resource: ClusterEvent['resource'], actionType: number, label: string, oldObj?: PodObject | NodeObject, newObj?: PodObject | NodeObject): void {
    this.queue?.moveAllToActiveOrBackoffQueue({ resource, actionType, label }, oldObj, newObj);
  }

  private onNodeAdd(node: NodeObject): void {
    this.cache?.addNode(node);
    this.event(EventResource.Node, ActionType.Add, 'NodeAdd', undefined, node);
  }

  private onNodeUpdate(oldNode: NodeObject, newNode: NodeObject): void {
    this.cache?.updateNode(newNode);
    const action = nodeUpdateActionType(oldNode, newNode);
    if (action !== 0) this.event(EventResource.Node, action, 'NodeUpdate', oldNode, newNode);
  }

  private onNodeDelete(node: NodeObject): void {
    this.cache?.removeNode(node.metadata.name ?? '');
    this.event(EventResource.Node, ActionType.Delete, 'NodeDelete', node, undefined);
  }

  private onPodAdd(pod: PodObject): void {
    if (terminal(pod)) return;
    if (assigned(pod)) {
      this.cache?.addPod(newPodInfo(pod));
      this.event(EventResource.AssignedPod, ActionType.Add, 'AssignedPodAdd', undefined, pod);
    } else if (this.responsibleFor(pod)) {
      this.queue?.add(pod);
    }
  }

  private onPodUpdate(oldPod: PodObject, newPod: PodObject): void {
    const cache = this.cache;
    const queue = this.queue;
    if (!cache || !queue) return;
    if (terminal(newPod)) {
      // Leaves the scheduler's view, as a field-selected informer would report it: deleted.
      this.onPodDelete(oldPod);
      return;
    }
    if (assigned(newPod)) {
      if (!assigned(oldPod)) {
        // Bound (by us or anyone): out of the queues, into the cache (confirming an assumed pod).
        queue.delete(newPod);
        cache.addPod(newPodInfo(newPod));
        this.event(EventResource.AssignedPod, ActionType.Add, 'AssignedPodAdd', undefined, newPod);
        return;
      }
      cache.updatePod(updatedPodInfo(newPod, cache.getPod(podKey(newPod))));
      const action = podUpdateActionType(oldPod, newPod) & (ActionType.UpdatePodLabel | ActionType.UpdatePodScaleDown);
      if (action !== 0) this.event(EventResource.AssignedPod, action, 'AssignedPodUpdate', oldPod, newPod);
      return;
    }
    // Identical objects (a resync) and pods this scheduler has assumed are not requeued.
    if (oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return;
    if (cache.isAssumedPod(podKey(newPod))) return;
    if (this.responsibleFor(newPod)) queue.update(oldPod, newPod);
    else queue.delete(newPod);
  }

  private onPodDelete(pod: PodObject): void {
    const cache = this.cache;
    const queue = this.queue;
    if (!cache || !queue) return;
    const key = podKey(pod);
    queue.delete(pod);
    if (assigned(pod) || cache.getPod(key)) {
      if (cache.isAssumedPod(key)) cache.forgetPod(key);
      else cache.removePod(key);
      this.event(EventResource.AssignedPod, ActionType.Delete, 'AssignedPodDelete', pod, undefined);
    }
  }

  // ---------------------------------------------------------------- for the UI and tests

  /** The retained scheduling attempts of a pod ("namespace/name"), oldest first. */
  decisions(podKey: string): SchedulingDecision[] {
    return this.decisionStore.decisions(podKey);
  }

  lastDecision(podKey: string): SchedulingDecision | undefined {
    return this.decisionStore.lastDecision(podKey);
  }

  /** The most recent attempts, newest first. */
  recentDecisions(limit?: number): SchedulingDecision[] {
    return this.decisionStore.recent(limit);
  }

  /** Which pods wait where (empty when stopped). */
  queueSnapshot(): QueueSnapshot {
    return this.queue?.snapshot() ?? { active: [], backoff: [], unschedulable: [], inFlight: [] };
  }

  /** Its own informers (none when it was given shared ones, or while stopped): resource, synced, objects. */
  informerStatus(): InformerStatus[] {
    return this.ownInformers?.status() ?? [];
  }

  /** Where a pod waits: activeQ, backoffQ, unschedulablePods, inFlight, or undefined. */
  whereIs(podKey: string): string | undefined {
    return this.queue?.whereIs(podKey);
  }

  /** The cache's view: nodes known and pods accounted (assumed ones included). */
  cacheSummary(): { nodes: number; pods: number; assumedPods: number } {
    const c = this.cache;
    return c ? { nodes: c.nodeCount, pods: c.podCount, assumedPods: c.assumedPodCount } : { nodes: 0, pods: 0, assumedPods: 0 };
  }

  /** Requested resources per node as the scheduler accounts them (millicores, bytes, pod count). */
  nodeUsage(nodeName: string): { milliCPU: number; memory: number; pods: number; allocatableMilliCPU: number; allocatableMemory: number; allowedPods: number } | undefined {
    const ni = this.cache?.getNodeInfo(nodeName);
    if (!ni) return undefined;
    return {
      milliCPU: ni.requested.milliCPU,
      memory: ni.requested.memory,
      pods: ni.pods.length,
      allocatableMilliCPU: ni.allocatable.milliCPU,
      allocatableMemory: ni.allocatable.memory,
      allowedPods: ni.allocatable.allowedPodNumber,
    };
  }
}
