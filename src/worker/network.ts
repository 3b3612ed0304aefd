// 'net/request': the page's "send traffic" — one HTTP request through the cluster's simulated data plane
// (control-plane/network/data-plane.ts), checked at the door since it arrives as JSON from the page.
import { newBadRequest } from '../shared/api/status';
import type { TrafficParams, TrafficResult } from '../shared/protocol/network';
import type { ServableCluster } from './serve';

/** What the worker needs of the data plane (DataPlane satisfies it). */
export interface TrafficPort {
  request(params: TrafficParams): TrafficResult;
}

function invalid(field: string, detail: string): never {
  throw newBadRequest(`invalid request: ${field}: ${detail}`);
}

/** The request's fields as the contract types them; a 400 names the first wrong one. */
export function validateTrafficParams(params: unknown): TrafficParams {
  if (typeof params !== 'object' || params === null) invalid('params', 'Required value');
  const p = params as Record<string, unknown>;
  const from = p.from as Record<string, unknown> | undefined;
  if (typeof from !== 'object' || from === null) invalid('from', 'Required value');
  let source: TrafficParams['from'];
  if (from.outside === true) source = { outside: true };
  else {
    const pod = from.pod as Record<string, unknown> | undefined;
    if (typeof pod !== 'object' || pod === null) invalid('from', 'Invalid value: must name a pod or be outside');
    if (typeof pod.namespace !== 'string' || pod.namespace === '') invalid('from.pod.namespace', 'Required value');
    if (typeof pod.name !== 'string' || pod.name === '') invalid('from.pod.name', 'Required value');
    source = { pod: { namespace: pod.namespace, name: pod.name } };
  }
  if (typeof p.url !== 'string' || p.url.trim() === '') invalid('url', 'Required value');
  if (p.method !== undefined && (typeof p.method !== 'string' || !/^[A-Za-z]+$/.test(p.method))) invalid('method', `Invalid value: ${JSON.stringify(p.method)}`);
  if (p.host !== undefined && typeof p.host !== 'string') invalid('host', `Invalid value: ${JSON.stringify(p.host)}`);
  return { from: source, url: p.url, ...(p.method ? { method: p.method as string } : {}), ...(p.host ? { host: p.host as string } : {}) };
}

export function sendTraffic(cluster: ServableCluster, params: unknown): TrafficResult {
  const network = cluster.network;
  if (!network) throw newBadRequest('this cluster simulates no network');
  return network.request(validateTrafficParams(params));
}
