// kube-controller-manager's ReplicaSet controller (pkg/controller/replicaset/replica_set.go), also run for
// ReplicationControllers (kind: 'ReplicationController'), as Kubernetes does. It keeps spec.replicas active pods
// matching the selector:
//
//   pod/RS events → enqueue the owning RS's key (orphans: every RS whose selector matches, to adopt it)
//   syncReplicaSet(key):
//     expectations satisfied? (pods it created/deleted have all been seen in the cache, or 5 min passed)
//     claim pods: adopt matching orphans, release owned pods that stopped matching
//     manageReplicas: too few → create in slow-start batches 1, 2, 4, … (at most 500 per sync)
//                     too many → delete the lowest ranked (unscheduled, pending, not ready, … first)
//     status: replicas, fullyLabeledReplicas, readyReplicas, availableReplicas, observedGeneration, ReplicaFailure
import type { Pod } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import type { Selector } from '../../../shared/lib/labels';
import { isEverything, selectorMatches } from '../../../shared/lib/labels';
import { TraceKind, nullTraceSink, type TraceSink } from '../../../shared/protocol/trace';
import type { Client, ResourceClient, Typed } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { OwnerUidIndex } from '../../informers/indexer';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import { DeletedFinalStateUnknown } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { hasStatusCause, NamespaceTerminatingCause } from '../serviceaccount/serviceaccounts-controller';
import { BaseController } from '../shared/controller';
import { ControllerRefManager, freshControllerCheck } from '../shared/controller-ref-manager';
import {
  ensureOrphanIndex,
  filterActivePods,
  getControllerOf,
  isPodReady,
  newControllerRef,
  objectKey,
  OrphanNamespaceIndex,
  slowStartBatch,
  SlowStartInitialBatchSize,
} from '../shared/controller-utils';
import { PodControl } from '../shared/pod-control';
import { UIDTrackingControllerExpectations } from '../shared/uid-tracking-expectations';
import { kindFor, type ReplicaSetKind, type ReplicaSetKindName, type ReplicaSetLike, type ReplicaSetStatusLike } from './replica-set-kind';
import { ReplicaSetPodSummaries } from './pod-summary';
import { calculateStatus, getPodsToDelete, statusFromCounts, updateReplicaSetStatus } from './replica-set-utils';
import { sameJson } from '../../../shared/lib/same-json';

/** The most pods one sync creates or deletes (kube-controller-manager's BurstReplicas). */
export const BurstReplicas = 500;

export interface ReplicaSetControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  kind?: ReplicaSetKindName;
  burstReplicas?: number;
}

type PodObj = Typed<Pod>;

export class ReplicaSetController {
  readonly controller: BaseController;
  readonly kind: ReplicaSetKind;
  readonly expectations: UIDTrackingControllerExpectations;
  readonly podControl: PodControl;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly burstReplicas: number;
  private readonly rsClient: ResourceClient<ReplicaSetLike>;
  private readonly rsInformer: SharedInformer<ReplicaSetLike>;
  private readonly rsLister: Lister<ReplicaSetLike>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly podLister: Lister<PodObj>;
  private readonly handlerRegistrations: { remove(): void }[] = [];
  private readonly summaries: ReplicaSetPodSummaries;

  constructor(options: ReplicaSetControllerOptions) {
    this.kind = kindFor(options.kind);
    this.client = options.client;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.burstReplicas = options.burstReplicas ?? BurstReplicas;
    this.expectations = new UIDTrackingControllerExpectations(options.clock);
    this.rsClient = this.kind.resourceClient(options.client);
    this.rsInformer = this.kind.informer(options.informers);
    this.rsLister = this.rsInformer.lister;
    this.podInformer = options.informers.pods;
    this.podLister = this.podInformer.lister;
    ensureOrphanIndex(this.podInformer);
    this.summaries = new ReplicaSetPodSummaries(this.podInformer.indexer);
    const recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: this.kind.controllerName } });
    this.podControl = new PodControl(options.client, recorder);

    const queue = new RateLimitingQueue<string>({ name: this.kind.queueName, clock: options.clock, trace: options.trace });
    this.handlerRegistrations.push(
      this.rsInformer.addEventHandler({
        onAdd: (rs) => this.enqueueRS(rs),
        onUpdate: (oldRS, curRS) => this.updateRS(oldRS, curRS),
        onDelete: (obj) => this.deleteRS(obj),
      }),
      this.podInformer.addEventHandler({
        onAdd: (pod) => this.addPod(pod),
        onUpdate: (oldPod, curPod) => this.updatePod(oldPod, curPod),
        onDelete: (obj) => this.deletePod(obj),
      }),
    );

    this.controller = new BaseController({
      name: this.kind.controllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncReplicaSet(key),
      cacheSyncs: [() => this.rsInformer.hasSynced(), () => this.podInformer.hasSynced()],
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
    this.summaries.close();
  }

  // ---------------------------------------------------------------- event handlers

  private enqueueRS(rs: ReplicaSetLike): void {
    this.queue.add(metaNamespaceKeyFunc(rs));
  }

  private enqueueRSAfter(rs: ReplicaSetLike, delayMs: number): void {
    this.queue.addAfter(metaNamespaceKeyFunc(rs), delayMs);
  }

  private updateRS(oldRS: ReplicaSetLike, curRS: ReplicaSetLike): void {
    if (oldRS.metadata.uid !== curRS.metadata.uid) {
      // The RS was deleted and recreated under the same name: forget the old one's expectations first.
      this.deleteRS(new DeletedFinalStateUnknown(metaNamespaceKeyFunc(oldRS), oldRS));
    }
    this.enqueueRS(curRS);
  }

  private deleteRS(obj: ReplicaSetLike | DeletedFinalStateUnknown<ReplicaSetLike>): void {
    const rs = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    const key = metaNamespaceKeyFunc(rs);
    this.expectations.deleteExpectations(key);
    this.queue.add(key);
  }

  /** resolveControllerRef: the RS a controllerRef names, if it is of our kind and the same object (uid). */
  private resolveControllerRef(namespace: string, ref: { kind: string; name: string; uid: string }): ReplicaSetLike | undefined {
    if (ref.kind !== this.kind.kind) return undefined;
    const rs = this.rsLister.get(namespace, ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    return rs;
  }

  /** getPodReplicaSets: the RSs in the pod's namespace whose (non-empty) selector matches its labels. */
  private getPodReplicaSets(pod: Pod): ReplicaSetLike[] {
    const ns = pod.metadata?.namespace;
    if (!ns) return [];
    const out: ReplicaSetLike[] = [];
    for (const rs of this.rsLister.listNamespace(ns)) {
      let selector: Selector;
      try {
        selector = this.kind.selectorOf(rs);
      } catch {
        continue;
      }
      if (isEverything(selector) || !selectorMatches(selector, pod.metadata?.labels)) continue;
      out.push(rs);
    }
    return out;
  }

  private addPod(pod: PodObj): void {
    if (pod.metadata.deletionTimestamp) {
      // On a restart of the controller manager, a new pod may show up already pending deletion: count it as
      // a deletion so expectations are not left waiting for it.
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
      if (!rs) return;
      const key = metaNamespaceKeyFunc(rs);
      this.expectations.creationObserved(key);
      this.queue.add(key);
      return;
    }
    // An orphan: every matching RS gets a look so one can adopt it. No creation is observed (no one made it).
    for (const rs of this.getPodReplicaSets(pod)) this.enqueueRS(rs);
  }

  private updatePod(oldPod: PodObj, curPod: PodObj): void {
    // Periodic resyncs send updates for every pod: nothing changed.
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return;
    const labelChanged = !sameJson(curPod.metadata.labels ?? {}, oldPod.metadata.labels ?? {});
    if (curPod.metadata.deletionTimestamp) {
      // A graceful deletion began: the pod is as good as gone for us, count it now (once, by its key). If its
      // labels changed too, the old matching RS must also be told.
      this.deletePod(curPod);
      if (labelChanged) this.deletePod(oldPod);
      return;
    }
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = !sameJson(curRef ?? null, oldRef ?? null);
    if (refChanged && oldRef) {
      // The controller ref changed: sync the old controller, if any.
      const rs = this.resolveControllerRef(oldPod.metadata.namespace ?? '', oldRef);
      if (rs) this.enqueueRS(rs);
    }
    if (curRef) {
      const rs = this.resolveControllerRef(curPod.metadata.namespace ?? '', curRef);
      if (!rs) return;
      this.enqueueRS(rs);
      // A pod that just became ready becomes available minReadySeconds later: look again then. A second more
      // avoids waking up a hair too early.
      const minReadySeconds = rs.spec?.minReadySeconds ?? 0;
      if (minReadySeconds > 0 && !isPodReady(oldPod) && isPodReady(curPod)) {
        this.enqueueRSAfter(rs, (minReadySeconds + 1) * 1000);
      }
      return;
    }
    // An orphan: if its labels or ref changed, any matching RS may want to adopt it.
    if (labelChanged || refChanged) for (const rs of this.getPodReplicaSets(curPod)) this.enqueueRS(rs);
  }

  private deletePod(obj: PodObj | DeletedFinalStateUnknown<PodObj>): void {
    const pod = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    const ref = getControllerOf(pod);
    // No controller should care about orphans being deleted.
    if (!ref) return;
    const rs = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
    if (!rs) return;
    const key = metaNamespaceKeyFunc(rs);
    this.expectations.deletionObserved(key, objectKey(pod));
    this.queue.add(key);
  }

  // ---------------------------------------------------------------- sync

  /** The key is "namespace/name". */
  syncReplicaSet(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const rs = this.rsLister.get(namespace, name);
    if (!rs) {
      this.expectations.deleteExpectations(key);
      this.summaries.forget(key);
      return;
    }
    const rsNeedsSync = this.expectations.satisfiedExpectations(key);
    let selector: Selector;
    try {
      selector = this.kind.selectorOf(rs);
    } catch {
      // An invalid selector can never be synced: no point in retrying.
      return;
    }

    let manageReplicasErr: unknown;
    let newStatus: ReplicaSetStatusLike;
    const mayManage = rsNeedsSync && !rs.metadata.deletionTimestamp;
    const now = this.clock.now();
    // Usually the pods' counts, kept current from the pod cache's changes, are all a sync needs: no adoption or
    // release to make and no pods to choose for deletion. Otherwise the full path below lists and claims.
    const counts = this.summaries.summarize(key, rs, selector, now);
    if (counts && !(mayManage && counts.replicas > (rs.spec?.replicas ?? 1))) {
      if (mayManage) {
        try {
          this.manageReplicas(counts.replicas, rs);
        } catch (err) {
          manageReplicasErr = err;
        }
      }
      newStatus = statusFromCounts(rs, counts, manageReplicasErr, now);
    } else {
      // Only our own pods (ownerUid index) and the namespace's orphans can be claimed: the same candidates as
      // Kubernetes' full namespace list, found through indexes.
      const candidates = this.candidatePods(rs);
      let filteredPods = filterActivePods(candidates);
      filteredPods = this.claimPods(rs, selector, filteredPods);
      if (mayManage) {
        try {
          this.manageReplicas(filteredPods.length, rs, filteredPods);
        } catch (err) {
          manageReplicasErr = err;
        }
      }
      newStatus = calculateStatus(rs, filteredPods, manageReplicasErr, now);
    }
    // Always updates status as pods come up or die.
    const updated = updateReplicaSetStatus(this.rsClient, rs, newStatus);
    // Resync after minReadySeconds as a last line of defence for pods turning available.
    const replicas = updated.spec?.replicas ?? 1;
    const minReadySeconds = updated.spec?.minReadySeconds ?? 0;
    if (
      manageReplicasErr === undefined &&
      minReadySeconds > 0 &&
      (updated.status?.readyReplicas ?? 0) === replicas &&
      (updated.status?.availableReplicas ?? 0) !== replicas
    ) {
      this.queue.addAfter(key, minReadySeconds * 1000);
    }
    if (manageReplicasErr !== undefined) throw manageReplicasErr;
  }

  private candidatePods(rs: ReplicaSetLike): PodObj[] {
    const ns = rs.metadata.namespace ?? '';
    const owned = this.podLister.byIndex(OwnerUidIndex, rs.metadata.uid ?? '').filter((p) => p.metadata.namespace === ns);
    const orphans = this.podLister.byIndex(OrphanNamespaceIndex, ns);
    // Usually there are none: then the owned pods are the whole answer, with no set of uids to build.
    if (orphans.length === 0) return owned;
    const seen = new Set(owned.map((p) => p.metadata.uid));
    for (const p of orphans) if (!seen.has(p.metadata.uid)) owned.push(p);
    return owned;
  }

  private claimPods(rs: ReplicaSetLike, selector: Selector, pods: PodObj[]): PodObj[] {
    // Re-read the RS before adopting: the cache may not show that it is being deleted.
    const canAdopt = freshControllerCheck(rs, this.kind.kind, (ns, n) => this.rsClient.get(n, { namespace: ns }));
    const cm = new ControllerRefManager<PodObj>({
      controller: rs,
      selector,
      controllerKind: this.kind.gvk,
      canAdopt,
      dependentKind: 'Pod',
      patch: (pod, patch) => this.podControl.patchPod(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch),
    });
    return cm.claim(pods);
  }

  /**
   * manageReplicas: creates or deletes pods to reach spec.replicas, from the number of claimed active pods (and,
   * when there are too many, the pods themselves to choose from). Throws the first failure.
   */
  private manageReplicas(active: number, rs: ReplicaSetLike, filteredPods?: PodObj[]): void {
    let diff = active - (rs.spec?.replicas ?? 1);
    const rsKey = metaNamespaceKeyFunc(rs);
    if (diff < 0) {
      diff = Math.min(-diff, this.burstReplicas);
      // Expect the creations before making them: their watch events may arrive before this sync ends.
      this.expectations.expectCreations(rsKey, diff);
      this.emit(rs, 'create', diff, active);
      const controllerRef = newControllerRef(rs, this.kind.gvk);
      // Batch the creates: 1, 2, 4, … so that a controller that cannot create pods (quota, admission) fails
      // with one request instead of hundreds.
      const { successes, error } = slowStartBatch(diff, SlowStartInitialBatchSize, () => {
        try {
          this.podControl.createPods(rs.metadata.namespace ?? '', rs.spec?.template ?? {}, rs, controllerRef);
        } catch (err) {
          // In a terminating namespace every create fails: nothing to do.
          if (hasStatusCause(err, NamespaceTerminatingCause)) return;
          throw err;
        }
      });
      // Pods never attempted will not be observed: stop expecting them. The next sync retries.
      const skipped = diff - successes;
      for (let i = 0; i < skipped; i++) this.expectations.creationObserved(rsKey);
      if (error !== undefined) throw error;
      return;
    }
    if (diff > 0) {
      if (!filteredPods) throw new Error('manageReplicas: the pods to delete from are needed');
      diff = Math.min(diff, this.burstReplicas);
      const relatedPods = this.getIndirectlyRelatedPods(rs);
      // Choose which pods to delete, preferring those in earlier phases of startup.
      const podsToDelete = getPodsToDelete(filteredPods, relatedPods, diff, this.clock.now());
      // Remember exactly which pods should go, so each is counted once: at its deletionTimestamp or its DELETED.
      this.expectations.expectDeletions(rsKey, podsToDelete.map(objectKey));
      this.emit(rs, 'delete', diff, filteredPods.length, podsToDelete.map((p) => p.metadata.name ?? ''));
      let firstError: unknown;
      for (const pod of podsToDelete) {
        try {
          this.podControl.deletePod(rs.metadata.namespace ?? '', pod.metadata.name ?? '', rs);
        } catch (err) {
          // The informer will not observe this deletion.
          this.expectations.deletionObserved(rsKey, objectKey(pod));
          if (!isStatusError(err, StatusReason.NotFound) && firstError === undefined) firstError = err;
        }
      }
      if (firstError !== undefined) throw firstError;
    }
  }

  /**
   * getIndirectlyRelatedPods: the pods of every RS with the same controller as rs (the ReplicaSets of one
   * Deployment), for the "doubled up on a node" rank. An RS with no controller has none.
   */
  private getIndirectlyRelatedPods(rs: ReplicaSetLike): PodObj[] {
    const ref = getControllerOf(rs);
    if (!ref) return [];
    const ns = rs.metadata.namespace ?? '';
    const seen = new Set<string>();
    const related: PodObj[] = [];
    for (const relatedRS of this.rsLister.byIndex(OwnerUidIndex, ref.uid)) {
      if (relatedRS.metadata.namespace !== ns || getControllerOf(relatedRS)?.uid !== ref.uid) continue;
      let selector: Selector;
      try {
        selector = this.kind.selectorOf(relatedRS);
      } catch {
        continue;
      }
      for (const pod of this.candidatePods(relatedRS)) {
        const uid = pod.metadata.uid ?? '';
        if (seen.has(uid) || !selectorMatches(selector, pod.metadata.labels)) continue;
        seen.add(uid);
        related.push(pod);
      }
    }
    return related;
  }

  private emit(rs: KubeObject, action: 'create' | 'delete', count: number, current: number, pods?: string[]): void {
    if (this.trace === nullTraceSink) return;
    const data: Record<string, unknown> = {
      event: 'replicaset.manageReplicas',
      kind: this.kind.kind,
      key: metaNamespaceKeyFunc(rs),
      replicas: (rs as ReplicaSetLike).spec?.replicas ?? 1,
      current,
      action,
      count,
    };
    if (pods) data.pods = pods;
    this.trace.emit({ kind: TraceKind.Custom, component: this.kind.controllerName, data });
  }
}

