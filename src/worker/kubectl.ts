// The console's kubectl, worker side: 'kubectl/run' runs a line with runKubectl as the current user through the
// API server's endpoint (so the requests show in the Control plane view like any client's), streaming what it
// prints as 'kubectl/output' messages; 'kubectl/cancel' is Ctrl+C; `kubectl edit` posts 'kubectl/edit' and
// waits for the page's 'kubectl/edited'.
import type { Client } from '../control-plane/client/client';
import type { NodeSimulator } from '../control-plane/kubelet/node-simulator';
import type { Clock } from '../control-plane/sim/clock';
import type { UserInfo } from '../shared/api/request';
import type { ResourceRegistry } from '../shared/api/resources';
import { newBadRequest } from '../shared/api/status';
import type { WorkerMessage } from '../shared/protocol/messages';
import type { KubeconfigState, KubectlCatalog, KubectlRunParams, KubectlRunResult } from '../shared/protocol/methods';
import { commandCatalog } from '../kubectl/cli/catalog';
import { commands as registeredCommands } from '../kubectl/cmd/index';
import type { CommandSpec, KubeConfig } from '../kubectl/cli/command';
import { kubectlNodes } from '../kubectl/cli/nodes';
import { clusterNodes } from '../kubectl/nodes-adapter';
import type { Cluster } from '../control-plane/cluster';
import type { KubectlNodes } from '../kubectl/cli/command';
import { runKubectl } from '../kubectl/cli/run';
import { cancelSignal } from '../kubectl/cli/signal';

/** What the console's kubectl needs of a cluster. */
export interface KubectlCluster {
  readonly client?: Client;
  readonly clock: Clock | { now(): number };
  readonly registry: ResourceRegistry;
  readonly apiserver: { currentUser: UserInfo };
  readonly nodes?: Pick<NodeSimulator, 'logs'> | object;
}

export interface KubectlServiceOptions {
  post(message: WorkerMessage): void;
  /** After the command's synchronous part and when it ends: wake the driver so the work it scheduled runs. */
  afterRequest(): void;
  /** Resolves once what the command wrote is durable. */
  durable(): Promise<void>;
  /** Default: every registered command. */
  commands?: readonly CommandSpec[];
}

interface RunningCommand {
  cancel(): void;
  /** The pending `kubectl edit`, resolved by 'kubectl/edited' (or by Ctrl+C, as cancelled). */
  edit?: (yaml: string | undefined) => void;
}

function isClock(clock: KubectlCluster['clock']): clock is Clock {
  return typeof (clock as Partial<Clock>).setTimer === 'function';
}

function validKubeconfig(config: unknown): config is KubeConfig {
  const c = config as Partial<KubeConfig> | undefined;
  return !!c && typeof c.currentContext === 'string' && Array.isArray(c.contexts) && c.contexts.every((x) => x && typeof x.name === 'string');
}

/** One per served cluster session: the kubectl commands running in it. */
export class KubectlService {
  private readonly running = new Map<string, RunningCommand>();

  constructor(private readonly options: KubectlServiceOptions) {}

  async run(cluster: KubectlCluster, params: KubectlRunParams): Promise<KubectlRunResult> {
    const { client, clock } = cluster;
    if (!client || !isClock(clock)) throw newBadRequest('this cluster cannot run kubectl commands');
    if (!params || typeof params.id !== 'string' || typeof params.line !== 'string') throw newBadRequest('a run id and a command line are required');
    if (!validKubeconfig(params.kubeconfig)) throw newBadRequest('a kubeconfig with a current context is required');
    if (this.running.has(params.id)) throw newBadRequest(`kubectl run "${params.id}" is already running`);

    const { id } = params;
    let kubeconfig: KubeconfigState = params.kubeconfig;
    const output = new OutputStream(id, this.options.post);
    const { signal, cancel } = cancelSignal();
    const command: RunningCommand = { cancel };
    this.running.set(id, command);
    const sim = cluster.nodes as Partial<NodeSimulator> | undefined;
    try {
      const exitCode = await runKubectl(
        {
          client,
          clock,
          registry: cluster.registry,
          user: cluster.apiserver.currentUser,
          get kubeconfig() {
            return kubeconfig;
          },
          setKubeconfig(config) {
            kubeconfig = config;
          },
          ...(params.editorBuffer !== undefined ? { editorBuffer: params.editorBuffer } : {}),
          ...(params.files !== undefined && typeof params.files === 'object' ? { files: params.files } : {}),
          openEditor: (yaml, title) => this.openEditor(id, command, yaml, title, signal.cancelled),
          signal,
          ...nodesFor(cluster, sim, clock),
        },
        params.line,
        {
          stdout: (text) => output.write('stdout', text),
          stderr: (text) => output.write('stderr', text),
        },
        this.options.commands ? { commands: this.options.commands } : {},
      );
      output.flush();
      this.options.afterRequest();
      await this.options.durable();
      return { exitCode, kubeconfig };
    } finally {
      output.flush();
      this.running.delete(id);
      this.options.afterRequest();
    }
  }

  /** Every command path and flag, for the console's completion. */
  catalog(): KubectlCatalog {
    return commandCatalog(this.options.commands ?? registeredCommands);
  }

  /** Ctrl+C: the command stops (a watch ends, an edit is abandoned). Unknown ids are ignored: it just finished. */
  cancel(id: string): void {
    const command = this.running.get(id);
    if (!command) return;
    command.edit?.(undefined);
    command.cancel();
  }

  /** The page closed the editor of a `kubectl edit`: its text, or null when cancelled. */
  edited(id: string, yaml: string | null): void {
    const command = this.running.get(id);
    if (!command?.edit) throw newBadRequest(`kubectl run "${id}" is not waiting for the editor`);
    command.edit(yaml === null ? undefined : yaml);
  }

  /** Ends every running command (the cluster is reset or the worker stops serving). */
  cancelAll(): void {
    for (const id of [...this.running.keys()]) this.cancel(id);
  }

  get runningCount(): number {
    return this.running.size;
  }

  private openEditor(id: string, command: RunningCommand, yaml: string, title: string, cancelled: boolean): Promise<string | undefined> {
    if (cancelled) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      command.edit = (text) => {
        command.edit = undefined;
        resolve(text);
      };
      this.options.post({ type: 'kubectl/edit', id, yaml, title });
    });
  }
}

/**
 * Lines printed in one go travel together: consecutive lines of a stream are joined and sent at the end of the
 * microtask (or when the other stream prints), so `get -o yaml` of a long list is a few messages, not thousands.
 */
class OutputStream {
  private stream: 'stdout' | 'stderr' | undefined;
  private lines: string[] = [];
  private scheduled = false;

  constructor(
    private readonly id: string,
    private readonly post: (message: WorkerMessage) => void,
  ) {}

  write(stream: 'stdout' | 'stderr', text: string): void {
    if (this.stream !== stream) this.flush();
    this.stream = stream;
    this.lines.push(text);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  flush(): void {
    if (!this.stream || this.lines.length === 0) return;
    this.post({ type: 'kubectl/output', id: this.id, stream: this.stream, text: this.lines.join('\n') });
    this.lines = [];
  }
}

/**
 * The simulated machines as kubectl reaches them: logs, exec and top on a whole cluster; logs only where the
 * cluster offers just a node simulator.
 */
function nodesFor(cluster: KubectlCluster, sim: Partial<NodeSimulator> | undefined, clock: Clock): { nodes?: KubectlNodes } {
  if (!sim || typeof sim.logs !== 'function') return {};
  if (typeof sim.kubeletFor === 'function') return { nodes: clusterNodes(cluster as unknown as Cluster) };
  return { nodes: kubectlNodes(sim as NodeSimulator, clock) };
}
