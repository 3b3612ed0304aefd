// Trace events: what the UI animates. Every API stage decision, store commit, watch delivery, queue operation,
// reconcile and (later) scheduler and kubelet step is one event, stamped with sim time and its cause.

export const TraceKind = {
  ApiRequest: 'api.request', // a request entered the API server
  ApiStage: 'api.stage', // one pipeline stage decided (passed or refused)
  ApiResponse: 'api.response', // the request finished (with code)
  StoreCommit: 'store.commit', // a revision was committed
  WatchDelivery: 'watch.delivery', // events delivered to a watcher (informer, UI)
  QueueAdd: 'queue.add',
  QueueGet: 'queue.get',
  QueueDone: 'queue.done',
  QueueRetry: 'queue.retry',
  ReconcileStart: 'reconcile.start',
  ReconcileEnd: 'reconcile.end',
  NetRequest: 'net.request', // one request through the simulated data plane (data: TrafficParams + TrafficResult)
  Custom: 'custom',
} as const;
export type TraceKind = (typeof TraceKind)[keyof typeof TraceKind];

export const ApiStage = {
  Authentication: 'authentication',
  Impersonation: 'impersonation',
  Authorization: 'authorization',
  MutatingAdmission: 'mutating-admission',
  Decode: 'decode',
  Defaulting: 'defaulting',
  Validation: 'validation',
  ValidatingAdmission: 'validating-admission',
  Persistence: 'persistence',
} as const;
export type ApiStage = (typeof ApiStage)[keyof typeof ApiStage];

export interface TraceEvent {
  /** Monotonic sequence number within the cluster. */
  seq: number;
  /** Simulated time, ms. */
  time: number;
  kind: TraceKind;
  /** Which component emitted it: "apiserver", "etcd", "informer/pods", "deployment-controller", … */
  component: string;
  /** seq of the event that led to this one, when known. */
  cause?: number;
  /** Request id for api.* events. */
  requestId?: string;
  /** Free-form, JSON-only details: verb, resource, name, stage, decision, message, revision, key, … */
  data: Record<string, unknown>;
}

export interface TraceSink {
  /**
   * Records an event and returns its seq (so later events can name it as their cause). A leaf is an event its
   * emitter never names as a cause (a kubelet's or the scheduler's report of what it did): it is delivered to
   * subscribers but not kept for following causes back.
   */
  emit(event: Omit<TraceEvent, 'seq' | 'time'>, leaf?: boolean): number;
  /**
   * Whether an event of this kind (or a leaf of it) would be seen by anyone (kept, or delivered to a subscriber);
   * emitters of high-volume events skip building them when not. Absent: every event is wanted.
   */
  wants?(kind: TraceKind, leaf?: boolean): boolean;
}

/** A sink that drops everything, for benchmarks and tests that do not look at traces. */
export const nullTraceSink: TraceSink = { emit: () => 0 };
