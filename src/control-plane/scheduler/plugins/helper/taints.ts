// Taints and tolerations (k8s.io/api/core/v1 toleration.go, component-helpers v1helper): the matching rules the
// TaintToleration and NodeUnschedulable plugins and the queueing hints share.
import type { Taint, Toleration } from 'kubernetes-types/core/v1';

export const TaintEffect = {
  NoSchedule: 'NoSchedule',
  PreferNoSchedule: 'PreferNoSchedule',
  NoExecute: 'NoExecute',
} as const;

/** node.kubernetes.io/unschedulable, the taint a cordoned node carries. */
export const TaintNodeUnschedulable = 'node.kubernetes.io/unschedulable';

/** Toleration.ToleratesTaint: effect and key match (empty matches all), then Equal compares values, Exists does not. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

/** v1helper.FindMatchingUntoleratedTaint: the first taint passing the filter that no toleration tolerates. */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  filter: (t: Taint) => boolean,
): Taint | undefined {
  if (!taints) return undefined;
  for (const taint of taints) {
    if (!filter(taint)) continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}

/** The taints the scheduler's filter honours: NoSchedule and NoExecute. */
export function isNoScheduleOrNoExecute(t: Taint): boolean {
  return t.effect === TaintEffect.NoSchedule || t.effect === TaintEffect.NoExecute;
}
