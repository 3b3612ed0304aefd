// The taint eviction controller (pkg/controller/tainteviction/taint_eviction.go, the NoExecute taint manager),
// on virtual time. It keeps each node's NoExecute taints and, for every pod bound to a tainted node:
//   - a taint the pod does not tolerate: the pod is deleted at once;
//   - all tolerated, some with tolerationSeconds: deletion is scheduled after the smallest of them (300 s for
//     the not-ready/unreachable tolerations DefaultTolerationSeconds adds), counted from when the pod was first
//     seen tainted;
//   - all tolerated forever (DaemonSet pods): nothing, and any scheduled deletion is cancelled.
// Removing the taints cancels scheduled deletions ("Cancelling deletion of Pod …"). A deletion first adds the
// DisruptionTarget condition (DeletionByTaintManager) through a status patch, then deletes the pod with its
// grace period.
//
// Node and pod updates share one work queue: pod keys are "namespace/name", node names never contain "/".
import type { Node, Pod, Taint, Toleration } from 'kubernetes-types/core/v1';
import { StatusReason, isStatusError } from '../../../../shared/api/status';
import { PatchType } from '../../../../shared/api/request';
import { TraceKind, nullTraceSink, type TraceSink } from '../../../../shared/protocol/trace';
import type { Client, RequestRecord, Typed } from '../../../client/client';
import { EventRecorder, EventType } from '../../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../../informers/factory';
import { NodeNameIndex } from '../../../informers/indexer';
import { DeletedFinalStateUnknown, type HandlerRegistration, type Lister } from '../../../informers/shared-informer';
import type { Clock } from '../../../sim/clock';
import { withCause } from '../../../trace/trace-bus';
import { RateLimitingQueue } from '../../../workqueue/rate-limiting-queue';
import { BaseController } from '../../shared/controller';
import { getMatchingTolerations, noExecuteTaints, taintString, taintsEqual } from '../taints';
import { semanticDeepEqual, updatePodCondition } from '../util';
import { TimedWorkerQueue } from './timed-workers';

export const TaintEvictionControllerName = 'taint-eviction-controller';

export const DisruptionTargetCondition = 'DisruptionTarget';
export const DeletionByTaintManagerReason = 'DeletionByTaintManager';
export const DeletionByTaintManagerMessage = 'Taint manager: deleting due to NoExecute taint';

/** Attempts at adding the condition and deleting the pod when its time comes. */
const deleteRetries = 5;

export interface TaintEvictionControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

/** A deletion waiting for its time, for the UI's countdown. */
export interface ScheduledEviction {
  /** "namespace/name". */
  pod: string;
  createdAt: number;
  fireAt: number;
}

type KubePod = Typed<Pod>;
type KubeNode = Typed<Node>;

/**
 * getMinTolerationTime: the smallest tolerationSeconds in ms, 0 when there are no tolerations or one is ≤ 0,
 * -1 when every toleration is forever.
 */
export function getMinTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

export class TaintEvictionController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly recorder: EventRecorder;
  private readonly podLister: Lister<KubePod>;
  private readonly nodeLister: Lister<KubeNode>;
  private readonly registrations: HandlerRegistration[] = [];
  private readonly taintEvictionQueue: TimedWorkerQueue;
  /** Each node's NoExecute taints (only nodes that have some). */
  private readonly taintedNodes = new Map<string, Taint[]>();

  constructor(options: TaintEvictionControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: TaintEvictionControllerName } });
    this.taintEvictionQueue = new TimedWorkerQueue(options.clock, (key, fireAt) => this.deletePodHandler(key, fireAt));

    const queue = new RateLimitingQueue<string>({ name: 'noexec_taint', clock: options.clock, trace: options.trace });
    const podInformer = options.informers.pods;
    const nodeInformer = options.informers.nodes;
    this.podLister = podInformer.lister;
    this.nodeLister = nodeInformer.lister;

    const podRegistration = podInformer.addEventHandler({
      onAdd: (pod) => this.podUpdated(undefined, pod, queue),
      onUpdate: (old, pod) => this.podUpdated(old, pod, queue),
      onDelete: (obj) => this.podUpdated(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj, undefined, queue),
    });
    const nodeRegistration = nodeInformer.addEventHandler({
      onAdd: (node) => this.nodeUpdated(undefined, node, queue),
      onUpdate: (old, node) => this.nodeUpdated(old, node, queue),
      onDelete: (obj) => this.nodeUpdated(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj, undefined, queue),
    });
    this.registrations.push(podRegistration, nodeRegistration);

    this.controller = new BaseController({
      name: TaintEvictionControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.sync(key),
      cacheSyncs: [
        () => podInformer.hasSynced() && podRegistration.hasSynced(),
        () => nodeInformer.hasSynced() && nodeRegistration.hasSynced(),
      ],
      trace: options.trace,
      client: options.client,
    });
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  run(): void {
    this.controller.run();
  }

  /** Stops the workers and drops the scheduled deletions (a restarted controller reschedules them). */
  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations) r.remove();
    this.taintEvictionQueue.cancelAll();
  }

  /** Deletions waiting for their time, soonest first. */
  scheduledEvictions(): ScheduledEviction[] {
    return this.taintEvictionQueue.pending().map((w) => ({ pod: w.key, createdAt: w.createdAt, fireAt: w.fireAt }));
  }

  // ---------------------------------------------------------------- handlers

  /** PodUpdated: only a change of node or tolerations matters. */
  private podUpdated(oldPod: KubePod | undefined, newPod: KubePod | undefined, queue: RateLimitingQueue<string>): void {
    if (
      oldPod &&
      newPod &&
      oldPod.spec?.nodeName === newPod.spec?.nodeName &&
      semanticDeepEqual(oldPod.spec?.tolerations ?? [], newPod.spec?.tolerations ?? [])
    ) {
      return;
    }
    const pod = newPod ?? oldPod!;
    queue.add(`${pod.metadata.namespace}/${pod.metadata.name}`);
  }

  /** NodeUpdated: only a change of NoExecute taints matters. */
  private nodeUpdated(oldNode: KubeNode | undefined, newNode: KubeNode | undefined, queue: RateLimitingQueue<string>): void {
    if (oldNode && newNode && taintsEqual(noExecuteTaints(oldNode.spec?.taints), noExecuteTaints(newNode.spec?.taints))) return;
    queue.add((newNode ?? oldNode!).metadata.name!);
  }

  sync(key: string): void {
    if (key.includes('/')) this.handlePodUpdate(key);
    else this.handleNodeUpdate(key);
  }

  private handlePodUpdate(key: string): void {
    const i = key.indexOf('/');
    const pod = this.podLister.get(key.slice(0, i), key.slice(i + 1));
    if (!pod) {
      // Deleted.
      this.cancelWorkWithEvent(key);
      return;
    }
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) return;
    // The node may have been deleted, or its taints removed, which cancelled any eviction already.
    const taints = this.taintedNodes.get(nodeName);
    if (!taints) return;
    this.processPodOnNode(key, nodeName, pod.spec?.tolerations ?? [], taints, this.clock.now());
  }

  private handleNodeUpdate(nodeName: string): void {
    const node = this.nodeLister.get(undefined, nodeName);
    if (!node) {
      this.taintedNodes.delete(nodeName);
      return;
    }
    const taints = noExecuteTaints(node.spec?.taints);
    // taintedNodes is updated before the pods are read: later pod updates see the new taints.
    if (taints.length === 0) this.taintedNodes.delete(nodeName);
    else this.taintedNodes.set(nodeName, taints);

    const pods = this.podLister.byIndex(NodeNameIndex, nodeName);
    if (pods.length === 0) return;
    if (taints.length === 0) {
      // All taints were removed from the node: cancel all evictions.
      for (const pod of pods) this.cancelWorkWithEvent(`${pod.metadata.namespace}/${pod.metadata.name}`);
      return;
    }
    const now = this.clock.now();
    for (const pod of pods) {
      this.processPodOnNode(`${pod.metadata.namespace}/${pod.metadata.name}`, nodeName, pod.spec?.tolerations ?? [], taints, now);
    }
  }

  private processPodOnNode(key: string, nodeName: string, tolerations: readonly Toleration[], taints: readonly Taint[], now: number): void {
    if (taints.length === 0) this.cancelWorkWithEvent(key);
    const { allTolerated, used } = getMatchingTolerations(taints, tolerations);
    if (!allTolerated) {
      // Not all taints are tolerated: cancel scheduled work (if any) and delete the pod right away.
      this.cancelWorkWithEvent(key);
      this.emit({ event: 'EvictionScheduled', pod: key, node: nodeName, fireAt: now, taints: taints.map(taintString), untolerated: true });
      this.taintEvictionQueue.addWork(key, now, now);
      return;
    }
    const minTolerationTime = getMinTolerationTime(used);
    if (minTolerationTime < 0) {
      // Tolerated forever.
      this.cancelWorkWithEvent(key);
      return;
    }
    let startTime = now;
    const triggerTime = startTime + minTolerationTime;
    const scheduled = this.taintEvictionQueue.getWorker(key);
    if (scheduled) {
      startTime = scheduled.createdAt;
      // The pending deletion is sooner than this one would be: keep it.
      if (startTime + minTolerationTime < triggerTime) return;
      this.cancelWorkWithEvent(key);
    }
    this.emit({ event: 'EvictionScheduled', pod: key, node: nodeName, fireAt: triggerTime, taints: taints.map(taintString) });
    this.taintEvictionQueue.addWork(key, startTime, triggerTime);
  }

  private cancelWorkWithEvent(key: string): void {
    if (!this.taintEvictionQueue.cancelWork(key)) return;
    this.emit({ event: 'EvictionCancelled', pod: key });
    this.recorder.event(podRef(key), EventType.Normal, 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
  }

  // ---------------------------------------------------------------- deletion

  /** deletePodHandler: runs when a deletion's time comes (from a timer, or at once inside a sync). */
  private deletePodHandler(key: string, fireAt: number): void {
    const seq = this.emit({ event: 'Evicting', pod: key, fireAt });
    const writes: RequestRecord[] = [];
    withCause(this.trace, seq || undefined, () =>
      this.client.record(writes, () => {
        this.recorder.event(podRef(key), EventType.Normal, 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
        for (let attempt = 1; attempt <= deleteRetries; attempt++) {
          try {
            this.addConditionAndDeletePod(key);
            return;
          } catch (err) {
            // A pod that is gone needs nothing more; anything else is retried, then given up as the original does.
            if (isStatusError(err, StatusReason.NotFound)) return;
          }
        }
      }),
    );
  }

  private addConditionAndDeletePod(key: string): void {
    const i = key.indexOf('/');
    const namespace = key.slice(0, i);
    const name = key.slice(i + 1);
    const pod = this.client.pods.get(name, { namespace });
    const status = structuredClone(pod.status ?? {});
    const updated = updatePodCondition(
      status,
      { type: DisruptionTargetCondition, status: 'True', reason: DeletionByTaintManagerReason, message: DeletionByTaintManagerMessage },
      this.clock.now(),
    );
    if (updated) {
      const condition = status.conditions!.find((c) => c.type === DisruptionTargetCondition)!;
      // PatchPodStatus: a strategic merge patch of the changed condition, with the uid as a precondition.
      this.client.pods.patch(
        name,
        PatchType.StrategicMergePatch,
        { metadata: { uid: pod.metadata.uid }, status: { conditions: [condition] } },
        { namespace, subresource: 'status' },
      );
    }
    this.client.pods.delete(name, { namespace });
  }

  private emit(data: Record<string, unknown>): number {
    return this.trace.emit({ kind: TraceKind.Custom, component: TaintEvictionControllerName, data });
  }
}

/** The reference the original's events carry: kind, namespace and name only. */
function podRef(key: string) {
  const i = key.indexOf('/');
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: key.slice(0, i), name: key.slice(i + 1) } };
}
