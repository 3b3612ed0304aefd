// Keeps the cluster worker alive for the page. It stands between the protocol client and the Worker as the
// client's port, and notices when the worker dies (an uncaught error, terminate() by the browser or a test, or it
// stops answering its heartbeat). It then starts a new worker, which restores the cluster from IndexedDB: every
// acknowledged write is there. Calls the dead worker never answered fail with a 503 (the caller may retry), and
// the page's watch subscriptions and trace channel start again on the new worker, whose first batch of each is a
// relist, so the page's mirror is replaced by the restored state rather than patched. A worker that re-serves
// (it says ready again, e.g. after rolling back a write the disk refused) is resynchronised the same way.
import type { Status } from '../../shared/api/status';
import type { ClientMessage, PortLike, WorkerMessage } from '../../shared/protocol/messages';
import type { StorageStatus } from '../../shared/protocol/storage';

/** What the supervisor needs of a Worker (tests pass fakes). */
export interface WorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'error', listener: (event: { data?: unknown; message?: string }) => void): void;
  removeEventListener(type: 'message' | 'error', listener: (event: { data?: unknown; message?: string }) => void): void;
  terminate(): void;
}

export const WorkerPhase = {
  /** The first worker is booting. */
  Starting: 'starting',
  Running: 'running',
  /** The worker died; a new one is restoring the cluster from the saved state. */
  Restarting: 'restarting',
  /** It died too often in a short time: no more restarts (reload the page). */
  Failed: 'failed',
} as const;
export type WorkerPhase = (typeof WorkerPhase)[keyof typeof WorkerPhase];

export interface WorkerHealthState {
  phase: WorkerPhase;
  /** Why the last worker stopped, once one has. */
  reason?: string;
  /** Restarts since the page loaded. */
  restarts: number;
  /** The worker's storage health, from the last heartbeat. */
  storage: StorageStatus;
}

export interface SupervisorTimers {
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface SupervisorOptions {
  createWorker: () => WorkerLike;
  onHealth?: (state: WorkerHealthState) => void;
  timers?: SupervisorTimers;
  /** How often to check on the worker (and ask its storage status). Default 2 s. */
  heartbeatMs?: number;
  /** Silence after a heartbeat that means the worker is gone. Generous: a big apply may hold it for seconds. Default 15 s. */
  timeoutMs?: number;
  /** How long the worker may take to say ready (restoring a large cluster). Default 60 s. */
  bootTimeoutMs?: number;
  /** More restarts than this within restartWindowMs: give up. Defaults 3 and 60 s. */
  maxRestarts?: number;
  restartWindowMs?: number;
  /**
   * Start the page's watch subscriptions and trace channel again on a new worker. Default true; false when the
   * port above re-synchronises on every ready itself (leader-port.ts), so the worker gets each subscription once.
   */
  replay?: boolean;
}

export const WORKER_STOPPED_MESSAGE = 'The cluster stopped unexpectedly; restarting from the saved state';

/** Heartbeat calls use ids far above the client's, whose replies the client would ignore anyway. */
const HEARTBEAT_ID_BASE = 2_000_000_000;

const defaultTimers: SupervisorTimers = {
  now: () => performance.now(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

function unavailable(message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 };
}

export class WorkerSupervisor implements PortLike {
  private readonly options: SupervisorOptions;
  private readonly timers: SupervisorTimers;
  private readonly listeners = new Set<(event: { data: unknown }) => void>();
  private worker: WorkerLike | undefined;
  /** Messages for a worker that has not said ready yet. */
  private queue: ClientMessage[] = [];
  private ready = false;
  /** Whether any worker ever said ready (a later ready is a restart or a re-serve). */
  private everReady = false;
  private startedAt = 0;
  /** Calls sent or queued and not answered, by id. */
  private readonly pending = new Set<number>();
  /** The client's live watch subscriptions, to start again on a new worker. */
  private readonly watches = new Map<number, ClientMessage & { type: 'watch/start' }>();
  private traceOn = false;
  private lastMessageAt = 0;
  private heartbeat: { id: number; sentAt: number } | undefined;
  private nextHeartbeatId = HEARTBEAT_ID_BASE;
  private restartTimes: number[] = [];
  private interval: unknown;
  private state: WorkerHealthState = { phase: WorkerPhase.Starting, restarts: 0, storage: {} };
  private disposed = false;

  constructor(options: SupervisorOptions) {
    this.options = options;
    this.timers = options.timers ?? defaultTimers;
    this.spawn();
    this.interval = this.timers.setInterval(() => this.check(), options.heartbeatMs ?? 2000);
  }

  get health(): WorkerHealthState {
    return this.state;
  }

  // ------------------------------------------------------------ PortLike (the client's side)

  postMessage(message: unknown): void {
    const msg = message as ClientMessage;
    if (this.disposed) return;
    switch (msg.type) {
      case 'call':
        if (this.state.phase === WorkerPhase.Failed) {
          this.deliver({ type: 'reply', id: msg.id, ok: false, status: unavailable(this.failedMessage()) });
          return;
        }
        this.pending.add(msg.id);
        break;
      case 'watch/start':
        this.watches.set(msg.id, msg);
        break;
      case 'watch/stop':
        this.watches.delete(msg.id);
        break;
      case 'trace/start':
        this.traceOn = true;
        break;
      case 'trace/stop':
        this.traceOn = false;
        break;
    }
    if (this.ready) this.worker?.postMessage(msg);
    else this.queue.push(msg);
  }

  addEventListener(_type: 'message', listener: (event: { data: unknown }) => void): void {
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'message', listener: (event: { data: unknown }) => void): void {
    this.listeners.delete(listener);
  }

  // ------------------------------------------------------------ lifecycle

  /** Treats the worker as dead and starts a new one (also what the heartbeat and the error event do). */
  restart(reason: string): void {
    if (this.disposed || this.state.phase === WorkerPhase.Failed) return;
    const now = this.timers.now();
    this.restartTimes = this.restartTimes.filter((t) => now - t < (this.options.restartWindowMs ?? 60_000));
    this.restartTimes.push(now);
    this.stopWorker();
    if (this.restartTimes.length > (this.options.maxRestarts ?? 3)) {
      this.failPending(this.failedMessage());
      this.queue = [];
      this.setHealth({ phase: WorkerPhase.Failed, reason });
      return;
    }
    this.failPending(`${WORKER_STOPPED_MESSAGE} (${reason}); retry the request`);
    this.setHealth({ phase: WorkerPhase.Restarting, reason, restarts: this.state.restarts + 1 });
    this.spawn();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.timers.clearInterval(this.interval);
    this.stopWorker();
    this.listeners.clear();
  }

  private failedMessage(): string {
    return 'The cluster stopped unexpectedly and could not be restarted; reload the page';
  }

  // Not start(): the protocol client calls start() on its port when there is one (MessagePort).
  private spawn(): void {
    const worker = this.options.createWorker();
    this.worker = worker;
    this.ready = false;
    this.startedAt = this.timers.now();
    this.heartbeat = undefined;
    worker.addEventListener('message', this.onWorkerMessage);
    worker.addEventListener('error', this.onWorkerError);
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    if (!worker) return;
    worker.removeEventListener('message', this.onWorkerMessage);
    worker.removeEventListener('error', this.onWorkerError);
    worker.terminate();
  }

  private readonly onWorkerError = (event: { message?: string }): void => {
    this.restart(event.message ? `it failed: ${event.message}` : 'it failed');
  };

  private readonly onWorkerMessage = (event: { data?: unknown }): void => {
    const msg = event.data as WorkerMessage;
    this.lastMessageAt = this.timers.now();
    if (msg.type === 'reply' && msg.id >= HEARTBEAT_ID_BASE) {
      if (this.heartbeat?.id === msg.id) this.heartbeat = undefined;
      if (msg.ok) this.setStorage(msg.result as StorageStatus);
      return;
    }
    if (msg.type === 'ready') {
      this.onReady(msg);
      return;
    }
    if (msg.type === 'reply') this.pending.delete(msg.id);
    this.deliver(msg);
  };

  private onReady(msg: WorkerMessage & { type: 'ready' }): void {
    const again = this.everReady;
    if (again && this.ready) {
      // The same worker serves a new cluster: what it was asked before is lost with the old one.
      this.failPending('The cluster reopened from its saved state; retry the request');
    }
    this.everReady = true;
    this.ready = true;
    this.heartbeat = undefined; // one sent to an earlier server is never answered
    const worker = this.worker!;
    const replay = again && (this.options.replay ?? true);
    if (replay) {
      for (const start of this.watches.values()) worker.postMessage(start);
      if (this.traceOn) worker.postMessage({ type: 'trace/start' } satisfies ClientMessage);
    }
    const queued = this.queue;
    this.queue = [];
    for (const m of queued) {
      // Acks and starts of the old worker's subscriptions mean nothing here; the replay above restarted them.
      if (again && (m.type === 'watch/ack' || m.type === 'watch/acks' || m.type === 'trace/ack')) continue;
      if (replay && (m.type === 'watch/start' || m.type === 'trace/start' || m.type === 'watch/stop')) continue;
      worker.postMessage(m);
    }
    // Last: a listener that re-synchronises on ready itself (leader-port.ts) then stops these replayed
    // subscriptions and starts its own, rather than leaving them behind unacknowledged.
    this.deliver(msg);
    if (this.state.phase !== WorkerPhase.Running) this.setHealth({ phase: WorkerPhase.Running });
  }

  private check(): void {
    if (this.disposed || !this.worker) return;
    const now = this.timers.now();
    if (!this.ready) {
      if (now - this.startedAt > (this.options.bootTimeoutMs ?? 60_000)) this.restart('it did not start');
      return;
    }
    const hb = this.heartbeat;
    if (hb) {
      if (now - hb.sentAt <= (this.options.timeoutMs ?? 15_000)) return;
      if (this.lastMessageAt < hb.sentAt) {
        this.restart('it stopped answering');
        return;
      }
      // Alive (it sent other messages) but that heartbeat went unanswered: ask again.
    }
    const id = this.nextHeartbeatId++;
    this.heartbeat = { id, sentAt: now };
    this.worker.postMessage({ type: 'call', id, method: 'storage/status', params: undefined } satisfies ClientMessage);
  }

  private failPending(message: string): void {
    const ids = [...this.pending];
    this.pending.clear();
    this.queue = this.queue.filter((m) => m.type !== 'call');
    for (const id of ids) this.deliver({ type: 'reply', id, ok: false, status: unavailable(message) });
  }

  private deliver(msg: WorkerMessage): void {
    for (const l of [...this.listeners]) l({ data: msg });
  }

  private setStorage(storage: StorageStatus): void {
    const cur = this.state.storage;
    if (cur.alarm === storage.alarm && cur.message === storage.message) return;
    this.setHealth({ storage });
  }

  private setHealth(patch: Partial<WorkerHealthState>): void {
    this.state = { ...this.state, ...patch };
    this.options.onHealth?.(this.state);
  }
}
