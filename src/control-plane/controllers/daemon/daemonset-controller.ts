// kube-controller-manager's DaemonSet controller (pkg/controller/daemon/daemon_controller.go): one pod per
// eligible node.
//
//   DaemonSet, ControllerRevision, pod and node events → enqueue the DaemonSets concerned (a node event only
//   those whose shouldRun/shouldContinueRunning on that node changed)
//   syncDaemonSet(key):
//     selector selects everything → SelectingAll warning, nothing else
//     being deleted → nothing (its revisions may already be gone: no status either)
//     constructHistory → the current revision's hash (pods are labelled controller-revision-hash=<hash>)
//     expectations pending → status only
//     manage: per node, nodeShouldRunDaemonPod → create the missing pod (pinned to the node by node affinity;
//             the scheduler binds it), delete pods that must not stay, failed pods (with back-off) and extras
//     RollingUpdate → planRollingUpdate (rolling-update.ts); OnDelete → nothing
//     cleanupHistory, then status (desired/current/misscheduled/ready/updated/available/unavailable)
//
// Removed nodes need no handler: Pod GC deletes the pods of a deleted node, and their deletion wakes us.
import type { DaemonSet } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { Selector } from '../../../shared/lib/labels';
import { isEverything, labelSelectorAsSelector, selectorMatches } from '../../../shared/lib/labels';
import { TraceKind, nullTraceSink, type TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { OwnerUidIndex } from '../../informers/indexer';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import { DeletedFinalStateUnknown } from '../../informers/shared-informer';
import { Backoff } from '../../kubelet/backoff';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { hasStatusCause, NamespaceTerminatingCause } from '../serviceaccount/serviceaccounts-controller';
import { BaseController } from '../shared/controller';
import { ControllerRefManager, freshControllerCheck } from '../shared/controller-ref-manager';
import {
  ensureOrphanIndex,
  getControllerOf,
  isPodAvailable,
  isPodReady,
  newControllerRef,
  OrphanNamespaceIndex,
  PodPhase,
  slowStartBatch,
  SlowStartInitialBatchSize,
} from '../shared/controller-utils';
import { ControllerExpectations } from '../shared/expectations';
import { PodControl } from '../shared/pod-control';
import {
  allowsSurge,
  createPodTemplate,
  DaemonSetUpdateStrategyType,
  DefaultDaemonSetUniqueLabelKey,
  getTargetNodeName,
  getTemplateGeneration,
  isPodUpdated,
  replaceDaemonSetPodNodeNameNodeAffinity,
} from './daemonset-util';
import { compareByCreationTimestampAndPhase, getUnscheduledPodsWithoutNode, nodeShouldRunDaemonPod, shouldIgnoreNodeUpdate } from './node-should-run';
import { cleanupHistory, constructHistory, daemonSetKind, type DaemonSetObj, type Revision } from './revisions';
import { planRollingUpdate } from './rolling-update';
import { sameJson } from '../../../shared/lib/same-json';

export const DaemonSetControllerName = 'daemonset-controller';

/** BurstReplicas: the most pods one sync creates or deletes (250: more could DoS the image registry). */
export const BurstReplicas = 250;
/** StatusUpdateRetries: one retry (after a fresh GET) of a failed status update. */
export const StatusUpdateRetries = 1;
/** kube-controller-manager's back-off for deleting failed daemon pods: 1 s doubling to 15 min. */
export const FailedPodsBackoffInitialMs = 1_000;
export const FailedPodsBackoffMaxMs = 15 * 60_000;

/** Event reasons. */
export const DaemonSetEventReason = {
  SelectingAll: 'SelectingAll',
  FailedPlacement: 'FailedPlacement',
  FailedDaemonPod: 'FailedDaemonPod',
  SucceededDaemonPod: 'SucceededDaemonPod',
} as const;

export interface DaemonSetsControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  burstReplicas?: number;
}

type PodObj = Typed<Pod>;
type NodeObj = Typed<Node>;

/** podutil.IsPodTerminal. */
function isPodTerminal(pod: Pod): boolean {
  return pod.status?.phase === PodPhase.Failed || pod.status?.phase === PodPhase.Succeeded;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** utilerrors.NewAggregate: one error as is, several as "[a, b]". */
function aggregate(errors: unknown[]): unknown {
  if (errors.length === 0) return undefined;
  if (errors.length === 1) return errors[0];
  return new Error(`[${errors.map(errorText).join(', ')}]`);
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  if (ka.length !== Object.keys(b ?? {}).length) return false;
  return ka.every((k) => b?.[k] === a?.[k]);
}

export class DaemonSetsController {
  readonly controller: BaseController;
  readonly expectations: ControllerExpectations;
  readonly podControl: PodControl;
  readonly failedPodsBackoff = new Backoff(FailedPodsBackoffInitialMs, FailedPodsBackoffMaxMs);
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly recorder: EventRecorder;
  private readonly burstReplicas: number;
  private readonly dsInformer: SharedInformer<DaemonSet>;
  private readonly dsLister: Lister<DaemonSetObj>;
  private readonly historyInformer: SharedInformer<Revision>;
  private readonly historyLister: Lister<Revision>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly podLister: Lister<PodObj>;
  private readonly nodeInformer: SharedInformer<Node>;
  private readonly nodeLister: Lister<NodeObj>;
  private readonly handlerRegistrations: { remove(): void }[] = [];

  constructor(options: DaemonSetsControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.burstReplicas = options.burstReplicas ?? BurstReplicas;
    this.expectations = new ControllerExpectations(options.clock);
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: DaemonSetControllerName } });
    this.podControl = new PodControl(options.client, this.recorder);
    this.dsInformer = options.informers.daemonSets;
    this.dsLister = this.dsInformer.lister as Lister<DaemonSetObj>;
    this.historyInformer = options.informers.controllerRevisions as SharedInformer<Revision>;
    this.historyLister = this.historyInformer.lister;
    this.podInformer = options.informers.pods;
    this.podLister = this.podInformer.lister as Lister<PodObj>;
    this.nodeInformer = options.informers.nodes;
    this.nodeLister = this.nodeInformer.lister as Lister<NodeObj>;
    ensureOrphanIndex(this.podInformer);

    const queue = new RateLimitingQueue<string>({ name: 'daemonset', clock: options.clock, trace: options.trace });
    this.handlerRegistrations.push(
      this.dsInformer.addEventHandler({
        onAdd: (ds) => this.enqueue(ds as DaemonSetObj),
        onUpdate: (oldDS, curDS) => this.updateDaemonset(oldDS as DaemonSetObj, curDS as DaemonSetObj),
        onDelete: (obj) => this.deleteDaemonset(obj as DaemonSetObj | DeletedFinalStateUnknown<DaemonSetObj>),
      }),
      this.historyInformer.addEventHandler({
        onAdd: (h) => this.addHistory(h),
        onUpdate: (oldH, curH) => this.updateHistory(oldH, curH),
        onDelete: (obj) => this.deleteHistory(obj),
      }),
      this.podInformer.addEventHandler({
        onAdd: (pod) => this.addPod(pod as PodObj),
        onUpdate: (oldPod, curPod) => this.updatePod(oldPod as PodObj, curPod as PodObj),
        onDelete: (obj) => this.deletePod(obj as PodObj | DeletedFinalStateUnknown<PodObj>),
      }),
      this.nodeInformer.addEventHandler({
        onAdd: (node) => this.addNode(node),
        onUpdate: (oldNode, curNode) => this.updateNode(oldNode, curNode),
      }),
    );

    this.controller = new BaseController({
      name: DaemonSetControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncDaemonSet(key),
      // Kubernetes requeues a failing DaemonSet with backoff forever.
      maxRetries: Infinity,
      cacheSyncs: [
        () => this.podInformer.hasSynced(),
        () => this.nodeInformer.hasSynced(),
        () => this.historyInformer.hasSynced(),
        () => this.dsInformer.hasSynced(),
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

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.handlerRegistrations.splice(0)) r.remove();
  }

  // ---------------------------------------------------------------- event handlers

  private enqueue(ds: DaemonSetObj): void {
    this.queue.add(metaNamespaceKeyFunc(ds));
  }

  private enqueueDaemonSetAfter(ds: DaemonSetObj, delayMs: number): void {
    this.queue.addAfter(metaNamespaceKeyFunc(ds), delayMs);
  }

  private updateDaemonset(oldDS: DaemonSetObj, curDS: DaemonSetObj): void {
    if (curDS.metadata.uid !== oldDS.metadata.uid) {
      // Deleted and recreated under the same name: forget the old one first.
      this.deleteDaemonset(new DeletedFinalStateUnknown(metaNamespaceKeyFunc(oldDS), oldDS));
    }
    this.enqueue(curDS);
  }

  private deleteDaemonset(obj: DaemonSetObj | DeletedFinalStateUnknown<DaemonSetObj>): void {
    const ds = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    const key = metaNamespaceKeyFunc(ds);
    // So that a new DaemonSet of the same name starts clean.
    this.expectations.deleteExpectations(key);
    this.queue.add(key);
  }

  /** resolveControllerRef: the DaemonSet a controllerRef names, if it is one and the same object (uid). */
  private resolveControllerRef(namespace: string, ref: { kind: string; name: string; uid: string }): DaemonSetObj | undefined {
    if (ref.kind !== daemonSetKind.kind) return undefined;
    const ds = this.dsLister.get(namespace, ref.name);
    if (!ds || ds.metadata.uid !== ref.uid) return undefined;
    return ds;
  }

  /** GetPodDaemonSets / GetHistoryDaemonSets: the DaemonSets of the namespace whose selector matches labels. */
  private daemonSetsSelecting(namespace: string | undefined, labels: Record<string, string> | undefined): DaemonSetObj[] {
    if (!namespace) return [];
    const out: DaemonSetObj[] = [];
    for (const ds of this.dsLister.listNamespace(namespace)) {
      let selector: Selector;
      try {
        selector = labelSelectorAsSelector(ds.spec?.selector);
      } catch {
        continue;
      }
      if (isEverything(selector) || !selectorMatches(selector, labels)) continue;
      out.push(ds);
    }
    return out;
  }

  private addHistory(history: Revision): void {
    if (history.metadata.deletionTimestamp) {
      this.deleteHistory(history);
      return;
    }
    // With a controllerRef, that's all that matters: a revision being created needs no sync.
    if (getControllerOf(history)) return;
    // An orphan: let any matching DaemonSet adopt it.
    for (const ds of this.daemonSetsSelecting(history.metadata.namespace, history.metadata.labels)) this.enqueue(ds);
  }

  private updateHistory(oldHistory: Revision, curHistory: Revision): void {
    if (curHistory.metadata.resourceVersion === oldHistory.metadata.resourceVersion) return;
    const curRef = getControllerOf(curHistory);
    const oldRef = getControllerOf(oldHistory);
    const refChanged = !sameJson(curRef ?? null, oldRef ?? null);
    if (refChanged && oldRef) {
      const ds = this.resolveControllerRef(oldHistory.metadata.namespace ?? '', oldRef);
      if (ds) this.enqueue(ds);
    }
    if (curRef) {
      const ds = this.resolveControllerRef(curHistory.metadata.namespace ?? '', curRef);
      if (ds) this.enqueue(ds);
      return;
    }
    if (!sameLabels(curHistory.metadata.labels, oldHistory.metadata.labels) || refChanged) {
      for (const ds of this.daemonSetsSelecting(curHistory.metadata.namespace, curHistory.metadata.labels)) this.enqueue(ds);
    }
  }

  private deleteHistory(obj: Revision | DeletedFinalStateUnknown<Revision>): void {
    const history = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    const ref = getControllerOf(history);
    if (!ref) return;
    const ds = this.resolveControllerRef(history.metadata.namespace ?? '', ref);
    if (ds) this.enqueue(ds);
  }

  private addPod(pod: PodObj): void {
    if (pod.metadata.deletionTimestamp) {
      // After a controller-manager restart a pod may show up already being deleted: not a creation.
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const ds = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
      if (!ds) return;
      this.expectations.creationObserved(metaNamespaceKeyFunc(ds));
      this.enqueue(ds);
      return;
    }
    // An orphan: every matching DaemonSet gets a look so one can adopt it (no creation is observed).
    for (const ds of this.daemonSetsSelecting(pod.metadata.namespace, pod.metadata.labels)) this.enqueue(ds);
  }

  private updatePod(oldPod: PodObj, curPod: PodObj): void {
    // Periodic resyncs send updates for every pod: nothing changed.
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return;
    if (curPod.metadata.deletionTimestamp) {
      // A graceful deletion began: act on it now rather than when the kubelet finally removes the pod.
      this.deletePod(curPod);
      return;
    }
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = !sameJson(curRef ?? null, oldRef ?? null);
    if (refChanged && oldRef) {
      const ds = this.resolveControllerRef(oldPod.metadata.namespace ?? '', oldRef);
      if (ds) this.enqueue(ds);
    }
    if (curRef) {
      const ds = this.resolveControllerRef(curPod.metadata.namespace ?? '', curRef);
      if (!ds) return;
      this.enqueue(ds);
      // A pod that just became ready becomes available minReadySeconds later (+1 s against clock skew).
      const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
      if (!isPodReady(oldPod) && isPodReady(curPod) && minReadySeconds > 0) {
        this.enqueueDaemonSetAfter(ds, (minReadySeconds + 1) * 1000);
      }
      return;
    }
    const dss = this.daemonSetsSelecting(curPod.metadata.namespace, curPod.metadata.labels);
    if (dss.length === 0) return;
    if (!sameLabels(curPod.metadata.labels, oldPod.metadata.labels) || refChanged) for (const ds of dss) this.enqueue(ds);
  }

  private deletePod(obj: PodObj | DeletedFinalStateUnknown<PodObj>): void {
    const pod = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    const ref = getControllerOf(pod);
    // No controller should care about orphans being deleted.
    if (!ref) return;
    const ds = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
    if (!ds) return;
    this.expectations.deletionObserved(metaNamespaceKeyFunc(ds));
    this.enqueue(ds);
  }

  private addNode(node: Node): void {
    for (const ds of this.dsLister.list()) {
      if (nodeShouldRunDaemonPod(node, ds).shouldRun) this.enqueue(ds);
    }
  }

  private updateNode(oldNode: Node, curNode: Node): void {
    if (shouldIgnoreNodeUpdate(oldNode, curNode)) return;
    for (const ds of this.dsLister.list()) {
      const before = nodeShouldRunDaemonPod(oldNode, ds);
      const after = nodeShouldRunDaemonPod(curNode, ds);
      if (before.shouldRun !== after.shouldRun || before.shouldContinueRunning !== after.shouldContinueRunning) this.enqueue(ds);
    }
  }

  // ---------------------------------------------------------------- pods and revisions of a DaemonSet

  private selectorOf(ds: DaemonSet): Selector {
    return labelSelectorAsSelector(ds.spec?.selector);
  }

  /** getDaemonPods: our pods, after adopting matching orphans and releasing pods that stopped matching. */
  getDaemonPods(ds: DaemonSetObj): PodObj[] {
    const selector = this.selectorOf(ds);
    const ns = ds.metadata.namespace ?? '';
    // Our own pods (ownerUid index) and the namespace's orphans: the candidates Kubernetes finds by listing
    // the whole namespace.
    const owned = this.podLister.byIndex(OwnerUidIndex, ds.metadata.uid ?? '').filter((p) => p.metadata.namespace === ns);
    const seen = new Set(owned.map((p) => p.metadata.uid));
    const orphans = this.podLister.byIndex(OrphanNamespaceIndex, ns).filter((p) => !seen.has(p.metadata.uid));
    const cm = new ControllerRefManager<PodObj>({
      controller: ds,
      selector,
      controllerKind: daemonSetKind,
      canAdopt: freshControllerCheck(ds, 'DaemonSet', (n, name) => this.client.daemonSets.get(name, { namespace: n })),
      dependentKind: 'Pod',
      patch: (pod, patch) => this.podControl.patchPod(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch),
    });
    return cm.claim([...owned, ...orphans]);
  }

  /**
   * getNodesToDaemonPods: our pods by the node they are for (bound or, while pending, by their node affinity).
   * Terminal pods already being deleted are left out unless asked for: nothing more is to be done with them.
   */
  getNodesToDaemonPods(ds: DaemonSetObj, includeDeletedTerminal: boolean): Map<string, PodObj[]> {
    let claimed: PodObj[];
    try {
      claimed = this.getDaemonPods(ds);
    } catch (err) {
      throw new Error(`couldn't get node to daemon pod mapping for daemon set "${ds.metadata.name}": ${errorText(err)}`, { cause: err });
    }
    const out = new Map<string, PodObj[]>();
    for (const pod of claimed) {
      if (!includeDeletedTerminal && isPodTerminal(pod) && pod.metadata.deletionTimestamp) continue;
      let nodeName: string;
      try {
        nodeName = getTargetNodeName(pod);
      } catch {
        continue;
      }
      const list = out.get(nodeName);
      if (list) list.push(pod);
      else out.set(nodeName, [pod]);
    }
    return out;
  }

  /** controlledHistories: our revisions, after adopting matching orphans and releasing non-matching ones. */
  private controlledHistories(ds: DaemonSetObj): Revision[] {
    const cm = new ControllerRefManager<Revision>({
      controller: ds,
      selector: this.selectorOf(ds),
      controllerKind: daemonSetKind,
      canAdopt: freshControllerCheck(ds, 'DaemonSet', (n, name) => this.client.daemonSets.get(name, { namespace: n })),
      dependentKind: 'ControllerRevision',
      patch: (cr, patch) =>
        this.client.controllerRevisions.patch(cr.metadata.name ?? '', 'application/strategic-merge-patch+json', patch, { namespace: cr.metadata.namespace }),
    });
    return cm.claim(this.historyLister.listNamespace(ds.metadata.namespace ?? ''));
  }

  // ---------------------------------------------------------------- sync

  /** The key is "namespace/name". */
  syncDaemonSet(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const ds = this.dsLister.get(namespace, name);
    if (!ds) {
      this.expectations.deleteExpectations(key);
      return;
    }
    const nodeList = this.nodeLister.list();
    const sel = ds.spec?.selector;
    if (!sel || Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      this.recorder.event(ds, 'Warning', DaemonSetEventReason.SelectingAll, 'This daemon set is selecting all pods. A non-empty selector is required.');
      return;
    }
    // Being deleted: its revisions may already be gone (the GC does not order them after the pods), so no
    // reliable status can be computed either.
    if (ds.metadata.deletionTimestamp) return;

    let cur: Revision;
    let old: Revision[];
    try {
      ({ cur, old } = constructHistory(
        { client: this.client, controlledHistories: (d) => this.controlledHistories(d), getDaemonPods: (d) => this.getDaemonPods(d) },
        ds,
      ));
    } catch (err) {
      throw new Error(`failed to construct revisions of DaemonSet: ${errorText(err)}`, { cause: err });
    }
    const hash = cur.metadata.labels?.[DefaultDaemonSetUniqueLabelKey] ?? '';

    if (!this.expectations.satisfiedExpectations(key)) {
      // Only the status: observedGeneration is not raised, this generation was not processed.
      this.updateDaemonSetStatus(ds, nodeList, hash, false);
      return;
    }

    let err: unknown;
    try {
      this.updateDaemonSet(ds, nodeList, hash, key, old);
    } catch (e) {
      err = e;
    }
    let statusErr: unknown;
    try {
      this.updateDaemonSetStatus(ds, nodeList, hash, true);
    } catch (e) {
      statusErr = e;
    }
    if (err !== undefined) throw err;
    if (statusErr !== undefined) throw statusErr;
  }

  private updateDaemonSet(ds: DaemonSetObj, nodeList: NodeObj[], hash: string, key: string, old: Revision[]): void {
    this.manage(ds, nodeList, hash);
    // Roll only once the manage loop's creations and deletions have been seen.
    if (this.expectations.satisfiedExpectations(key) && ds.spec?.updateStrategy?.type === DaemonSetUpdateStrategyType.RollingUpdate) {
      this.rollingUpdate(ds, nodeList, hash);
    }
    try {
      cleanupHistory(this.client, ds, old, this.getNodesToDaemonPods(ds, true));
    } catch (err) {
      throw new Error(`failed to clean up revisions of DaemonSet: ${errorText(err)}`, { cause: err });
    }
  }

  /** manage: creates the daemon pods nodes lack and deletes those that must go. */
  private manage(ds: DaemonSetObj, nodeList: NodeObj[], hash: string): void {
    const nodeToDaemonPods = this.getNodesToDaemonPods(ds, false);
    const nodesNeedingDaemonPods: string[] = [];
    const podsToDelete: string[] = [];
    for (const node of nodeList) {
      const r = this.podsShouldBeOnNode(node, nodeToDaemonPods, ds, hash);
      nodesNeedingDaemonPods.push(...r.nodesNeedingDaemonPods);
      podsToDelete.push(...r.podsToDelete);
    }
    // Pods pinned to nodes that no longer exist and never bound: Pod GC won't collect them.
    podsToDelete.push(...getUnscheduledPodsWithoutNode(nodeList, nodeToDaemonPods));
    this.syncNodes(ds, podsToDelete, nodesNeedingDaemonPods, hash);
  }

  /** podsShouldBeOnNode: the pod to create and the pods to delete on one node. */
  private podsShouldBeOnNode(
    node: NodeObj,
    nodeToDaemonPods: ReadonlyMap<string, PodObj[]>,
    ds: DaemonSetObj,
    hash: string,
  ): { nodesNeedingDaemonPods: string[]; podsToDelete: string[] } {
    const nodeName = node.metadata.name ?? '';
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
    const daemonPods = nodeToDaemonPods.get(nodeName);
    const exists = daemonPods !== undefined;
    const nodesNeedingDaemonPods: string[] = [];
    const podsToDelete: string[] = [];
    if (shouldRun && !exists) {
      // Supposed to run here, but isn't: create it.
      nodesNeedingDaemonPods.push(nodeName);
    } else if (shouldContinueRunning) {
      // Failed pods are deleted (the next sync recreates them); extras beyond one (two while surging) go.
      const daemonPodsRunning: PodObj[] = [];
      for (const pod of daemonPods ?? []) {
        if (pod.metadata.deletionTimestamp) continue;
        const ref = `${pod.metadata.namespace}/${pod.metadata.name}`;
        if (pod.status?.phase === PodPhase.Failed) {
          // The controller often fights a kubelet that rejects its pods: back off instead of hot-looping.
          const backoffKey = failedPodsBackoffKey(ds, nodeName);
          const now = this.clock.now();
          if (this.failedPodsBackoff.isInBackOffSinceUpdate(backoffKey, now)) {
            this.enqueueDaemonSetAfter(ds, this.failedPodsBackoff.get(backoffKey));
            continue;
          }
          this.failedPodsBackoff.next(backoffKey, now, now);
          this.recorder.event(ds, 'Warning', DaemonSetEventReason.FailedDaemonPod, `Found failed daemon pod ${ref} on node ${nodeName}, will try to kill it`);
          podsToDelete.push(pod.metadata.name ?? '');
        } else if (pod.status?.phase === PodPhase.Succeeded) {
          this.recorder.event(ds, 'Normal', DaemonSetEventReason.SucceededDaemonPod, `Found succeeded daemon pod ${ref} on node ${nodeName}, will try to delete it`);
          podsToDelete.push(pod.metadata.name ?? '');
        } else {
          daemonPodsRunning.push(pod);
        }
      }
      if (!allowsSurge(ds)) {
        // Without surge, more than one pod on a node: keep the oldest.
        if (daemonPodsRunning.length > 1) {
          const sorted = [...daemonPodsRunning].sort(compareByCreationTimestampAndPhase);
          for (const pod of sorted.slice(1)) podsToDelete.push(pod.metadata.name ?? '');
        }
      } else if (daemonPodsRunning.length <= 1) {
        // Surging needs at least one non-deleted pod on the node.
        if (daemonPodsRunning.length === 0 && shouldRun) nodesNeedingDaemonPods.push(nodeName);
      } else {
        // Surging: two pods only while the oldest new one is not ready and the oldest old one is. Every other
        // pod goes; if neither is ready, only the new one stays.
        let oldestNewPod: PodObj | undefined;
        let oldestOldPod: PodObj | undefined;
        for (const pod of [...daemonPodsRunning].sort(compareByCreationTimestampAndPhase)) {
          if (pod.metadata.labels?.[DefaultDaemonSetUniqueLabelKey] === hash) {
            if (!oldestNewPod) {
              oldestNewPod = pod;
              continue;
            }
          } else if (!oldestOldPod) {
            oldestOldPod = pod;
            continue;
          }
          podsToDelete.push(pod.metadata.name ?? '');
        }
        if (oldestNewPod && oldestOldPod) {
          if (!isPodReady(oldestOldPod)) podsToDelete.push(oldestOldPod.metadata.name ?? '');
          else if (isPodAvailable(oldestNewPod, ds.spec?.minReadySeconds ?? 0, this.clock.now())) podsToDelete.push(oldestOldPod.metadata.name ?? '');
        }
      }
    } else if (exists) {
      // Not supposed to run here, but it does: delete every daemon pod on the node.
      for (const pod of daemonPods) if (!pod.metadata.deletionTimestamp) podsToDelete.push(pod.metadata.name ?? '');
    }
    return { nodesNeedingDaemonPods, podsToDelete };
  }

  /** rollingUpdate: one step of the RollingUpdate strategy. */
  private rollingUpdate(ds: DaemonSetObj, nodeList: NodeObj[], hash: string): void {
    const nodeToDaemonPods = this.getNodesToDaemonPods(ds, false);
    let plan;
    try {
      plan = planRollingUpdate(ds, nodeList, nodeToDaemonPods, hash, this.clock.now());
    } catch (err) {
      throw new Error(`couldn't get unavailable numbers: ${errorText(err)}`, { cause: err });
    }
    this.syncNodes(ds, plan.podsToDelete, plan.nodesToCreate, hash);
  }

  /**
   * syncNodes: deletes the given pods and creates daemon pods for the given nodes (at most burstReplicas of
   * each), with expectations set first so the watch events of these writes are awaited.
   */
  private syncNodes(ds: DaemonSetObj, podsToDelete: string[], nodesNeedingDaemonPods: string[], hash: string): void {
    const dsKey = metaNamespaceKeyFunc(ds);
    const ns = ds.metadata.namespace ?? '';
    const createDiff = Math.min(nodesNeedingDaemonPods.length, this.burstReplicas);
    const deleteDiff = Math.min(podsToDelete.length, this.burstReplicas);
    this.expectations.setExpectations(dsKey, createDiff, deleteDiff);
    if (createDiff > 0 || deleteDiff > 0) this.emitSyncNodes(ds, nodesNeedingDaemonPods.slice(0, createDiff), podsToDelete.slice(0, deleteDiff));

    const errors: unknown[] = [];
    const { generation } = getTemplateGeneration(ds);
    const template = createPodTemplate(ds.spec?.template, generation, hash);
    const controllerRef = newControllerRef(ds, daemonSetKind);
    let ix = 0;
    // Slow start (1, 2, 4, …): a DaemonSet that cannot create pods (quota, admission) fails once, not 250 times.
    const { error } = slowStartBatch(createDiff, SlowStartInitialBatchSize, () => {
      const nodeName = nodesNeedingDaemonPods[ix++];
      const podTemplate = structuredClone(template);
      // Pin the pod to its node through node affinity: the default scheduler binds it there.
      podTemplate.spec!.affinity = replaceDaemonSetPodNodeNameNodeAffinity(podTemplate.spec!.affinity, nodeName);
      try {
        this.podControl.createPods(ns, podTemplate, ds, controllerRef);
      } catch (err) {
        // In a terminating namespace every create fails: nothing to report.
        if (hasStatusCause(err, NamespaceTerminatingCause)) return;
        this.expectations.creationObserved(dsKey);
        errors.push(err);
        throw err;
      }
    });
    if (error !== undefined) {
      // Creations never attempted will not be observed. The next sync retries them.
      const skipped = createDiff - ix;
      if (skipped > 0) this.expectations.lowerExpectations(dsKey, skipped, 0);
    }

    for (let i = 0; i < deleteDiff; i++) {
      try {
        this.podControl.deletePod(ns, podsToDelete[i], ds);
      } catch (err) {
        this.expectations.deletionObserved(dsKey);
        if (!isStatusError(err, StatusReason.NotFound)) errors.push(err);
      }
    }
    const agg = aggregate(errors);
    if (agg !== undefined) throw agg;
  }

  // ---------------------------------------------------------------- status

  /** updateDaemonSetStatus: counts the nodes and their pods and writes status (when it changed). */
  private updateDaemonSetStatus(ds: DaemonSetObj, nodeList: NodeObj[], hash: string, updateObservedGen: boolean): void {
    const nodeToDaemonPods = this.getNodesToDaemonPods(ds, false);
    const now = this.clock.now();
    const { generation } = getTemplateGeneration(ds);
    const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
    let desiredNumberScheduled = 0;
    let currentNumberScheduled = 0;
    let numberMisscheduled = 0;
    let numberReady = 0;
    let updatedNumberScheduled = 0;
    let numberAvailable = 0;
    for (const node of nodeList) {
      const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
      const daemonPods = nodeToDaemonPods.get(node.metadata.name ?? '') ?? [];
      const scheduled = daemonPods.length > 0;
      if (shouldRun) {
        desiredNumberScheduled++;
        if (!scheduled) continue;
        currentNumberScheduled++;
        // The oldest pod (scheduled first) speaks for the node.
        const pod = [...daemonPods].sort(compareByCreationTimestampAndPhase)[0];
        if (isPodReady(pod)) {
          numberReady++;
          if (isPodAvailable(pod, minReadySeconds, now)) numberAvailable++;
        }
        if (isPodUpdated(pod, hash, generation)) updatedNumberScheduled++;
      } else if (scheduled) {
        numberMisscheduled++;
      }
    }
    const numberUnavailable = desiredNumberScheduled - numberAvailable;
    this.storeDaemonSetStatus(
      ds,
      { desiredNumberScheduled, currentNumberScheduled, numberMisscheduled, numberReady, updatedNumberScheduled, numberAvailable, numberUnavailable },
      updateObservedGen,
    );
    // Resync after minReadySeconds as a last line of defence for pods turning available.
    if (minReadySeconds > 0 && numberReady !== numberAvailable) this.enqueueDaemonSetAfter(ds, minReadySeconds * 1000);
  }

  private storeDaemonSetStatus(ds: DaemonSetObj, counts: DaemonSetCounts, updateObservedGen: boolean): void {
    const s = ds.status;
    const unchanged =
      (s?.desiredNumberScheduled ?? 0) === counts.desiredNumberScheduled &&
      (s?.currentNumberScheduled ?? 0) === counts.currentNumberScheduled &&
      (s?.numberMisscheduled ?? 0) === counts.numberMisscheduled &&
      (s?.numberReady ?? 0) === counts.numberReady &&
      (s?.updatedNumberScheduled ?? 0) === counts.updatedNumberScheduled &&
      (s?.numberAvailable ?? 0) === counts.numberAvailable &&
      (s?.numberUnavailable ?? 0) === counts.numberUnavailable &&
      (s?.observedGeneration ?? 0) >= (ds.metadata.generation ?? 0);
    if (unchanged) return;
    const ns = ds.metadata.namespace ?? '';
    let toUpdate: DaemonSetObj = ds;
    for (let i = 0; ; i++) {
      const body = { ...toUpdate, status: buildStatus(toUpdate.status, counts, updateObservedGen ? ds.metadata.generation : undefined) };
      let updateErr: unknown;
      try {
        this.client.daemonSets.updateStatus(body, { namespace: ns });
        return;
      } catch (err) {
        updateErr = err;
      }
      // Out of retries: the DaemonSet is requeued with backoff.
      if (i >= StatusUpdateRetries) throw new Error(`error storing status for daemon set "${ds.metadata.name}": ${errorText(updateErr)}`, { cause: updateErr });
      // Retry on the latest resourceVersion. A failing GET is the more interesting error.
      toUpdate = this.client.daemonSets.get(ds.metadata.name ?? '', { namespace: ns });
    }
  }

  private emitSyncNodes(ds: DaemonSetObj, create: string[], del: string[]): void {
    if (this.trace === nullTraceSink) return;
    this.trace.emit({
      kind: TraceKind.Custom,
      component: DaemonSetControllerName,
      data: { event: 'daemonset.syncNodes', key: metaNamespaceKeyFunc(ds), createOnNodes: create, deletePods: del },
    });
  }
}

interface DaemonSetCounts {
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
  numberUnavailable: number;
}

/**
 * The status as apps/v1 serialises it: the four scheduling counts always (no omitempty), the others only when
 * non-zero; collisionCount and conditions kept.
 */
function buildStatus(prev: DaemonSet['status'], c: DaemonSetCounts, observedGeneration: number | undefined): NonNullable<DaemonSet['status']> {
  const status: NonNullable<DaemonSet['status']> = {
    currentNumberScheduled: c.currentNumberScheduled,
    numberMisscheduled: c.numberMisscheduled,
    desiredNumberScheduled: c.desiredNumberScheduled,
    numberReady: c.numberReady,
  };
  const obsGen = observedGeneration ?? prev?.observedGeneration;
  if (obsGen) status.observedGeneration = obsGen;
  if (c.updatedNumberScheduled) status.updatedNumberScheduled = c.updatedNumberScheduled;
  if (c.numberAvailable) status.numberAvailable = c.numberAvailable;
  if (c.numberUnavailable) status.numberUnavailable = c.numberUnavailable;
  if (prev?.collisionCount !== undefined) status.collisionCount = prev.collisionCount;
  if (prev?.conditions?.length) status.conditions = prev.conditions;
  return status;
}

/** failedPodsBackoffKey: per DaemonSet uid, observed generation and node. */
export function failedPodsBackoffKey(ds: DaemonSet, nodeName: string): string {
  return `${ds.metadata?.uid ?? ''}/${ds.status?.observedGeneration ?? 0}/${nodeName}`;
}
