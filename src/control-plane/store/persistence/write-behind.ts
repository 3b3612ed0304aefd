// The write-behind protocol shared by the persistence adapters. Committed batches queue up; one write cycle at a
// time takes everything queued so far and hands it to write(), which must apply it atomically (one transaction).
// Batches arriving during a cycle go into the next one. A failed cycle puts its batches back at the head of the
// queue for the next cycle and rejects the waiters of the revisions it held, so nothing is lost or reordered and
// the durable state is always a prefix of the committed revisions.
import type { RevisionBatch } from '../types';
import type { ClusterMeta, PersistedSnapshot, Persistence } from './types';

interface Waiter {
  revision: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface WriteBehindOptions {
  /** Start a write cycle as soon as something is queued (on a microtask). Default true; false = only flush(). */
  autoFlush?: boolean;
}

const ignore = (): void => {};

export abstract class WriteBehindPersistence implements Persistence {
  private pending: RevisionBatch[] = [];
  private pendingMeta: ClusterMeta | undefined;
  private durable = 0;
  private waiters: Waiter[] = [];
  /** Settles when the last scheduled cycle has; never rejects. */
  private tail: Promise<void> = Promise.resolve();
  /** The scheduled cycle that has not started yet: it will take everything queued before it starts. */
  private next: Promise<void> | undefined;
  private running: Promise<void> | undefined;
  /** Bumped by clear()/close(): a cycle from an older epoch must not put its batches back. */
  private epoch = 0;
  private readonly autoFlush: boolean;
  protected closed = false;

  constructor(options: WriteBehindOptions = {}) {
    this.autoFlush = options.autoFlush ?? true;
  }

  abstract load(): Promise<PersistedSnapshot | undefined>;
  /** Writes the batches (in order) and the meta in ONE atomic transaction; rejects if nothing was written. */
  protected abstract write(batches: RevisionBatch[], meta: ClusterMeta | undefined): Promise<void>;
  /** Deletes everything stored. */
  protected abstract clearStorage(): Promise<void>;
  /** Releases the underlying storage. */
  protected abstract closeStorage(): void;

  get durableRevision(): number {
    return this.durable;
  }

  /** Revisions queued and not yet durable (for tests and the UI's "saving…" indicator). */
  get pendingBatches(): number {
    return this.pending.length;
  }

  enqueue(batch: RevisionBatch): void {
    if (this.closed) return;
    this.pending.push(batch);
    if (this.autoFlush) this.schedule();
  }

  setMeta(meta: ClusterMeta): void {
    if (this.closed) return;
    this.pendingMeta = meta;
    if (this.autoFlush) this.schedule();
  }

  flush(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('persistence is closed'));
    if (this.pending.length > 0 || this.pendingMeta !== undefined) return this.schedule();
    return this.next ?? this.running ?? Promise.resolve();
  }

  whenDurable(revision: number): Promise<void> {
    if (revision <= this.durable) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('persistence is closed'));
    // Batches left by a failed cycle are retried when someone waits for them.
    if (this.pending.length > 0 && !this.next) this.schedule();
    return new Promise((resolve, reject) => this.waiters.push({ revision, resolve, reject }));
  }

  async clear(): Promise<void> {
    this.dropPending(new Error('persistence cleared'));
    await this.tail;
    await this.clearStorage();
    this.durable = 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.dropPending(new Error('persistence is closed'));
    this.closeStorage();
  }

  /** After load(): what is stored is durable. */
  protected markDurable(revision: number): void {
    if (revision > this.durable) this.durable = revision;
    this.settleWaiters();
  }

  /** Forgets queued, unwritten batches and fails everyone waiting, as a crash or a reset would. */
  protected dropPending(reason: Error): number {
    const dropped = this.pending.length;
    this.epoch++;
    this.pending = [];
    this.pendingMeta = undefined;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(reason);
    return dropped;
  }

  private schedule(): Promise<void> {
    if (this.next) return this.next;
    const cycle: Promise<void> = this.tail
      .then(() => {
        this.next = undefined;
        this.running = cycle;
        return this.runCycle();
      })
      .finally(() => {
        if (this.running === cycle) this.running = undefined;
      });
    this.next = cycle;
    cycle.catch(ignore); // callers of flush() see the rejection; nobody else must
    this.tail = cycle.catch(ignore);
    return cycle;
  }

  private async runCycle(): Promise<void> {
    const batches = this.pending;
    const meta = this.pendingMeta;
    if (batches.length === 0 && meta === undefined) return;
    this.pending = [];
    this.pendingMeta = undefined;
    const epoch = this.epoch;
    let maxRevision = 0;
    for (const b of batches) if (b.revision > maxRevision) maxRevision = b.revision;
    try {
      await this.write(batches, meta);
    } catch (err) {
      if (epoch === this.epoch) {
        this.pending = batches.concat(this.pending);
        if (this.pendingMeta === undefined) this.pendingMeta = meta;
        const failed = this.waiters.filter((w) => w.revision <= maxRevision);
        this.waiters = this.waiters.filter((w) => w.revision > maxRevision);
        for (const w of failed) w.reject(err);
      }
      throw err;
    }
    if (epoch === this.epoch && maxRevision > this.durable) this.durable = maxRevision;
    this.settleWaiters();
  }

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    const done = this.waiters.filter((w) => w.revision <= this.durable);
    if (done.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.revision > this.durable);
    for (const w of done) w.resolve();
  }
}
