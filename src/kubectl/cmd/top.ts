// kubectl top node / top pod (k8s.io/kubectl pkg/cmd/top + metricsutil): the simulated metrics-server's usage
// (src/kubectl/nodes-adapter.ts documents the model), printed as metricsutil.TopCmdPrinter does with
// cli-runtime's tabwriter: every cell tab-terminated, CPU in millicores, memory in Mi, percentages of
// allocatable (or capacity with --show-capacity).
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { newNotFound } from '../../shared/api/status';
import { parseQuantity, toMillis } from '../../shared/lib/quantity';
import type { CommandIO, CommandSpec, KubectlEnv, KubectlNodes } from '../cli/command';
import { kubectlErrorMessage } from '../cordon';
import { TabWriter, tableTabWriter } from '../describe/tabwriter';
import { matchesSelector } from '../resource-builder';
import { CommandError } from '../resource-builder';
import { printText } from './describe';

type Usage = ReturnType<NonNullable<KubectlNodes['usage']>>;
interface Measured {
  cpuMillis: number;
  memoryBytes: number;
}

/** metricsCreationDelay: a pod this old should have metrics. */
const metricsCreationDelayMs = 2 * 60_000;

const selectorUsage = "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints.";

function usageFailure(io: CommandIO, use: string, path: string): number {
  io.stderr(`error: ${use}`);
  io.stderr(`See 'kubectl top ${path} -h' for help and examples`);
  return 1;
}

function metrics(env: KubectlEnv): Usage {
  // SupportedMetricsAPIVersionAvailable: without a metrics-server there is no metrics.k8s.io group.
  if (!env.nodes?.usage) throw new CommandError('Metrics API not available');
  return env.nodes.usage();
}

function cell(w: TabWriter, value: string): void {
  w.write(`${value}\t`);
}

function usageCells(w: TabWriter, m: Measured, available?: { cpuMillis: number; memoryMillis: number }): void {
  cell(w, `${m.cpuMillis}m`);
  if (available) cell(w, `${Math.trunc((m.cpuMillis / available.cpuMillis) * 100)}%`);
  cell(w, `${Math.floor(m.memoryBytes / (1024 * 1024))}Mi`);
  if (available) cell(w, `${Math.trunc(((m.memoryBytes * 1000) / available.memoryMillis) * 100)}%`);
}

function quantityMillis(v: unknown): number {
  try {
    return toMillis(parseQuantity(String(v)));
  } catch {
    return 0;
  }
}

export const topNodeCommand: CommandSpec = {
  path: ['top', 'node'],
  aliases: ['nodes', 'no'],
  use: 'node [NAME | -l label]',
  short: 'Display resource (CPU/memory) usage of nodes',
  long: 'Display resource (CPU/memory) usage of nodes.\n\n The top-node command allows you to see the resource consumption of nodes.',
  example: '  # Show metrics for all nodes\n  kubectl top node\n  \n  # Show metrics for a given node\n  kubectl top node NODE_NAME',
  flags: [
    { name: 'no-headers', type: 'bool', default: false, usage: 'If present, print output without headers' },
    { name: 'selector', shorthand: 'l', type: 'string', default: '', usage: selectorUsage },
    { name: 'show-capacity', type: 'bool', default: false, usage: 'Print node resources based on Capacity instead of Allocatable(default) of the nodes.' },
    { name: 'sort-by', type: 'string', default: '', usage: "If non-empty, sort nodes list using specified field. The field can be either 'cpu' or 'memory'." },
    { name: 'use-protocol-buffers', type: 'bool', default: true, usage: 'Enables using protocol-buffers to access Metrics API.' },
  ],
  run(env, args, flags, io) {
    if (args.length > 1) return usageFailure(io, 'node [NAME | -l label]', 'node');
    try {
      const sortBy = flags.get<string>('sort-by') ?? '';
      const selector = flags.get<string>('selector') ?? '';
      const name = args[0] ?? '';
      if (sortBy && sortBy !== 'cpu' && sortBy !== 'memory') throw new CommandError('--sort-by accepts only cpu or memory');
      if (name && selector) throw new CommandError('only one of NAME or --selector can be provided');
      const usage = metrics(env);
      let nodes: Node[];
      if (name) {
        // The metrics API answers first: a node it does not measure is NotFound there.
        if (!usage.nodes.some((n) => n.name === name)) throw newNotFound({ group: 'metrics.k8s.io', resource: 'nodemetrics' }, name);
        nodes = [env.client.nodes.get(name)];
      } else {
        nodes = env.client.nodes.list({ labelSelector: selector || undefined }).items as Node[];
      }
      const names = new Set(nodes.map((n) => n.metadata?.name ?? ''));
      const measured = usage.nodes.filter((n) => names.has(n.name) && (!selector || matchesSelector(nodes.find((x) => x.metadata?.name === n.name)?.metadata?.labels ?? {}, selector)));
      if (measured.length === 0) throw new CommandError('metrics not available yet');
      const showCapacity = flags.get<boolean>('show-capacity') === true;
      const available = new Map(
        nodes.map((n) => {
          const list = (showCapacity ? n.status?.capacity : n.status?.allocatable) ?? {};
          return [n.metadata?.name ?? '', { cpuMillis: quantityMillis(list.cpu), memoryMillis: quantityMillis(list.memory) }];
        }),
      );
      measured.sort((a, b) => (sortBy === 'cpu' ? b.cpuMillis - a.cpuMillis : sortBy === 'memory' ? b.memoryBytes - a.memoryBytes : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const w = new TabWriter(tableTabWriter);
      if (flags.get<boolean>('no-headers') !== true) {
        for (const h of ['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)']) cell(w, h);
        w.write('\n');
      }
      for (const m of measured) {
        cell(w, m.name);
        usageCells(w, m, available.get(m.name));
        w.write('\n');
        available.delete(m.name);
      }
      // Nodes the metrics API has nothing for (a dead kubelet).
      for (const missing of [...available.keys()].sort()) {
        cell(w, missing);
        for (let i = 0; i < 4; i++) cell(w, '<unknown>');
        w.write('\n');
      }
      printText(io.stdout, w.flush());
      return 0;
    } catch (err) {
      io.stderr(kubectlErrorMessage(err));
      return 1;
    }
  },
};

/** Go's time.Duration.String() of whole milliseconds: "2m30.5s", "1h0m0s". */
function goDurationString(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const secs = `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  if (h > 0) return `${h}h${m}m${secs}`;
  if (m > 0) return `${m}m${secs}`;
  return secs;
}

export const topPodCommand: CommandSpec = {
  path: ['top', 'pod'],
  aliases: ['pods', 'po'],
  use: 'pod [NAME | -l label]',
  short: 'Display resource (CPU/memory) usage of pods',
  long: "Display resource (CPU/memory) usage of pods.\n\n The 'top pod' command allows you to see the resource consumption of pods.\n\n Due to the metrics pipeline delay, they may be unavailable for a few minutes since pod creation.",
  example:
    '  # Show metrics for all pods in the default namespace\n  kubectl top pod\n  \n  # Show metrics for all pods in the given namespace\n  kubectl top pod --namespace=NAMESPACE\n  \n  # Show metrics for a given pod and its containers\n  kubectl top pod POD_NAME --containers\n  \n  # Show metrics for the pods defined by label name=myLabel\n  kubectl top pod -l name=myLabel',
  flags: [
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', default: false, usage: 'If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace.' },
    { name: 'containers', type: 'bool', default: false, usage: 'If present, print usage of containers within a pod.' },
    {
      name: 'field-selector',
      type: 'string',
      default: '',
      usage: "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type.",
    },
    { name: 'no-headers', type: 'bool', default: false, usage: 'If present, print output without headers.' },
    { name: 'selector', shorthand: 'l', type: 'string', default: '', usage: selectorUsage },
    { name: 'sort-by', type: 'string', default: '', usage: "If non-empty, sort pods list using specified field. The field can be either 'cpu' or 'memory'." },
    { name: 'sum', type: 'bool', default: false, usage: 'Print the sum of the resource usage' },
    { name: 'use-protocol-buffers', type: 'bool', default: true, usage: 'Enables using protocol-buffers to access Metrics API.' },
  ],
  run(env, args, flags, io) {
    if (args.length > 1) return usageFailure(io, 'pod [NAME | -l label]', 'pod');
    try {
      return topPods(env, args[0] ?? '', flags, io);
    } catch (err) {
      io.stderr(kubectlErrorMessage(err));
      return 1;
    }
  },
};

function topPods(env: KubectlEnv, name: string, flags: Parameters<CommandSpec['run']>[2], io: CommandIO): number {
  const sortBy = flags.get<string>('sort-by') ?? '';
  const selector = flags.get<string>('selector') ?? '';
  const fieldSelector = flags.get<string>('field-selector') ?? '';
  const allNamespaces = flags.get<boolean>('all-namespaces') === true;
  const printContainers = flags.get<boolean>('containers') === true;
  const noHeaders = flags.get<boolean>('no-headers') === true;
  if (sortBy && sortBy !== 'cpu' && sortBy !== 'memory') throw new CommandError('--sort-by accepts only cpu or memory');
  if (name && (selector || fieldSelector)) throw new CommandError('only one of NAME or selector can be provided');
  const usage = metrics(env);
  const namespace = allNamespaces ? undefined : env.namespace;
  // The metrics API filters pods by their labels and fields as the pods API does: ask it which pods match.
  const pods = env.client.pods.list({ namespace, labelSelector: selector || undefined, fieldSelector: fieldSelector || undefined }).items as Pod[];
  const matching = new Set(pods.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`));
  let measured = usage.pods.filter((p) => (namespace === undefined || p.namespace === namespace) && matching.has(`${p.namespace}/${p.name}`));
  if (name) {
    measured = measured.filter((p) => p.name === name);
    if (measured.length === 0) throw newNotFound({ group: 'metrics.k8s.io', resource: 'podmetrics' }, `${env.namespace}/${name}`);
  }
  if (measured.length === 0) {
    // verifyEmptyMetrics: a pod old enough to have metrics is reported; else they are simply not there yet.
    const now = env.clock.now();
    for (const pod of pods) {
      const age = now - Date.parse(pod.metadata?.creationTimestamp ?? '');
      if (age > metricsCreationDelayMs) throw new CommandError(`Metrics not available for pod ${pod.metadata?.namespace}/${pod.metadata?.name}, age: ${goDurationString(age)}`);
    }
    if (pods.length > 0) throw new CommandError('metrics not available yet');
    io.stderr(allNamespaces ? 'No resources found' : `No resources found in ${env.namespace} namespace.`);
    return 0;
  }
  const total = (p: Usage['pods'][number]): Measured => p.containers.reduce((a, c) => ({ cpuMillis: a.cpuMillis + c.cpuMillis, memoryBytes: a.memoryBytes + c.memoryBytes }), { cpuMillis: 0, memoryBytes: 0 });
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  measured.sort((a, b) => {
    if (sortBy === 'cpu') return total(b).cpuMillis - total(a).cpuMillis;
    if (sortBy === 'memory') return total(b).memoryBytes - total(a).memoryBytes;
    if (allNamespaces && a.namespace !== b.namespace) return byName(a.namespace, b.namespace);
    return byName(a.name, b.name);
  });
  const w = new TabWriter(tableTabWriter);
  let columnWidth = 3;
  if (!noHeaders) {
    if (allNamespaces) {
      cell(w, 'NAMESPACE');
      columnWidth++;
    }
    if (printContainers) {
      cell(w, 'POD');
      columnWidth++;
    }
    for (const h of ['NAME', 'CPU(cores)', 'MEMORY(bytes)']) cell(w, h);
    w.write('\n');
  }
  for (const p of measured) {
    if (printContainers) {
      const containers = [...p.containers].sort((a, b) => (sortBy === 'cpu' ? b.cpuMillis - a.cpuMillis : sortBy === 'memory' ? b.memoryBytes - a.memoryBytes : byName(a.name, b.name)));
      for (const c of containers) {
        if (allNamespaces) cell(w, p.namespace);
        cell(w, p.name);
        cell(w, c.name);
        usageCells(w, c);
        w.write('\n');
      }
    } else {
      if (allNamespaces) cell(w, p.namespace);
      cell(w, p.name);
      usageCells(w, total(p));
      w.write('\n');
    }
  }
  if (flags.get<boolean>('sum') === true) {
    const sum = measured.map(total).reduce((a, c) => ({ cpuMillis: a.cpuMillis + c.cpuMillis, memoryBytes: a.memoryBytes + c.memoryBytes }), { cpuMillis: 0, memoryBytes: 0 });
    for (let i = 0; i < columnWidth - 2; i++) cell(w, '');
    cell(w, '________');
    cell(w, '________');
    w.write('\n');
    for (let i = 0; i < columnWidth - 3; i++) cell(w, '');
    cell(w, '');
    usageCells(w, sum);
    w.write('\n');
  }
  printText(io.stdout, w.flush());
  return 0;
}
