// Pure parts of the kubelet's status generation (kubelet_pods.go generateAPIPodStatus, status/generate.go):
// the pod phase from container statuses, and the kubelet-owned pod conditions with their reasons and messages.
import type { Container, ContainerStatus, PodCondition, PodSpec } from 'kubernetes-types/core/v1';
import { RecentList } from '../../shared/lib/recent-list';
import { goStringSlice } from './format';

export const PodPhase = { Pending: 'Pending', Running: 'Running', Succeeded: 'Succeeded', Failed: 'Failed', Unknown: 'Unknown' } as const;
export type PodPhase = (typeof PodPhase)[keyof typeof PodPhase];

export function isRestartableInitContainer(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

function statusOf(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

/** kubecontainer.HasAnyRegularContainerStarted. */
function anyRegularContainerStarted(spec: PodSpec, statuses: readonly ContainerStatus[]): boolean {
  return spec.containers.some((c) => {
    const s = statusOf(statuses, c.name);
    return !!s && (!!s.state?.running || !!s.state?.terminated || !!s.lastState?.terminated);
  });
}

/** getPhase: the pod phase from the spec and the container statuses. */
export function getPhase(spec: PodSpec, initStatuses: readonly ContainerStatus[], statuses: readonly ContainerStatus[], podIsTerminal: boolean): PodPhase {
  let pendingRestartableInit = 0;
  let pendingRegularInit = 0;
  let failedInitialization = 0;
  for (const c of spec.initContainers ?? []) {
    if (isRestartableInitContainer(c)) continue;
    const s = statusOf(initStatuses, c.name);
    if (!s) {
      pendingRegularInit++;
      continue;
    }
    if (s.state?.running) pendingRegularInit++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInitialization++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) {
        if (s.lastState.terminated.exitCode !== 0) failedInitialization++;
      } else pendingRegularInit++;
    } else pendingRegularInit++;
  }

  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.initContainers ?? []) {
    if (!isRestartableInitContainer(c)) continue;
    const s = statusOf(initStatuses, c.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state?.running) {
      if (!s.started) pendingRestartableInit++;
      running++;
    } else if (s.state?.terminated) {
      // Terminated sidecars do not count.
    } else if (s.state?.waiting) {
      if (!s.lastState?.terminated) pendingRestartableInit++;
    } else {
      pendingRestartableInit++;
      unknown++;
    }
  }
  for (const c of spec.containers) {
    const s = statusOf(statuses, c.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }

  if (failedInitialization > 0 && spec.restartPolicy === 'Never') return PodPhase.Failed;
  if (pendingRegularInit > 0 || (pendingRestartableInit > 0 && !anyRegularContainerStarted(spec, statuses)) || waiting > 0) return PodPhase.Pending;
  if (running > 0 && unknown === 0) return PodPhase.Running;
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? PodPhase.Succeeded : PodPhase.Failed;
    if (spec.restartPolicy === 'Always') return PodPhase.Running;
    if (stopped === succeeded) return PodPhase.Succeeded;
    if (spec.restartPolicy === 'Never') return PodPhase.Failed;
    return PodPhase.Running;
  }
  return PodPhase.Pending;
}

type KubeletCondition = Omit<PodCondition, 'lastTransitionTime' | 'lastProbeTime'>;

/** GeneratePodInitializedCondition. */
export function initializedCondition(spec: PodSpec, initStatuses: readonly ContainerStatus[], statuses: readonly ContainerStatus[], phase: PodPhase): KubeletCondition {
  const inits = spec.initContainers ?? [];
  if (inits.length === 0) return { type: 'Initialized', status: 'True' };
  // A pod whose regular containers have started was initialized (sidecars restarting do not undo that).
  if (anyRegularContainerStarted(spec, statuses)) return { type: 'Initialized', status: 'True' };
  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = statusOf(initStatuses, c.name);
    if (!s) {
      unknown.push(c.name);
      continue;
    }
    if (isRestartableInitContainer(c)) {
      if (!s.started) incomplete.push(c.name);
      continue;
    }
    if (!(s.state?.terminated && s.state.terminated.exitCode === 0)) incomplete.push(c.name);
  }
  if (incomplete.length === 0 && unknown.length === 0) return { type: 'Initialized', status: 'True' };
  if (phase === PodPhase.Succeeded && unknown.length === 0) return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
  const parts: string[] = [];
  if (unknown.length) parts.push(`containers with unknown status: ${goStringSlice(unknown)}`);
  if (incomplete.length) parts.push(`containers with incomplete status: ${goStringSlice(incomplete)}`);
  return { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: parts.join(', ') };
}

/** GenerateContainersReadyCondition (and, with the readiness gates, the Ready condition). */
export function containersReadyCondition(
  spec: PodSpec,
  initStatuses: readonly ContainerStatus[],
  statuses: readonly ContainerStatus[],
  phase: PodPhase,
  type: 'ContainersReady' | 'Ready',
): KubeletCondition {
  const unknown: string[] = [];
  const unready: string[] = [];
  for (const c of spec.initContainers ?? []) {
    if (!isRestartableInitContainer(c)) continue;
    const s = statusOf(initStatuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  for (const c of spec.containers) {
    const s = statusOf(statuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  if (phase === PodPhase.Succeeded && unknown.length === 0) return { type, status: 'False', reason: 'PodCompleted' };
  const parts: string[] = [];
  if (unknown.length) parts.push(`containers with unknown status: ${goStringSlice(unknown)}`);
  if (unready.length) parts.push(`containers with unready status: ${goStringSlice(unready)}`);
  if (parts.length) return { type, status: 'False', reason: 'ContainersNotReady', message: parts.join(', ') };
  return { type, status: 'True' };
}

/** The Ready condition: ContainersReady plus the readiness gates. */
export function readyCondition(
  spec: PodSpec,
  initStatuses: readonly ContainerStatus[],
  statuses: readonly ContainerStatus[],
  phase: PodPhase,
  existing: readonly PodCondition[],
): KubeletCondition {
  const containers = containersReadyCondition(spec, initStatuses, statuses, phase, 'Ready');
  if (containers.status !== 'True') return containers;
  const gates = spec.readinessGates ?? [];
  const missing: string[] = [];
  const notTrue: string[] = [];
  for (const g of gates) {
    const c = existing.find((e) => e.type === g.conditionType);
    if (!c) missing.push(g.conditionType);
    else if (c.status !== 'True') notTrue.push(g.conditionType);
  }
  if (missing.length || notTrue.length) {
    const parts: string[] = [];
    if (missing.length) parts.push(`corresponding condition of pod readiness gate ${missing.map((m) => JSON.stringify(m)).join(', ')} does not exist.`);
    if (notTrue.length) parts.push(`the status of pod readiness gate ${notTrue.map((m) => JSON.stringify(m)).join(', ')} is not "True", but False.`);
    return { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: parts.join(', ') };
  }
  return containers;
}

const kubeletOwned = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

/**
 * The status manager's merge: the kubelet's conditions in its order, keeping the stored lastTransitionTime when
 * a condition's status did not change, followed by the conditions other components own (DisruptionTarget, gates).
 */
export function mergeConditions(existing: readonly PodCondition[], generated: readonly KubeletCondition[], now: string): PodCondition[] {
  const out: PodCondition[] = [];
  for (const g of generated) {
    const old = existing.find((e) => e.type === g.type);
    out.push(internCondition(g, old && old.status === g.status ? (old.lastTransitionTime ?? now) : now));
  }
  for (const e of existing) if (!kubeletOwned.includes(e.type)) out.push(e);
  return internConditionList(out);
}

/**
 * The list of conditions, shared: the kubelet keeps the status it last wrote for every pod, and pods that reached
 * their state in the same second have the same (interned) conditions, so one frozen list serves them. A recent
 * list with the same elements is taken; otherwise a copy at its exact length (one grown by push holds room for 16
 * more conditions).
 */
const recentConditionLists = new RecentList<readonly PodCondition[]>(8);

function internConditionList(list: PodCondition[]): PodCondition[] {
  const same = (r: readonly PodCondition[]): boolean => {
    if (r.length !== list.length) return false;
    for (let j = 0; j < r.length; j++) if (r[j] !== list[j]) return false;
    return true;
  };
  return (recentConditionLists.find(same) ?? recentConditionLists.add(Object.freeze(list.slice()))) as PodCondition[];
}

/**
 * The kubelet's conditions, shared: pods that reach a state in the same second carry identical conditions (same
 * type, status, reason, message and transition time), and each kubelet keeps what it last wrote for every pod, so
 * one frozen object per distinct condition serves them all. Keyed by transition time first (the field that
 * varies most); a cache, so it is simply emptied when it holds too many times.
 */
const internedConditions = new Map<string, PodCondition[]>();
const maxInternedTimes = 256;

function internCondition(g: KubeletCondition, lastTransitionTime: string): PodCondition {
  let list = internedConditions.get(lastTransitionTime);
  if (list) {
    for (const c of list) if (c.type === g.type && c.status === g.status && c.reason === (g.reason || undefined) && c.message === (g.message || undefined)) return c;
  } else {
    if (internedConditions.size >= maxInternedTimes) internedConditions.clear();
    internedConditions.set(lastTransitionTime, (list = []));
  }
  const c: PodCondition = { type: g.type, status: g.status, lastProbeTime: null as unknown as undefined, lastTransitionTime };
  if (g.reason) c.reason = g.reason;
  if (g.message) c.message = g.message;
  list.push(Object.freeze(c));
  return c;
}
