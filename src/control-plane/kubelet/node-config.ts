// What a simulated machine is: its size, zone, labels and taints, and the addresses it gets (pod CIDR
// 10.244.<i>.0/24, InternalIP 192.168.49.<i+1>, as minikube numbers its nodes).
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
  /** Default 10.244.<index>.0/24. */
  podCIDR?: string;
  /** Default 192.168.49.<index+1>. */
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

/** The config with every default filled in. index is used when the config has none. */
export function completeNodeConfig(config: NodeConfig, index: number): Required<Omit<NodeConfig, 'labels' | 'taints'>> & Pick<NodeConfig, 'labels' | 'taints'> {
  const i = config.index ?? index;
  return {
    ...config,
    pods: config.pods ?? 110,
    ephemeralStorage: config.ephemeralStorage ?? '100Gi',
    region: config.region ?? defaultRegion,
    instanceType: config.instanceType ?? `kubeplay-${config.cpu}c-${config.memory.toLowerCase()}`,
    podCIDR: config.podCIDR ?? `10.244.${i}.0/24`,
    internalIP: config.internalIP ?? `192.168.49.${i + 1}`,
    index: i,
  };
}

export type CompleteNodeConfig = ReturnType<typeof completeNodeConfig>;
