// The UI half of the protocol, transport-agnostic: give it anything PortLike (a Worker, a MessagePort, one end
// of createPortPair()). The worker half is src/worker/serve.ts.
//
// - call(method, params) resolves with the result or rejects with a ProtocolError carrying the metav1.Status.
// - watch(request, onBatch) lists then watches; each batch is acknowledged on the next animation frame (or the
//   injected scheduleAck; a frame's acks go in one message), and the worker sends the next one only after the
//   ack, which paces it to the UI.
// - Messages are queued until the worker says ready; a worker speaking another protocol version fails them.
import type { ApiRequest } from '../api/request';
import type { Status } from '../api/status';
import type { ClientMessage, PortLike, SubscriptionId, TraceBatch, WatchAck, WatchBatch, WorkerMessage } from './messages';
import type { MethodName, MethodParams, MethodResult } from './methods';
import { PROTOCOL_VERSION } from './version';

/** A failed call: like the control plane's StatusError, it carries the plain Status (code, reason, message). */
export class ProtocolError extends Error {
  constructor(readonly status: Status) {
    super(status.message);
    this.name = 'ProtocolError';
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): string {
    return this.status.reason;
  }
}

export interface WatchHandlers {
  /** Called once per batch, synchronously on arrival; apply it, the ack follows on the next frame. */
  onBatch(batch: WatchBatch): void;
  /** The subscription ended because the worker could not list (forbidden, unknown resource, …). */
  onError?(status: Status): void;
}

export interface ProtocolClient {
  call<M extends MethodName>(method: M, ...params: MethodParams<M> extends undefined ? [] : [MethodParams<M>]): Promise<MethodResult<M>>;
  /** Lists then watches what `request` names (group/version/resource, namespace, selectors). Returns unsubscribe. */
  watch(request: ApiRequest, handlers: WatchHandlers | ((batch: WatchBatch) => void)): () => void;
  /** Subscribes to the trace channel (started on the first subscriber, stopped after the last). */
  onTrace(handler: (batch: TraceBatch) => void): () => void;
  /** Output and editor requests of running 'kubectl/run' calls, as they arrive. Returns unsubscribe. */
  onKubectl(handler: (event: KubectlEvent) => void): () => void;
  /** Resolves once the worker said ready (rejects on a protocol version mismatch). */
  readonly ready: Promise<void>;
  close(): void;
}

/** What a running 'kubectl/run' sends before its reply. */
export type KubectlEvent = Extract<WorkerMessage, { type: 'kubectl/output' | 'kubectl/edit' }>;

export interface ProtocolClientOptions {
  /** How to wait for "the UI has rendered this batch": requestAnimationFrame when present, else a macrotask. */
  scheduleAck?: (fn: () => void) => void;
}

function defaultScheduleAck(fn: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => fn());
  else setTimeout(fn, 0);
}

function protocolStatus(message: string, code = 500, reason: Status['reason'] = 'InternalError'): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

export function createProtocolClient(port: PortLike, options: ProtocolClientOptions = {}): ProtocolClient {
  const scheduleAck = options.scheduleAck ?? defaultScheduleAck;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  const watches = new Map<SubscriptionId, WatchHandlers>();
  const traceHandlers = new Set<(batch: TraceBatch) => void>();
  const kubectlHandlers = new Set<(event: KubectlEvent) => void>();
  let queue: ClientMessage[] | undefined = [];
  let failure: Status | undefined;
  /**
   * Batches waiting for the next frame to be acknowledged, all in one scheduled callback and one message: a frame
   * that took in a batch of each of ten subscriptions registers one animation-frame callback and posts one ack.
   */
  let watchAcksDue: WatchAck[] = [];
  let traceAckDue = false;
  let acksScheduled = false;
  const sendAcks = () => {
    acksScheduled = false;
    // Only subscriptions still open: the stop of one already ended it at the worker.
    const acks = watchAcksDue.filter((a) => watches.has(a.id));
    const trace = traceAckDue && traceHandlers.size > 0;
    watchAcksDue = [];
    traceAckDue = false;
    if (acks.length === 1 && !trace) send(acks[0].seq === undefined ? { type: 'watch/ack', id: acks[0].id } : { type: 'watch/ack', id: acks[0].id, seq: acks[0].seq });
    else if (acks.length === 0 && trace) send({ type: 'trace/ack' });
    else if (acks.length > 0) send(trace ? { type: 'watch/acks', acks, trace } : { type: 'watch/acks', acks });
  };
  const ackOnNextFrame = (ack: WatchAck | 'trace') => {
    if (!acksScheduled) {
      acksScheduled = true;
      scheduleAck(sendAcks);
    }
    if (ack === 'trace') traceAckDue = true;
    else watchAcksDue.push(ack);
  };
  let nextCallId = 1;
  let nextWatchId = 1;
  let closed = false;

  let markReady!: () => void;
  let markFailed!: (e: unknown) => void;
  const ready = new Promise<void>((res, rej) => {
    markReady = res;
    markFailed = rej;
  });
  ready.catch(() => {}); // observed through call() rejections too; avoid an unhandled rejection

  function send(msg: ClientMessage): void {
    if (closed) return;
    if (queue) queue.push(msg);
    else port.postMessage(msg);
  }

  function fail(status: Status): void {
    failure = status;
    queue = undefined;
    markFailed(new ProtocolError(status));
    for (const p of pending.values()) p.reject(new ProtocolError(status));
    pending.clear();
    for (const w of watches.values()) w.onError?.(status);
    watches.clear();
  }

  function onMessage(event: { data: unknown }): void {
    const msg = event.data as WorkerMessage;
    switch (msg.type) {
      case 'ready': {
        if (msg.protocolVersion !== PROTOCOL_VERSION) {
          fail(protocolStatus(`protocol version mismatch: page speaks ${PROTOCOL_VERSION}, worker speaks ${msg.protocolVersion}; reload the page`));
          return;
        }
        const queued = queue ?? [];
        queue = undefined;
        for (const m of queued) port.postMessage(m);
        markReady();
        return;
      }
      case 'reply': {
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        if (msg.ok) p.resolve(msg.result);
        else p.reject(new ProtocolError(msg.status));
        return;
      }
      case 'watch/batch': {
        const w = watches.get(msg.id);
        if (!w) return; // unsubscribed meanwhile: no ack, the stop already ended it
        w.onBatch(msg.batch);
        // The batch's seq, so an ack of a resent duplicate does not release a later batch.
        ackOnNextFrame(msg.batch.seq === undefined ? { id: msg.id } : { id: msg.id, seq: msg.batch.seq });
        return;
      }
      case 'watch/error': {
        const w = watches.get(msg.id);
        watches.delete(msg.id);
        w?.onError?.(msg.status);
        return;
      }
      case 'trace/batch': {
        for (const h of [...traceHandlers]) h(msg.batch);
        ackOnNextFrame('trace');
        return;
      }
      case 'kubectl/output':
      case 'kubectl/edit':
        for (const h of [...kubectlHandlers]) h(msg);
        return;
    }
  }

  port.addEventListener('message', onMessage);
  (port as { start?: () => void }).start?.();

  return {
    ready,
    call(method, ...args) {
      if (failure) return Promise.reject(new ProtocolError(failure));
      if (closed) return Promise.reject(new ProtocolError(protocolStatus('protocol client closed', 503, 'ServiceUnavailable')));
      const id = nextCallId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        send({ type: 'call', id, method, params: args[0] });
      });
    },
    watch(request, handlers) {
      const h: WatchHandlers = typeof handlers === 'function' ? { onBatch: handlers } : handlers;
      if (failure) {
        h.onError?.(failure);
        return () => {};
      }
      const id = nextWatchId++;
      watches.set(id, h);
      send({ type: 'watch/start', id, request });
      return () => {
        if (!watches.delete(id)) return;
        send({ type: 'watch/stop', id });
      };
    },
    onTrace(handler) {
      traceHandlers.add(handler);
      if (traceHandlers.size === 1) send({ type: 'trace/start' });
      return () => {
        if (!traceHandlers.delete(handler)) return;
        if (traceHandlers.size === 0) send({ type: 'trace/stop' });
      };
    },
    onKubectl(handler) {
      kubectlHandlers.add(handler);
      return () => kubectlHandlers.delete(handler);
    },
    close() {
      if (closed) return;
      const status = protocolStatus('protocol client closed', 503, 'ServiceUnavailable');
      for (const p of pending.values()) p.reject(new ProtocolError(status));
      pending.clear();
      watches.clear();
      traceHandlers.clear();
      kubectlHandlers.clear();
      closed = true;
      port.removeEventListener('message', onMessage);
    },
  };
}
