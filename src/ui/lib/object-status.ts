// A short status for an object, like the STATUS / READY columns of kubectl get (v1.32 printers): "2/3",
// "Running", "CrashLoopBackOff", "Terminating", "Ready", "Complete 1/1"; and a tone the UI colours it by.
import type { KubeObject } from '../../shared/api/types';
import { age } from '../../shared/lib/duration';

/** How a status reads at a glance: the colour family of its badge. */
export const StatusTone = {
  Ok: 'ok',
  Progress: 'progress',
  Error: 'error',
  Done: 'done',
  Terminating: 'terminating',
  Neutral: 'neutral',
} as const;
export type StatusTone = (typeof StatusTone)[keyof typeof StatusTone];

export interface ObjectBadge {
  text: string;
  tone: StatusTone;
  /** A second, time-relative line (a CronJob's last schedule); only with `now`. */
  detail?: string;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
}

interface ContainerState {
  waiting?: { reason?: string };
  running?: unknown;
  terminated?: { reason?: string; exitCode?: number; signal?: number };
}

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  started?: boolean;
  state?: ContainerState;
}

interface PodLike {
  spec?: { initContainers?: { name?: string; restartPolicy?: string }[] };
  status?: {
    phase?: string;
    reason?: string;
    conditions?: Condition[];
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
}

interface ReplicasLike {
  spec?: { replicas?: number };
  status?: { readyReplicas?: number };
}

interface DaemonSetLike {
  status?: { numberReady?: number; desiredNumberScheduled?: number };
}

interface JobLike {
  spec?: { completions?: number | null; parallelism?: number | null };
  status?: { succeeded?: number; conditions?: Condition[] };
}

interface CronJobLike {
  spec?: { suspend?: boolean };
  status?: { active?: unknown[]; lastScheduleTime?: string };
}

interface NodeLike {
  spec?: { unschedulable?: boolean };
  status?: { conditions?: Condition[] };
}

interface PhaseLike {
  spec?: { type?: string };
  status?: { phase?: string };
}

/** The status text kubectl would show; '' for kinds without one (ConfigMap, Secret, …). */
export function objectStatus(obj: KubeObject): string {
  return objectBadge(obj).text;
}

/**
 * The badge of an object: its kubectl status text and a tone. `now` (simulated ms) adds time-relative details
 * such as a CronJob's last schedule ("2m ago").
 */
export function objectBadge(obj: KubeObject, now?: number): ObjectBadge {
  switch (obj.kind) {
    case 'Pod':
      return podBadge(obj as KubeObject & PodLike);
    case 'Deployment':
    case 'ReplicaSet':
    case 'ReplicationController':
    case 'StatefulSet': {
      const w = obj as KubeObject & ReplicasLike;
      return withTerminating(obj, ratio(w.status?.readyReplicas ?? 0, w.spec?.replicas ?? 1));
    }
    case 'DaemonSet': {
      const d = obj as KubeObject & DaemonSetLike;
      return withTerminating(obj, ratio(d.status?.numberReady ?? 0, d.status?.desiredNumberScheduled ?? 0));
    }
    case 'Job':
      return jobBadge(obj as KubeObject & JobLike);
    case 'CronJob':
      return withTerminating(obj, cronJobBadge(obj as KubeObject & CronJobLike, now));
    case 'Node':
      return nodeBadge(obj as KubeObject & NodeLike);
    case 'PersistentVolumeClaim':
    case 'PersistentVolume': {
      const phase = (obj as KubeObject & PhaseLike).status?.phase ?? 'Pending';
      const tone = phase === 'Bound' || phase === 'Available' ? StatusTone.Ok : phase === 'Failed' || phase === 'Lost' ? StatusTone.Error : StatusTone.Progress;
      return withTerminating(obj, { text: phase, tone });
    }
    case 'Service':
      return withTerminating(obj, { text: (obj as KubeObject & PhaseLike).spec?.type ?? 'ClusterIP', tone: StatusTone.Neutral });
    default:
      return withTerminating(obj, { text: '', tone: StatusTone.Neutral });
  }
}

/** Any object being deleted (finalizers, graceful pod deletion) reads Terminating until it is gone. */
function withTerminating(obj: KubeObject, badge: ObjectBadge): ObjectBadge {
  return obj.metadata.deletionTimestamp ? { text: 'Terminating', tone: StatusTone.Terminating } : badge;
}

function ratio(ready: number, desired: number): ObjectBadge {
  const tone = desired === 0 ? StatusTone.Neutral : ready >= desired ? StatusTone.Ok : StatusTone.Progress;
  return { text: `${ready}/${desired}`, tone };
}

const errorReasons = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'ErrImageNeverPull',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
  'Error',
  'OOMKilled',
  'ContainerCannotRun',
  'DeadlineExceeded',
  'Evicted',
  'Failed',
  'NodeLost',
  'Unknown',
  'UnexpectedAdmissionError',
]);

function isTrue(conditions: Condition[] | undefined, type: string): boolean {
  return conditions?.find((c) => c.type === type)?.status === 'True';
}

/** printPod's STATUS column. */
function podBadge(pod: KubeObject & PodLike): ObjectBadge {
  const status = pod.status ?? {};
  const phase = status.phase ?? 'Pending';
  let reason = status.reason || phase;
  if (status.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  const restartable = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const initCount = pod.spec?.initContainers?.length ?? 0;
  let initializing = false;
  const inits = status.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    const t = c.state?.terminated;
    if (t && (t.exitCode ?? 0) === 0) continue;
    if (restartable.has(c.name) && c.started) continue;
    if (t) reason = t.reason ? `Init:${t.reason}` : t.signal ? `Init:Signal:${t.signal}` : `Init:ExitCode:${t.exitCode ?? 0}`;
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') reason = `Init:${c.state.waiting.reason}`;
    else reason = `Init:${i}/${initCount}`;
    initializing = true;
    break;
  }

  if (!initializing || isTrue(status.conditions, 'Initialized')) {
    let hasRunning = false;
    const containers = status.containerStatuses ?? [];
    // Last to first, as kubectl: the first container's reason wins.
    for (let i = containers.length - 1; i >= 0; i--) {
      const c = containers[i];
      const t = c.state?.terminated;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (t?.reason) reason = t.reason;
      else if (t) reason = t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode ?? 0}`;
      else if (c.ready && c.state?.running !== undefined) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) reason = isTrue(status.conditions, 'Ready') ? 'Running' : 'NotReady';
  }

  const terminal = phase === 'Succeeded' || phase === 'Failed';
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') return { text: 'Unknown', tone: StatusTone.Error };
  if (pod.metadata.deletionTimestamp && !terminal) return { text: 'Terminating', tone: StatusTone.Terminating };
  return { text: reason, tone: podTone(reason, phase, isTrue(status.conditions, 'Ready')) };
}

function podTone(reason: string, phase: string, ready: boolean): StatusTone {
  if (reason === 'Completed' || phase === 'Succeeded') return StatusTone.Done;
  if (errorReasons.has(reason) || (reason.startsWith('Init:') && !/^Init:\d+\/\d+$/.test(reason))) return StatusTone.Error;
  if (/^(ExitCode|Signal):/.test(reason)) return StatusTone.Error;
  if (reason === 'Running') return ready ? StatusTone.Ok : StatusTone.Progress;
  return StatusTone.Progress;
}

/** printJob's STATUS then COMPLETIONS: "Running 0/1", "Complete 3/3", "Failed 0/1 of 2". */
function jobBadge(job: KubeObject & JobLike): ObjectBadge {
  const succeeded = job.status?.succeeded ?? 0;
  let completions: string;
  if (job.spec?.completions !== undefined && job.spec.completions !== null) completions = `${succeeded}/${job.spec.completions}`;
  else {
    const parallelism = job.spec?.parallelism ?? 0;
    completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
  }
  const conditions = job.status?.conditions;
  if (isTrue(conditions, 'Complete')) return { text: `Complete ${completions}`, tone: StatusTone.Done };
  if (isTrue(conditions, 'Failed')) return { text: `Failed ${completions}`, tone: StatusTone.Error };
  if (job.metadata.deletionTimestamp) return { text: 'Terminating', tone: StatusTone.Terminating };
  if (isTrue(conditions, 'Suspended')) return { text: `Suspended ${completions}`, tone: StatusTone.Neutral };
  if (isTrue(conditions, 'FailureTarget')) return { text: `FailureTarget ${completions}`, tone: StatusTone.Error };
  return { text: `Running ${completions}`, tone: StatusTone.Progress };
}

/** printCronJob's SUSPEND / ACTIVE / LAST SCHEDULE: "Suspended", "1 active", with "last 2m ago" given `now`. */
function cronJobBadge(cronJob: KubeObject & CronJobLike, now: number | undefined): ObjectBadge {
  const active = cronJob.status?.active?.length ?? 0;
  const badge: ObjectBadge = cronJob.spec?.suspend
    ? { text: 'Suspended', tone: StatusTone.Neutral }
    : { text: `${active} active`, tone: active > 0 ? StatusTone.Progress : StatusTone.Ok };
  if (now !== undefined) {
    const last = cronJob.status?.lastScheduleTime;
    badge.detail = last ? `last ${age(last, now)} ago` : 'never scheduled';
  }
  return badge;
}

/** kubectl get nodes: Ready, NotReady (Ready False or Unknown), Unknown (no Ready condition), ",SchedulingDisabled". */
function nodeBadge(node: KubeObject & NodeLike): ObjectBadge {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const text = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  const tone = text === 'Ready' ? StatusTone.Ok : StatusTone.Error;
  if (node.metadata.deletionTimestamp) return { text: 'Terminating', tone: StatusTone.Terminating };
  return node.spec?.unschedulable ? { text: `${text},SchedulingDisabled`, tone: text === 'Ready' ? StatusTone.Progress : tone } : { text, tone };
}
