// 'net.request' trace events as the Objects graph animates them: which graph nodes the request passed through
// (Service → Pod), and whether it stopped at the last one. Pure, so it is tested without React Flow.
import type { TrafficHop } from '../../../shared/protocol/network';
import type { TraceEvent } from '../../../shared/protocol/trace';
import { TraceKind } from '../../../shared/protocol/trace';
import type { ObjectGraphNode } from '../objects/object-graph';
import { GraphNodeType } from '../objects/object-graph';

export interface NetTrace {
  seq: number;
  url: string;
  ok: boolean;
  status?: number;
  hops: TrafficHop[];
}

function isHop(h: unknown): h is TrafficHop {
  if (!h || typeof h !== 'object') return false;
  const o = h as Record<string, unknown>;
  return typeof o.kind === 'string' && typeof o.detail === 'string' && typeof o.ok === 'boolean';
}

/** The data plane's requests in a trace batch (data: TrafficParams + TrafficResult); malformed ones are skipped. */
export function netTraces(events: readonly TraceEvent[]): NetTrace[] {
  const out: NetTrace[] = [];
  for (const e of events) {
    if (e.kind !== TraceKind.NetRequest) continue;
    const d = e.data;
    if (!Array.isArray(d.hops)) continue;
    const trace: NetTrace = { seq: e.seq, url: typeof d.url === 'string' ? d.url : '', ok: d.ok === true, hops: d.hops.filter(isHop) };
    if (typeof d.status === 'number') trace.status = d.status;
    out.push(trace);
  }
  return out;
}

export interface TrafficRoute {
  /** Graph node ids in the order the request passed them (consecutive repeats folded). */
  nodeIds: string[];
  /** The request stopped (dropped, refused, no endpoints): the token ends red at the last node. */
  failed: boolean;
  /** "GET http://web.default.svc.cluster.local/ → 200" for the token's name. */
  label: string;
}

/** Maps a request's hops onto the graph's nodes; a pod drawn inside its owner's group lands on the group. */
export function routeOnGraph(trace: NetTrace, nodes: readonly ObjectGraphNode[]): TrafficRoute | undefined {
  const ids: string[] = [];
  for (const hop of trace.hops) {
    const ref = hop.object;
    if (!ref) continue;
    const node =
      nodes.find((n) => n.type === GraphNodeType.Object && n.kind === ref.kind && n.name === ref.name && (n.namespace ?? '') === (ref.namespace ?? '')) ??
      (ref.kind === 'Pod'
        ? nodes.find((n) => n.type === GraphNodeType.Pods && n.namespace === ref.namespace && n.owner && ref.name.startsWith(`${n.owner.name}-`))
        : undefined);
    if (node && ids[ids.length - 1] !== node.id) ids.push(node.id);
  }
  if (ids.length === 0) return undefined;
  const outcome = trace.ok ? String(trace.status ?? 'response') : 'stopped';
  return { nodeIds: ids, failed: !trace.ok, label: `Request ${trace.url} → ${outcome}` };
}
