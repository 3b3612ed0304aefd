// The simulated metrics-server: scrapes every kubelet's running containers at its resolution (--metric-resolution
// 15s) and keeps the last scrape, so `kubectl top` and the HPA controller read the same figures for a whole
// window. Each container's CPU is the runtime's own use plus its pod's share of its workload's load (loads.ts):
// the load divided evenly among the workload's ready pods, as a Service spreads traffic over ready endpoints.
//
//   workload php-apache load 1000m, 2 ready pods → each pod's first container uses ~1 + 500m
import type { Pod } from 'kubernetes-types/core/v1';
import type { Client } from '../client/client';
import { getControllerOf, isPodReady } from '../controllers/shared/controller-utils';
import type { Kubelet } from '../kubelet/kubelet';
import { unitHash } from '../kubelet/hash';
import type { Clock } from '../sim/clock';
import type { WorkloadLoads } from './loads';
import { containerUsage, type ContainerUsage } from './usage';

/** metrics-server's --metric-resolution default: how often it scrapes, and the window of each rate. */
export const metricResolutionMs = 15_000;
/** What the node itself uses besides pods (kubelet, containerd, the OS). */
const nodeOverhead = { cpuMillis: 40, memoryBytes: 480 * 1024 * 1024 };

export interface ContainerMetrics extends ContainerUsage {
  name: string;
}

/** metrics.k8s.io PodMetrics, in numbers. */
export interface PodMetricsSample {
  namespace: string;
  name: string;
  /** Where it was scraped. */
  nodeName: string;
  /** ms since the epoch: the end of the scraped window. */
  timestamp: number;
  windowMs: number;
  containers: ContainerMetrics[];
}

export interface NodeMetricsSample extends ContainerUsage {
  name: string;
  timestamp: number;
  windowMs: number;
}

export interface MetricsScrape {
  timestamp: number;
  pods: PodMetricsSample[];
  nodes: NodeMetricsSample[];
}

/** What the HPA controller's metrics client reads (pkg/controller/podautoscaler/metrics: resource metrics). */
export interface ResourceMetricsSource {
  /** The pods' metrics of a namespace (the caller filters by its selector). */
  podMetrics(namespace: string): PodMetricsSample[];
}

export interface MetricsServerOptions {
  clock: Clock;
  /** Its view of the API (pods, and the ReplicaSets between a pod and its Deployment). */
  client: Client;
  /** The running kubelets (late-bound: the node simulator is built after the controllers). */
  kubelets: () => Iterable<Kubelet>;
  loads: WorkloadLoads;
}

/** The workload a pod's load comes from: its controller, or the Deployment above its ReplicaSet. */
export function workloadOf(pod: Pod, replicaSetOwner: (namespace: string, name: string) => { kind: string; name: string } | undefined): { kind: string; name: string } | undefined {
  const ref = getControllerOf(pod as never);
  if (!ref) return undefined;
  if (ref.kind === 'ReplicaSet') return replicaSetOwner(pod.metadata?.namespace ?? '', ref.name) ?? { kind: 'ReplicaSet', name: ref.name };
  return { kind: ref.kind, name: ref.name };
}

export class MetricsServer implements ResourceMetricsSource {
  private last?: { window: number; scrape: MetricsScrape };
  /** ReplicaSet → its controlling Deployment, remembered (an owner never changes once set). */
  private readonly rsOwners = new Map<string, { kind: string; name: string } | undefined>();

  constructor(private readonly options: MetricsServerOptions) {}

  /** The last scrape; a new one is taken when the clock has entered a new resolution window. */
  scrape(): MetricsScrape {
    const window = Math.floor(this.options.clock.now() / metricResolutionMs);
    if (!this.last || this.last.window !== window) this.last = { window, scrape: this.collect(window * metricResolutionMs) };
    // A node whose kubelet went down since answers nothing: its node and pods drop out at once.
    const running = new Set<string>();
    for (const k of this.options.kubelets()) if (k.isRunning && k.isRegistered) running.add(k.nodeName);
    const { scrape } = this.last;
    return { timestamp: scrape.timestamp, nodes: scrape.nodes.filter((n) => running.has(n.name)), pods: scrape.pods.filter((p) => running.has(p.nodeName)) };
  }

  podMetrics(namespace: string): PodMetricsSample[] {
    return this.scrape().pods.filter((p) => p.namespace === namespace);
  }

  /** kubectl top's shape (KubectlNodes.usage). */
  usage(): { nodes: { name: string; cpuMillis: number; memoryBytes: number }[]; pods: { namespace: string; name: string; containers: ContainerMetrics[] }[] } {
    const s = this.scrape();
    return {
      nodes: s.nodes.map((n) => ({ name: n.name, cpuMillis: n.cpuMillis, memoryBytes: n.memoryBytes })),
      pods: s.pods.map((p) => ({ namespace: p.namespace, name: p.name, containers: p.containers })),
    };
  }

  private replicaSetOwner(namespace: string, name: string): { kind: string; name: string } | undefined {
    const key = `${namespace}/${name}`;
    if (this.rsOwners.has(key)) return this.rsOwners.get(key);
    try {
      const rs = this.options.client.replicaSets.get(name, { namespace });
      const ref = getControllerOf(rs);
      const owner = ref?.kind === 'Deployment' ? { kind: 'Deployment', name: ref.name } : undefined;
      this.rsOwners.set(key, owner);
      return owner;
    } catch {
      return undefined;
    }
  }

  private collect(at: number): MetricsScrape {
    let pods: Pod[] = [];
    try {
      pods = this.options.client.pods.list({}).items as Pod[];
    } catch {
      return { timestamp: at, pods: [], nodes: [] };
    }
    const kubelets = new Map<string, Kubelet>();
    for (const k of this.options.kubelets()) if (k.isRunning) kubelets.set(k.nodeName, k);

    // Each workload's load is spread over its ready pods.
    const workloads = new Map<Pod, string>();
    const readyCount = new Map<string, number>();
    for (const pod of pods) {
      const w = workloadOf(pod, (ns, n) => this.replicaSetOwner(ns, n));
      if (!w) continue;
      const key = `${w.kind}/${pod.metadata?.namespace}/${w.name}`;
      workloads.set(pod, key);
      if (isPodReady(pod) && !pod.metadata?.deletionTimestamp) readyCount.set(key, (readyCount.get(key) ?? 0) + 1);
    }
    const loadOf = (key: string): number => {
      const [kind, namespace, ...rest] = key.split('/');
      return this.options.loads.get(namespace, kind, rest.join('/'));
    };

    const byNode = new Map<string, ContainerUsage>();
    const podSamples: PodMetricsSample[] = [];
    for (const pod of pods) {
      const ns = pod.metadata?.namespace ?? '';
      const name = pod.metadata?.name ?? '';
      const kubelet = pod.spec?.nodeName ? kubelets.get(pod.spec.nodeName) : undefined;
      if (!kubelet) continue;
      const key = workloads.get(pod);
      const share = key && isPodReady(pod) && !pod.metadata?.deletionTimestamp ? loadOf(key) / (readyCount.get(key) ?? 1) : 0;
      const containers: ContainerMetrics[] = [];
      let first = true;
      for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
        const proc = kubelet.containerProcess(ns, name, c.name);
        if (!proc || proc.startedAt > at) continue;
        const isRegular = (pod.spec?.containers ?? []).includes(c);
        const u = containerUsage(proc, at, isRegular && first ? share : 0);
        if (isRegular) first = false;
        const total = byNode.get(kubelet.nodeName) ?? { cpuMillis: 0, memoryBytes: 0 };
        byNode.set(kubelet.nodeName, { cpuMillis: total.cpuMillis + u.cpuMillis, memoryBytes: total.memoryBytes + u.memoryBytes });
        // A container is reported once a whole window of it has been measured.
        if (at - proc.startedAt >= metricResolutionMs) containers.push({ name: c.name, ...u });
      }
      if (containers.length) podSamples.push({ namespace: ns, name, nodeName: kubelet.nodeName, timestamp: at, windowMs: metricResolutionMs, containers });
    }
    const nodes: NodeMetricsSample[] = [];
    for (const k of this.options.kubelets()) {
      if (!k.isRunning || !k.isRegistered) continue;
      const u = byNode.get(k.nodeName) ?? { cpuMillis: 0, memoryBytes: 0 };
      const jitter = unitHash(k.nodeName);
      nodes.push({
        name: k.nodeName,
        timestamp: at,
        windowMs: metricResolutionMs,
        cpuMillis: nodeOverhead.cpuMillis + Math.floor(jitter * 20) + u.cpuMillis,
        memoryBytes: nodeOverhead.memoryBytes + Math.round(jitter * 64 * 1024 * 1024) + u.memoryBytes,
      });
    }
    return { timestamp: at, pods: podSamples, nodes };
  }
}
