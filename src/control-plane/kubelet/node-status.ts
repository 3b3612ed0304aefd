// The Node object a kubelet registers and the status it reports (kubelet_node_status.go and nodestatus/setters.go):
// capacity and allocatable (memory minus the 100Mi hard-eviction threshold, ephemeral storage minus 10%), the
// four conditions with their real reasons and messages, addresses, nodeInfo, daemon endpoints and images.
import type { Node, NodeCondition, NodeStatus } from 'kubernetes-types/core/v1';
import { parseQuantity, quantityToString, subtractQuantities, newQuantity, QuantityFormat, toNumber } from '../../shared/lib/quantity';
import { rfc3339 } from '../sim/clock';
import { hexDigest } from './hash';
import type { CompleteNodeConfig } from './node-config';

export const kubeletVersion = 'v1.32.0';
export const containerRuntimeVersion = 'containerd://1.7.24';
export const osImage = 'Ubuntu 24.04.1 LTS';
export const kernelVersion = '6.8.0-51-generic';
export const kubeletPort = 10250;

/** Labels the kubelet sets on its Node (plus the cloud topology ones and the config's own). */
export function nodeLabels(config: CompleteNodeConfig): Record<string, string> {
  return {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': config.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': config.instanceType,
    'topology.kubernetes.io/region': config.region,
    'topology.kubernetes.io/zone': config.zone,
    ...(config.labels ?? {}),
  };
}

export interface NodeImage {
  names: string[];
  sizeBytes: number;
}

export interface NodeStatusInput {
  config: CompleteNodeConfig;
  bootID: string;
  now: number;
  images: NodeImage[];
  /** The conditions currently on the Node, so transition times survive. */
  previous?: NodeCondition[];
}

const conditionTexts: Record<string, { status: 'True' | 'False'; reason: string; message: string }> = {
  MemoryPressure: { status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
  DiskPressure: { status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  PIDPressure: { status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  Ready: { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
};

/** Condition types in the order the kubelet lists them. */
export const nodeConditionTypes = ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'] as const;

export function nodeCapacity(config: CompleteNodeConfig): Record<string, string> {
  return {
    cpu: quantityToString(parseQuantity(config.cpu)),
    'ephemeral-storage': quantityToString(parseQuantity(config.ephemeralStorage)),
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: quantityToString(parseQuantity(config.memory)),
    pods: String(config.pods),
  };
}

export function nodeAllocatable(config: CompleteNodeConfig): Record<string, string> {
  const cap = nodeCapacity(config);
  const storage = toNumber(parseQuantity(config.ephemeralStorage));
  return {
    ...cap,
    // --eviction-hard defaults: memory.available<100Mi, nodefs.available<10%.
    memory: quantityToString(subtractQuantities(parseQuantity(config.memory), parseQuantity('100Mi'))),
    'ephemeral-storage': quantityToString(newQuantity(Math.floor(storage * 0.9), QuantityFormat.DecimalSI)),
  };
}

export function nodeStatus(input: NodeStatusInput): NodeStatus {
  const { config, now } = input;
  const stamp = rfc3339(now);
  const conditions: NodeCondition[] = nodeConditionTypes.map((type) => {
    const want = conditionTexts[type];
    const prev = input.previous?.find((c) => c.type === type);
    const unchanged = prev && prev.status === want.status;
    return {
      type,
      status: want.status,
      lastHeartbeatTime: stamp,
      lastTransitionTime: unchanged ? (prev.lastTransitionTime ?? stamp) : stamp,
      reason: want.reason,
      message: want.message,
    };
  });
  return {
    capacity: nodeCapacity(config),
    allocatable: nodeAllocatable(config),
    conditions,
    addresses: [
      { type: 'InternalIP', address: config.internalIP },
      { type: 'Hostname', address: config.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
    nodeInfo: {
      machineID: hexDigest(`machine:${config.name}`, 32),
      systemUUID: uuidFrom(hexDigest(`system:${config.name}`, 32)),
      bootID: input.bootID,
      kernelVersion,
      osImage,
      containerRuntimeVersion,
      kubeletVersion,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    images: [...input.images].sort((a, b) => b.sizeBytes - a.sizeBytes).slice(0, 50),
    runtimeHandlers: [
      { name: 'runc', features: { recursiveReadOnlyMounts: true } },
      { name: '', features: { recursiveReadOnlyMounts: true } },
    ],
  } as unknown as NodeStatus;
}

function uuidFrom(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The Node the kubelet registers (initialNode). */
export function initialNode(config: CompleteNodeConfig, status: NodeStatus): Node {
  const node: Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: config.name,
      labels: nodeLabels(config),
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR: config.podCIDR, podCIDRs: [config.podCIDR] },
    status,
  };
  if (config.taints?.length) node.spec!.taints = config.taints.map((t) => ({ ...t }));
  return node;
}

/** nodeStatusHasChanged: whether anything but the heartbeat times differs. */
export function nodeStatusChanged(a: NodeStatus | undefined, b: NodeStatus): boolean {
  if (!a) return true;
  const strip = (s: NodeStatus) =>
    JSON.stringify({ ...s, conditions: (s.conditions ?? []).map((c) => ({ ...c, lastHeartbeatTime: undefined })) });
  return strip(a) !== strip(b);
}
