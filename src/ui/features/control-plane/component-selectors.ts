// Narrow reads of the components snapshot (and what stands in for it while the worker cannot describe its
// components), so each node of the Control plane graph re-renders only when its own numbers change.
import type { ControllerView, KubeletView, SchedulerView } from '../../../shared/protocol/introspection';
import type { AppState } from '../../state/store';

/** The controllers kube-controller-manager runs (the snapshot's), or those seen reconciling when there is none. */
export function controllerNames(s: AppState, seen: readonly string[]): string[] {
  const running = s.components?.controllerManager.controllers.map((c) => c.name);
  return running ?? [...seen].sort();
}

/** One kubelet per node: the snapshot's machines, or the Node objects while there is no snapshot. */
export function kubeletNodes(s: AppState): string[] {
  const fromSnapshot = s.components?.kubelets.map((k) => k.node);
  if (fromSnapshot) return fromSnapshot;
  return [...(s.resources['/nodes']?.objects.keys() ?? [])].sort();
}

export const selectController = (name: string) => (s: AppState): ControllerView | undefined =>
  s.components?.controllerManager.controllers.find((c) => c.name === name);

export const selectKubelet = (node: string) => (s: AppState): KubeletView | undefined => s.components?.kubelets.find((k) => k.node === node);

export const selectScheduler = (s: AppState): SchedulerView | undefined => s.components?.scheduler;

/** 'up' | 'killed' | 'partitioned' | 'unknown' (no snapshot). */
export function kubeletState(k: KubeletView | undefined): 'running' | 'killed' | 'partitioned' | 'unknown' {
  if (!k) return 'unknown';
  if (!k.running) return 'killed';
  if (!k.reachable) return 'partitioned';
  return 'running';
}

/** A work queue's summary across a controller's queues (the garbage collector has two). */
export function queueSummary(c: ControllerView | undefined): { depth: number; processing: number; waiting: number; retries: number; keys: string[]; retryKeys: string[] } {
  const out = { depth: 0, processing: 0, waiting: 0, retries: 0, keys: [] as string[], retryKeys: [] as string[] };
  for (const q of c?.queues ?? []) {
    out.depth += q.depth;
    out.processing += q.processing;
    out.waiting += q.waiting;
    out.retries += q.retries.length;
    out.keys.push(...q.keys);
    out.retryKeys.push(...q.retries.map((r) => `${r.key} ×${r.requeues}`));
  }
  return out;
}
