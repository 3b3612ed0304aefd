// What a simulated machine is: its size, zone, labels and taints, and the addresses it gets (pod CIDR
// 10.244.<i>.0/24, InternalIP 192.168.49.<i+1>, as minikube numbers its nodes; larger clusters continue in
// further ranges, see defaultPodCIDR and defaultInternalIP).
import type { Taint } from 'kubernetes-types/core/v1';

export interface NodeConfig {
  name: string;
  /** Cores, as a quantity: "4". */
  cpu: string;
  /** "8Gi". */
  memory: string;
  /** Max pods. Default 110. */
  pods?: number;
  /** "100Gi" by default. */
  ephemeralStorage?: string;
  zone: string;
  region?: string;
  instanceType?: string;
  /** Extra labels (node-role.kubernetes.io/…, disktype=ssd, …). */
  labels?: Record<string, string>;
  /** Taints the kubelet registers the node with (--register-with-taints). */
  taints?: Taint[];
  /** Default 10.244.<index>.0/24 (defaultPodCIDR). */
  podCIDR?: string;
  /** Default 192.168.49.<index+1> (defaultInternalIP). */
  internalIP?: string;
  /** Position of the node (1-based), from which podCIDR and internalIP are derived. */
  index?: number;
}

export const defaultZones = ['zone-a', 'zone-b', 'zone-c'];
export const defaultRegion = 'region-1';

/** The default worker nodes: node-1…node-<count>, 4 cpu / 8Gi each, spread over three zones. */
export function defaultNodeConfigs(count = 3, size: { cpu?: string; memory?: string; pods?: number } = {}): NodeConfig[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `node-${i + 1}`,
    cpu: size.cpu ?? '4',
    memory: size.memory ?? '8Gi',
    pods: size.pods ?? 110,
    zone: defaultZones[i % defaultZones.length],
    region: defaultRegion,
    index: i + 1,
  }));
}

/**
 * The pod CIDR of the node at a (1-based) index: 10.244.<index>.0/24 up to index 255, as minikube. Past that the
 * third octet would overflow, so later nodes take /24s from 10.128.0.0/10 onwards (10.128.0.0/24 is node 256),
 * clear of 10.244.0.0/16 and of the 10.96.0.0/12 Service range: room for about 30,000 nodes.
 */
export function defaultPodCIDR(index: number): string {
  // Joined, flat strings: a template literal leaves a tree of cons strings that the kubelet's config keeps.
  if (index <= 255) return ['10.244.', index, '.0/24'].join('');
  const n = index - 256;
  return ['10.', 128 + Math.floor(n / 256), '.', n % 256, '.0/24'].join('');
}

/**
 * The InternalIP of the node at a (1-based) index: 192.168.49.<index+1> up to index 254, as minikube. Past that
 * the last octet would overflow, so later nodes continue in 192.168.50.1–254, 192.168.51.1–254, …
 */
export function defaultInternalIP(index: number): string {
  if (index <= 254) return ['192.168.49.', index + 1].join('');
  const n = index - 255;
  return ['192.168.', 50 + Math.floor(n / 254), '.', (n % 254) + 1].join('');
}

/** Instance types by cpu and memory: one string for the nodes of a size (a cache, emptied when it holds too many). */
const instanceTypes = new Map<string, string>();

function defaultInstanceType(cpu: string, memory: string): string {
  const key = [cpu, memory].join('\0');
  let type = instanceTypes.get(key);
  if (type === undefined) {
    if (instanceTypes.size >= 64) instanceTypes.clear();
    type = ['kubeplay-', cpu, 'c-', memory.toLowerCase()].join('');
    instanceTypes.set(key, type);
  }
  return type;
}

/** A node's config with every default filled in. */
export interface CompleteNodeConfig extends Required<Omit<NodeConfig, 'labels' | 'taints'>> {
  labels: Record<string, string> | undefined;
  taints: Taint[] | undefined;
}

/**
 * The config with every default filled in. index is used when the config has none. One literal of every member:
 * a spread of the config followed by members it already has gave each node a hidden class of its own (~0.4 KiB).
 */
export function completeNodeConfig(config: NodeConfig, index: number): CompleteNodeConfig {
  const i = config.index ?? index;
  return {
    name: config.name,
    cpu: config.cpu,
    memory: config.memory,
    pods: config.pods ?? 110,
    ephemeralStorage: config.ephemeralStorage ?? '100Gi',
    zone: config.zone,
    region: config.region ?? defaultRegion,
    instanceType: config.instanceType ?? defaultInstanceType(config.cpu, config.memory),
    labels: config.labels,
    taints: config.taints,
    podCIDR: config.podCIDR ?? defaultPodCIDR(i),
    internalIP: config.internalIP ?? defaultInternalIP(i),
    index: i,
  };
}
