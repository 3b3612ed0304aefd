// kube-controller-manager's Job controller (pkg/controller/job/job_controller.go, v1.32). It runs pods until
// spec.completions of them succeeded, at most spec.parallelism at a time, and finishes the Job:
//
//   pod/job events → enqueue the Job (pod events batched by 1 s, spec changes at once)
//   syncJob(key):
//     claim pods (adopted pods get the batch.kubernetes.io/job-tracking finalizer)
//     count newly finished pods (those still carrying the finalizer) → succeeded / failed
//     failed > backoffLimit, restarts ≥ backoffLimit (OnFailure), a FailJob rule, activeDeadlineSeconds passed
//        → FailureTarget, active pods deleted; Failed once no pod is left terminating
//     else manageJob: suspended → delete pods; too few → create (after the failure back-off 10 s, 20 s, 40 s …),
//        Indexed Jobs by index; too many → delete
//     succeeded ≥ completions and nothing active → SuccessCriteriaMet, then Complete
//     status: finished pods go to status.uncountedTerminatedPods, their finalizers are removed, then they are
//        moved into succeeded / failed, so a pod is counted exactly once even across controller restarts.
import type { Job, JobCondition, JobStatus } from 'kubernetes-types/batch/v1';
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { OwnerReference } from '../../../shared/api/types';
import { labelSelectorAsSelector, selectorMatches, type Selector } from '../../../shared/lib/labels';
import { nullTraceSink, TraceKind, type TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { OwnerUidIndex } from '../../informers/indexer';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import { DeletedFinalStateUnknown, type Lister, type SharedInformer } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { rfc3339 } from '../../sim/clock';
import { RateLimitingQueue, type QueueSnapshot } from '../../workqueue/rate-limiting-queue';
import { ItemExponentialFailureRateLimiter } from '../../workqueue/rate-limiters';
import { hasStatusCause, NamespaceTerminatingCause } from '../serviceaccount/serviceaccounts-controller';
import { BaseController } from '../shared/controller';
import { ControllerRefManager, freshControllerCheck } from '../shared/controller-ref-manager';
import {
  ensureOrphanIndex,
  filterActivePods,
  getControllerOf,
  isControlledBy,
  isPodReady,
  newControllerRef,
  OrphanNamespaceIndex,
  parseTime,
  SlowStartInitialBatchSize,
} from '../shared/controller-utils';
import { ControllerExpectations } from '../shared/expectations';
import { errorText, getPodFromTemplate, PodControl, PodControlReason } from '../shared/pod-control';
import { BackoffStore, type BackoffRecord, DefaultJobPodFailureBackOffMs, getFinishedTime, getRemainingTime, getRemainingTimeForFailuresCount, MaxJobPodFailureBackOffMs } from './backoff';
import {
  addCompletionIndex,
  addCompletionIndexEnvVariables,
  duplicatedIndexPodsForRemoval,
  firstPendingIndexes,
  getIndexAbsoluteFailureCount,
  getIndexes,
  getIndexFailureCount,
  getIndexIgnoredFailureCount,
  hasBackoffLimitPerIndex,
  isIndexedJob,
  JobIndexFailureCountAnnotation,
  JobIndexIgnoredFailureCountAnnotation,
  OrderedIntervals,
  parseIndexesFromString,
  podCompletionIndex,
  podGenerateNameWithIndex,
  sortActivePods,
  sortByCompletionIndex,
  sortedIndexes,
  UnknownCompletionIndex,
} from './indexed-job-utils';
import {
  ensureJobConditionStatus,
  findConditionByType,
  hasJobTrackingFinalizer,
  isJobFinished,
  isPodFailed,
  isPodTerminating,
  JobConditionType,
  JobMessage,
  JobReason,
  JobTrackingFinalizer,
  jobSuspended,
  managedByExternalController,
  newCondition,
  onlyReplaceFailedPods,
  removeTrackingFinalizerPatch,
} from './job-utils';
import { matchPodFailurePolicy, PodFailurePolicyAction } from './pod-failure-policy';
import { matchSuccessPolicy } from './success-policy';
import { UidTrackingExpectations } from './tracking';
import { sameJson } from '../../../shared/lib/same-json';

export const JobControllerComponent = 'job-controller';
const jobKind = { apiVersion: 'batch/v1', kind: 'Job' };

/** syncJobBatchPeriod: pod events and status updates are folded into one sync a second later. */
export const SyncJobBatchPeriodMs = 1000;
/** DefaultJobApiBackOff / MaxJobApiBackOff: the queue's per-key back-off after a failed sync. */
export const DefaultJobApiBackOffMs = 1000;
export const MaxJobApiBackOffMs = 60_000;
/** MaxUncountedPods: at most this many UIDs in status.uncountedTerminatedPods per sync. */
export const MaxUncountedPods = 500;
/** MaxPodCreateDeletePerSync. */
export const MaxPodCreateDeletePerSync = 500;

type JobObj = Typed<Job>;
type PodObj = Typed<Pod>;

export interface JobControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

interface Uncounted {
  succeeded: Set<string>;
  failed: Set<string>;
}

interface SyncJobCtx {
  job: JobObj;
  pods: PodObj[];
  finishedCondition?: JobCondition;
  activePods: PodObj[];
  succeeded: number;
  failed: number;
  prevSucceededIndexes: OrderedIntervals;
  succeededIndexes: OrderedIntervals;
  failedIndexes?: OrderedIntervals;
  newBackoffRecord: BackoffRecord;
  expectedRmFinalizers: ReadonlySet<string>;
  uncounted: Uncounted;
  podsWithDelayedDeletionPerIndex?: Map<number, PodObj>;
  terminating: number;
  ready: number;
}

export class JobController {
  readonly name = JobControllerComponent;
  readonly controller: BaseController;
  readonly orphanController: BaseController;
  readonly expectations: ControllerExpectations;
  readonly finalizerExpectations = new UidTrackingExpectations();
  readonly podBackoffStore = new BackoffStore();
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly recorder: EventRecorder;
  private readonly podControl: PodControl;
  private readonly jobInformer: SharedInformer<Job>;
  private readonly jobLister: Lister<JobObj>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly podLister: Lister<PodObj>;
  private readonly registrations: { remove(): void }[] = [];

  constructor(options: JobControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.expectations = new ControllerExpectations(options.clock);
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: JobControllerComponent } });
    this.podControl = new PodControl(options.client, this.recorder);
    this.jobInformer = options.informers.jobs;
    this.jobLister = this.jobInformer.lister;
    this.podInformer = options.informers.pods;
    this.podLister = this.podInformer.lister;
    ensureOrphanIndex(this.podInformer);

    const newQueue = (name: string) =>
      new RateLimitingQueue<string>({
        name,
        clock: options.clock,
        trace: options.trace,
        rateLimiter: new ItemExponentialFailureRateLimiter<string>(DefaultJobApiBackOffMs, MaxJobApiBackOffMs),
      });
    const cacheSyncs = [() => this.podInformer.hasSynced(), () => this.jobInformer.hasSynced()];
    this.controller = new BaseController({
      name: JobControllerComponent,
      queue: newQueue('job'),
      clock: options.clock,
      sync: (key) => this.syncJob(key),
      maxRetries: Infinity,
      cacheSyncs,
      trace: options.trace,
      client: options.client,
    });
    this.orphanController = new BaseController({
      name: JobControllerComponent,
      queue: newQueue('job_orphan_pod'),
      clock: options.clock,
      sync: (key) => this.syncOrphanPod(key),
      maxRetries: Infinity,
      cacheSyncs,
      trace: options.trace,
      client: options.client,
    });

    this.registrations.push(
      this.jobInformer.addEventHandler({
        onAdd: (job) => this.addJob(job),
        onUpdate: (oldJob, curJob) => this.updateJob(oldJob, curJob),
        onDelete: (obj) => this.deleteJob(obj),
      }),
      this.podInformer.addEventHandler({
        onAdd: (pod) => this.addPod(pod),
        onUpdate: (oldPod, curPod) => this.updatePod(oldPod, curPod),
        onDelete: (obj) => this.deletePod(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj, true),
      }),
    );
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  run(): void {
    this.controller.run();
    this.orphanController.run();
  }

  queues(): QueueSnapshot[] {
    return [this.controller.queue.snapshot(), this.orphanController.queue.snapshot()];
  }

  shutDown(): void {
    this.controller.shutDown();
    this.orphanController.shutDown();
    for (const r of this.registrations.splice(0)) r.remove();
  }

  // ---------------------------------------------------------------- event handlers

  private resolveControllerRef(namespace: string, ref: OwnerReference): JobObj | undefined {
    if (ref.kind !== jobKind.kind) return undefined;
    const job = this.jobLister.get(namespace, ref.name);
    return job && job.metadata.uid === ref.uid ? job : undefined;
  }

  /** getPodJobs: the Jobs of the pod's namespace whose selector matches it (candidates to adopt an orphan). */
  private getPodJobs(pod: PodObj): JobObj[] {
    const ns = pod.metadata.namespace ?? '';
    return this.jobLister.listNamespace(ns).filter((job) => {
      const sel = trySelector(job);
      return sel !== undefined && selectorMatches(sel, pod.metadata.labels);
    });
  }

  private addPod(pod: PodObj): void {
    if (pod.metadata.deletionTimestamp) {
      // On a restart of the controller a new pod may already be pending deletion: not a creation.
      this.deletePod(pod, false);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const job = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
      if (!job) return;
      this.expectations.creationObserved(metaNamespaceKeyFunc(job));
      this.enqueueSyncJobBatched(job);
      return;
    }
    // An orphan: clean the finalizer, and let matching Jobs look at it to adopt it.
    if (hasJobTrackingFinalizer(pod)) this.enqueueOrphanPod(pod);
    for (const job of this.getPodJobs(pod)) this.enqueueSyncJobBatched(job);
  }

  private updatePod(oldPod: PodObj, curPod: PodObj): void {
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return;
    if (curPod.metadata.deletionTimestamp) {
      // A graceful deletion began: act now rather than when the kubelet finally removes the pod.
      this.deletePod(curPod, false);
      return;
    }
    const finalizerRemoved = !hasJobTrackingFinalizer(curPod);
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = !sameJson(curRef ?? null, oldRef ?? null);
    if (refChanged && oldRef) {
      const job = this.resolveControllerRef(oldPod.metadata.namespace ?? '', oldRef);
      if (job) {
        if (finalizerRemoved) this.finalizerExpectations.finalizerRemovalObserved(metaNamespaceKeyFunc(job), curPod.metadata.uid ?? '');
        this.enqueueSyncJobBatched(job);
      }
    }
    if (curRef) {
      const job = this.resolveControllerRef(curPod.metadata.namespace ?? '', curRef);
      if (!job) return;
      if (finalizerRemoved) this.finalizerExpectations.finalizerRemovalObserved(metaNamespaceKeyFunc(job), curPod.metadata.uid ?? '');
      this.enqueueSyncJobBatched(job);
      return;
    }
    if (hasJobTrackingFinalizer(curPod)) this.enqueueOrphanPod(curPod);
    const labelChanged = !sameJson(curPod.metadata.labels ?? {}, oldPod.metadata.labels ?? {});
    if (labelChanged || refChanged) for (const job of this.getPodJobs(curPod)) this.enqueueSyncJobBatched(job);
  }

  /** final: the DELETED event (not an update setting deletionTimestamp). */
  private deletePod(pod: PodObj, final: boolean): void {
    const ref = getControllerOf(pod);
    const hasFinalizer = hasJobTrackingFinalizer(pod);
    if (!ref) {
      // The pod may have belonged to a Job whose reference the garbage collector removed.
      if (hasFinalizer) this.enqueueOrphanPod(pod);
      return;
    }
    const job = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
    if (!job || isJobFinished(job)) {
      // syncJob will not remove this finalizer.
      if (hasFinalizer) this.enqueueOrphanPod(pod);
      return;
    }
    const jobKey = metaNamespaceKeyFunc(job);
    this.expectations.deletionObserved(jobKey);
    // The finalizer is gone once the pod is; an update for the deletion timestamp tells by the finalizer.
    if (final || !hasFinalizer) this.finalizerExpectations.finalizerRemovalObserved(jobKey, pod.metadata.uid ?? '');
    this.enqueueSyncJobBatched(job);
  }

  private addJob(job: JobObj): void {
    this.enqueueSyncJobImmediately(job);
  }

  private updateJob(oldJob: JobObj, curJob: JobObj): void {
    const key = metaNamespaceKeyFunc(curJob);
    // Status updates (same generation) are batched; spec changes are acted on at once.
    if ((curJob.metadata.generation ?? 0) === (oldJob.metadata.generation ?? 0)) this.enqueueSyncJobBatched(curJob);
    else this.enqueueSyncJobImmediately(curJob);
    // Backup: a finished Job must not leave pods with finalizers behind.
    if (isJobFinished(curJob)) this.cleanupPodFinalizers(curJob);
    // A changed activeDeadlineSeconds needs a sync when the new deadline passes.
    const start = parseTime(curJob.status?.startTime);
    const curADS = curJob.spec?.activeDeadlineSeconds;
    if (start === undefined || curADS === undefined || curADS === null) return;
    const oldADS = oldJob.spec?.activeDeadlineSeconds;
    if (oldADS === undefined || oldADS === null || oldADS !== curADS) {
      this.queue.addAfter(key, curADS * 1000 - (this.clock.now() - start));
    }
  }

  private deleteJob(obj: JobObj | DeletedFinalStateUnknown<JobObj>): void {
    const job = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    this.enqueueSyncJobImmediately(job);
    this.cleanupPodFinalizers(job);
  }

  private enqueueSyncJobImmediately(job: JobObj): void {
    this.queue.addAfter(metaNamespaceKeyFunc(job), 0);
  }

  private enqueueSyncJobBatched(job: JobObj): void {
    this.queue.addAfter(metaNamespaceKeyFunc(job), SyncJobBatchPeriodMs);
  }

  /** enqueueSyncJobWithDelay: never sooner than the batch period. */
  private enqueueSyncJobWithDelay(job: JobObj, delayMs: number): void {
    this.queue.addAfter(metaNamespaceKeyFunc(job), Math.max(delayMs, SyncJobBatchPeriodMs));
  }

  private enqueueOrphanPod(pod: PodObj): void {
    this.orphanController.queue.add(metaNamespaceKeyFunc(pod));
  }

  /** The Job's own pods that still carry the finalizer go to the orphan queue. */
  private cleanupPodFinalizers(job: JobObj): void {
    for (const pod of this.podLister.byIndex(OwnerUidIndex, job.metadata.uid ?? '')) {
      if (pod.metadata.namespace === job.metadata.namespace && isControlledBy(pod, job) && hasJobTrackingFinalizer(pod)) this.enqueueOrphanPod(pod);
    }
  }

  // ---------------------------------------------------------------- orphan pods

  /** syncOrphanPod: removes the tracking finalizer of a pod no unfinished Job owns. */
  syncOrphanPod(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = this.podLister.get(namespace, name);
    if (!pod) return;
    const ref = getControllerOf(pod);
    if (ref) {
      // Owned by something other than a batch/v1 Job: not ours to touch.
      if (ref.kind !== jobKind.kind || ref.apiVersion !== jobKind.apiVersion) return;
      const job = this.resolveControllerRef(namespace, ref);
      if (job && managedByExternalController(job)) return;
      // Adopted by a running Job: keep the finalizer.
      if (job && !isJobFinished(job)) return;
    }
    const patch = removeTrackingFinalizerPatch(pod);
    if (!patch) return;
    try {
      this.podControl.patchPod(namespace, name, patch);
    } catch (err) {
      if (!isStatusError(err, StatusReason.NotFound)) throw err;
    }
  }

  // ---------------------------------------------------------------- sync

  /** getPodsForJob: the Job's pods after adoption (adopted pods get the tracking finalizer) and release. */
  private getPodsForJob(job: JobObj): PodObj[] {
    const selector = labelSelectorAsSelector(job.spec?.selector);
    const ns = job.metadata.namespace ?? '';
    const owned = this.podLister.byIndex(OwnerUidIndex, job.metadata.uid ?? '').filter((p) => p.metadata.namespace === ns);
    const seen = new Set(owned.map((p) => p.metadata.uid));
    const orphans = this.podLister.byIndex(OrphanNamespaceIndex, ns).filter((p) => !seen.has(p.metadata.uid));
    const canAdopt = freshControllerCheck(job, 'Job', (n, nm) => this.client.jobs.get(nm, { namespace: n }));
    const cm = new ControllerRefManager<PodObj>({
      controller: job,
      selector,
      controllerKind: jobKind,
      canAdopt,
      dependentKind: 'Pod',
      finalizers: [JobTrackingFinalizer],
      patch: (pod, patch) => this.podControl.patchPod(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch),
    });
    const pods = cm.claim([...owned, ...orphans]);
    // Adopted pods now carry the finalizer: count them as such in this sync.
    return pods.map((p) => {
      const adopted = !(p.metadata.ownerReferences ?? []).some((r) => r.uid === job.metadata.uid);
      if (adopted && !hasJobTrackingFinalizer(p)) {
        return { ...p, metadata: { ...p.metadata, finalizers: [...(p.metadata.finalizers ?? []), JobTrackingFinalizer] } };
      }
      return p;
    });
  }

  /** syncJob: the key is "namespace/name". Throws to be retried with the API back-off. */
  syncJob(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    if (!namespace || !name) throw new Error(`invalid job key "${key}": either namespace or name is missing`);
    const sharedJob = this.jobLister.get(namespace, name);
    if (!sharedJob) {
      this.expectations.deleteExpectations(key);
      this.finalizerExpectations.deleteExpectations(key);
      this.podBackoffStore.removeBackoffRecord(key);
      return;
    }
    // Another controller (spec.managedBy) is in charge.
    if (managedByExternalController(sharedJob)) return;
    const job: JobObj = structuredClone(sharedJob) as JobObj;
    // A finished Job is never worked on again.
    if (isJobFinished(job)) {
      this.podBackoffStore.removeBackoffRecord(key);
      return;
    }
    const mode = job.spec?.completionMode;
    if (mode !== undefined && mode !== null && mode !== 'NonIndexed' && mode !== 'Indexed') {
      this.recorder.event(job, 'Warning', 'UnknownCompletionMode', 'Skipped Job sync because completion mode is unknown');
      return;
    }
    const status: JobStatus = (job.status ??= {});
    status.uncountedTerminatedPods ??= {};
    const now = this.clock.now();

    // Expectations first: a pod created after this point is seen by the next sync.
    const satisfiedExpectations = this.expectations.satisfiedExpectations(key);
    const pods = this.getPodsForJob(job);
    const activePods = filterActivePods(pods);
    const jobCtx: SyncJobCtx = {
      job,
      pods,
      activePods,
      ready: activePods.filter(isPodReady).length,
      uncounted: { succeeded: new Set(status.uncountedTerminatedPods.succeeded ?? []), failed: new Set(status.uncountedTerminatedPods.failed ?? []) },
      expectedRmFinalizers: this.finalizerExpectations.getExpectedUIDs(key),
      terminating: pods.filter(isPodTerminating).length,
      succeeded: 0,
      failed: 0,
      prevSucceededIndexes: new OrderedIntervals(),
      succeededIndexes: new OrderedIntervals(),
      newBackoffRecord: { key, failuresAfterLastSuccess: 0 },
    };
    let active = activePods.length;
    const newSucceededPods = this.getValidPodsWithFilter(jobCtx, jobCtx.uncounted.succeeded, (p) => p.status?.phase === 'Succeeded');
    const newFailedPods = this.getValidPodsWithFilter(jobCtx, jobCtx.uncounted.failed, (p) => isPodFailed(p, job));
    jobCtx.succeeded = (status.succeeded ?? 0) + newSucceededPods.length + jobCtx.uncounted.succeeded.size;
    jobCtx.failed = (status.failed ?? 0) + nonIgnoredFailedPodsCount(job, newFailedPods) + jobCtx.uncounted.failed.size;

    // First start; a suspended Job has not started.
    if (!status.startTime && !jobSuspended(job)) status.startTime = rfc3339(now);

    jobCtx.newBackoffRecord = this.podBackoffStore.newBackoffRecord(key, newSucceededPods, newFailedPods);

    const backoffLimit = job.spec?.backoffLimit ?? 6;
    const exceedsBackoffLimit = jobCtx.failed > backoffLimit;
    jobCtx.finishedCondition = successCriteriaMetCondition(job);
    // Once success criteria are met, the pod failure policy is no longer evaluated.
    if (!jobCtx.finishedCondition) {
      const failureTarget = findConditionByType(status.conditions, JobConditionType.FailureTarget);
      if (failureTarget && failureTarget.status === 'True') {
        jobCtx.finishedCondition = newCondition(JobConditionType.Failed, 'True', failureTarget.reason ?? '', failureTarget.message ?? '', now);
      } else {
        const failJobMessage = getFailJobMessage(job, pods);
        if (failJobMessage !== undefined) {
          // The interim FailureTarget records the message before the finalizers (which hold the pods) go.
          jobCtx.finishedCondition = newCondition(JobConditionType.FailureTarget, 'True', JobReason.PodFailurePolicy, failJobMessage, now);
        }
      }
    }
    if (!jobCtx.finishedCondition) {
      if (exceedsBackoffLimit || pastBackoffLimitOnFailure(job, pods)) {
        jobCtx.finishedCondition = newFailureCondition(JobReason.BackoffLimitExceeded, JobMessage.BackoffLimitExceeded, now);
      } else if (this.pastActiveDeadline(job)) {
        jobCtx.finishedCondition = newFailureCondition(JobReason.DeadlineExceeded, JobMessage.DeadlineExceeded, now);
      } else if (job.spec?.activeDeadlineSeconds !== undefined && job.spec.activeDeadlineSeconds !== null && !jobSuspended(job)) {
        const start = parseTime(status.startTime) ?? now;
        this.queue.addAfter(key, job.spec.activeDeadlineSeconds * 1000 - (now - start));
      }
    }

    if (isIndexedJob(job)) {
      const completions = job.spec?.completions ?? 0;
      const { prev, result } = calculateSucceededIndexes(job, pods);
      jobCtx.prevSucceededIndexes = prev;
      jobCtx.succeededIndexes = result;
      jobCtx.succeeded = result.total();
      if (hasBackoffLimitPerIndex(job)) {
        jobCtx.failedIndexes = calculateFailedIndexes(job, pods);
        if (!jobCtx.finishedCondition) {
          const maxFailed = job.spec?.maxFailedIndexes;
          if (maxFailed !== undefined && maxFailed !== null && jobCtx.failedIndexes.total() > maxFailed) {
            jobCtx.finishedCondition = newFailureCondition(JobReason.MaxFailedIndexesExceeded, JobMessage.MaxFailedIndexesExceeded, now);
          } else if (jobCtx.failedIndexes.total() > 0 && jobCtx.failedIndexes.total() + jobCtx.succeededIndexes.total() >= completions) {
            jobCtx.finishedCondition = newFailureCondition(JobReason.FailedIndexes, JobMessage.FailedIndexes, now);
          }
        }
        jobCtx.podsWithDelayedDeletionPerIndex = this.getPodsWithDelayedDeletionPerIndex(jobCtx);
      }
      if (!jobCtx.finishedCondition) {
        const msg = matchSuccessPolicy(job.spec?.successPolicy, completions, jobCtx.succeededIndexes);
        if (msg !== undefined) jobCtx.finishedCondition = newCondition(JobConditionType.SuccessCriteriaMet, 'True', JobReason.SuccessPolicy, msg, now);
      }
    }

    let suspendCondChanged = false;
    let manageJobErr: unknown;
    if (jobCtx.finishedCondition) {
      // The Job is done: its remaining pods go (keeping their finalizers until they are counted).
      const { deletedReady, deleted, error } = this.deleteActivePods(job, jobCtx.activePods);
      // Not finished yet while pods remain, or pods may be missing from the cache.
      if (deleted !== active || !satisfiedExpectations) jobCtx.finishedCondition = undefined;
      active -= deleted;
      jobCtx.terminating += deleted;
      jobCtx.ready -= deletedReady;
      manageJobErr = error;
    } else {
      let manageJobCalled = false;
      if (satisfiedExpectations && !job.metadata.deletionTimestamp) {
        const r = this.manageJob(job, jobCtx);
        active = r.active;
        manageJobErr = r.error;
        manageJobCalled = true;
      }
      const completions = job.spec?.completions;
      // Without completions any success (and nothing left running) completes the Job.
      const complete = completions === undefined || completions === null ? jobCtx.succeeded > 0 && active === 0 : jobCtx.succeeded >= completions && active === 0;
      if (complete) {
        jobCtx.finishedCondition = newCondition(JobConditionType.SuccessCriteriaMet, 'True', JobReason.CompletionsReached, JobMessage.CompletionsReached, now);
      } else if (manageJobCalled) {
        // Conditions and events only when manageJob ran in this sync.
        if (jobSuspended(job)) {
          const r = ensureJobConditionStatus(status.conditions ?? [], JobConditionType.Suspended, 'True', 'JobSuspended', 'Job suspended', now);
          status.conditions = r.conditions;
          if (r.changed) {
            suspendCondChanged = true;
            this.recorder.event(job, 'Normal', 'Suspended', 'Job suspended');
          }
        } else {
          const r = ensureJobConditionStatus(status.conditions ?? [], JobConditionType.Suspended, 'False', 'JobResumed', 'Job resumed', now);
          status.conditions = r.conditions;
          if (r.changed) {
            suspendCondChanged = true;
            this.recorder.event(job, 'Normal', 'Resumed', 'Job resumed');
            // activeDeadlineSeconds counts from the resume: the Job is continuously active since then.
            status.startTime = rfc3339(now);
          }
        }
      }
    }

    const needsStatusUpdate =
      suspendCondChanged || active !== (status.active ?? 0) || jobCtx.ready !== status.ready || status.terminating !== jobCtx.terminating;
    status.active = active;
    status.ready = jobCtx.ready;
    status.terminating = jobCtx.terminating;
    try {
      this.trackJobStatusAndRemoveFinalizers(jobCtx, needsStatusUpdate);
    } catch (err) {
      throw new Error(`tracking status: ${errorText(err)}`, { cause: err });
    }
    if (manageJobErr !== undefined) throw manageJobErr;
  }

  private pastActiveDeadline(job: JobObj): boolean {
    const ads = job.spec?.activeDeadlineSeconds;
    const start = parseTime(job.status?.startTime);
    if (ads === undefined || ads === null || start === undefined || jobSuspended(job)) return false;
    return this.clock.now() - start >= ads * 1000;
  }

  /**
   * getValidPodsWithFilter: pods still carrying the finalizer, not already uncounted nor awaiting finalizer
   * removal, with a valid index for Indexed Jobs, that pass the filter.
   */
  private getValidPodsWithFilter(jobCtx: SyncJobCtx, uncounted: ReadonlySet<string> | undefined, filter: (p: PodObj) => boolean): PodObj[] {
    const out: PodObj[] = [];
    const completions = jobCtx.job.spec?.completions ?? 0;
    for (const p of jobCtx.pods) {
      const uid = p.metadata.uid ?? '';
      if (!hasJobTrackingFinalizer(p) || uncounted?.has(uid) || jobCtx.expectedRmFinalizers.has(uid)) continue;
      if (isIndexedJob(jobCtx.job)) {
        const ix = podCompletionIndex(p);
        if (ix === UnknownCompletionIndex || ix >= completions) continue;
      }
      if (filter(p)) out.push(p);
    }
    return out;
  }

  /**
   * getPodsWithDelayedDeletionPerIndex (backoffLimitPerIndex): per index, the last failed pod, kept (with its
   * finalizer) until its replacement exists, so the replacement can carry the index's failure count.
   */
  private getPodsWithDelayedDeletionPerIndex(jobCtx: SyncJobCtx): Map<number, PodObj> {
    const activeIndexes = getIndexes(jobCtx.activePods);
    const out = new Map<number, PodObj>();
    const completions = jobCtx.job.spec?.completions ?? 0;
    this.getValidPodsWithFilter(jobCtx, undefined, (p) => {
      if (!isPodFailed(p, jobCtx.job)) return false;
      const ix = podCompletionIndex(p);
      if (ix === UnknownCompletionIndex || ix >= completions) return false;
      if (jobCtx.succeededIndexes.has(ix) || jobCtx.failedIndexes?.has(ix) || activeIndexes.has(ix)) return false;
      const last = out.get(ix);
      if (!last || (getIndexAbsoluteFailureCount(last) <= getIndexAbsoluteFailureCount(p) && !(getFinishedTime(p) < getFinishedTime(last)))) out.set(ix, p);
      return false;
    });
    return out;
  }

  /** deleteActivePods: deletes the pods (keeping their finalizers). Returns counts and the first error. */
  private deleteActivePods(job: JobObj, pods: readonly PodObj[]): { deletedReady: number; deleted: number; error?: unknown } {
    let deleted = pods.length;
    let deletedReady = 0;
    let error: unknown;
    for (const pod of pods) {
      try {
        this.podControl.deletePod(job.metadata.namespace ?? '', pod.metadata.name ?? '', job);
      } catch (err) {
        if (!isStatusError(err, StatusReason.NotFound)) {
          deleted--;
          error ??= err;
        }
      }
      if (isPodReady(pod)) deletedReady++;
    }
    return { deletedReady, deleted, error };
  }

  /** deleteJobPods: removes each pod's finalizer (it is not counted), then deletes it, with expectations. */
  private deleteJobPods(job: JobObj, jobKey: string, pods: readonly PodObj[]): { deletedReady: number; deleted: number; error?: unknown } {
    let deleted = pods.length;
    let deletedReady = 0;
    let error: unknown;
    const failDelete = (err: unknown): void => {
      // The informer will not observe this deletion.
      this.expectations.deletionObserved(jobKey);
      if (!isStatusError(err, StatusReason.NotFound) && !isStatusError((err as { cause?: unknown }).cause, StatusReason.NotFound)) {
        deleted--;
        error ??= err;
      }
    };
    for (const pod of pods) {
      const patch = removeTrackingFinalizerPatch(pod);
      let ok = true;
      if (patch) {
        try {
          this.podControl.patchPod(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch);
        } catch (err) {
          failDelete(new Error(`removing completion finalizer: ${errorText(err)}`, { cause: err }));
          ok = false;
        }
      }
      if (!ok) continue;
      try {
        this.podControl.deletePod(job.metadata.namespace ?? '', pod.metadata.name ?? '', job);
      } catch (err) {
        failDelete(err);
      }
      if (isPodReady(pod)) deletedReady++;
    }
    return { deletedReady, deleted, error };
  }

  /**
   * manageJob: creates or deletes pods towards min(parallelism, completions − succeeded) active. Returns the new
   * active count and the first error.
   */
  private manageJob(job: JobObj, jobCtx: SyncJobCtx): { active: number; error?: unknown } {
    let active = jobCtx.activePods.length;
    const parallelism = job.spec?.parallelism ?? 1;
    const jobKey = metaNamespaceKeyFunc(job);

    if (jobSuspended(job)) {
      const podsToDelete = this.activePodsForRemoval(job, jobCtx.activePods, active);
      this.expectations.expectDeletions(jobKey, podsToDelete.length);
      const r = this.deleteJobPods(job, jobKey, podsToDelete);
      active -= r.deleted;
      jobCtx.terminating += r.deleted;
      jobCtx.ready -= r.deletedReady;
      return { active, error: r.error };
    }

    let wantActive: number;
    const completions = job.spec?.completions;
    if (completions === undefined || completions === null) {
      // Without completions: parallelism pods, until one succeeds; then leave what runs running.
      wantActive = jobCtx.succeeded > 0 ? active : parallelism;
    } else {
      wantActive = Math.max(0, Math.min(completions - jobCtx.succeeded, parallelism));
    }

    const rmAtLeast = Math.max(0, active - wantActive);
    let podsToDelete = this.activePodsForRemoval(job, jobCtx.activePods, rmAtLeast);
    if (podsToDelete.length > MaxPodCreateDeletePerSync) podsToDelete = podsToDelete.slice(0, MaxPodCreateDeletePerSync);
    if (podsToDelete.length > 0) {
      this.expectations.expectDeletions(jobKey, podsToDelete.length);
      const r = this.deleteJobPods(job, jobKey, podsToDelete);
      active -= r.deleted;
      jobCtx.terminating += r.deleted;
      jobCtx.ready -= r.deletedReady;
      // One sync either deletes or creates; deletion first.
      return { active, error: r.error };
    }

    const terminating = onlyReplaceFailedPods(job) ? jobCtx.terminating : 0;
    let diff = wantActive - terminating - active;
    if (diff <= 0) return { active };
    let remainingTime = 0;
    if (!hasBackoffLimitPerIndex(job)) remainingTime = getRemainingTime(jobCtx.newBackoffRecord, this.clock.now());
    if (remainingTime > 0) {
      // Pod failures: wait out the back-off before creating replacements.
      this.enqueueSyncJobWithDelay(job, remainingTime);
      this.emitBackoff(job, remainingTime, jobCtx.newBackoffRecord.failuresAfterLastSuccess);
      return { active: 0 };
    }
    diff = Math.min(diff, MaxPodCreateDeletePerSync);

    let indexesToAdd: number[] = [];
    if (isIndexedJob(job)) {
      const terminatingPods = onlyReplaceFailedPods(job) ? jobCtx.pods.filter(isPodTerminating) : undefined;
      indexesToAdd = firstPendingIndexes(diff, completions ?? 0, jobCtx.activePods, jobCtx.succeededIndexes, terminatingPods, jobCtx.failedIndexes);
      if (hasBackoffLimitPerIndex(job)) {
        const info = this.getPodCreationInfoForIndependentIndexes(indexesToAdd, jobCtx.podsWithDelayedDeletionPerIndex ?? new Map());
        indexesToAdd = info.indexes;
        if (info.remainingTime > 0) {
          this.enqueueSyncJobWithDelay(job, info.remainingTime);
          return { active: 0 };
        }
      }
      diff = indexesToAdd.length;
    }

    this.expectations.expectCreations(jobKey, diff);
    active += diff;
    const podTemplate: PodTemplateSpec = structuredClone(job.spec?.template ?? {});
    if (isIndexedJob(job)) addCompletionIndexEnvVariables(podTemplate);
    const tmeta = (podTemplate.metadata ??= {});
    if (!(tmeta.finalizers ?? []).includes(JobTrackingFinalizer)) tmeta.finalizers = [...(tmeta.finalizers ?? []), JobTrackingFinalizer];
    const controllerRef = newControllerRef(job, jobKind);

    // Slow start: batches of 1, 2, 4, … so a Job that cannot create pods (quota, admission) fails with one request.
    let firstError: unknown;
    for (let batchSize = Math.min(diff, SlowStartInitialBatchSize); diff > 0; batchSize = Math.min(2 * batchSize, diff)) {
      let batchFailed = false;
      for (let i = 0; i < batchSize; i++) {
        const completionIndex = indexesToAdd.length > 0 ? indexesToAdd.shift()! : UnknownCompletionIndex;
        let template = podTemplate;
        let generateName: string | undefined;
        if (completionIndex !== UnknownCompletionIndex) {
          template = structuredClone(podTemplate);
          addCompletionIndex(template, job.metadata.name ?? '', completionIndex);
          generateName = podGenerateNameWithIndex(job.metadata.name ?? '', completionIndex);
          if (hasBackoffLimitPerIndex(job)) addIndexFailureCountAnnotation(template, job, jobCtx.podsWithDelayedDeletionPerIndex?.get(completionIndex));
        }
        try {
          this.createPod(job.metadata.namespace ?? '', template, job, controllerRef, generateName);
        } catch (err) {
          // In a terminating namespace every create fails: nothing to do.
          if (hasStatusCause(err, NamespaceTerminatingCause)) continue;
          // The informer will not observe this pod.
          this.expectations.creationObserved(jobKey);
          active--;
          firstError ??= err;
          batchFailed = true;
        }
      }
      const skipped = diff - batchSize;
      if (batchFailed && skipped > 0) {
        // Pods never attempted will not be observed: stop expecting them. The next sync retries.
        active -= skipped;
        for (let i = 0; i < skipped; i++) this.expectations.creationObserved(jobKey);
        break;
      }
      diff -= batchSize;
    }
    return { active, error: firstError };
  }

  /**
   * getPodCreationInfoForIndependentIndexes: the indexes whose own back-off has passed; if none, the shortest
   * remaining wait.
   */
  private getPodCreationInfoForIndependentIndexes(indexes: number[], delayed: Map<number, PodObj>): { indexes: number[]; remainingTime: number } {
    const now: number[] = [];
    let min: number | undefined;
    for (const ix of indexes) {
      const last = delayed.get(ix);
      const remaining = last
        ? getRemainingTimeForFailuresCount(this.clock.now(), DefaultJobPodFailureBackOffMs, MaxJobPodFailureBackOffMs, getIndexAbsoluteFailureCount(last) + 1, getFinishedTime(last))
        : 0;
      if (remaining === 0) now.push(ix);
      else if (min === undefined || remaining < min) min = remaining;
    }
    if (now.length > 0) return { indexes: now, remainingTime: 0 };
    return { indexes: now, remainingTime: min ?? 0 };
  }

  /**
   * activePodsForRemoval: pods of repeated, missing or out-of-range indexes first (Indexed Jobs), then as many
   * more as needed, earliest in their lifecycle first.
   */
  private activePodsForRemoval(job: JobObj, pods: readonly PodObj[], rmAtLeast: number): PodObj[] {
    let rm: PodObj[] = [];
    let left: PodObj[];
    if (isIndexedJob(job)) {
      const r = duplicatedIndexPodsForRemoval(pods, job.spec?.completions ?? 0);
      rm = r.rm;
      left = r.left;
    } else {
      left = [...pods];
    }
    if (rm.length < rmAtLeast) rm = [...rm, ...sortActivePods(left).slice(0, rmAtLeast - rm.length)];
    return rm;
  }

  /** CreatePodsWithGenerateName: the pod of the template, named by generateName (default "<job>-"). */
  private createPod(namespace: string, template: PodTemplateSpec, job: JobObj, controllerRef: OwnerReference, generateName?: string): void {
    if (generateName === undefined) {
      this.podControl.createPods(namespace, template, job, controllerRef);
      return;
    }
    const pod = getPodFromTemplate(template, job, controllerRef);
    pod.metadata.namespace = namespace;
    pod.metadata.generateName = generateName;
    let created: PodObj;
    try {
      created = this.client.pods.create(pod, { namespace });
    } catch (err) {
      if (!hasStatusCause(err, NamespaceTerminatingCause)) {
        this.recorder.event(job, 'Warning', PodControlReason.FailedCreate, `Error creating: ${errorText(err)}`);
      }
      throw err;
    }
    this.recorder.event(job, 'Normal', PodControlReason.SuccessfulCreate, `Created pod: ${created.metadata.name}`);
  }

  // ---------------------------------------------------------------- status tracking

  /**
   * trackJobStatusAndRemoveFinalizers: finished pods → uncountedTerminatedPods; their finalizers removed; then
   * counted in succeeded / failed; then the terminal condition, once nothing is uncounted or terminating.
   */
  private trackJobStatusAndRemoveFinalizers(jobCtx: SyncJobCtx, needsFlushIn: boolean): void {
    let needsFlush = needsFlushIn;
    const job = jobCtx.job;
    const status = job.status!;
    const isIndexed = isIndexedJob(job);
    const completions = job.spec?.completions ?? 0;
    const uncountedStatus = status.uncountedTerminatedPods!;
    uncountedStatus.succeeded = [...(uncountedStatus.succeeded ?? [])];
    uncountedStatus.failed = [...(uncountedStatus.failed ?? [])];
    const pods = isIndexed ? sortByCompletionIndex(jobCtx.pods) : jobCtx.pods;
    const uidsWithFinalizer = new Set<string>();
    for (const p of pods) {
      const uid = p.metadata.uid ?? '';
      if (hasJobTrackingFinalizer(p) && !jobCtx.expectedRmFinalizers.has(uid)) uidsWithFinalizer.add(uid);
    }
    if (cleanUncountedPodsWithoutFinalizers(status, uidsWithFinalizer)) needsFlush = true;

    const podsToRemoveFinalizer: PodObj[] = [];
    const newSucceededIndexes: number[] = [];
    let reachedMaxUncountedPods = false;
    for (const pod of pods) {
      const uid = pod.metadata.uid ?? '';
      // Processed in an earlier sync.
      if (!hasJobTrackingFinalizer(pod) || jobCtx.expectedRmFinalizers.has(uid)) continue;
      const considerPodFailed = isPodFailed(pod, job);
      if (!canRemoveFinalizer(jobCtx, pod, considerPodFailed)) continue;
      podsToRemoveFinalizer.push(pod);
      if (pod.status?.phase === 'Succeeded' && !jobCtx.uncounted.failed.has(uid)) {
        if (isIndexed) {
          // The completion index is enough to avoid counting a succeeded pod twice.
          const ix = podCompletionIndex(pod);
          if (ix !== UnknownCompletionIndex && ix < completions && !jobCtx.prevSucceededIndexes.has(ix)) {
            newSucceededIndexes.push(ix);
            needsFlush = true;
          }
        } else if (!jobCtx.uncounted.succeeded.has(uid)) {
          needsFlush = true;
          uncountedStatus.succeeded.push(uid);
        }
      } else if (considerPodFailed || (jobCtx.finishedCondition && !isSuccessCriteriaMet(jobCtx.finishedCondition))) {
        // Once the Job is finished (failing), every pod not yet terminated counts as failed.
        const ix = podCompletionIndex(pod);
        if (!jobCtx.uncounted.failed.has(uid) && (!isIndexed || (ix !== UnknownCompletionIndex && ix < completions))) {
          if (job.spec?.podFailurePolicy) {
            if (matchPodFailurePolicy(job.spec.podFailurePolicy, pod).countFailed) {
              needsFlush = true;
              uncountedStatus.failed.push(uid);
            }
          } else {
            needsFlush = true;
            uncountedStatus.failed.push(uid);
          }
        }
      }
      if (newSucceededIndexes.length + uncountedStatus.succeeded.length + uncountedStatus.failed.length >= MaxUncountedPods) {
        // Keep status under ~20 KB and let other Jobs sync; pod and status updates bring this Job back.
        reachedMaxUncountedPods = true;
        break;
      }
    }
    if (isIndexed) {
      jobCtx.succeededIndexes = jobCtx.succeededIndexes.withOrderedIndexes([...newSucceededIndexes].sort((a, b) => a - b));
      const s = jobCtx.succeededIndexes.toString();
      if (s !== (status.completedIndexes ?? '')) needsFlush = true;
      status.succeeded = jobCtx.succeededIndexes.total();
      status.completedIndexes = s;
      const failedStr = jobCtx.failedIndexes?.toString();
      if (failedStr !== status.failedIndexes) {
        status.failedIndexes = failedStr;
        needsFlush = true;
      }
    }
    if (jobCtx.finishedCondition?.type === JobConditionType.FailureTarget) {
      // The interim FailureTarget goes into status before the finalizers are removed; Failed comes after.
      status.conditions = [...(status.conditions ?? []), jobCtx.finishedCondition];
      needsFlush = true;
      jobCtx.finishedCondition = newCondition(JobConditionType.Failed, 'True', jobCtx.finishedCondition.reason ?? '', jobCtx.finishedCondition.message ?? '', this.clock.now());
    }
    if (isSuccessCriteriaMet(jobCtx.finishedCondition)) {
      // Likewise SuccessCriteriaMet, then Complete.
      if (!successCriteriaMetCondition(job)) {
        status.conditions = [...(status.conditions ?? []), jobCtx.finishedCondition!];
        needsFlush = true;
      }
      jobCtx.finishedCondition = newCondition(JobConditionType.Complete, 'True', jobCtx.finishedCondition!.reason ?? '', jobCtx.finishedCondition!.message ?? '', this.clock.now());
    }
    needsFlush = this.flushUncountedAndRemoveFinalizers(jobCtx, podsToRemoveFinalizer, uidsWithFinalizer, needsFlush);
    const jobFinished = !reachedMaxUncountedPods && this.enactJobFinished(jobCtx);
    if (jobFinished) needsFlush = true;
    if (needsFlush) {
      try {
        jobCtx.job = this.updateJobStatus(jobCtx.job);
      } catch (err) {
        throw new Error(`removing uncounted pods from status: ${errorText(err)}`, { cause: err });
      }
      if (jobFinished) this.recordJobFinished(jobCtx.job, jobCtx.finishedCondition!);
    }
  }

  /**
   * flushUncountedAndRemoveFinalizers: writes status (new uncounted UIDs, interim conditions), removes the
   * finalizers, moves the pods whose finalizer went into the counters. Returns whether status still needs a write.
   */
  private flushUncountedAndRemoveFinalizers(jobCtx: SyncJobCtx, podsToRemoveFinalizer: PodObj[], uidsWithFinalizer: Set<string>, needsFlushIn: boolean): boolean {
    let needsFlush = needsFlushIn;
    if (needsFlush) {
      try {
        jobCtx.job = this.updateJobStatus(jobCtx.job);
      } catch (err) {
        throw new Error(`adding uncounted pods to status: ${errorText(err)}`, { cause: err });
      }
      this.podBackoffStore.updateBackoffRecord(jobCtx.newBackoffRecord);
      needsFlush = false;
    }
    const jobKey = metaNamespaceKeyFunc(jobCtx.job);
    let rmErr: unknown;
    if (podsToRemoveFinalizer.length > 0) {
      const r = this.removeTrackingFinalizerFromPods(jobKey, podsToRemoveFinalizer);
      podsToRemoveFinalizer.forEach((p, i) => {
        if (r.succeeded[i]) uidsWithFinalizer.delete(p.metadata.uid ?? '');
      });
      rmErr = r.error;
    }
    // Count what could be counted, even after a partial failure.
    if (cleanUncountedPodsWithoutFinalizers(jobCtx.job.status!, uidsWithFinalizer)) needsFlush = true;
    if (rmErr !== undefined && needsFlush) {
      try {
        jobCtx.job = this.updateJobStatus(jobCtx.job);
      } catch (err) {
        throw new Error(`removing uncounted pods from status: ${errorText(err)}`, { cause: err });
      }
    }
    if (rmErr !== undefined) throw rmErr;
    return needsFlush;
  }

  private removeTrackingFinalizerFromPods(jobKey: string, pods: readonly PodObj[]): { succeeded: boolean[]; error?: unknown } {
    const succeeded = pods.map(() => false);
    let error: unknown;
    this.finalizerExpectations.expectFinalizersRemoved(jobKey, pods.map((p) => p.metadata.uid ?? ''));
    pods.forEach((pod, i) => {
      const patch = removeTrackingFinalizerPatch(pod);
      if (!patch) return;
      try {
        this.podControl.patchPod(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch);
      } catch (err) {
        // No update will come for this pod.
        this.finalizerExpectations.finalizerRemovalObserved(jobKey, pod.metadata.uid ?? '');
        if (!isStatusError(err, StatusReason.NotFound)) {
          error ??= new Error(`removing tracking finalizer: ${errorText(err)}`, { cause: err });
          return;
        }
      }
      succeeded[i] = true;
    });
    return { succeeded, error };
  }

  /** enactJobFinished: sets Complete or Failed once no pod is uncounted or still terminating. */
  private enactJobFinished(jobCtx: SyncJobCtx): boolean {
    const cond = jobCtx.finishedCondition;
    if (!cond) return false;
    const status = jobCtx.job.status!;
    const uncounted = status.uncountedTerminatedPods;
    if ((uncounted?.succeeded?.length ?? 0) + (uncounted?.failed?.length ?? 0) > 0) return false;
    // The terminal condition waits for the pods to be gone (JobPodReplacementPolicy / JobManagedBy).
    if (jobCtx.terminating > 0) return false;
    const r = ensureJobConditionStatus(status.conditions ?? [], cond.type, cond.status, cond.reason ?? '', cond.message ?? '', this.clock.now());
    status.conditions = r.conditions;
    if (cond.type === JobConditionType.Complete) status.completionTime = cond.lastTransitionTime;
    return true;
  }

  private recordJobFinished(job: JobObj, cond: JobCondition): void {
    if (cond.type === JobConditionType.Complete) {
      const completions = job.spec?.completions;
      if (completions !== undefined && completions !== null && (job.status?.succeeded ?? 0) > completions) {
        this.recorder.event(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
      }
      this.recorder.event(job, 'Normal', 'Completed', 'Job completed');
    } else {
      this.recorder.event(job, 'Warning', cond.reason ?? '', cond.message ?? '');
    }
  }

  /** updateJobStatus: PUT status, serialised as the API does (omitempty counters). */
  private updateJobStatus(job: JobObj): JobObj {
    const out = structuredClone(job);
    out.status = serializeStatus(job.status ?? {});
    const updated = structuredClone(this.client.jobs.updateStatus(out)) as JobObj;
    (updated.status ??= {}).uncountedTerminatedPods ??= {};
    return updated;
  }

  private emitBackoff(job: JobObj, remainingMs: number, failures: number): void {
    if (this.trace === nullTraceSink) return;
    this.trace.emit({
      kind: TraceKind.Custom,
      component: JobControllerComponent,
      data: { event: 'job.podFailureBackoff', key: metaNamespaceKeyFunc(job), failures, remainingMs },
    });
  }
}

// ---------------------------------------------------------------- helpers

function trySelector(job: Job): Selector | undefined {
  try {
    const sel = labelSelectorAsSelector(job.spec?.selector);
    return sel.requirements.length > 0 ? sel : undefined;
  } catch {
    return undefined;
  }
}

function newFailureCondition(reason: string, message: string, now: number): JobCondition {
  // The terminal Failed condition is delayed until the pods are gone: FailureTarget first.
  return newCondition(JobConditionType.FailureTarget, 'True', reason, message, now);
}

function successCriteriaMetCondition(job: Job): JobCondition | undefined {
  const c = findConditionByType(job.status?.conditions, JobConditionType.SuccessCriteriaMet);
  return c && c.status === 'True' ? c : undefined;
}

function isSuccessCriteriaMet(cond: JobCondition | undefined): boolean {
  return cond?.type === JobConditionType.SuccessCriteriaMet && cond.status === 'True';
}

function nonIgnoredFailedPodsCount(job: Job, failedPods: readonly Pod[]): number {
  if (!job.spec?.podFailurePolicy) return failedPods.length;
  return failedPods.filter((p) => matchPodFailurePolicy(job.spec!.podFailurePolicy, p).countFailed).length;
}

/** getFailJobMessage: the message of the first failed pod matching a FailJob rule. */
function getFailJobMessage(job: Job, pods: readonly Pod[]): string | undefined {
  if (!job.spec?.podFailurePolicy) return undefined;
  for (const p of pods) {
    if (!isPodFailed(p, job)) continue;
    const m = matchPodFailurePolicy(job.spec.podFailurePolicy, p).jobFailureMessage;
    if (m !== undefined) return m;
  }
  return undefined;
}

/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, the containers' restarts reached backoffLimit. */
function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let result = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of p.status?.initContainerStatuses ?? []) result += s.restartCount ?? 0;
    for (const s of p.status?.containerStatuses ?? []) result += s.restartCount ?? 0;
  }
  const limit = job.spec?.backoffLimit ?? 6;
  if (limit === 0) return result > 0;
  return result >= limit;
}

/** calculateSucceededIndexes: status.completedIndexes plus the indexes of succeeded pods not yet counted. */
function calculateSucceededIndexes(job: Job, pods: readonly Pod[]): { prev: OrderedIntervals; result: OrderedIntervals } {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIndexesFromString(job.status?.completedIndexes, completions);
  const fresh = new Set<number>();
  for (const p of pods) {
    const ix = podCompletionIndex(p);
    if (p.status?.phase === 'Succeeded' && ix !== UnknownCompletionIndex && ix < completions && hasJobTrackingFinalizer(p)) fresh.add(ix);
  }
  return { prev, result: prev.withOrderedIndexes(sortedIndexes(fresh)) };
}

/** calculateFailedIndexes (backoffLimitPerIndex): status.failedIndexes plus indexes that failed since. */
function calculateFailedIndexes(job: Job, pods: readonly Pod[]): OrderedIntervals {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIndexesFromString(job.status?.failedIndexes, completions);
  const fresh = new Set<number>();
  for (const p of pods) {
    const ix = podCompletionIndex(p);
    if (ix !== UnknownCompletionIndex && ix < completions && hasJobTrackingFinalizer(p) && isIndexFailed(job, p)) fresh.add(ix);
  }
  return prev.withOrderedIndexes(sortedIndexes(fresh));
}

function isIndexFailed(job: Job, pod: Pod): boolean {
  let counted = false;
  if (isPodFailed(pod, job)) {
    if (job.spec?.podFailurePolicy) {
      const m = matchPodFailurePolicy(job.spec.podFailurePolicy, pod);
      if (m.action === PodFailurePolicyAction.FailIndex) return true;
      counted = m.countFailed;
    } else {
      counted = true;
    }
  }
  return counted && getIndexFailureCount(pod) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

/** addIndexFailureCountAnnotation: the replacement carries the index's failures so far. */
function addIndexFailureCountAnnotation(template: PodTemplateSpec, job: Job, podBeingReplaced: Pod | undefined): void {
  let failures = 0;
  let ignored = 0;
  if (podBeingReplaced) {
    failures = getIndexFailureCount(podBeingReplaced);
    ignored = getIndexIgnoredFailureCount(podBeingReplaced);
    if (!job.spec?.podFailurePolicy || matchPodFailurePolicy(job.spec.podFailurePolicy, podBeingReplaced).countFailed) failures++;
    else ignored++;
  }
  const metadata = (template.metadata ??= {});
  metadata.annotations = { ...(metadata.annotations ?? {}), [JobIndexFailureCountAnnotation]: String(failures) };
  if (ignored > 0) metadata.annotations[JobIndexIgnoredFailureCountAnnotation] = String(ignored);
}

/**
 * canRemoveFinalizer: when the Job is finishing or being deleted, the pod succeeded, or it failed — unless it is
 * the failed pod of an index kept until its replacement exists.
 */
function canRemoveFinalizer(jobCtx: SyncJobCtx, pod: PodObj, considerPodFailed: boolean): boolean {
  if (jobCtx.job.metadata.deletionTimestamp || jobCtx.finishedCondition || pod.status?.phase === 'Succeeded') return true;
  if (!considerPodFailed) return false;
  if (hasBackoffLimitPerIndex(jobCtx.job)) {
    const ix = podCompletionIndex(pod);
    if (ix !== UnknownCompletionIndex && jobCtx.podsWithDelayedDeletionPerIndex?.get(ix)?.metadata.uid === pod.metadata.uid) return false;
  }
  return true;
}

/** cleanUncountedPodsWithoutFinalizers: UIDs whose finalizer is gone move into the counters. */
function cleanUncountedPodsWithoutFinalizers(status: JobStatus, uidsWithFinalizer: ReadonlySet<string>): boolean {
  let updated = false;
  const u = (status.uncountedTerminatedPods ??= {});
  const succ = (u.succeeded ?? []).filter((uid) => uidsWithFinalizer.has(uid));
  if (succ.length !== (u.succeeded ?? []).length) {
    updated = true;
    status.succeeded = (status.succeeded ?? 0) + (u.succeeded ?? []).length - succ.length;
    u.succeeded = succ;
  }
  const failed = (u.failed ?? []).filter((uid) => uidsWithFinalizer.has(uid));
  if (failed.length !== (u.failed ?? []).length) {
    updated = true;
    status.failed = (status.failed ?? 0) + (u.failed ?? []).length - failed.length;
    u.failed = failed;
  }
  return updated;
}

/** The status as the API serialises it: zero counters and empty strings/lists with omitempty are dropped. */
export function serializeStatus(status: JobStatus): JobStatus {
  const out: JobStatus = structuredClone(status);
  for (const k of ['active', 'succeeded', 'failed'] as const) if (!out[k]) delete out[k];
  if (!out.completedIndexes) delete out.completedIndexes;
  if (out.failedIndexes === undefined) delete out.failedIndexes;
  if (out.conditions && out.conditions.length === 0) delete out.conditions;
  const u = out.uncountedTerminatedPods;
  if (u) {
    if (!u.succeeded?.length) delete u.succeeded;
    if (!u.failed?.length) delete u.failed;
  }
  return out;
}

