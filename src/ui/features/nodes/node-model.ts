// Pure readings of Node and Pod objects for the Nodes view: readiness, the abnormal conditions, what a pod chip
// shows, and requested-vs-allocatable (what `kubectl describe node` calls "Allocated resources").
import type { KubeObject } from '../../../shared/api/types';
import { tryParseQuantity, toMillis, toValue } from '../../../shared/lib/quantity';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

interface Taint {
  key: string;
  value?: string;
  effect: string;
}

interface ContainerSpec {
  name?: string;
  restartPolicy?: string;
  resources?: { requests?: Record<string, unknown> };
}

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  state?: { waiting?: { reason?: string }; running?: unknown; terminated?: { reason?: string } };
}

interface NodeShape {
  metadata: KubeObject['metadata'];
  spec?: { unschedulable?: boolean; taints?: Taint[] };
  status?: { conditions?: Condition[]; allocatable?: Record<string, string>; volumesAttached?: { name: string; devicePath?: string }[]; volumesInUse?: string[] };
}

interface PodShape {
  metadata: KubeObject['metadata'];
  spec?: { nodeName?: string; containers?: ContainerSpec[]; initContainers?: ContainerSpec[]; overhead?: Record<string, unknown> };
  status?: { phase?: string; reason?: string; conditions?: Condition[]; containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[] };
}

const asNode = (o: KubeObject) => o as unknown as NodeShape;
const asPod = (o: KubeObject) => o as unknown as PodShape;

export const NodeReadiness = { Ready: 'Ready', NotReady: 'NotReady', Unknown: 'Unknown' } as const;
export type NodeReadiness = (typeof NodeReadiness)[keyof typeof NodeReadiness];

/** The Ready condition's status, as `kubectl get nodes` prints it (no condition at all reads Unknown). */
export function nodeReadiness(node: KubeObject): NodeReadiness {
  const ready = asNode(node).status?.conditions?.find((c) => c.type === 'Ready');
  if (!ready) return NodeReadiness.Unknown;
  if (ready.status === 'True') return NodeReadiness.Ready;
  if (ready.status === 'False') return NodeReadiness.NotReady;
  return NodeReadiness.Unknown;
}

/** kubectl get nodes' STATUS without ",SchedulingDisabled": NotReady for a Ready condition False or Unknown. */
export function nodeStatusText(node: KubeObject): 'Ready' | 'NotReady' | 'Unknown' {
  const ready = asNode(node).status?.conditions?.find((c) => c.type === 'Ready');
  if (!ready) return 'Unknown';
  return ready.status === 'True' ? 'Ready' : 'NotReady';
}

export function isCordoned(node: KubeObject): boolean {
  return asNode(node).spec?.unschedulable === true;
}

export function nodeZone(node: KubeObject): string | undefined {
  const labels = node.metadata.labels ?? {};
  return labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'];
}

/** Taints rendered as kubectl does: key=value:Effect (key:Effect without a value). */
export function nodeTaints(node: KubeObject): string[] {
  return (asNode(node).spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
}

/**
 * The node's volumes as the attach/detach controller (status.volumesAttached) and the kubelet (status.volumesInUse)
 * report them: the volume's name (a CSI unique name `kubernetes.io/csi/<driver>^<handle>` shows as its handle, the PV
 * name) and its step — attached, in use (mounted), or in use and waiting to be attached.
 */
export function nodeVolumes(node: KubeObject): { name: string; state: string }[] {
  const status = asNode(node).status;
  const attached = new Set((status?.volumesAttached ?? []).map((v) => v.name));
  const inUse = new Set(status?.volumesInUse ?? []);
  const short = (unique: string) => unique.slice(unique.lastIndexOf('^') + 1);
  return [...new Set([...attached, ...inUse])].sort().map((unique) => ({
    name: short(unique),
    state: attached.has(unique) ? (inUse.has(unique) ? 'attached, in use' : 'attached') : 'in use, not attached',
  }));
}

/** Conditions not in their healthy state: Ready other than True, any pressure/unavailable condition not False. */
export function abnormalConditions(node: KubeObject): Condition[] {
  return (asNode(node).status?.conditions ?? []).filter((c) => (c.type === 'Ready' ? c.status !== 'True' : c.status !== 'False'));
}

export const PodChipState = {
  Pending: 'Pending',
  Running: 'Running',
  NotReady: 'NotReady',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
  Terminating: 'Terminating',
  CrashLoopBackOff: 'CrashLoopBackOff',
  ImagePullBackOff: 'ImagePullBackOff',
} as const;
export type PodChipState = (typeof PodChipState)[keyof typeof PodChipState];

const imagePullReasons = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName', 'ErrImageNeverPull']);

/** What a pod chip shows. Terminating wins (the pod is going whatever its containers do), then waiting reasons. */
export function podChipState(pod: KubeObject): PodChipState {
  if (pod.metadata.deletionTimestamp) return PodChipState.Terminating;
  const p = asPod(pod);
  const phase = p.status?.phase;
  if (phase === 'Succeeded') return PodChipState.Succeeded;
  if (phase === 'Failed') return PodChipState.Failed;
  const statuses = [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])];
  for (const s of statuses) {
    const reason = s.state?.waiting?.reason;
    if (reason === 'CrashLoopBackOff') return PodChipState.CrashLoopBackOff;
    if (reason && imagePullReasons.has(reason)) return PodChipState.ImagePullBackOff;
  }
  if (phase === 'Running') {
    const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
    return ready?.status === 'True' ? PodChipState.Running : PodChipState.NotReady;
  }
  return PodChipState.Pending;
}

export function podNodeName(pod: KubeObject): string | undefined {
  return asPod(pod).spec?.nodeName || undefined;
}

/** Succeeded and Failed pods hold no resources on their node (the scheduler and describe node skip them). */
export function isTerminalPod(pod: KubeObject): boolean {
  const phase = asPod(pod).status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** cpu in millicores, memory in bytes, pods as a count. */
export interface ResourceAmounts {
  cpuMillis: number;
  memoryBytes: number;
  pods: number;
}

function requestOf(requests: Record<string, unknown> | undefined, name: 'cpu' | 'memory'): number {
  const raw = requests?.[name];
  if (raw === undefined || raw === null) return 0;
  const parsed = tryParseQuantity(String(raw));
  if (!parsed.quantity) return 0;
  return name === 'cpu' ? toMillis(parsed.quantity) : toValue(parsed.quantity);
}

/**
 * A pod's effective request (resourcehelper.PodRequests): the sum over app containers and restartable
 * (sidecar) init containers, at least the largest plain init container plus the sidecars started before it,
 * plus the pod overhead.
 */
export function podRequests(pod: KubeObject): { cpuMillis: number; memoryBytes: number } {
  const spec = asPod(pod).spec ?? {};
  const result = { cpuMillis: 0, memoryBytes: 0 };
  for (const c of spec.containers ?? []) {
    result.cpuMillis += requestOf(c.resources?.requests, 'cpu');
    result.memoryBytes += requestOf(c.resources?.requests, 'memory');
  }
  const sidecars = { cpuMillis: 0, memoryBytes: 0 };
  let initMax = { cpuMillis: 0, memoryBytes: 0 };
  for (const c of spec.initContainers ?? []) {
    const cpu = requestOf(c.resources?.requests, 'cpu');
    const memory = requestOf(c.resources?.requests, 'memory');
    if (c.restartPolicy === 'Always') {
      sidecars.cpuMillis += cpu;
      sidecars.memoryBytes += memory;
      result.cpuMillis += cpu;
      result.memoryBytes += memory;
    } else {
      initMax = {
        cpuMillis: Math.max(initMax.cpuMillis, cpu + sidecars.cpuMillis),
        memoryBytes: Math.max(initMax.memoryBytes, memory + sidecars.memoryBytes),
      };
    }
  }
  result.cpuMillis = Math.max(result.cpuMillis, initMax.cpuMillis) + requestOf(spec.overhead, 'cpu');
  result.memoryBytes = Math.max(result.memoryBytes, initMax.memoryBytes) + requestOf(spec.overhead, 'memory');
  return result;
}

/** The sum of the requests of the node's non-terminal pods; every non-terminal pod counts toward "pods". */
export function requestedOnNode(pods: readonly KubeObject[]): ResourceAmounts {
  const total: ResourceAmounts = { cpuMillis: 0, memoryBytes: 0, pods: 0 };
  for (const pod of pods) {
    if (isTerminalPod(pod)) continue;
    const r = podRequests(pod);
    total.cpuMillis += r.cpuMillis;
    total.memoryBytes += r.memoryBytes;
    total.pods += 1;
  }
  return total;
}

export function nodeAllocatable(node: KubeObject): ResourceAmounts {
  const alloc = asNode(node).status?.allocatable;
  return {
    cpuMillis: requestOf(alloc, 'cpu'),
    memoryBytes: requestOf(alloc, 'memory'),
    pods: readCount(alloc?.pods),
  };
}

function readCount(raw: unknown): number {
  if (raw === undefined || raw === null) return 0;
  const parsed = tryParseQuantity(String(raw));
  return parsed.quantity ? toValue(parsed.quantity) : 0;
}

/** 1500 → "1500m", 2000 → "2". */
export function formatCpu(millis: number): string {
  return millis % 1000 === 0 ? String(millis / 1000) : `${millis}m`;
}

/** Bytes in the largest binary unit that keeps one decimal meaningful: 8589934592 → "8Gi", 134217728 → "128Mi". */
export function formatMemory(bytes: number): string {
  const units = ['', 'Ki', 'Mi', 'Gi', 'Ti'];
  let value = bytes;
  let i = 0;
  while (i < units.length - 1 && value >= 1024) {
    value /= 1024;
    i++;
  }
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${text}${units[i]}`;
}
