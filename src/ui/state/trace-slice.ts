// What the trace channel reported, correlated once per batch (features/control-plane/trace-flow.ts): the
// finished API requests (newest last, capped, for the timeline and the Control plane's list), the latest batch's
// flow (requests, watch deliveries, reconciles) for the Control plane view to animate, and the last refusals.
import type { StateCreator } from 'zustand';
import type { TraceBatch } from '../../shared/protocol/messages';
import type { FlowOutput, FlowRequest, FlowSchedule } from '../features/control-plane/trace-flow';
import { createFlowCorrelator } from '../features/control-plane/trace-flow';
import type { AppState } from './store';

export const requestLogCap = 200;
export const refusalLogCap = 5;
export const userRequestLogCap = 50;

export interface ApiRequestRow {
  /** seq of the api.response event. */
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
  /** Everything the trace said about it: sender, stages, refusal, commit. */
  request: FlowRequest;
}

/** One trace batch as the Control plane view animates it; `serial` changes with every batch. */
export interface TraceFlow extends FlowOutput {
  serial: number;
  /** Events the worker's trace channel summarised into counts (cap per frame) instead of sending. */
  dropped: number;
}

export interface TraceSlice {
  requests: readonly ApiRequestRow[];
  /** The user's own requests (kubectl, the page), kept apart: the components' traffic soon pushes them out of `requests`. */
  userRequests: readonly ApiRequestRow[];
  flow: TraceFlow;
  /** The newest refused requests (a stage said "refuse"), newest last. */
  refusals: readonly FlowRequest[];
  /** The scheduler's latest outcome the trace reported. */
  lastSchedule: FlowSchedule | undefined;
  applyTrace(batch: TraceBatch): void;
}

const emptyFlow: TraceFlow = { serial: 0, requests: [], deliveries: [], reconciles: [], schedules: [], dropped: 0 };

function toRow(r: FlowRequest): ApiRequestRow {
  return { seq: r.responseSeq, time: r.time, verb: r.verb, resource: r.resource, namespace: r.namespace, name: r.name, user: r.user, code: r.code, request: r };
}

export const createTraceSlice: StateCreator<AppState, [], [], TraceSlice> = (set) => {
  const correlator = createFlowCorrelator();
  let serial = 0;
  return {
    requests: [],
    userRequests: [],
    flow: emptyFlow,
    refusals: [],
    lastSchedule: undefined,
    applyTrace(batch) {
      const out = correlator.ingest(batch.events);
      if (out.requests.length + out.deliveries.length + out.reconciles.length + out.schedules.length === 0 && batch.dropped === 0) return;
      const flow: TraceFlow = { ...out, serial: ++serial, dropped: batch.dropped };
      const rows = out.requests.map(toRow);
      const refused = out.requests.filter((r) => r.refusedAt !== undefined);
      const mine = rows.filter((r) => r.request.from === 'user');
      set((state) => ({
        flow,
        requests: rows.length ? [...state.requests, ...rows].slice(-requestLogCap) : state.requests,
        userRequests: mine.length ? [...state.userRequests, ...mine].slice(-userRequestLogCap) : state.userRequests,
        refusals: refused.length ? [...state.refusals, ...refused].slice(-refusalLogCap) : state.refusals,
        lastSchedule: out.schedules.at(-1) ?? state.lastSchedule,
      }));
    },
  };
};
