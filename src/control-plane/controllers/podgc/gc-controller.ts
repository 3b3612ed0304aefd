// kube-controller-manager's pod garbage collector (pkg/controller/podgc/gc_controller.go), on virtual time.
// Every gcCheckPeriod (20 s) it force-deletes (grace 0), after moving them to phase Failed:
//   - terminated pods (Succeeded/Failed) beyond --terminated-pod-gc-threshold (12 500), evicted and oldest first;
//   - terminating pods on a not-Ready node tainted node.kubernetes.io/out-of-service;
//   - orphaned pods, bound to a node that has been missing for the quarantine time (40 s, confirmed with a GET),
//     with the DisruptionTarget condition (DeletionByPodGC, "PodGC: node no longer exists");
//   - unscheduled pods that are terminating.
// Each pass is one reconcile of the key "gc" on the controller's queue, so its writes show in the trace.
import type { Node, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { StatusReason, isStatusError } from '../../../shared/api/status';
import { PatchType } from '../../../shared/api/request';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import type { SharedInformerFactory } from '../../informers/factory';
import type { HandlerRegistration, Lister } from '../../informers/shared-informer';
import type { Clock, TimerHandle } from '../../sim/clock';
import { DelayingQueue } from '../../workqueue/delaying-queue';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import type { BaseController } from '../shared/controller';
import { LoopController } from '../nodelifecycle/loop-controller';
import { TaintKey, taintKeyExists } from '../nodelifecycle/taints';
import { isNodeReady, parseTime, updatePodCondition } from '../nodelifecycle/util';

export const PodGCControllerName = 'pod-garbage-collector';
/** The key of the one periodic pass. */
export const PodGCKey = 'gc';

export const DeletionByPodGCReason = 'DeletionByPodGC';
export const DeletionByPodGCMessage = 'PodGC: node no longer exists';

export interface PodGCControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  /** --terminated-pod-gc-threshold. Default 12 500; 0 or less turns terminated-pod GC off. */
  terminatedPodThreshold?: number;
  /** gcCheckPeriod. Default 20 s. */
  gcCheckPeriodMs?: number;
  /** quarantineTime: how long a node must be missing before its pods are orphans. Default 40 s. */
  quarantineTimeMs?: number;
}

type KubePod = Typed<Pod>;

/** isPodTerminated: phase other than Pending, Running and Unknown. */
export function isPodTerminated(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/** eviction.PodIsEvicted: Failed with reason Evicted. */
function podIsEvicted(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' && pod.status.reason === 'Evicted';
}

/** byEvictionAndCreationTimestamp: evicted first, then oldest, then by name. */
export function byEvictionAndCreationTimestamp(a: Pod, b: Pod): number {
  const ae = podIsEvicted(a);
  const be = podIsEvicted(b);
  if (ae !== be) return ae ? -1 : 1;
  const at = parseTime(a.metadata?.creationTimestamp) ?? 0;
  const bt = parseTime(b.metadata?.creationTimestamp) ?? 0;
  if (at === bt) return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : (a.metadata?.name ?? '') > (b.metadata?.name ?? '') ? 1 : 0;
  return at - bt;
}

export class PodGCController {
  readonly controller: BaseController;
  readonly terminatedPodThreshold: number;
  readonly gcCheckPeriodMs: number;
  readonly quarantineTimeMs: number;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly podLister: Lister<KubePod>;
  private readonly nodeLister: Lister<Typed<Node>>;
  private readonly registrations: HandlerRegistration[] = [];
  /** orphaned_pods_nodes: names of missing nodes, ready once quarantined. Never run: drained inside gc(). */
  private readonly nodeQueue: DelayingQueue<string>;
  private running = false;
  private timer: TimerHandle | undefined;

  constructor(options: PodGCControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.terminatedPodThreshold = options.terminatedPodThreshold ?? 12_500;
    this.gcCheckPeriodMs = options.gcCheckPeriodMs ?? 20_000;
    this.quarantineTimeMs = options.quarantineTimeMs ?? 40_000;
    const podInformer = options.informers.pods;
    const nodeInformer = options.informers.nodes;
    this.podLister = podInformer.lister;
    this.nodeLister = nodeInformer.lister;
    // Registered so the caches are known to have reached this controller before the first pass.
    const podRegistration = podInformer.addEventHandler({});
    const nodeRegistration = nodeInformer.addEventHandler({});
    this.registrations.push(podRegistration, nodeRegistration);
    this.nodeQueue = new DelayingQueue<string>({ name: 'orphaned_pods_nodes', clock: options.clock, trace: options.trace });

    const queue = new RateLimitingQueue<string>({ name: 'podgc', clock: options.clock, trace: options.trace });
    this.controller = new LoopController(
      {
        name: PodGCControllerName,
        queue,
        clock: options.clock,
        sync: () => this.gc(),
        // A failed pass waits for the next period rather than retrying.
        maxRetries: 0,
        cacheSyncs: [
          () => podInformer.hasSynced() && podRegistration.hasSynced(),
          () => nodeInformer.hasSynced() && nodeRegistration.hasSynced(),
        ],
        trace: options.trace,
        client: options.client,
      },
      () => this.startLoop(),
    );
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  /** Starts the pass loop: one pass as soon as the caches have synced, then every gcCheckPeriod. */
  run(): void {
    this.controller.run();
  }

  private startLoop(): void {
    if (this.running) return;
    this.running = true;
    this.tick();
  }

  shutDown(): void {
    this.running = false;
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.controller.shutDown();
    this.nodeQueue.shutDown();
    for (const r of this.registrations) r.remove();
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.running) return;
    this.controller.queue.add(PodGCKey);
    this.timer = this.clock.setTimer(this.gcCheckPeriodMs, () => this.tick(), `${PodGCControllerName} gc`, { background: true });
  }

  /** One garbage-collection pass. */
  gc(): void {
    const pods = this.podLister.list();
    const nodes = this.nodeLister.list();
    if (this.terminatedPodThreshold > 0) this.gcTerminated(pods);
    this.gcTerminating(pods);
    this.gcOrphaned(pods, nodes);
    this.gcUnscheduledTerminating(pods);
  }

  /** gcTerminated: the terminated pods beyond the threshold, evicted and oldest first. */
  private gcTerminated(pods: readonly KubePod[]): void {
    const terminated = pods.filter(isPodTerminated);
    const deleteCount = terminated.length - this.terminatedPodThreshold;
    if (deleteCount <= 0) return;
    terminated.sort(byEvictionAndCreationTimestamp);
    for (let i = 0; i < deleteCount; i++) this.tryMarkFailedAndDelete(terminated[i]);
  }

  /** gcTerminating: terminating pods on not-Ready nodes tainted out-of-service (non-graceful node shutdown). */
  private gcTerminating(pods: readonly KubePod[]): void {
    const terminating: KubePod[] = [];
    for (const pod of pods) {
      if (!pod.metadata.deletionTimestamp) continue;
      const node = this.nodeLister.get(undefined, pod.spec?.nodeName ?? '');
      if (!node) continue;
      if (!isNodeReady(node) && taintKeyExists(node.spec?.taints, TaintKey.OutOfService)) terminating.push(pod);
    }
    if (terminating.length === 0) return;
    terminating.sort(byEvictionAndCreationTimestamp);
    for (const pod of terminating) this.tryMarkFailedAndDelete(pod);
  }

  /** gcOrphaned: pods bound to nodes missing for the quarantine time (and confirmed gone by a GET). */
  private gcOrphaned(pods: readonly KubePod[], nodes: readonly Typed<Node>[]): void {
    const existing = new Set(nodes.map((n) => n.metadata.name!));
    // Newly missing nodes go into quarantine.
    for (const pod of pods) {
      const nodeName = pod.spec?.nodeName;
      if (nodeName && !existing.has(nodeName)) this.nodeQueue.addAfter(nodeName, this.quarantineTimeMs);
    }
    const deletedNodes = this.discoverDeletedNodes(existing);
    if (deletedNodes.size === 0) return;
    const condition: PodCondition = { type: 'DisruptionTarget', status: 'True', reason: DeletionByPodGCReason, message: DeletionByPodGCMessage };
    for (const pod of pods) {
      if (!deletedNodes.has(pod.spec?.nodeName ?? '')) continue;
      this.tryMarkFailedAndDelete(pod, condition);
    }
  }

  private discoverDeletedNodes(existing: ReadonlySet<string>): Set<string> {
    const deleted = new Set<string>();
    while (this.nodeQueue.len() > 0) {
      const { item } = this.nodeQueue.get();
      if (item === undefined) break;
      if (!existing.has(item)) {
        try {
          this.client.nodes.get(item);
        } catch (err) {
          if (isStatusError(err, StatusReason.NotFound)) deleted.add(item);
          // Other errors: the node is queued again by a later pass if still needed.
        }
      }
      this.nodeQueue.done(item);
    }
    return deleted;
  }

  /** gcUnscheduledTerminating: terminating pods that were never bound to a node. */
  private gcUnscheduledTerminating(pods: readonly KubePod[]): void {
    for (const pod of pods) {
      if (!pod.metadata.deletionTimestamp || pod.spec?.nodeName) continue;
      this.tryMarkFailedAndDelete(pod);
    }
  }

  /** Failures are logged and left for the next pass in the original; one pod's failure does not stop the rest. */
  private tryMarkFailedAndDelete(pod: KubePod, condition?: PodCondition): void {
    try {
      this.markFailedAndDeletePod(pod, condition);
    } catch (err) {
      if (!isStatusError(err)) throw err;
    }
  }

  /**
   * markFailedAndDeletePodWithCondition: a pod not yet Succeeded/Failed is patched to Failed (with the
   * condition) first, since an orphan has no kubelet left to do it; then it is deleted with grace 0.
   */
  private markFailedAndDeletePod(pod: KubePod, condition?: PodCondition): void {
    const namespace = pod.metadata.namespace!;
    const name = pod.metadata.name!;
    const phase = pod.status?.phase;
    if (phase !== 'Succeeded' && phase !== 'Failed') {
      const status = structuredClone(pod.status ?? {});
      status.phase = 'Failed';
      const patchStatus: Record<string, unknown> = { phase: 'Failed' };
      if (condition && updatePodCondition(status, condition, this.clock.now())) {
        patchStatus.conditions = [status.conditions!.find((c) => c.type === condition.type)];
      }
      this.client.pods.patch(
        name,
        PatchType.StrategicMergePatch,
        { metadata: { uid: pod.metadata.uid }, status: patchStatus },
        { namespace, subresource: 'status' },
      );
    }
    this.client.pods.delete(name, { namespace, gracePeriodSeconds: 0 });
  }
}
