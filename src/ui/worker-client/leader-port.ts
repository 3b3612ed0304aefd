// The port under the page's protocol client. The control plane the page talks to can move: to a worker this tab
// starts when it becomes the leader, or to another tab's worker through the relay (tab-relay.ts). The client stays
// the same; this port re-attaches it to the new transport and re-syncs it: every open watch is started again there
// (its first batch is a relist, which replaces what the page had), the trace channel too, and calls that were on the
// way to the old control plane fail with 503 (they may or may not have been applied, like a lost connection).
import type { Status } from '../../shared/api/status';
import type { ClientMessage, PortLike, SubscriptionId, WatchAck, WorkerMessage } from '../../shared/protocol/messages';
import type { Transport } from './tab-relay';

type Listener = (event: { data: unknown }) => void;

export interface LeaderPort extends PortLike {
  /** Connects to a new control plane (detaching the current one first). `open` gets where to deliver its messages. */
  attach(open: (deliver: (message: WorkerMessage) => void) => Transport): void;
  /** Drops the current control plane: pending calls fail with `reason`. Messages wait for the next attach. */
  detach(reason: string): void;
  /**
   * Stops the watches and the trace channel at the control plane while the page is hidden (calls still go): a
   * hidden page acknowledges nothing (no animation frames), and its unacknowledged batches would hold the worker's
   * shared frame budget that the visible tabs need.
   */
  pause(): void;
  /** Starts them again: each watch relists. */
  resume(): void;
}

function unavailable(message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 };
}

export function createLeaderPort(): LeaderPort {
  const listeners = new Set<Listener>();
  let transport: Transport | undefined;
  /** The current transport said ready. */
  let ready = false;
  /** A transport said ready before: the client is past its own queue, so later readies re-sync it. */
  let greeted = false;
  /** Calls sent on the current transport and not answered. */
  const pending = new Set<number>();
  /** Calls made while no transport was ready. */
  let waiting: ClientMessage[] = [];
  /** The client's open watches, to start again on a new transport. */
  const watches = new Map<SubscriptionId, Extract<ClientMessage, { type: 'watch/start' }>>();
  /** Watches whose last batch from the current transport is unacknowledged: only those acks go on. */
  const unacked = new Set<SubscriptionId>();
  let tracing = false;
  let traceUnacked = false;
  let paused = false;
  /**
   * Batch numbers (WatchBatch.seq) as the client sees them run on across control planes: a subscription started
   * again elsewhere numbers from 1, so its batches are shifted past the last number the client got (and acks
   * shifted back), and the client sees one subscription whose next batch happens to be a relist.
   */
  const lastSeq = new Map<SubscriptionId, number>();
  const seqBase = new Map<SubscriptionId, number>();

  const emit = (data: unknown) => {
    for (const l of [...listeners]) l({ data });
  };

  function onTransportMessage(from: Transport, msg: WorkerMessage): void {
    if (from !== transport) return;
    switch (msg.type) {
      case 'ready': {
        const resync = greeted;
        ready = true;
        greeted = true;
        emit(msg);
        if (resync && !paused) startAll(from);
        const calls = waiting;
        waiting = [];
        for (const c of calls) sendNow(c);
        return;
      }
      case 'reply':
        pending.delete(msg.id);
        break;
      case 'watch/batch': {
        if (paused || !watches.has(msg.id)) return;
        unacked.add(msg.id);
        if (msg.batch.seq === undefined) break;
        const seq = msg.batch.seq + (seqBase.get(msg.id) ?? 0);
        lastSeq.set(msg.id, seq);
        emit({ ...msg, batch: { ...msg.batch, seq } });
        return;
      }
      case 'watch/error':
        watches.delete(msg.id);
        unacked.delete(msg.id);
        break;
      case 'trace/batch':
        if (paused) return;
        traceUnacked = true;
        break;
    }
    emit(msg);
  }

  function startAll(to: Transport): void {
    if (tracing) to.post({ type: 'trace/start' });
    for (const [id, start] of watches) {
      seqBase.set(id, lastSeq.get(id) ?? 0);
      to.post(start);
    }
  }

  function sendNow(msg: ClientMessage): void {
    if (msg.type === 'call') pending.add(msg.id);
    transport!.post(msg);
  }

  function failPending(reason: string): void {
    const status = unavailable(reason);
    const ids = [...pending];
    pending.clear();
    for (const id of ids) emit({ type: 'reply', id, ok: false, status } satisfies WorkerMessage);
  }

  const port: LeaderPort = {
    postMessage(data) {
      const msg = data as ClientMessage;
      switch (msg.type) {
        case 'watch/start':
          watches.set(msg.id, msg);
          break;
        case 'watch/stop':
          watches.delete(msg.id);
          unacked.delete(msg.id);
          lastSeq.delete(msg.id);
          seqBase.delete(msg.id);
          break;
        case 'watch/ack': {
          const base = seqBase.get(msg.id) ?? 0;
          // An ack of a batch the control plane before sent: the current one has nothing to release for it.
          if (msg.seq !== undefined && msg.seq <= base) return;
          if (!unacked.delete(msg.id)) return;
          if (msg.seq !== undefined && base > 0) {
            if (transport && ready && !paused) transport.post({ ...msg, seq: msg.seq - base });
            return;
          }
          break;
        }
        case 'watch/acks': {
          // Each entry as a 'watch/ack' above; what is left goes on as one message.
          const acks: WatchAck[] = [];
          for (const a of msg.acks) {
            const base = seqBase.get(a.id) ?? 0;
            if (a.seq !== undefined && a.seq <= base) continue;
            if (!unacked.delete(a.id)) continue;
            acks.push(a.seq !== undefined && base > 0 ? { id: a.id, seq: a.seq - base } : a);
          }
          const trace = msg.trace === true && traceUnacked;
          if (trace) traceUnacked = false;
          if ((acks.length > 0 || trace) && transport && ready && !paused) transport.post(trace ? { type: 'watch/acks', acks, trace } : { type: 'watch/acks', acks });
          return;
        }
        case 'trace/start':
          tracing = true;
          break;
        case 'trace/stop':
          tracing = false;
          traceUnacked = false;
          break;
        case 'trace/ack':
          if (!traceUnacked) return;
          traceUnacked = false;
          break;
      }
      if (paused && msg.type !== 'call') return;
      if (transport && ready) sendNow(msg);
      else if (msg.type === 'call') waiting.push(msg);
      // Watch and trace state is replayed from the maps above on the next ready.
    },
    addEventListener(_type, listener) {
      listeners.add(listener);
    },
    removeEventListener(_type, listener) {
      listeners.delete(listener);
    },
    attach(open) {
      if (transport) port.detach('the control plane moved to another tab; retry');
      let created: Transport | undefined;
      const deliver = (m: WorkerMessage) => {
        // A transport may greet synchronously while it is being created.
        if (!created) queueMicrotask(() => onTransportMessage(created!, m));
        else onTransportMessage(created, m);
      };
      created = open(deliver);
      transport = created;
    },
    pause() {
      if (paused) return;
      paused = true;
      unacked.clear();
      traceUnacked = false;
      if (!transport || !ready) return;
      for (const id of watches.keys()) transport.post({ type: 'watch/stop', id });
      if (tracing) transport.post({ type: 'trace/stop' });
    },
    resume() {
      if (!paused) return;
      paused = false;
      if (transport && ready) startAll(transport);
    },
    detach(reason) {
      const old = transport;
      transport = undefined;
      ready = false;
      unacked.clear();
      traceUnacked = false;
      old?.close();
      failPending(reason);
    },
  };
  return port;
}
