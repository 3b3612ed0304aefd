// The wire format between the UI (client.ts) and the worker (src/worker/serve.ts). Every message is plain
// JSON; the two halves must change together (bump PROTOCOL_VERSION).
import type { ApiRequest } from '../api/request';
import type { Status } from '../api/status';
import type { KubeObject } from '../api/types';
import type { ObjectDiff } from './diff';
import type { MethodName } from './methods';
import type { TraceEvent, TraceKind } from './trace';

export type SubscriptionId = number;

/**
 * What a watch subscription delivers: the squashed changes since the previous batch and the resourceVersion
 * they reach. When `relist` is set the diff is a replacement, not a delta: `added` holds the complete current
 * list and the receiver drops everything it had for this subscription first. The first batch of every
 * subscription is such a list (`initial` set too); later ones follow a 410 Gone or a cluster reset.
 */
export interface WatchBatch {
  diff: ObjectDiff<KubeObject>;
  resourceVersion: string;
  relist?: true;
  initial?: true;
  /**
   * Numbers a subscription's batches 1, 2, 3… (a resend repeats its number): the page drops a duplicate and, on
   * a gap, resubscribes (a fresh list) instead of applying a delta on top of one it never saw.
   */
  seq?: number;
}

/**
 * Trace events of one frame. At most the worker's cap are carried; the rest are only counted, per kind, so the
 * UI can still show "+1,234 queue.add" at high simulation speed.
 */
export interface TraceBatch {
  events: TraceEvent[];
  dropped: number;
  droppedByKind: Partial<Record<TraceKind, number>>;
}

/** One subscription's acknowledgement inside 'watch/acks'. */
export interface WatchAck {
  id: SubscriptionId;
  seq?: number;
}

/** UI → worker. */
export type ClientMessage =
  | { type: 'call'; id: number; method: MethodName; params: unknown }
  | { type: 'watch/start'; id: SubscriptionId; request: ApiRequest }
  | { type: 'watch/stop'; id: SubscriptionId }
  /** The batch was applied and a frame rendered: the worker may send the next one. */
  | { type: 'watch/ack'; id: SubscriptionId; seq?: number }
  /**
   * The acks of one frame in one message: each entry as its own 'watch/ack', and with `trace` a 'trace/ack' too.
   * A frame that took in batches of ten subscriptions posts one message, not ten.
   */
  | { type: 'watch/acks'; acks: WatchAck[]; trace?: true }
  | { type: 'trace/start' }
  | { type: 'trace/stop' }
  | { type: 'trace/ack' };

/** Worker → UI. */
export type WorkerMessage =
  | { type: 'ready'; protocolVersion: number }
  | { type: 'reply'; id: number; ok: true; result: unknown }
  | { type: 'reply'; id: number; ok: false; status: Status }
  | { type: 'watch/batch'; id: SubscriptionId; batch: WatchBatch }
  /** The subscription could not (re)list, e.g. forbidden or the resource went away; it is over. */
  | { type: 'watch/error'; id: SubscriptionId; status: Status }
  | { type: 'trace/batch'; batch: TraceBatch }
  /** Output of a running 'kubectl/run' call, as it is printed (text: one or more lines joined with "\n"). */
  | { type: 'kubectl/output'; id: string; stream: 'stdout' | 'stderr'; text: string }
  /** `kubectl edit` wants the page's editor: the page answers with the call 'kubectl/edited'. */
  | { type: 'kubectl/edit'; id: string; yaml: string; title: string };

/**
 * The least a transport must offer: a dedicated worker's global scope, a Worker, a MessagePort
 * (after start()) and the in-memory pair in port.ts all fit.
 */
export interface PortLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
