// Taint and toleration helpers: k8s.io/api core/v1 well_known_taints.go, Taint.MatchTaint / Toleration.ToleratesTaint
// (core/v1 toleration.go, taint.go), pkg/util/taints (TaintExists, TaintSetDiff, AddOrUpdateTaint, RemoveTaint) and
// pkg/apis/core/v1/helper.GetMatchingTolerations. Pure functions over plain objects.
import type { Taint, Toleration } from 'kubernetes-types/core/v1';

/** The taint keys the node controller and kubelet use (well_known_taints.go). */
export const TaintKey = {
  NotReady: 'node.kubernetes.io/not-ready',
  Unreachable: 'node.kubernetes.io/unreachable',
  Unschedulable: 'node.kubernetes.io/unschedulable',
  MemoryPressure: 'node.kubernetes.io/memory-pressure',
  DiskPressure: 'node.kubernetes.io/disk-pressure',
  NetworkUnavailable: 'node.kubernetes.io/network-unavailable',
  PIDPressure: 'node.kubernetes.io/pid-pressure',
  OutOfService: 'node.kubernetes.io/out-of-service',
} as const;
export type TaintKey = (typeof TaintKey)[keyof typeof TaintKey];

export const TaintEffect = {
  NoSchedule: 'NoSchedule',
  PreferNoSchedule: 'PreferNoSchedule',
  NoExecute: 'NoExecute',
} as const;
export type TaintEffect = (typeof TaintEffect)[keyof typeof TaintEffect];

/** Taint.MatchTaint: same key and effect (value and timeAdded are ignored). */
export function matchTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** TaintExists: a taint with the same key and effect is in the list. */
export function taintExists(taints: readonly Taint[] | undefined, taint: Taint): boolean {
  return (taints ?? []).some((t) => matchTaint(t, taint));
}

/** TaintKeyExists. */
export function taintKeyExists(taints: readonly Taint[] | undefined, key: string): boolean {
  return (taints ?? []).some((t) => t.key === key);
}

/** TaintSetDiff: the taints of `desired` missing from `current`, and those of `current` not in `desired`. */
export function taintSetDiff(desired: readonly Taint[], current: readonly Taint[]): { toAdd: Taint[]; toRemove: Taint[] } {
  return {
    toAdd: desired.filter((t) => !taintExists(current, t)),
    toRemove: current.filter((t) => !taintExists(desired, t)),
  };
}

/** AddOrUpdateTaint: replaces a matching taint unless it is identical, else appends. */
export function addOrUpdateTaint(taints: readonly Taint[] | undefined, taint: Taint): { taints: Taint[]; updated: boolean } {
  const out: Taint[] = [];
  let replaced = false;
  for (const t of taints ?? []) {
    if (matchTaint(taint, t)) {
      if (sameTaint(taint, t)) return { taints: [...(taints ?? [])], updated: false };
      out.push(taint);
      replaced = true;
      continue;
    }
    out.push(t);
  }
  if (!replaced) out.push(taint);
  return { taints: out, updated: true };
}

/** RemoveTaint: drops every taint matching key and effect. */
export function removeTaint(taints: readonly Taint[] | undefined, taint: Taint): { taints: Taint[]; updated: boolean } {
  const list = taints ?? [];
  if (!taintExists(list, taint)) return { taints: [...list], updated: false };
  return { taints: list.filter((t) => !matchTaint(t, taint)), updated: true };
}

function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect && (a.value ?? '') === (b.value ?? '') && (a.timeAdded ?? '') === (b.timeAdded ?? '');
}

/** The NoExecute taints of a list (tainteviction getNoExecuteTaints). */
export function noExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === TaintEffect.NoExecute);
}

/** Toleration.ToleratesTaint (v1.32: operators Equal, the default, and Exists). */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/**
 * GetMatchingTolerations: whether every taint is tolerated, and for each taint the first toleration that
 * tolerates it.
 */
export function getMatchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[] | undefined,
): { allTolerated: boolean; used: Toleration[] } {
  if (taints.length === 0) return { allTolerated: true, used: [] };
  const tols = tolerations ?? [];
  if (tols.length === 0) return { allTolerated: false, used: [] };
  const used: Toleration[] = [];
  for (const taint of taints) {
    const match = tols.find((t) => toleratesTaint(t, taint));
    if (!match) return { allTolerated: false, used: [] };
    used.push(match);
  }
  return { allTolerated: true, used };
}

/** Whether two taint lists are equal, element by element (apiequality.Semantic.DeepEqual on []Taint). */
export function taintsEqual(a: readonly Taint[], b: readonly Taint[]): boolean {
  return a.length === b.length && a.every((t, i) => sameTaint(t, b[i]));
}

/** The "key=value:Effect" form kubectl and the scheduler print. */
export function taintString(taint: Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}
