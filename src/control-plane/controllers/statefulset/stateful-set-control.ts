// pkg/controller/statefulset/stateful_set_control.go: one step of a StatefulSet towards its spec.
//
//   revisions: the update revision is the set's current template (created, or an older equal one renumbered
//              for a rollback); the current revision is status.currentRevision (the update one at first)
//   replicas:  ordinals [start, start+replicas) — missing ones are created at the revision the partition
//              says; failed/succeeded ones are deleted (and recreated on a later sync)
//   condemned: ordinals out of range — deleted from the highest
//   OrderedReady ("monotonic"): one action per sync, each replica waiting for its predecessors to be Running,
//              Ready and available; Parallel: all at once (in slow-start batches)
//   update:    RollingUpdate deletes the highest-ordinal pod not at the update revision (down to the partition),
//              one at a time, waiting for each to be healthy again; OnDelete leaves it to the user
//   status:    replicas/ready/available/current/updated, revisions, collisionCount; a complete rolling update
//              makes the update revision current. Old revisions beyond revisionHistoryLimit are deleted.
import type { StatefulSetStatus } from 'kubernetes-types/apps/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import { labelSelectorAsSelector } from '../../../shared/lib/labels';
import { TraceKind, nullTraceSink, type TraceSink } from '../../../shared/protocol/trace';
import type { Clock } from '../../sim/clock';
import { equalRevision, findEqualRevisions, type History, type Revision, sortControllerRevisions } from '../history/controller-history';
import { slowStartBatch } from '../shared/controller-utils';
import { aggregate } from './stateful-pod-control';
import type { StatefulPodControl } from './stateful-pod-control';
import type { StatefulSetStatusUpdater } from './stateful-set-status-updater';
import {
  allowsBurst,
  applyRevision,
  completeRollingUpdate,
  controllerKind,
  getEndOrdinal,
  getOrdinal,
  getPodRevision,
  getStartOrdinal,
  getStatefulSetMaxUnavailable,
  identityMatches,
  inconsistentStatus,
  isCreated,
  isFailed,
  isHealthy,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  newRevision,
  newVersionedStatefulSetPod,
  nextRevision,
  type PodObj,
  podInOrdinalRange,
  replicasOf,
  sortByDescendingOrdinal,
  type StatefulSetObj,
  storageMatches,
  UpdateStrategyType,
} from './stateful-set-utils';

/** Feature gates of kube-controller-manager this controller reads (v1.32 defaults). */
export interface StatefulSetFeatureGates {
  /** MaxUnavailableStatefulSet: alpha in v1.32, off by default — rolling updates then go one pod at a time. */
  maxUnavailableStatefulSet?: boolean;
}

export interface StatefulSetControlOptions {
  podControl: StatefulPodControl;
  statusUpdater: StatefulSetStatusUpdater;
  history: History;
  clock: Clock;
  trace?: TraceSink;
  component: string;
  featureGates?: StatefulSetFeatureGates;
}

/** What a step did, for the trace: "create web-1", "wait web-0 Running and Ready", … */
export interface StepNote {
  action: string;
  pod?: string;
}

export class DefaultStatefulSetControl {
  private readonly podControl: StatefulPodControl;
  private readonly statusUpdater: StatefulSetStatusUpdater;
  private readonly history: History;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly component: string;
  private readonly featureGates: StatefulSetFeatureGates;
  private notes: StepNote[] = [];

  constructor(options: StatefulSetControlOptions) {
    this.podControl = options.podControl;
    this.statusUpdater = options.statusUpdater;
    this.history = options.history;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.component = options.component;
    this.featureGates = options.featureGates ?? {};
  }

  /** ListRevisions: the revisions the set's selector matches, owned by it or orphaned. */
  listRevisions(set: StatefulSetObj): Revision[] {
    return this.history.listControllerRevisions(set, labelSelectorAsSelector(set.spec?.selector));
  }

  /** AdoptOrphanRevisions. */
  adoptOrphanRevisions(set: StatefulSetObj, revisions: Revision[]): void {
    for (let i = 0; i < revisions.length; i++) revisions[i] = this.history.adoptControllerRevision(set, controllerKind, revisions[i]!);
  }

  /**
   * UpdateStatefulSet: one step of the set towards its spec, then the history limit. Returns the status
   * computed (undefined when the revisions could not be worked out); throws the (aggregated) errors.
   */
  updateStatefulSet(set: StatefulSetObj, pods: PodObj[]): StatefulSetStatus | undefined {
    set = structuredClone(set);
    this.notes = [];
    const revisions = sortControllerRevisions(this.listRevisions(set));
    let current: Revision | undefined;
    let update: Revision | undefined;
    let status: StatefulSetStatus | undefined;
    let err: unknown;
    try {
      ({ current, update, status } = this.performUpdate(set, pods, revisions));
    } catch (e) {
      err = e;
      ({ current, update } = this.lastRevisions);
    }
    let truncateErr: unknown;
    try {
      this.truncateHistory(set, pods, revisions, current, update);
    } catch (e) {
      truncateErr = e;
    }
    this.emitStep(set, status);
    const combined = err !== undefined ? aggregate([err, truncateErr]) : truncateErr;
    if (combined !== undefined) throw combined;
    return status;
  }

  private lastRevisions: { current?: Revision; update?: Revision } = {};

  private performUpdate(set: StatefulSetObj, pods: PodObj[], revisions: Revision[]): { current: Revision; update: Revision; status: StatefulSetStatus } {
    this.lastRevisions = {};
    const { current, update, collisionCount } = this.getStatefulSetRevisions(set, revisions);
    this.lastRevisions = { current, update };
    let status: StatefulSetStatus | undefined;
    let err: unknown;
    try {
      status = this.updateStatefulSetPods(set, current, update, collisionCount, pods);
    } catch (e) {
      if (!(e instanceof StepError)) throw e;
      status = e.status;
      err = e.cause;
    }
    // Write the latest status even when the step failed.
    let statusErr: unknown;
    try {
      this.updateStatefulSetStatus(set, status);
    } catch (e) {
      statusErr = e;
    }
    if (err !== undefined) throw err;
    if (statusErr !== undefined) throw statusErr;
    return { current, update, status };
  }

  /**
   * truncateHistory: deletes the oldest revisions that are not live (current, update, or some pod's) until at
   * most revisionHistoryLimit non-live ones remain.
   */
  private truncateHistory(set: StatefulSetObj, pods: PodObj[], revisions: Revision[], current?: Revision, update?: Revision): void {
    const live = new Set<string>();
    if (current) live.add(current.metadata.name ?? '');
    if (update) live.add(update.metadata.name ?? '');
    for (const pod of pods) live.add(getPodRevision(pod));
    const history = revisions.filter((r) => !live.has(r.metadata.name ?? ''));
    const limit = set.spec?.revisionHistoryLimit ?? 10;
    if (history.length <= limit) return;
    for (const r of history.slice(0, history.length - limit)) this.history.deleteControllerRevision(r);
  }

  /**
   * getStatefulSetRevisions: the current and update revisions, creating the update one (or renumbering an equal
   * older one: a rollback) when the template changed. Revisions must be sorted.
   */
  private getStatefulSetRevisions(set: StatefulSetObj, revisions: Revision[]): { current: Revision; update: Revision; collisionCount: number } {
    let collisionCount = set.status?.collisionCount ?? 0;
    let update: Revision = newRevision(set, nextRevision(revisions), collisionCount);
    const equalRevisions = findEqualRevisions(revisions, update);
    const last = revisions[revisions.length - 1];
    if (equalRevisions.length > 0 && equalRevision(last, equalRevisions[equalRevisions.length - 1])) {
      // The equal revision is the latest: the template has not changed.
      update = last!;
    } else if (equalRevisions.length > 0) {
      // An older revision is equal: roll back to it by giving it the next number.
      update = this.history.updateControllerRevision(equalRevisions[equalRevisions.length - 1]!, update.revision ?? 0);
    } else {
      const created = this.history.createControllerRevision(set, update, collisionCount);
      update = created.revision;
      collisionCount = created.collisionCount;
    }
    const current = revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount };
  }

  /** updateStatefulSet (the pods part): returns the status; throws StepError carrying the status on failure. */
  private updateStatefulSetPods(
    set: StatefulSetObj,
    currentRevision: Revision,
    updateRevision: Revision,
    collisionCount: number,
    pods: PodObj[],
  ): StatefulSetStatus {
    const now = this.clock.now();
    const currentSet = applyRevision(set, currentRevision);
    const updateSet = applyRevision(set, updateRevision);
    const minReadySeconds = set.spec?.minReadySeconds ?? 0;
    const currentName = currentRevision.metadata.name ?? '';
    const updateName = updateRevision.metadata.name ?? '';

    const status: StatefulSetStatus = {
      replicas: 0,
      observedGeneration: set.metadata.generation,
      currentRevision: currentName,
      updateRevision: updateName,
      collisionCount,
    };
    const recount = (...lists: PodObj[][]) => updateStatus(status, minReadySeconds, now, currentName, updateName, ...lists);
    recount(pods);

    const replicaCount = replicasOf(set);
    const start = getStartOrdinal(set);
    const replicas: PodObj[] = new Array<PodObj>(replicaCount);
    const condemned: PodObj[] = [];
    for (const pod of pods) {
      if (podInOrdinalRange(pod, set)) replicas[getOrdinal(pod) - start] = pod;
      else if (getOrdinal(pod) >= 0) condemned.push(pod);
      // A pod without an ordinal is ignored.
    }
    for (let ord = start; ord <= getEndOrdinal(set); ord++) {
      if (!replicas[ord - start]) replicas[ord - start] = newVersionedStatefulSetPod(currentSet, updateSet, currentName, updateName, ord);
    }
    sortByDescendingOrdinal(condemned);

    let firstUnhealthyPod: PodObj | undefined;
    for (const pod of replicas) if (!isHealthy(pod) && !firstUnhealthyPod) firstUnhealthyPod = pod;
    for (let i = condemned.length - 1; i >= 0; i--) if (!isHealthy(condemned[i]!) && !firstUnhealthyPod) firstUnhealthyPod = condemned[i];

    // A set being deleted only gets its status updated.
    if (set.metadata.deletionTimestamp) return status;

    const monotonic = !allowsBurst(set);
    const fail = (err: unknown): never => {
      recount(replicas, condemned);
      throw new StepError(status, err);
    };

    // First, every replica in range; in OrderedReady mode stop at the first that is missing or not yet healthy.
    let r = this.runForAll(replicas, (i) => this.processReplica(set, updateSet, monotonic, replicas, i, now), monotonic);
    if (r.error !== undefined) fail(r.error);
    if (r.shouldExit) {
      recount(replicas, condemned);
      return status;
    }

    // The claims of condemned pods get the references the retention policy asks for (whenScaled: Delete).
    r = this.runForAll(
      condemned,
      (i) => {
        if (!this.podControl.claimsMatchRetentionPolicy(updateSet, condemned[i]!)) this.podControl.updatePodClaimForRetentionPolicy(updateSet, condemned[i]!);
        return false;
      },
      monotonic,
    );
    if (r.error !== undefined) fail(r.error);
    if (r.shouldExit) {
      recount(replicas, condemned);
      return status;
    }

    // Then scale down, from the highest ordinal; scaling takes precedence over updates.
    r = this.runForAll(condemned, (i) => this.processCondemned(set, firstUnhealthyPod, monotonic, condemned, i, now), monotonic);
    if (r.error !== undefined) fail(r.error);
    recount(replicas, condemned);
    if (r.shouldExit) return status;

    // OnDelete: pods are updated when the user deletes them.
    if (set.spec?.updateStrategy?.type === UpdateStrategyType.OnDelete) return status;

    if (this.featureGates.maxUnavailableStatefulSet) return this.updateAfterInvariantEstablished(set, replicas, updateName, status);

    const updateMin = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    // Terminate the pod with the highest ordinal that is not at the update revision, one at a time.
    for (let target = replicas.length - 1; target >= updateMin; target--) {
      const pod = replicas[target]!;
      if (getPodRevision(pod) !== updateName && !isTerminating(pod)) {
        this.note('delete for update', pod);
        try {
          this.podControl.deleteStatefulPod(set, pod);
        } catch (err) {
          if (!isStatusError(err, StatusReason.NotFound)) throw new StepError(status, err);
        }
        status.currentReplicas = (status.currentReplicas ?? 0) - 1;
        return status;
      }
      // Wait for the updated pod to be healthy before the next.
      if (!isHealthy(pod)) {
        this.note('wait for update', pod);
        return status;
      }
    }
    return status;
  }

  /**
   * updateStatefulSetAfterInvariantEstablished (MaxUnavailableStatefulSet): deletes up to maxUnavailable −
   * unavailable outdated pods at once, from the highest ordinal down to the partition.
   */
  private updateAfterInvariantEstablished(set: StatefulSetObj, replicas: PodObj[], updateName: string, status: StatefulSetStatus): StatefulSetStatus {
    const rollingUpdate = set.spec?.updateStrategy?.rollingUpdate;
    const updateMin = rollingUpdate?.partition ?? 0;
    let maxUnavailable = 1;
    if (rollingUpdate) {
      try {
        maxUnavailable = getStatefulSetMaxUnavailable(rollingUpdate.maxUnavailable, replicasOf(set));
      } catch (err) {
        throw new StepError(status, err);
      }
    }
    const unavailable = replicas.filter((p) => !isHealthy(p)).length;
    if (unavailable >= maxUnavailable) {
      this.note(`wait: ${unavailable} unavailable, maxUnavailable ${maxUnavailable}`);
      return status;
    }
    const podsToDelete = maxUnavailable - unavailable;
    let deleted = 0;
    for (let target = replicas.length - 1; target >= updateMin && deleted < podsToDelete; target--) {
      const pod = replicas[target]!;
      if (getPodRevision(pod) === updateName || isTerminating(pod)) continue;
      this.note('delete for update', pod);
      try {
        this.podControl.deleteStatefulPod(set, pod);
      } catch (err) {
        if (!isStatusError(err, StatusReason.NotFound)) throw new StepError(status, err);
      }
      deleted++;
      status.currentReplicas = (status.currentReplicas ?? 0) - 1;
    }
    return status;
  }

  /** processReplica: what one in-range replica needs; true stops an OrderedReady sync. */
  private processReplica(set: StatefulSetObj, updateSet: StatefulSetObj, monotonic: boolean, replicas: PodObj[], i: number, now: number): boolean {
    const pod = replicas[i]!;
    // Failed pods — and Succeeded ones, which an eviction or a node reboot can leave — are deleted, and
    // recreated on a later sync once they are gone.
    if (isFailed(pod) || isSucceeded(pod)) {
      if (!pod.metadata.deletionTimestamp) {
        this.note(`delete ${pod.status?.phase} pod`, pod);
        this.podControl.deleteStatefulPod(set, pod);
      }
      return true;
    }
    if (!isCreated(pod)) {
      // A claim left over from an earlier pod of this name (whenScaled: Delete) must go first.
      if (this.podControl.podClaimIsStale(set, pod)) {
        this.note('wait for stale claim', pod);
        return true;
      }
      this.note('create', pod);
      this.podControl.createStatefulPod(set, pod);
      // The in-memory pod stays in replicas with no phase: counted once the cache has it.
      if (monotonic) return true;
    }
    // A Pending pod may be missing a claim someone deleted: recreate it.
    if (isPending(pod)) this.podControl.createMissingPersistentVolumeClaims(set, pod);
    if (isTerminating(pod) && monotonic) {
      this.note('wait for termination', pod);
      return true;
    }
    if (!isRunningAndReady(pod) && monotonic) {
      this.note('wait for Running and Ready', pod);
      return true;
    }
    if (!isRunningAndAvailable(pod, set.spec?.minReadySeconds ?? 0, now) && monotonic) {
      this.note('wait for available', pod);
      return true;
    }
    // Enforce the identity, storage and claim-ownership invariants.
    let retentionMatch = true;
    try {
      retentionMatch = this.podControl.claimsMatchRetentionPolicy(updateSet, pod);
    } catch {
      // Expected while the pod is being updated: treated as matching.
    }
    if (identityMatches(set, pod) && storageMatches(set, pod) && retentionMatch) return false;
    this.note('update identity/storage', pod);
    this.podControl.updateStatefulPod(updateSet, structuredClone(pod));
    return false;
  }

  /** processCondemned: deletes one out-of-range pod; in OrderedReady mode only once its predecessors are healthy. */
  private processCondemned(set: StatefulSetObj, firstUnhealthyPod: PodObj | undefined, monotonic: boolean, condemned: PodObj[], i: number, now: number): boolean {
    const pod = condemned[i]!;
    if (isTerminating(pod)) {
      if (monotonic) {
        this.note('wait for termination before scale down', pod);
        return true;
      }
      return false;
    }
    if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthyPod) {
      this.note('wait for Running and Ready before scale down', firstUnhealthyPod);
      return true;
    }
    if (!isRunningAndAvailable(pod, set.spec?.minReadySeconds ?? 0, now) && monotonic && pod !== firstUnhealthyPod) {
      this.note('wait for available before scale down', firstUnhealthyPod);
      return true;
    }
    this.note('delete for scale down', pod);
    this.podControl.deleteStatefulPod(set, pod);
    return true;
  }

  /**
   * runForAll: OrderedReady runs fn over the pods in order until one says stop or fails; Parallel runs it for
   * every pod in slow-start batches (1, 2, 4, …), stopping after a batch with a failure.
   */
  private runForAll(pods: PodObj[], fn: (i: number) => boolean, monotonic: boolean): { shouldExit: boolean; error?: unknown } {
    if (monotonic) {
      for (let i = 0; i < pods.length; i++) {
        try {
          if (fn(i)) return { shouldExit: true };
        } catch (err) {
          return { shouldExit: true, error: err };
        }
      }
      return { shouldExit: false };
    }
    let j = 0;
    const errors: unknown[] = [];
    const { error } = slowStartBatch(pods.length, 1, () => {
      const k = j++;
      try {
        fn(k);
      } catch (err) {
        errors.push(err);
        throw err;
      }
    });
    if (error !== undefined) return { shouldExit: true, error: aggregate(errors) };
    return { shouldExit: false };
  }

  /** updateStatefulSetStatus: completes a finished rolling update and writes the status if it changed. */
  private updateStatefulSetStatus(set: StatefulSetObj, status: StatefulSetStatus): void {
    completeRollingUpdate(set, status);
    if (!inconsistentStatus(set, status)) return;
    this.statusUpdater.updateStatefulSetStatus(set, status);
  }

  private note(action: string, pod?: PodObj): void {
    this.notes.push(pod ? { action, pod: pod.metadata.name } : { action });
  }

  private emitStep(set: StatefulSetObj, status: StatefulSetStatus | undefined): void {
    if (this.trace === nullTraceSink || this.notes.length === 0) return;
    this.trace.emit({
      kind: TraceKind.Custom,
      component: this.component,
      data: {
        event: 'statefulset.update',
        key: `${set.metadata.namespace}/${set.metadata.name}`,
        podManagementPolicy: set.spec?.podManagementPolicy,
        steps: this.notes,
        replicas: status?.replicas,
        readyReplicas: status?.readyReplicas ?? 0,
        currentRevision: status?.currentRevision,
        updateRevision: status?.updateRevision,
      },
    });
  }
}

/** A failure of the pods step, carrying the status computed so far (Go returns both). */
class StepError extends Error {
  constructor(
    readonly status: StatefulSetStatus,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * computeReplicaStatus over pod lists: replicas (created), ready (Running and Ready), available, current and
 * updated (created, not terminating, at that revision).
 */
export function updateStatus(
  status: StatefulSetStatus,
  minReadySeconds: number,
  now: number,
  currentRevision: string,
  updateRevision: string,
  ...podLists: PodObj[][]
): void {
  status.replicas = 0;
  status.readyReplicas = 0;
  status.availableReplicas = 0;
  status.currentReplicas = 0;
  status.updatedReplicas = 0;
  for (const list of podLists) {
    for (const pod of list) {
      if (!pod) continue;
      if (isCreated(pod)) status.replicas++;
      if (isRunningAndReady(pod)) {
        status.readyReplicas++;
        if (isRunningAndAvailable(pod, minReadySeconds, now)) status.availableReplicas++;
      }
      if (isCreated(pod) && !isTerminating(pod)) {
        if (getPodRevision(pod) === currentRevision) status.currentReplicas++;
        if (getPodRevision(pod) === updateRevision) status.updatedReplicas++;
      }
    }
  }
}
