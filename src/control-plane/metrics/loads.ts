// The simulated world's demand: each workload has a load level (total CPU its traffic asks for) that a user sets
// from the page ('sim/load'). The metrics pipeline shares it among the workload's ready pods, so the HPA reacts.
// Not a Kubernetes object: it lives beside the cluster settings and is saved with the cluster's meta.
import type { FieldError } from '../../shared/api/field-errors';
import { fieldErr, fieldErrorToString } from '../../shared/api/field-errors';
import { newBadRequest } from '../../shared/api/status';
import type { WorkloadLoad } from '../../shared/protocol/network';

/** The kinds whose pods share a load (their pods' controller chain ends at one of these). */
export const loadKinds = ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'DaemonSet'] as const;
/** 100 cores: far above what a playground node holds, low enough to keep numbers readable. */
export const maxLoadMillicores = 100_000;

export function loadKey(namespace: string, kind: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

export function validateLoad(params: unknown): FieldError[] {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return [fieldErr.typeInvalid('<root>', params, 'must be an object')];
  const p = params as Record<string, unknown>;
  const errs: FieldError[] = [];
  for (const f of ['namespace', 'name'] as const) {
    if (typeof p[f] !== 'string' || p[f] === '') errs.push(fieldErr.required(f, ''));
  }
  if (!loadKinds.includes(p.kind as (typeof loadKinds)[number])) errs.push(fieldErr.notSupported('kind', p.kind, [...loadKinds]));
  const cpu = p.cpuMillicores;
  if (typeof cpu !== 'number' || !Number.isFinite(cpu)) errs.push(fieldErr.typeInvalid('cpuMillicores', cpu, 'must be a number of millicores'));
  else if (cpu < 0 || cpu > maxLoadMillicores) errs.push(fieldErr.invalid('cpuMillicores', cpu, `must be between 0 and ${maxLoadMillicores}, inclusive`));
  return errs;
}

/** Every workload's load, live; listeners hear each change (the cluster saves its meta). */
export class WorkloadLoads {
  private readonly loads = new Map<string, WorkloadLoad>();
  private readonly listeners = new Set<() => void>();

  /** Restores what a cluster saved; entries that no longer validate are dropped. */
  constructor(saved?: unknown) {
    if (Array.isArray(saved)) for (const l of saved) if (validateLoad(l).length === 0) this.put(l as WorkloadLoad);
  }

  /** Sets one workload's load (0 removes it); throws a 400 when a field is wrong. Answers every load in effect. */
  set(params: unknown): WorkloadLoad[] {
    const errs = validateLoad(params);
    if (errs.length) throw newBadRequest(`invalid load: ${errs.map((e) => fieldErrorToString(e)).join(', ')}`);
    this.put(params as WorkloadLoad);
    for (const fn of [...this.listeners]) fn();
    return this.list();
  }

  private put(l: WorkloadLoad): void {
    const key = loadKey(l.namespace, l.kind, l.name);
    const cpuMillicores = Math.round(l.cpuMillicores);
    if (cpuMillicores === 0) this.loads.delete(key);
    else this.loads.set(key, { namespace: l.namespace, kind: l.kind, name: l.name, cpuMillicores });
  }

  /** Total millicores of one workload (0 when none is set). */
  get(namespace: string, kind: string, name: string): number {
    return this.loads.get(loadKey(namespace, kind, name))?.cpuMillicores ?? 0;
  }

  list(): WorkloadLoad[] {
    return [...this.loads.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, l]) => ({ ...l }));
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }
}
