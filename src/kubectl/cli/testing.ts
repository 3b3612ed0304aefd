// Runs a kubectl command line against a headless cluster, as the cluster's admin through the API server
// endpoint, and collects what it printed: the harness every command's tests use.
//
//   const cluster = await commandTestCluster();
//   const { stdout, stderr, exitCode } = await kubectl(cluster, 'kubectl get pods -n kube-system');
//
// A command that waits (rollout status, drain, delete's graceful wait, logs -f, get -w) is driven on the
// virtual clock: time advances in steps until it exits, or until `maxTimeMs` passes — then it gets Ctrl+C, as
// a user stopping a watch would, and the result holds what it printed until then (exit code 130).
import type { Cluster } from '../../control-plane/cluster';
import type { CommandSpec, KubeConfig, KubectlNodes } from './command';
import { clusterNodes } from '../nodes-adapter';
import { runKubectl, type KubectlSession } from './run';
import { cancelSignal } from './signal';

export interface KubectlTestOptions {
  /** Default: one context "kubeplay" (cluster "kubeplay", user "admin"), no namespace. */
  kubeconfig?: KubeConfig;
  editorBuffer?: string;
  /** Files -f may name (the page passes its samples gallery). */
  files?: Record<string, string>;
  /** kubectl edit's editor: gets the YAML, returns the edited text (undefined: the user closed it unchanged). */
  openEditor?: (yaml: string, title: string) => Promise<string | undefined> | string | undefined;
  /** stdin when the line has no heredoc. */
  stdin?: string;
  /** The most virtual time a waiting command may take before it is cancelled. Default 10 minutes. */
  maxTimeMs?: number;
  /** Virtual time per step while a command waits. Default 100 ms. */
  stepMs?: number;
  /** Default: the cluster's simulated nodes. */
  nodes?: KubectlNodes;
  /** Default: every registered command. */
  commands?: readonly CommandSpec[];
  /** Called with every line as it is printed (a streaming command's lines, in order). */
  onLine?: (stream: 'stdout' | 'stderr', text: string) => void;
}

export interface KubectlTestResult {
  /** The printed lines joined with "\n" (and a final "\n" when anything was printed), as a terminal shows them. */
  stdout: string;
  stderr: string;
  exitCode: number;
  /** The kubeconfig after the command (config set-context, use-context). */
  kubeconfig: KubeConfig;
  /** Whether the command was still running at maxTimeMs and was cancelled. */
  cancelled: boolean;
}

export function defaultKubeconfig(): KubeConfig {
  return { currentContext: 'kubeplay', contexts: [{ name: 'kubeplay', cluster: 'kubeplay', user: 'admin' }] };
}

/** Lets every pending promise continuation run (the command's awaits between clock steps). */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function kubectl(cluster: Cluster, line: string, options: KubectlTestOptions = {}): Promise<KubectlTestResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let kubeconfig = options.kubeconfig ?? defaultKubeconfig();
  const { signal, cancel } = cancelSignal();
  const session: KubectlSession = {
    client: cluster.client,
    clock: cluster.clock,
    registry: cluster.registry,
    user: cluster.apiserver.currentUser,
    get kubeconfig() {
      return kubeconfig;
    },
    setKubeconfig(config) {
      kubeconfig = config;
    },
    signal,
    nodes: options.nodes ?? clusterNodes(cluster),
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    ...(options.editorBuffer !== undefined ? { editorBuffer: options.editorBuffer } : {}),
    ...(options.files !== undefined ? { files: options.files } : {}),
    ...(options.openEditor ? { openEditor: async (yaml: string, title: string) => options.openEditor!(yaml, title) } : {}),
  };
  const io = {
    stdout(text: string) {
      stdout.push(text);
      options.onLine?.('stdout', text);
    },
    stderr(text: string) {
      stderr.push(text);
      options.onLine?.('stderr', text);
    },
  };

  let exitCode: number | undefined;
  let failure: unknown;
  const run = runKubectl(session, line, io, options.commands ? { commands: options.commands } : {}).then(
    (code) => (exitCode = code),
    (err: unknown) => (failure = err ?? new Error('kubectl failed')),
  );
  await settle();
  const maxTimeMs = options.maxTimeMs ?? 10 * 60_000;
  const stepMs = options.stepMs ?? 100;
  const start = cluster.clock.now();
  let cancelled = false;
  while (exitCode === undefined && failure === undefined) {
    if (cluster.clock.now() - start >= maxTimeMs) {
      cancelled = true;
      cancel();
      await settle();
      // A command that ignores Ctrl+C still gets its steps, for as long again.
      if (exitCode === undefined && failure === undefined && cluster.clock.now() - start >= 2 * maxTimeMs) break;
    }
    cluster.advance(stepMs);
    await settle();
  }
  await Promise.race([run, settle()]);
  if (failure !== undefined) throw failure;
  if (exitCode === undefined) throw new Error(`kubectl ${JSON.stringify(line)} did not exit after Ctrl+C`);
  const text = (lines: string[]): string => (lines.length ? `${lines.join('\n')}\n` : '');
  return { stdout: text(stdout), stderr: text(stderr), exitCode, kubeconfig, cancelled };
}
