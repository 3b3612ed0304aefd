// The cluster's trace bus: every component emits through it (as a TraceSink); the worker and tests subscribe.
// Events get a monotonic seq, the simulated time, and — when emitted while another event is being handled —
// that event's seq as their cause, so a chain watch delivery → reconcile → API request can be followed back.
import type { Clock } from '../sim/clock';
import { TraceKind, type TraceEvent, type TraceSink } from '../../shared/protocol/trace';

/** A TraceSink that also knows which event is being handled right now. */
export interface CausalTraceSink extends TraceSink {
  /** seq of the innermost causeScope, or undefined outside any. */
  readonly currentCause: number | undefined;
  /** Runs fn with seq as the cause of every event emitted inside it that names no cause of its own. */
  causeScope<R>(seq: number | undefined, fn: () => R): R;
}

export function isCausalTraceSink(sink: TraceSink): sink is CausalTraceSink {
  return typeof (sink as Partial<CausalTraceSink>).causeScope === 'function';
}

/** causeScope on any sink: plain sinks just run fn. */
export function withCause<R>(sink: TraceSink, seq: number | undefined, fn: () => R): R {
  return isCausalTraceSink(sink) ? sink.causeScope(seq, fn) : fn();
}

/**
 * Whether anyone would see an event of this kind (or a leaf of it) emitted to sink: a sink without wants shows
 * everything. Emitters of high-volume events skip building them when not.
 */
export function wantsEvent(sink: TraceSink, kind: TraceKind, leaf = false): boolean {
  return sink.wants === undefined || sink.wants(kind, leaf);
}

/** The cause in effect on any sink (undefined for plain sinks). */
export function currentCause(sink: TraceSink): number | undefined {
  return isCausalTraceSink(sink) ? sink.currentCause : undefined;
}

/**
 * The event as the ring keeps it: one object literal per combination of optional fields, so every event has
 * its fields in-object (a spread `{ seq, time, ...event }` puts them in a separate backing store, and deleting
 * an undefined cause turned the object into a slower, bigger dictionary) and reads stay monomorphic.
 */
function traceEvent(seq: number, time: number, e: Omit<TraceEvent, 'seq' | 'time'>, cause: number | undefined): TraceEvent {
  const { kind, component, requestId, data } = e;
  if (requestId === undefined) return cause === undefined ? { seq, time, kind, component, data } : { seq, time, kind, component, cause, data };
  return cause === undefined ? { seq, time, kind, component, requestId, data } : { seq, time, kind, component, requestId, cause, data };
}

export type TraceSubscriber = (event: TraceEvent) => void;

export interface TraceBusOptions {
  clock: Clock;
  /** Ring buffer size: how many recent events recent() can return. Default 10 000. */
  capacity?: number;
  /**
   * Kinds delivered to subscribers but not kept in the ring. Default: the leaves (kinds nothing names as its
   * cause): the API server's stage and response events, a queue's done and a reconcile's end. They are over half
   * of all events, so the ring reaches twice as far back for "why does this exist?", they die young instead of
   * aging in the ring (cheaper garbage collection), and with nobody subscribed their emitters skip them (wants).
   */
  unbufferedKinds?: readonly TraceKind[];
}

const defaultUnbufferedKinds: readonly TraceKind[] = [TraceKind.ApiStage, TraceKind.ApiResponse, TraceKind.QueueDone, TraceKind.ReconcileEnd];

export class TraceBus implements CausalTraceSink {
  private readonly clock: Clock;
  private readonly capacity: number;
  private readonly ring: (TraceEvent | undefined)[];
  /** Index the next event goes to. */
  private head = 0;
  private size = 0;
  private nextSeq = 1;
  private readonly causes: (number | undefined)[] = [];
  private readonly subscribers = new Set<TraceSubscriber>();
  private readonly unbuffered: ReadonlySet<string>;

  constructor(options: TraceBusOptions) {
    this.clock = options.clock;
    this.capacity = Math.max(1, options.capacity ?? 10_000);
    this.ring = new Array<TraceEvent | undefined>(this.capacity);
    this.unbuffered = new Set(options.unbufferedKinds ?? defaultUnbufferedKinds);
  }

  get currentCause(): number | undefined {
    return this.causes.length > 0 ? this.causes[this.causes.length - 1] : undefined;
  }

  /** seq of the last event emitted (0 before any). */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  emit(event: Omit<TraceEvent, 'seq' | 'time'>, leaf = false): number {
    const seq = this.nextSeq++;
    const cause = event.cause !== undefined ? event.cause : this.currentCause;
    const full = traceEvent(seq, this.clock.now(), event, cause);
    if (this.buffers(full.kind, leaf)) {
      this.ring[this.head] = full;
      this.head = (this.head + 1) % this.capacity;
      if (this.size < this.capacity) this.size++;
    }
    for (const s of this.subscribers) s(full);
    return seq;
  }

  /** An unbuffered kind or a leaf with nobody subscribed is seen by no one: emitters need not build it. */
  wants(kind: TraceKind, leaf = false): boolean {
    return this.subscribers.size > 0 || this.buffers(kind, leaf);
  }

  /** Whether the ring keeps such an event. */
  private buffers(kind: string, leaf: boolean): boolean {
    return !leaf && !this.unbuffered.has(kind);
  }

  causeScope<R>(seq: number | undefined, fn: () => R): R {
    this.causes.push(seq);
    try {
      return fn();
    } finally {
      this.causes.pop();
    }
  }

  /** Calls fn for every later event; returns the unsubscribe function. */
  subscribe(fn: TraceSubscriber): () => void {
    this.subscribers.add(fn);
    return () => {
      this.subscribers.delete(fn);
    };
  }

  /** The buffered events, oldest first; with afterSeq, only those newer than it. */
  recent(afterSeq = 0): TraceEvent[] {
    const out: TraceEvent[] = [];
    const start = (this.head - this.size + this.capacity) % this.capacity;
    for (let i = 0; i < this.size; i++) {
      const e = this.ring[(start + i) % this.capacity]!;
      if (e.seq > afterSeq) out.push(e);
    }
    return out;
  }

  /** Looks an event up by seq while it is still in the buffer (a binary search: unbuffered kinds leave gaps). */
  get(seq: number): TraceEvent | undefined {
    const start = (this.head - this.size + this.capacity) % this.capacity;
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const e = this.ring[(start + mid) % this.capacity]!;
      if (e.seq === seq) return e;
      if (e.seq < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The chain of causes that led to an event, itself first, as far as the buffer reaches. */
  causeChain(seq: number): TraceEvent[] {
    const out: TraceEvent[] = [];
    const seen = new Set<number>();
    for (let e = this.get(seq); e && !seen.has(e.seq); e = e.cause === undefined ? undefined : this.get(e.cause)) {
      seen.add(e.seq);
      out.push(e);
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.head = 0;
    this.size = 0;
  }
}
