// status.conditions as describe's Conditions table: type, status, reason, message and how long ago it last changed.
import type { KubeObject } from '../../../shared/api/types';
import { age } from '../../../shared/lib/duration';

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastHeartbeatTime?: string;
  lastProbeTime?: string | null;
}

export interface ConditionRow {
  type: string;
  status: string;
  reason: string;
  message: string;
  /** Age of lastTransitionTime ("<unknown>" when the condition has none). */
  lastTransition: string;
}

/** The object's status.conditions in the order the controller wrote them; empty for kinds without any. */
export function conditionRows(obj: KubeObject, now: number): ConditionRow[] {
  const conditions = (obj.status as { conditions?: unknown } | undefined)?.conditions;
  if (!Array.isArray(conditions)) return [];
  return (conditions as Condition[]).map((c) => ({
    type: c.type ?? '',
    status: c.status ?? '',
    reason: c.reason ?? '',
    message: c.message ?? '',
    lastTransition: age(c.lastTransitionTime, now),
  }));
}
