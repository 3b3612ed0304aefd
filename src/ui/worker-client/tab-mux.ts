// The leader tab's multiplexer over its cluster worker: the page's own client and every follower tab's client
// each get an endpoint, and the worker sees one protocol client. Call ids, watch subscription ids and kubectl run
// ids are rewritten on the way in and mapped back on the way out, so each reply, watch batch and kubectl message
// reaches the tab that asked for it; the trace channel is shared (started while any tab wants it).
import type { ClientMessage, PortLike, SubscriptionId, WatchAck, WorkerMessage } from '../../shared/protocol/messages';

/** Methods whose params name a kubectl run by an id the page chose (rewritten per tab so two tabs cannot collide). */
const kubectlRunMethods: ReadonlySet<string> = new Set(['kubectl/run', 'kubectl/cancel', 'kubectl/edited']);
const RUN_ID_SEPARATOR = '|';

export interface MuxEndpoint {
  /** A message of this tab's protocol client. */
  post(message: ClientMessage): void;
  /** The tab went away: its watches and trace interest end; replies still on the way are dropped. */
  close(): void;
}

export interface TabMux {
  /** A new client. `deliver` gets the worker's messages meant for it, starting with 'ready'. key must not contain '|'. */
  connect(key: string, deliver: (message: WorkerMessage) => void): MuxEndpoint;
  /** Stops listening to the worker. */
  close(): void;
}

interface Endpoint {
  key: string;
  deliver: (message: WorkerMessage) => void;
  /** The tab's subscription id → the worker's. */
  subs: Map<SubscriptionId, SubscriptionId>;
  tracing: boolean;
  closed: boolean;
}

/**
 * `onOther` gets worker messages outside the protocol (e.g. the worker saying its storage connection closed).
 */
export function createTabMux(worker: PortLike, onOther?: (data: unknown) => void): TabMux {
  const endpoints = new Map<string, Endpoint>();
  const calls = new Map<number, { ep: Endpoint; id: number }>();
  const subs = new Map<SubscriptionId, { ep: Endpoint; id: SubscriptionId }>();
  let nextCall = 1;
  let nextSub = 1;
  let ready: WorkerMessage | undefined;
  /** Messages of tabs that arrived before the worker was ready (F17: buffered while loading). */
  let queue: ClientMessage[] = [];
  let tracers = 0;
  let traceUnacked = false;

  const send = (message: ClientMessage) => {
    if (ready) worker.postMessage(message);
    else queue.push(message);
  };

  function stopSub(ep: Endpoint, id: SubscriptionId): void {
    const gid = ep.subs.get(id);
    if (gid === undefined) return;
    ep.subs.delete(id);
    subs.delete(gid);
    send({ type: 'watch/stop', id: gid });
  }

  function setTracing(ep: Endpoint, on: boolean): void {
    if (ep.tracing === on) return;
    ep.tracing = on;
    tracers += on ? 1 : -1;
    if (on && tracers === 1) send({ type: 'trace/start' });
    if (!on && tracers === 0) send({ type: 'trace/stop' });
  }

  function fromTab(ep: Endpoint, msg: ClientMessage): void {
    if (ep.closed) return;
    switch (msg.type) {
      case 'call': {
        const gid = nextCall++;
        calls.set(gid, { ep, id: msg.id });
        let params = msg.params;
        if (kubectlRunMethods.has(msg.method) && params && typeof (params as { id?: unknown }).id === 'string') {
          params = { ...(params as object), id: `${ep.key}${RUN_ID_SEPARATOR}${(params as { id: string }).id}` };
        }
        send({ type: 'call', id: gid, method: msg.method, params });
        return;
      }
      case 'watch/start': {
        stopSub(ep, msg.id);
        const gid = nextSub++;
        ep.subs.set(msg.id, gid);
        subs.set(gid, { ep, id: msg.id });
        send({ type: 'watch/start', id: gid, request: msg.request });
        return;
      }
      case 'watch/stop':
        stopSub(ep, msg.id);
        return;
      case 'watch/ack': {
        const gid = ep.subs.get(msg.id);
        if (gid !== undefined) send({ ...msg, id: gid });
        return;
      }
      case 'watch/acks': {
        // The tab's ids mapped to the worker's; the trace ack counts only for the batch no tab acknowledged yet.
        const acks: WatchAck[] = [];
        for (const a of msg.acks) {
          const gid = ep.subs.get(a.id);
          if (gid !== undefined) acks.push(a.seq === undefined ? { id: gid } : { id: gid, seq: a.seq });
        }
        const trace = msg.trace === true && traceUnacked;
        if (trace) traceUnacked = false;
        if (acks.length > 0 || trace) send(trace ? { type: 'watch/acks', acks, trace } : { type: 'watch/acks', acks });
        return;
      }
      case 'trace/start':
        setTracing(ep, true);
        return;
      case 'trace/stop':
        setTracing(ep, false);
        return;
      case 'trace/ack':
        // One ack per batch: the first tab that rendered it paces the channel.
        if (traceUnacked) {
          traceUnacked = false;
          send({ type: 'trace/ack' });
        }
        return;
    }
  }

  function onWorkerMessage(event: { data: unknown }): void {
    const msg = event.data as WorkerMessage;
    switch (msg?.type) {
      case 'ready': {
        const first = !ready;
        ready = msg;
        if (first) {
          const queued = queue;
          queue = [];
          for (const m of queued) worker.postMessage(m);
        }
        for (const ep of endpoints.values()) ep.deliver(msg);
        return;
      }
      case 'reply': {
        const call = calls.get(msg.id);
        if (!call) return;
        calls.delete(msg.id);
        if (!call.ep.closed) call.ep.deliver({ ...msg, id: call.id });
        return;
      }
      case 'watch/batch':
      case 'watch/error': {
        const sub = subs.get(msg.id);
        if (!sub) return;
        if (msg.type === 'watch/error') {
          subs.delete(msg.id);
          sub.ep.subs.delete(sub.id);
        }
        sub.ep.deliver({ ...msg, id: sub.id });
        return;
      }
      case 'trace/batch':
        traceUnacked = true;
        for (const ep of endpoints.values()) if (ep.tracing) ep.deliver(msg);
        return;
      case 'kubectl/output':
      case 'kubectl/edit': {
        const cut = msg.id.indexOf(RUN_ID_SEPARATOR);
        const ep = cut < 0 ? undefined : endpoints.get(msg.id.slice(0, cut));
        if (ep) ep.deliver({ ...msg, id: msg.id.slice(cut + 1) });
        return;
      }
      default:
        onOther?.(event.data);
    }
  }

  worker.addEventListener('message', onWorkerMessage);

  return {
    connect(key, deliver) {
      if (key.includes(RUN_ID_SEPARATOR)) throw new Error(`mux endpoint key must not contain "${RUN_ID_SEPARATOR}"`);
      const previous = endpoints.get(key);
      if (previous) closeEndpoint(previous);
      const ep: Endpoint = { key, deliver, subs: new Map(), tracing: false, closed: false };
      endpoints.set(key, ep);
      // Like a port: the greeting arrives asynchronously.
      if (ready) {
        const greeting = ready;
        queueMicrotask(() => {
          if (!ep.closed) ep.deliver(greeting);
        });
      }
      return { post: (m) => fromTab(ep, m), close: () => closeEndpoint(ep) };
    },
    close() {
      worker.removeEventListener('message', onWorkerMessage);
      for (const ep of [...endpoints.values()]) closeEndpoint(ep);
    },
  };

  function closeEndpoint(ep: Endpoint): void {
    if (ep.closed) return;
    for (const id of [...ep.subs.keys()]) stopSub(ep, id);
    setTracing(ep, false);
    ep.closed = true;
    if (endpoints.get(ep.key) === ep) endpoints.delete(ep.key);
  }
}
