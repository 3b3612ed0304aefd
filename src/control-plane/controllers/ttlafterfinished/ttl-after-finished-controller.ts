// kube-controller-manager's TTL-after-finished controller (pkg/controller/ttlafterfinished): a finished Job with
// spec.ttlSecondsAfterFinished is deleted that many seconds after its Complete/Failed condition's transition,
// in the foreground (its pods go first, through the garbage collector).
//
//   Job complete at 12:00:00, ttlSecondsAfterFinished 100 → requeued for 12:01:40 → fresh GET, still expired
//   → DELETE with propagationPolicy Foreground and a uid precondition
import type { Job } from 'kubernetes-types/batch/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import { parseTime } from '../shared/controller-utils';
import { isJobFinished, JobConditionType } from '../job/job-utils';

export const TTLAfterFinishedControllerName = 'ttl-after-finished-controller';

type JobObj = Typed<Job>;

export interface TTLAfterFinishedControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

/** needsCleanup: finished and with a TTL. */
export function needsCleanup(job: Job): boolean {
  return job.spec?.ttlSecondsAfterFinished !== undefined && job.spec.ttlSecondsAfterFinished !== null && isJobFinished(job);
}

/** jobFinishTime: the lastTransitionTime of the True Complete/Failed condition. */
export function jobFinishTime(job: Job): number {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === JobConditionType.Complete || c.type === JobConditionType.Failed) && c.status === 'True') {
      const t = parseTime(c.lastTransitionTime);
      if (t === undefined) throw new Error(`unable to find the time when the Job ${job.metadata?.namespace}/${job.metadata?.name} finished`);
      return t;
    }
  }
  throw new Error(`unable to find the status of the finished Job ${job.metadata?.namespace}/${job.metadata?.name}`);
}

/** timeLeft: ms until the TTL expires (≤ 0: expired). */
export function timeLeft(job: Job, now: number): number {
  return jobFinishTime(job) + (job.spec?.ttlSecondsAfterFinished ?? 0) * 1000 - now;
}

export class TTLAfterFinishedController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly jobInformer: SharedInformer<Job>;
  private readonly jobLister: Lister<JobObj>;
  private readonly registration: { remove(): void };

  constructor(options: TTLAfterFinishedControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.jobInformer = options.informers.jobs;
    this.jobLister = this.jobInformer.lister;
    const queue = new RateLimitingQueue<string>({ name: 'ttl_jobs_to_delete', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: TTLAfterFinishedControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.processJob(key),
      maxRetries: Infinity,
      cacheSyncs: [() => this.jobInformer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
    const onJob = (job: JobObj): void => {
      if (!job.metadata.deletionTimestamp && needsCleanup(job)) queue.add(metaNamespaceKeyFunc(job));
    };
    this.registration = this.jobInformer.addEventHandler({ onAdd: onJob, onUpdate: (_old, cur) => onJob(cur) });
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  shutDown(): void {
    this.controller.shutDown();
    this.registration.remove();
  }

  /** processJob: deletes the Job once its TTL has expired, on a fresh read; else requeues for the expiry. */
  processJob(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const job = this.jobLister.get(namespace, name);
    if (!job || !this.processTTL(job)) return;
    // The cached Job may be stale (the TTL changed): check the live one before deleting.
    let fresh: JobObj;
    try {
      fresh = this.client.jobs.get(name, { namespace });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw err;
    }
    if (!this.processTTL(fresh)) return;
    try {
      this.client.jobs.delete(name, { namespace, propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid } });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw err;
    }
  }

  /** processTTL: whether the TTL expired; if it will later, the Job is requeued for then. */
  private processTTL(job: JobObj): boolean {
    if (job.metadata.deletionTimestamp || !needsCleanup(job)) return false;
    const left = timeLeft(job, this.clock.now());
    if (left <= 0) return true;
    this.queue.addAfter(metaNamespaceKeyFunc(job), left);
    return false;
  }
}
