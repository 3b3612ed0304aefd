// pkg/controller/tainteviction/timed_workers.go on virtual time: one pending piece of work per key (a pod's
// "namespace/name"), run once its fire time comes, or at once when that time has already passed.
import type { Clock, TimerHandle } from '../../../sim/clock';

export interface TimedWorker {
  key: string;
  createdAt: number;
  fireAt: number;
  /** undefined for work that ran at once (the original's nil worker). */
  timer?: TimerHandle;
}

export type WorkFunc = (key: string, fireAt: number) => void;

export class TimedWorkerQueue {
  private readonly workers = new Map<string, TimedWorker | null>();

  constructor(
    private readonly clock: Clock,
    private readonly workFunc: WorkFunc,
  ) {}

  /** AddWork: schedules work for key at fireAt unless some is already pending. */
  addWork(key: string, createdAt: number, fireAt: number): void {
    if (this.workers.has(key)) return;
    const delay = fireAt - createdAt;
    if (delay <= 0) {
      // Runs at once; the key is held (as a null worker) while it runs, like the original's goroutine.
      this.workers.set(key, null);
      this.run(key, fireAt);
      return;
    }
    const worker: TimedWorker = { key, createdAt, fireAt };
    worker.timer = this.clock.setTimer(delay, () => this.run(key, fireAt), `taint-eviction ${key}`);
    this.workers.set(key, worker);
  }

  /** CancelWork: true when a pending (timed) work item was cancelled. */
  cancelWork(key: string): boolean {
    if (!this.workers.has(key)) return false;
    const worker = this.workers.get(key);
    this.workers.delete(key);
    if (!worker) return false;
    this.clock.clearTimer(worker.timer);
    return true;
  }

  /** GetWorkerUnsafe: the pending work for key, if any. */
  getWorker(key: string): TimedWorker | undefined {
    return this.workers.get(key) ?? undefined;
  }

  /** Every pending timed work item, soonest first. */
  pending(): TimedWorker[] {
    return [...this.workers.values()].filter((w): w is TimedWorker => w !== null).sort((a, b) => a.fireAt - b.fireAt);
  }

  /** CancelAndWait: drops everything pending. */
  cancelAll(): void {
    for (const w of this.workers.values()) if (w) this.clock.clearTimer(w.timer);
    this.workers.clear();
  }

  private run(key: string, fireAt: number): void {
    try {
      this.workFunc(key, fireAt);
    } finally {
      this.workers.delete(key);
    }
  }
}
