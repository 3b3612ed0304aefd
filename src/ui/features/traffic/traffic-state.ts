// The "Send traffic" panel's state, outside the components so the inspector and the Objects toolbar open the same
// panel: where the request starts, the URL, and what came back. Sending is one 'net/request' call per request.
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { KubeObject } from '../../../shared/api/types';
import type { TrafficParams, TrafficResult, TrafficSource } from '../../../shared/protocol/network';
import type { ProtocolClient } from '../../../shared/protocol/client';
import type { TrafficTarget } from './traffic-target';
import { trafficDefaults } from './traffic-target';

/** The From picker's value for a request from outside the cluster (pods are "namespace/name"). */
export const OutsideTheCluster = 'outside';

export interface TrafficUiState {
  open: boolean;
  target: TrafficTarget | undefined;
  from: string;
  url: string;
  host: string;
  sending: boolean;
  /** The answers of the last Send (one) or Send 10 (ten), oldest first. */
  results: TrafficResult[];
  /** Why the worker could not send at all (not a network outcome: those are results). */
  error: string | undefined;
  openFor(obj: KubeObject | undefined): void;
  close(): void;
  set(patch: Partial<Pick<TrafficUiState, 'from' | 'url' | 'host'>>): void;
}

export const trafficUi = createStore<TrafficUiState>()((set) => ({
  open: false,
  target: undefined,
  from: OutsideTheCluster,
  url: 'http://',
  host: '',
  sending: false,
  results: [],
  error: undefined,
  openFor: (obj) => {
    if (!obj) return set({ open: true, target: undefined, results: [], error: undefined });
    const d = trafficDefaults(obj);
    set({ open: true, target: { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' }, url: d.url, host: d.host, results: [], error: undefined });
  },
  close: () => set({ open: false }),
  set: (patch) => set(patch),
}));

export function useTrafficUi<T>(selector: (s: TrafficUiState) => T): T {
  return useStore(trafficUi, selector);
}

export function trafficSource(from: string): TrafficSource {
  if (from === OutsideTheCluster) return { outside: true };
  const slash = from.indexOf('/');
  return { pod: { namespace: from.slice(0, slash), name: from.slice(slash + 1) } };
}

export function trafficParams(s: Pick<TrafficUiState, 'from' | 'url' | 'host'>): TrafficParams {
  const params: TrafficParams = { from: trafficSource(s.from), url: s.url.trim() };
  if (s.host.trim()) params.host = s.host.trim();
  return params;
}

/** Sends `count` requests one after another (so kube-proxy's choices show up as a spread) and keeps every answer. */
export async function sendTraffic(client: Pick<ProtocolClient, 'call'>, count: number, store = trafficUi): Promise<void> {
  const s = store.getState();
  if (s.sending) return;
  const params = trafficParams(s);
  store.setState({ sending: true, results: [], error: undefined });
  const results: TrafficResult[] = [];
  try {
    for (let i = 0; i < count; i++) {
      results.push(await client.call('net/request', params));
      store.setState({ results: [...results] });
    }
  } catch (e) {
    store.setState({ error: e instanceof Error ? e.message : String(e) });
  } finally {
    store.setState({ sending: false });
  }
}

/** "10 requests: 8 × 200, 2 failed" for Send 10. */
export function summarizeResults(results: readonly TrafficResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) {
    const k = r.ok ? String(r.status ?? 'response') : 'failed';
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const parts = [...counts].map(([k, n]) => (k === 'failed' ? `${n} failed` : `${n} × ${k}`));
  return `${results.length} request${results.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
