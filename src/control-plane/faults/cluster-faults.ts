// The faults anyone can inject into a running cluster (issue 4, part 5) — what a chaos tool, a power cut or an
// unlucky upgrade does to a real one. Each fault acts where it happens on a real cluster and nowhere else: a
// killed node's kubelet stops (no heartbeats, containers gone), a partitioned node's network drops, a stopped
// API server refuses everyone, a crashed controller manager or scheduler loses its caches and queues. What
// follows (NotReady, taints, evictions, replacements, relists) is the components' own doing.
//
// Every fault is traced (TraceKind.Custom, component 'faults', data.event 'fault') so the UI can show it on
// the timeline next to its consequences.
//
//   const faults = new ClusterFaults(cluster);
//   faults.killNode('node-2');          // 40 s later node-2 is Unknown; 300 s after that its pods are evicted
//   faults.restartNode('node-2');       // re-registers, drops the pods the API server no longer has
//   faults.inject({ kind: 'stop-apiserver' });
//
// Cordon, uncordon and drain are not faults but API operations a user performs: src/kubectl/cordon.ts and drain.ts.
import { newAlreadyExists, newBadRequest, newNotFound, newServiceUnavailable } from '../../shared/api/status';
import type { Fault, FaultResult, FaultState, SimNodeSpec } from '../../shared/protocol/methods';
import { TraceKind, type TraceSink } from '../../shared/protocol/trace';
import { defaultRegion, defaultZones, type NodeConfig } from '../kubelet/node-config';

/** What the faults act on; src/control-plane/cluster.ts's Cluster satisfies it. */
export interface FaultTarget {
  readonly nodes: {
    addNode(config: NodeConfig): unknown;
    removeNode(name: string): void;
    kill(name: string): void;
    restart(name: string): void;
    partition(name: string, on: boolean): void;
    list(): readonly { readonly nodeName: string; readonly isRunning: boolean; readonly isReachable: boolean; readonly config: { index: number } }[];
  };
  readonly endpoint: { stop(): void; start(): void; readonly isServing: boolean };
  readonly controllerManager: { restart(): void; readonly isRunning: boolean };
  readonly scheduler?: { start(): void; stop(): void; readonly isRunning: boolean };
  readonly trace: TraceSink;
}

const nodesResource = { group: '', resource: 'nodes' };

export class ClusterFaults {
  constructor(private readonly target: FaultTarget) {}

  /** The machine dies: its kubelet stops (no lease renewals, no status) and its containers are gone. */
  killNode(name: string): void {
    this.kubelet(name);
    this.target.nodes.kill(name);
    this.emit({ fault: 'kill-node', node: name });
  }

  /** The machine boots (again): a fresh kubelet re-registers, renews its lease and reconciles its pods. */
  restartNode(name: string): void {
    this.kubelet(name);
    this.target.nodes.restart(name);
    this.emit({ fault: 'restart-node', node: name });
  }

  /** Cuts (on) or heals (off) the node's network path to the API server; its containers keep running. */
  partitionNode(name: string, on: boolean): void {
    this.kubelet(name);
    this.target.nodes.partition(name, on);
    this.emit({ fault: 'partition-node', node: name, on });
  }

  /**
   * A new machine joins: its kubelet registers the Node. Fields left out get the default node's (4 cpu, 8Gi,
   * 110 pods), the next free name node-<n> and the zones in turn. Returns the node's name.
   */
  addNode(spec: SimNodeSpec = {}): string {
    const kubelets = this.target.nodes.list();
    const names = new Set(kubelets.map((k) => k.nodeName));
    if (spec.name !== undefined && names.has(spec.name)) throw newAlreadyExists(nodesResource, spec.name);
    let index = kubelets.reduce((max, k) => Math.max(max, k.config.index), 0) + 1;
    while (names.has(`node-${index}`)) index++;
    const config: NodeConfig = {
      name: spec.name ?? `node-${index}`,
      cpu: spec.cpu ?? '4',
      memory: spec.memory ?? '8Gi',
      pods: spec.pods ?? 110,
      zone: spec.zone ?? defaultZones[(index - 1) % defaultZones.length],
      region: defaultRegion,
      index,
    };
    if (spec.labels) config.labels = { ...spec.labels };
    if (spec.taints) config.taints = spec.taints.map((t) => ({ ...t }));
    this.target.nodes.addNode(config);
    this.emit({ fault: 'add-node', node: config.name, cpu: config.cpu, memory: config.memory, zone: config.zone });
    return config.name;
  }

  /** The machine is decommissioned: its kubelet stops and its Node object is deleted (kubectl delete node). */
  removeNode(name: string): void {
    this.kubelet(name);
    this.target.nodes.removeNode(name);
    this.emit({ fault: 'remove-node', node: name });
  }

  /** The API server goes down: every component's requests are refused and its watches end. */
  stopApiServer(): void {
    this.target.endpoint.stop();
    this.emit({ fault: 'stop-apiserver' });
  }

  /** The API server is back: components' retries and relists succeed again. */
  startApiServer(): void {
    this.target.endpoint.start();
    this.emit({ fault: 'start-apiserver' });
  }

  /** kube-controller-manager crashes and restarts: every cache and queue is lost, everything is relisted. */
  restartControllerManager(): void {
    this.target.controllerManager.restart();
    this.emit({ fault: 'restart-controller-manager' });
  }

  /** kube-scheduler crashes and restarts: its cache and scheduling queue are rebuilt from a fresh list. */
  restartScheduler(): void {
    const scheduler = this.target.scheduler;
    if (!scheduler) throw newServiceUnavailable('this cluster runs no kube-scheduler');
    scheduler.stop();
    scheduler.start();
    this.emit({ fault: 'restart-scheduler' });
  }

  /** Applies a fault given as plain JSON (the protocol's 'sim/fault'). */
  inject(fault: Fault): FaultResult {
    let added: string | undefined;
    switch (fault.kind) {
      case 'kill-node':
        this.killNode(fault.node);
        break;
      case 'restart-node':
        this.restartNode(fault.node);
        break;
      case 'partition-node':
        this.partitionNode(fault.node, fault.on);
        break;
      case 'add-node':
        added = this.addNode(fault.node);
        break;
      case 'remove-node':
        this.removeNode(fault.node);
        break;
      case 'stop-apiserver':
        this.stopApiServer();
        break;
      case 'start-apiserver':
        this.startApiServer();
        break;
      case 'restart-controller-manager':
        this.restartControllerManager();
        break;
      case 'restart-scheduler':
        this.restartScheduler();
        break;
      default:
        throw newBadRequest(`unknown fault "${String((fault as { kind?: unknown }).kind)}"`);
    }
    const result: FaultResult = { state: this.state() };
    if (added !== undefined) result.node = added;
    return result;
  }

  /** Which faults are in effect. */
  state(): FaultState {
    const { endpoint, controllerManager, scheduler, nodes } = this.target;
    return {
      apiServer: endpoint.isServing ? 'serving' : 'stopped',
      controllerManager: controllerManager.isRunning ? 'running' : 'stopped',
      scheduler: !scheduler ? 'absent' : scheduler.isRunning ? 'running' : 'stopped',
      nodes: nodes.list().map((k) => ({ name: k.nodeName, running: k.isRunning, reachable: k.isReachable })),
    };
  }

  private kubelet(name: string): void {
    if (typeof name !== 'string' || !this.target.nodes.list().some((k) => k.nodeName === name)) throw newNotFound(nodesResource, String(name));
  }

  private emit(data: Record<string, unknown>): void {
    this.target.trace.emit({ kind: TraceKind.Custom, component: 'faults', data: { event: 'fault', ...data } });
  }
}
