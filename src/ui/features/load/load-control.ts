// Which objects take a simulated load, and the slider's range. Kept apart from the component so the rules are
// testable without a DOM.
import type { KubeObject } from '../../../shared/api/types';
import type { WorkloadLoad } from '../../../shared/protocol/network';

/** Workloads whose pods share a load (the worker accepts DaemonSets and ReplicationControllers too). */
export const loadKinds: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'DaemonSet']);

/** The slider's range: 0 to 5 cores in 50m steps; the number input takes up to the worker's 100 cores. */
export const sliderMaxMillicores = 5000;
export const sliderStepMillicores = 50;
export const maxMillicores = 100_000;

export function loadTarget(obj: KubeObject): Omit<WorkloadLoad, 'cpuMillicores'> | undefined {
  if (!loadKinds.has(obj.kind) || !obj.metadata.name) return undefined;
  return { namespace: obj.metadata.namespace ?? 'default', kind: obj.kind, name: obj.metadata.name };
}

/** The load currently set for a target (0 when none). */
export function currentLoad(loads: readonly WorkloadLoad[] | undefined, target: Omit<WorkloadLoad, 'cpuMillicores'>): number {
  return loads?.find((l) => l.namespace === target.namespace && l.kind === target.kind && l.name === target.name)?.cpuMillicores ?? 0;
}

/** The number input's text as millicores, or an error to show. */
export function parseMillicores(text: string): { value: number } | { error: string } {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return { error: 'Enter a whole number of millicores (0 for no load).' };
  const value = Math.round(Number(t));
  if (value > maxMillicores) return { error: `At most ${maxMillicores} millicores.` };
  return { value };
}
