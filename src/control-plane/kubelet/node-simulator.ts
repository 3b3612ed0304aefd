// The simulated machines: one Kubelet per node, and the faults the UI can inject — kill a node (its kubelet and
// containers stop), restart it (it boots again, re-registers and reconciles its pods with the API server),
// partition it from the API server, add and remove nodes.
import { isStatusError } from '../../shared/api/status';
import type { TraceSink } from '../../shared/protocol/trace';
import type { Client } from '../client/client';
import type { Clock } from '../sim/clock';
import type { Rng } from '../sim/rng';
import { Kubelet, type KubeletOptions, type LogsResult } from './kubelet';
import type { NodeConfig } from './node-config';

export interface NodeSimulatorOptions {
  client: Client;
  clock: Clock;
  rng: Rng;
  trace?: TraceSink;
  /** Nodes to create (and start) at once. */
  nodes?: NodeConfig[];
  /** Passed to every kubelet (lease duration, status frequencies, the cluster's live settings). */
  kubelet?: Pick<KubeletOptions, 'leaseDurationSeconds' | 'nodeStatusUpdateFrequencyMs' | 'nodeStatusReportFrequencyMs' | 'settings' | 'podNetwork'>;
}

export interface NodeState {
  name: string;
  running: boolean;
  reachable: boolean;
  pods: string[];
}

export class NodeSimulator {
  private readonly kubelets = new Map<string, Kubelet>();
  private nextIndex = 1;

  constructor(private readonly options: NodeSimulatorOptions) {
    for (const config of options.nodes ?? []) this.addNode(config);
  }

  /** Creates a node's kubelet and boots it. */
  addNode(config: NodeConfig): Kubelet {
    if (this.kubelets.has(config.name)) throw new Error(`node ${JSON.stringify(config.name)} already exists`);
    const used = new Set([...this.kubelets.values()].map((k) => k.config.index));
    const index = config.index ?? this.freeIndex(used);
    this.nextIndex = Math.max(this.nextIndex, index + 1);
    const { client, clock, rng, trace } = this.options;
    const kubelet = new Kubelet({ config, client, clock, rng, trace, index, ...this.options.kubelet });
    this.kubelets.set(config.name, kubelet);
    kubelet.start();
    return kubelet;
  }

  private freeIndex(used: Set<number>): number {
    let i = this.nextIndex;
    while (used.has(i)) i++;
    return i;
  }

  /** Stops the node's kubelet and deletes its Node object (kubectl delete node). */
  removeNode(name: string): void {
    const kubelet = this.kubelets.get(name);
    kubelet?.stop();
    this.kubelets.delete(name);
    try {
      this.options.client.nodes.delete(name);
    } catch (err) {
      if (!isStatusError(err)) throw err;
    }
  }

  /** The machine dies: no heartbeats, containers gone. */
  kill(name: string): void {
    this.must(name).stop();
  }

  /** The machine boots again: the kubelet re-registers and runs what the API server says is bound to it. */
  restart(name: string): void {
    const k = this.must(name);
    k.stop();
    k.start();
  }

  /** Cuts (on) or restores (off) the node's network to the API server. */
  partition(name: string, on: boolean): void {
    this.must(name).setReachable(!on);
  }

  get(name: string): Kubelet | undefined {
    return this.kubelets.get(name);
  }

  names(): string[] {
    return [...this.kubelets.keys()];
  }

  list(): Kubelet[] {
    return [...this.kubelets.values()];
  }

  states(): NodeState[] {
    return this.list().map((k) => ({ name: k.nodeName, running: k.isRunning, reachable: k.isReachable, pods: k.podKeys() }));
  }

  /** Starts every node's kubelet. */
  start(): void {
    for (const k of this.kubelets.values()) k.start();
  }

  /** Stops every kubelet (the simulation shuts down). */
  stop(): void {
    for (const k of this.kubelets.values()) k.stop();
  }

  /** kubectl logs: asks the kubelet of the node running the pod. */
  logs(namespace: string, pod: string, container?: string, options: { previous?: boolean; tailLines?: number } = {}): LogsResult {
    for (const k of this.kubelets.values()) {
      if (k.isRunning && k.hasPod(namespace, pod)) return k.logs(namespace, pod, container, options);
    }
    return { error: `pods "${pod}" not found` };
  }

  /** The kubelet running the pod (namespace/name), if a running one does. */
  kubeletFor(namespace: string, pod: string): Kubelet | undefined {
    for (const k of this.kubelets.values()) if (k.isRunning && k.hasPod(namespace, pod)) return k;
    return undefined;
  }

  private must(name: string): Kubelet {
    const k = this.kubelets.get(name);
    if (!k) throw new Error(`node ${JSON.stringify(name)} not found`);
    return k;
  }
}

/** The same thing under the name the design uses for it. */
export { NodeSimulator as KubeletSet };
