// polymorphichelpers for logs and exec: the pod(s) behind POD, TYPE/NAME or -l (SelectorsForObject +
// GetFirstPod, waiting up to --pod-running-timeout for one to exist), the container to use by default
// (podcmd.FindOrDefaultContainerByName), and the pod orderings kubectl picks by (ByLogging, ActivePods).
import type { Pod } from 'kubernetes-types/core/v1';
import type { ResourceType } from '../../shared/api/resources';
import type { KubeObject } from '../../shared/api/types';
import { labelSelectorAsSelector, selectorFromSet, selectorToString } from '../../shared/lib/labels';
import type { KubectlEnv } from '../cli/command';
import { CommandError, clientFor, mappingFor } from '../resource-builder';

export const defaultContainerAnnotation = 'kubectl.kubernetes.io/default-container';

/** builder.ResourceNames("pods", arg): NAME is a pod, TYPE/NAME is that type. Throws the server's errors. */
export function resolveObject(env: KubectlEnv, arg: string): { rt: ResourceType; object: KubeObject } {
  const slash = arg.indexOf('/');
  let rt: ResourceType;
  let name: string;
  if (slash < 0) {
    rt = mappingFor(env.registry, 'pods');
    name = arg;
  } else {
    if (arg.indexOf('/', slash + 1) >= 0) throw new CommandError(`arguments in resource/name form may not have more than one slash`);
    rt = mappingFor(env.registry, arg.slice(0, slash));
    name = arg.slice(slash + 1);
    if (!name) throw new CommandError('arguments in resource/name form must have a single resource and name');
  }
  const object = clientFor(env.client, rt).get(name, { namespace: rt.namespaced ? env.namespace : undefined });
  return { rt, object: { ...object, kind: object.kind ?? rt.kind } };
}

/** SelectorsForObject: the label selector of a controller or Service, as a string. */
export function selectorForObject(rt: ResourceType, obj: KubeObject, verb: 'get the logs from' | 'attach to'): string {
  const spec = (obj as { spec?: { selector?: unknown } }).spec;
  const goType = `*v1.${rt.kind}`;
  switch (`${rt.group}/${rt.kind}`) {
    case '/ReplicationController':
      return selectorToString(selectorFromSet((spec?.selector ?? {}) as Record<string, string>));
    case '/Service': {
      const sel = (spec?.selector ?? {}) as Record<string, string>;
      if (Object.keys(sel).length === 0) throw new CommandError(`cannot ${verb} ${goType}: invalid service '${obj.metadata.name}': Service is defined without a selector`);
      return selectorToString(selectorFromSet(sel));
    }
    case 'apps/Deployment':
    case 'apps/ReplicaSet':
    case 'apps/StatefulSet':
    case 'apps/DaemonSet':
    case 'batch/Job':
      return selectorToString(labelSelectorAsSelector(spec?.selector as Parameters<typeof labelSelectorAsSelector>[0]));
    default:
      throw new CommandError(`cannot ${verb} ${goType}: selector for ${goType} not implemented`);
  }
}

export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function readyTime(pod: Pod): number {
  const c = pod.status?.conditions?.find((x) => x.type === 'Ready' && x.status === 'True');
  return c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : 0;
}

function maxRestarts(pod: Pod): [number, number] {
  const regular = Math.max(0, ...(pod.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));
  const sidecarNames = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const sidecar = Math.max(0, ...(pod.status?.initContainerStatuses ?? []).filter((s) => sidecarNames.has(s.name)).map((s) => s.restartCount ?? 0));
  return [regular, sidecar];
}

/** afterOrZero(t1, t2): t1 after t2, a zero time being after any other. */
function afterOrZero(t1: number, t2: number): boolean {
  if (!t1 || !t2) return !t1;
  return t1 > t2;
}

function created(pod: Pod): number {
  return pod.metadata?.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : 0;
}

/** podutils.ByLogging: the best pod to read logs from first. */
export function byLogging(a: Pod, b: Pod): number {
  const less = (x: Pod, y: Pod): boolean => {
    const xn = x.spec?.nodeName ?? '';
    const yn = y.spec?.nodeName ?? '';
    if (xn !== yn && (!xn || !yn)) return xn !== '';
    const rank: Record<string, number> = { Running: 0, Unknown: 1, Pending: 2 };
    const xr = rank[x.status?.phase ?? ''] ?? 0;
    const yr = rank[y.status?.phase ?? ''] ?? 0;
    if (xr !== yr) return xr < yr;
    if (isPodReady(x) !== isPodReady(y)) return isPodReady(x);
    if (isPodReady(x) && isPodReady(y) && readyTime(x) !== readyTime(y)) return afterOrZero(readyTime(y), readyTime(x));
    const [xa, xb] = maxRestarts(x);
    const [ya, yb] = maxRestarts(y);
    if (xa !== ya) return xa > ya;
    if (xb !== yb) return xb > yb;
    if (created(x) !== created(y)) return afterOrZero(created(y), created(x));
    return false;
  };
  return less(a, b) ? -1 : less(b, a) ? 1 : 0;
}

/** sort.Reverse(podutils.ActivePods): the pod exec and attach pick first. */
export function byActiveReversed(a: Pod, b: Pod): number {
  const deleting = (p: Pod) => !!p.metadata?.deletionTimestamp;
  const less = (x: Pod, y: Pod): boolean => {
    const xn = x.spec?.nodeName ?? '';
    const yn = y.spec?.nodeName ?? '';
    if (xn !== yn && (!xn || !yn)) return xn === '';
    const rank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
    const xr = rank[x.status?.phase ?? ''] ?? 0;
    const yr = rank[y.status?.phase ?? ''] ?? 0;
    if (xr !== yr) return xr < yr;
    if (isPodReady(x) !== isPodReady(y)) return !isPodReady(x);
    if (deleting(x) !== deleting(y)) return deleting(x);
    if (deleting(x) && deleting(y) && x.metadata?.deletionTimestamp !== y.metadata?.deletionTimestamp) return Date.parse(x.metadata!.deletionTimestamp!) < Date.parse(y.metadata!.deletionTimestamp!);
    if (isPodReady(x) && isPodReady(y) && readyTime(x) !== readyTime(y)) return afterOrZero(readyTime(x), readyTime(y));
    const [xa, xb] = maxRestarts(x);
    const [ya, yb] = maxRestarts(y);
    if (xa !== ya) return xa > ya;
    if (xb !== yb) return xb > yb;
    if (created(x) !== created(y)) return afterOrZero(created(x), created(y));
    return false;
  };
  // Reversed: the greatest ActivePods element comes first.
  return less(a, b) ? 1 : less(b, a) ? -1 : 0;
}

/** GetPodList/GetFirstPod: the pods the selector matches, sorted; waits up to timeoutMs for one to exist. */
export function podsForSelector(env: KubectlEnv, namespace: string, selector: string, sort: (a: Pod, b: Pod) => number, timeoutMs: number): Promise<Pod[]> {
  const list = (): Pod[] => [...(env.client.pods.list({ namespace, labelSelector: selector || undefined }).items as Pod[])].sort(sort);
  const first = list();
  if (first.length > 0 || timeoutMs <= 0) return first.length ? Promise.resolve(first) : Promise.reject(new CommandError('timed out waiting for the condition'));
  return new Promise((resolve, reject) => {
    const deadline = env.clock.now() + timeoutMs;
    let timer: ReturnType<typeof env.clock.setTimer> | undefined;
    const poll = (): void => {
      if (env.signal.cancelled) return;
      let pods: Pod[];
      try {
        pods = list();
      } catch (err) {
        reject(err);
        return;
      }
      if (pods.length) resolve(pods);
      else if (env.clock.now() >= deadline) reject(new CommandError('timed out waiting for the condition'));
      else timer = env.clock.setTimer(Math.min(1000, deadline - env.clock.now()), poll, 'kubectl wait for a pod');
    };
    env.signal.onCancel(() => {
      env.clock.clearTimer(timer);
      reject(new Cancelled());
    });
    timer = env.clock.setTimer(1000, poll, 'kubectl wait for a pod');
  });
}

/** Ctrl+C while waiting. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** podcmd.AllContainerNames: "a, b, c (init)". */
export function allContainerNames(pod: Pod): string {
  return [
    ...(pod.spec?.containers ?? []).map((c) => c.name),
    ...(pod.spec?.ephemeralContainers ?? []).map((c) => `${c.name} (ephem)`),
    ...(pod.spec?.initContainers ?? []).map((c) => `${c.name} (init)`),
  ].join(', ');
}

/** podcmd.FindContainerByName: the container and its fieldPath. */
export function findContainer(pod: Pod, name: string): { name: string; fieldPath: string } | undefined {
  if (pod.spec?.containers.some((c) => c.name === name)) return { name, fieldPath: `spec.containers{${name}}` };
  if (pod.spec?.initContainers?.some((c) => c.name === name)) return { name, fieldPath: `spec.initContainers{${name}}` };
  if (pod.spec?.ephemeralContainers?.some((c) => c.name === name)) return { name, fieldPath: `spec.ephemeralContainers{${name}}` };
  return undefined;
}

