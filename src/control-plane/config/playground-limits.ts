// kubeplay's own playground-wide caps: NOT Kubernetes limits. A real API server stores what etcd holds; a
// browser tab has a few hundred MiB of heap and one thread, so a typo (`replicas: 100000`) or a runaway loop
// must be refused with a clear error before it freezes the tab. The PlaygroundLimits admission plugin
// (apiserver/admission/playground-limits.ts) enforces them with ResourceQuota-style messages; the Settings
// dialog shows them beside the current usage. Tests and benchmarks raise them (ClusterOptions.limits).
//
// Why these defaults (a learner should never meet them in normal use; each keeps the tab responsive):
// - 50,000 objects: ten times a busy demo (a 1,000-pod rollout is ~8,000 objects with its events, endpoint
//   slices and leases); the store, informers and the UI's mirror each hold every object, ~80 KiB per running pod.
// - 256 MiB of stored objects (JSON): the store keeps them in the tab's heap and in IndexedDB; past a quarter GiB
//   a reload takes tens of seconds and browsers start to evict or refuse the database.
// - 5,000 replicas per workload: what the scheduler and the simulated kubelets still roll out in seconds; a
//   typo of 100,000 would create 100,000 pods (and their events) in one go.
// - 12,000 events per minute (virtual time): a 1,000-pod rollout records ~6 events per pod within a minute and
//   still fits; a loop recording events for thousands of objects is cut off. Events are best-effort, as in
//   Kubernetes: recorders drop what the API server refuses.
import type { FieldError } from '../../shared/api/field-errors';
import { fieldErr } from '../../shared/api/field-errors';
import { inclusiveRangeError } from '../../shared/lib/validation';
import type { PlaygroundLimitView, PlaygroundLimitsView } from '../../shared/protocol/limits';
import { invalidSettingsError } from './cluster-settings';

export interface PlaygroundLimits {
  /** Objects stored, of every kind (events included). */
  maxObjects: number;
  /** Bytes of stored objects (their JSON), all together. */
  maxStoredBytes: number;
  /** spec.replicas of a Deployment/ReplicaSet/StatefulSet/ReplicationController, a Job's parallelism and completions, an HPA's maxReplicas. */
  maxReplicasPerWorkload: number;
  /** Event creations per minute of virtual time, both core/v1 and events.k8s.io/v1. */
  maxEventsPerMinute: number;
}

export type PlaygroundLimitKey = keyof PlaygroundLimits;

export const MiB = 1024 * 1024;

export const defaultPlaygroundLimits: Readonly<PlaygroundLimits> = Object.freeze({
  maxObjects: 50_000,
  maxStoredBytes: 256 * MiB,
  maxReplicasPerWorkload: 5_000,
  maxEventsPerMinute: 12_000,
});

/** Caps no benchmark reaches (issue 8 goes up to 50,000 pods on 5,000 nodes): `createCluster({ limits: noPlaygroundLimits })`. */
export const noPlaygroundLimits: Readonly<PlaygroundLimits> = Object.freeze({
  maxObjects: Number.MAX_SAFE_INTEGER,
  maxStoredBytes: Number.MAX_SAFE_INTEGER,
  maxReplicasPerWorkload: Number.MAX_SAFE_INTEGER,
  maxEventsPerMinute: Number.MAX_SAFE_INTEGER,
});

interface LimitSpec {
  key: PlaygroundLimitKey;
  /** How the limit is named in errors and in the Settings dialog. */
  label: string;
  unit: 'objects' | 'bytes' | 'replicas' | 'events per minute';
  description: string;
}

/** In the order the Settings dialog lists them. */
export const playgroundLimitSpecs: readonly LimitSpec[] = [
  {
    key: 'maxObjects',
    label: 'objects',
    unit: 'objects',
    description: 'Every stored object counts, events included. Creating one more is refused; updates and deletes always work.',
  },
  {
    key: 'maxStoredBytes',
    label: 'stored bytes',
    unit: 'bytes',
    description: 'The JSON size of all stored objects. A create or an update that grows the total past it is refused.',
  },
  {
    key: 'maxReplicasPerWorkload',
    label: 'replicas per workload',
    unit: 'replicas',
    description:
      'spec.replicas of a Deployment, ReplicaSet, StatefulSet or ReplicationController, a Job’s parallelism and completions, an HPA’s maxReplicas. Lowering a value over it is allowed.',
  },
  {
    key: 'maxEventsPerMinute',
    label: 'events per minute',
    unit: 'events per minute',
    description: 'Event creations per minute of simulated time (429 Too Many Requests beyond it); components drop refused events, as in Kubernetes.',
  },
];

const specByKey = new Map<string, LimitSpec>(playgroundLimitSpecs.map((s) => [s.key, s]));

export function limitLabel(key: PlaygroundLimitKey): string {
  return specByKey.get(key)!.label;
}

/** The wrong fields of a (partial) limits update: each must be a whole number ≥ 1. */
export function validatePlaygroundLimits(params: unknown): FieldError[] {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return [fieldErr.typeInvalid('<root>', params, 'must be an object of limits')];
  }
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (!specByKey.has(key)) {
      errs.push(fieldErr.notSupported(key, key, playgroundLimitSpecs.map((s) => s.key)));
    } else if (value === undefined) {
      continue;
    } else if (typeof value !== 'number' || !Number.isInteger(value)) {
      errs.push(fieldErr.typeInvalid(key, value, 'must be a whole number'));
    } else if (value < 1 || value > Number.MAX_SAFE_INTEGER) {
      errs.push(fieldErr.invalid(key, value, inclusiveRangeError(1, Number.MAX_SAFE_INTEGER)));
    }
  }
  return errs;
}

/** The defaults with the given values over them; throws a 400 listing every wrong field. */
export function resolvePlaygroundLimits(params: Partial<PlaygroundLimits> = {}): PlaygroundLimits {
  const errs = validatePlaygroundLimits(params);
  if (errs.length) throw invalidSettingsError(errs);
  const out: PlaygroundLimits = { ...defaultPlaygroundLimits };
  for (const spec of playgroundLimitSpecs) {
    const v = params[spec.key];
    if (v !== undefined) out[spec.key] = v;
  }
  return out;
}

/** What the limits are measured against now. */
export interface PlaygroundUsage {
  objects: number;
  storedBytes: number;
  /** Event creations admitted in the last minute of virtual time. */
  eventsLastMinute: number;
}

export type { PlaygroundLimitView, PlaygroundLimitsView } from '../../shared/protocol/limits';

export function playgroundLimitsView(limits: Readonly<PlaygroundLimits>, usage: PlaygroundUsage): PlaygroundLimitsView {
  const used: Partial<Record<PlaygroundLimitKey, number>> = {
    maxObjects: usage.objects,
    maxStoredBytes: usage.storedBytes,
    maxEventsPerMinute: usage.eventsLastMinute,
  };
  return {
    limits: playgroundLimitSpecs.map((s): PlaygroundLimitView => {
      const view: PlaygroundLimitView = {
        key: s.key,
        label: s.label,
        unit: s.unit,
        limit: limits[s.key],
        defaultLimit: defaultPlaygroundLimits[s.key],
        description: s.description,
      };
      const u = used[s.key];
      if (u !== undefined) view.used = u;
      return view;
    }),
  };
}
