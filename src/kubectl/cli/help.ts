// kubectl's help texts (k8s.io/kubectl pkg/util/templates: MainHelpTemplate/MainUsageTemplate, the help flag
// printer): the long description, then Aliases, Examples, Available Commands (or the root's command groups),
// Options (the command's own flags, sorted, `    -o, --output='':` then a tab-indented usage), Usage, and the tips.
// kubectl wraps flag usages at the terminal's width only on a terminal; like its piped output, nothing is wrapped.
import type { FlagSpec } from './command';
import { formatFlagDefault } from './flags';
import { globalFlags } from './global-flags';
import type { CommandNode } from './tree';

/** The root help's command groups, in kubectl's order (NewKubectlCommand's CommandGroups). */
export const rootCommandGroups: { message: string; commands: string[] }[] = [
  { message: 'Basic Commands (Beginner):', commands: ['create', 'expose', 'run', 'set'] },
  { message: 'Basic Commands (Intermediate):', commands: ['explain', 'get', 'edit', 'delete'] },
  { message: 'Deploy Commands:', commands: ['rollout', 'scale', 'autoscale'] },
  { message: 'Cluster Management Commands:', commands: ['certificate', 'cluster-info', 'top', 'cordon', 'uncordon', 'drain', 'taint'] },
  {
    message: 'Troubleshooting and Debugging Commands:',
    commands: ['describe', 'logs', 'attach', 'exec', 'port-forward', 'proxy', 'cp', 'auth', 'debug', 'events'],
  },
  { message: 'Advanced Commands:', commands: ['diff', 'apply', 'patch', 'replace', 'wait', 'kustomize'] },
  { message: 'Settings Commands:', commands: ['label', 'annotate', 'completion'] },
];

const rootLong = 'kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/';
const globalOptionsTip = 'Use "kubectl options" for a list of global command-line options (applies to all commands).';

/** The `--help` output of a command (or of the root), as lines. */
export function helpText(node: CommandNode): string[] {
  const text = (node.spec?.long ?? node.spec?.short ?? (node.path.length === 0 ? rootLong : '')).trim();
  return [...text.split('\n'), ...usageSections(node)];
}

/** cobra's UsageString: everything after the description, starting with the blank line that separates it. */
export function usageSections(node: CommandNode): string[] {
  const sections: string[][] = [];
  const spec = node.spec;
  if (spec?.aliases?.length) sections.push(['Aliases:', [node.name, ...spec.aliases].join(', ')]);
  if (spec?.example?.trim()) sections.push(['Examples:', ...exampleLines(spec.example)]);
  const children = node.children.filter((c) => c.spec);
  if (children.length) sections.push(...subcommandSections(node, children));
  const flags = (spec?.flags ?? []).filter((f) => !f.hidden).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (flags.length) sections.push(['Options:', ...flagUsages(flags)]);
  sections.push(['Usage:', `  ${usageLine(node)}`]);
  const tips: string[] = [];
  if (children.length) tips.push(`Use "${['kubectl', ...node.path].join(' ')} <command> --help" for more information about a given command.`);
  tips.push(globalOptionsTip);
  sections.push(tips);
  return ['', ...sections.flatMap((s, i) => (i < sections.length - 1 ? [...s, ''] : s))];
}

function exampleLines(example: string): string[] {
  const lines = example.replace(/^\s*\n/, '').replace(/\s+$/, '').split('\n');
  const indented = lines.every((l) => l.trim() === '' || l.startsWith('  '));
  return lines.map((l) => (indented ? (l.trim() === '' ? '  ' : l) : `  ${l}`.replace(/^\s+$/, '  ')));
}

function subcommandSections(node: CommandNode, children: CommandNode[]): string[][] {
  const pad = Math.max(11, ...children.map((c) => c.name.length)) + 2;
  const row = (c: CommandNode): string => `  ${c.name.padEnd(pad)} ${c.spec!.short}`;
  if (node.path.length > 0) {
    const sorted = [...children].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [['Available Commands:', ...sorted.map(row)]];
  }
  const grouped = new Set<string>();
  const sections: string[][] = [];
  for (const group of rootCommandGroups) {
    const members = group.commands.map((name) => children.find((c) => c.name === name)).filter((c): c is CommandNode => !!c);
    members.forEach((c) => grouped.add(c.name));
    if (members.length) sections.push([group.message, ...members.map(row)]);
  }
  sections.push(['Subcommands provided by plugins:']);
  const others = children.filter((c) => !grouped.has(c.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (others.length) sections.push(['Other Commands:', ...others.map(row)]);
  return sections;
}

/** kubectl's help flag printer: `    -n, --namespace='':` and the usage on the next line after a tab. */
export function flagUsages(flags: readonly FlagSpec[]): string[] {
  const lines: string[] = [];
  for (const flag of flags) {
    const name = flag.shorthand ? `-${flag.shorthand}, --${flag.name}` : `--${flag.name}`;
    lines.push(`    ${name}=${formatFlagDefault(flag)}:`, `\t${flag.usage.split('\n').join(' ')}`, '');
  }
  lines.pop();
  return lines;
}

/** "kubectl <path> <use> [flags] [options]" as the Usage section shows it. */
export function usageLine(node: CommandNode): string {
  if (node.path.length === 0) return 'kubectl [flags] [options]';
  const spec = node.spec!;
  let use = spec.use.trim().replace(/\s*\[options\]$/, '');
  const parent = ['kubectl', ...node.path.slice(0, -1)].join(' ');
  if (use.startsWith(`${parent} `)) use = use.slice(parent.length + 1);
  let line = `${parent} ${use}`;
  if (spec.flagsInUseLine && !line.includes('[flags]')) line += ' [flags]';
  return `${line} [options]`;
}

/** `kubectl options`: the global flags. */
export function optionsText(): string[] {
  const sorted = [...globalFlags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ['The following options can be passed to any command:', '', ...flagUsages(sorted)];
}
