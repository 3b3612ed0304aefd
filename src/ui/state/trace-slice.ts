// The API requests the trace channel reported, newest last, capped so a long session stays small.
import type { StateCreator } from 'zustand';
import type { TraceBatch } from '../../shared/protocol/messages';
import { TraceKind } from '../../shared/protocol/trace';
import type { AppState } from './store';

export const requestLogCap = 200;

export interface ApiRequestRow {
  seq: number;
  /** Simulated time the request finished, ms. */
  time: number;
  verb: string;
  resource: string;
  namespace: string;
  name: string;
  user: string;
  /** HTTP status code of the response. */
  code: number;
}

export interface TraceSlice {
  requests: readonly ApiRequestRow[];
  applyTrace(batch: TraceBatch): void;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Pairs each api.response with its api.request (by requestId) to make one row per finished request. */
export function requestRows(batch: TraceBatch, pending: Map<string, Record<string, unknown>>): ApiRequestRow[] {
  const rows: ApiRequestRow[] = [];
  for (const e of batch.events) {
    if (e.kind === TraceKind.ApiRequest && e.requestId) pending.set(e.requestId, e.data);
    else if (e.kind === TraceKind.ApiResponse && e.requestId) {
      const req = pending.get(e.requestId) ?? e.data;
      pending.delete(e.requestId);
      rows.push({
        seq: e.seq,
        time: e.time,
        verb: str(req.verb),
        resource: str(req.resource),
        namespace: str(req.namespace),
        name: str(req.name),
        user: str(req.user),
        code: typeof e.data.code === 'number' ? e.data.code : 0,
      });
    }
  }
  // A request whose response never came (dropped by the channel cap) must not be kept for ever.
  if (pending.size > 1000) pending.clear();
  return rows;
}

export const createTraceSlice: StateCreator<AppState, [], [], TraceSlice> = (set) => {
  const pending = new Map<string, Record<string, unknown>>();
  return {
    requests: [],
    applyTrace(batch) {
      const rows = requestRows(batch, pending);
      if (rows.length === 0) return;
      set((state) => ({ requests: [...state.requests, ...rows].slice(-requestLogCap) }));
    },
  };
};
