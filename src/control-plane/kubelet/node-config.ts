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
  if (index <= 255) return `10.244.${index}.0/24`;
  const n = index - 256;
  return `10.${128 + Math.floor(n / 256)}.${n % 256}.0/24`;
}

/**
 * The InternalIP of the node at a (1-based) index: 192.168.49.<index+1> up to index 254, as minikube. Past that
 * the last octet would overflow, so later nodes continue in 192.168.50.1–254, 192.168.51.1–254, …
 */
export function defaultInternalIP(index: number): string {
  if (index <= 254) return `192.168.49.${index + 1}`;
  const n = index - 255;
  return `192.168.${50 + Math.floor(n / 254)}.${(n % 254) + 1}`;
}

/** The config with every default filled in. index is used when the config has none. */
export function completeNodeConfig(config: NodeConfig, index: number): Required<Omit<NodeConfig, 'labels' | 'taints'>> & Pick<NodeConfig, 'labels' | 'taints'> {
  const i = config.index ?? index;
  return {
    ...config,
    pods: config.pods ?? 110,
    ephemeralStorage: config.ephemeralStorage ?? '100Gi',
    region: config.region ?? defaultRegion,
    instanceType: config.instanceType ?? `kubeplay-${config.cpu}c-${config.memory.toLowerCase()}`,
    podCIDR: config.podCIDR ?? defaultPodCIDR(i),
    internalIP: config.internalIP ?? defaultInternalIP(i),
    index: i,
  };
}

export type CompleteNodeConfig = ReturnType<typeof completeNodeConfig>;
