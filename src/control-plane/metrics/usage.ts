// What a running container uses, as the simulated runtime burns it (documented in the kubelet README's
// "kubectl exec and top"): memory is its image's resident baseline plus what its program allocated by now
// (stress --vm); CPU is 1–3m idle (a server, a sleeping shell), 1000m per `stress --cpu`/`yes` hog, 5m for a
// loop that wakes at least once a second — plus its share of the workload's load — capped by its CPU limit.
// A small stable per-container offset (from its ID) keeps pods from showing identical numbers.
import type { Container } from 'kubernetes-types/core/v1';
import { unitHash } from '../kubelet/hash';
import type { ContainerProcess } from '../kubelet/pod-worker';
import { quantityValue } from '../apiserver/registry/generic/quantity';

export interface ContainerUsage {
  cpuMillis: number;
  memoryBytes: number;
}

/** A container's cpu request or limit in millicores, or undefined when it sets none. */
export function containerCpuMillis(c: Container, which: 'requests' | 'limits'): number | undefined {
  const raw = c.resources?.[which]?.cpu;
  if (raw === undefined || raw === null) return undefined;
  const v = quantityValue(raw);
  return v === undefined ? undefined : Math.round(v * 1000);
}

/** Usage at `now` of a container process; loadMillis is the traffic's demand on it (its pod's share). */
export function containerUsage(proc: ContainerProcess, now: number, loadMillis = 0): ContainerUsage {
  const elapsed = now - proc.startedAt;
  const jitter = unitHash(`${proc.ctx.hostname}/${proc.spec.name}/${proc.startedAt}`);
  let memory = proc.baseMemoryBytes + Math.round(jitter * 2 * 1024 * 1024);
  for (const a of proc.run.allocations) if (a.at <= elapsed) memory += a.bytes;
  const argv = proc.ctx.argv ?? [];
  let cpu = 1 + Math.floor(jitter * 3);
  const stress = argv.findIndex((a) => /(^|\/)stress(-ng)?$/.test(a));
  const script = argv.join(' ');
  if (stress >= 0) {
    const i = argv.findIndex((a, j) => j > stress && (a === '--cpu' || a === '-c' || a === '-cpus'));
    if (i >= 0) cpu += 1000 * (Number(argv[i + 1]) || 1);
  } else if (/\bstress(-ng)?\b.*(--cpu|-c)\s+(\d+)/.test(script)) {
    cpu += 1000 * Number(/(--cpu|-c)\s+(\d+)/.exec(script)![2]);
  }
  if (proc.run.end.type === 'loop' && elapsed >= proc.run.end.at) cpu += proc.run.end.period <= 50 ? 1000 : proc.run.end.period <= 1000 ? 5 : 0;
  cpu += Math.round(loadMillis);
  const limit = containerCpuMillis(proc.spec, 'limits');
  if (limit !== undefined) cpu = Math.min(cpu, limit);
  return { cpuMillis: cpu, memoryBytes: memory };
}
