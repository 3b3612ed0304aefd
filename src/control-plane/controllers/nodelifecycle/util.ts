// Small helpers the node lifecycle, taint eviction and pod GC controllers share: time parsing, semantic deep
// equality, node/pod condition lookup and UpdatePodCondition (pkg/api/v1/pod/util.go).
import type { Node, NodeCondition, NodeStatus, Pod, PodCondition, PodStatus } from 'kubernetes-types/core/v1';
import { rfc3339 } from '../../sim/clock';

/** metav1.Time / MicroTime text → ms since the epoch; undefined for a missing or unreadable time. */
export function parseTime(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** apiequality.Semantic.DeepEqual on JSON values: key order does not matter, missing equals undefined. */
export function semanticDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!semanticDeepEqual(a[i], bb[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // Plain loops, no key set: this runs for every pod update (taint eviction compares tolerations).
  for (const k in ao) if (Object.prototype.hasOwnProperty.call(ao, k) && !semanticDeepEqual(ao[k], bo[k])) return false;
  for (const k in bo) if (Object.prototype.hasOwnProperty.call(bo, k) && !Object.prototype.hasOwnProperty.call(ao, k) && !semanticDeepEqual(ao[k], bo[k])) return false;
  return true;
}

/** GetNodeCondition: the condition of that type, or undefined. */
export function getNodeCondition(status: NodeStatus | undefined, type: string): NodeCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/** nodeutil.IsNodeReady: the Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  return getNodeCondition(node.status, 'Ready')?.status === 'True';
}

export function getPodCondition(status: PodStatus | undefined, type: string): PodCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/**
 * UpdatePodCondition: sets the condition in status (lastTransitionTime now, kept when the status does not
 * change); returns whether anything changed. Mutates status.
 */
export function updatePodCondition(status: PodStatus, condition: PodCondition, nowMs: number): boolean {
  const next: PodCondition = { ...condition, lastTransitionTime: rfc3339(nowMs) };
  const conditions = status.conditions ?? (status.conditions = []);
  const index = conditions.findIndex((c) => c.type === condition.type);
  if (index < 0) {
    conditions.push(next);
    return true;
  }
  const old = conditions[index];
  if (next.status === old.status) next.lastTransitionTime = old.lastTransitionTime;
  const equal =
    next.status === old.status &&
    (next.reason ?? '') === (old.reason ?? '') &&
    (next.message ?? '') === (old.message ?? '') &&
    (next.lastProbeTime ?? null) === (old.lastProbeTime ?? null) &&
    (next.lastTransitionTime ?? null) === (old.lastTransitionTime ?? null);
  conditions[index] = next;
  return !equal;
}

/** "namespace/name". */
export function podKey(pod: Pick<Pod, 'metadata'>): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}
