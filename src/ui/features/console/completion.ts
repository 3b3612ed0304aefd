// Tab completion for the console, as kubectl's shell completion offers it: the word "kubectl", commands and
// subcommands, flags (the command's and the global ones), resource kinds, object names of a kind (from the page's
// objects), namespaces after -n, output formats after -o. Pure: the console passes what the page knows.
import type { ResourceType } from '../../../shared/api/resources';
import type { KubectlCatalog, KubectlFlagInfo } from '../../../shared/protocol/methods';

export interface CompletionSource {
  catalog: KubectlCatalog;
  resources: readonly ResourceType[];
  /** Names of the objects of a type, in a namespace (undefined: every namespace, or cluster-scoped). */
  objectNames(type: ResourceType, namespace: string | undefined): string[];
  /** The namespace of the current context. */
  namespace: string;
}

export interface Completion {
  /** The text before the cursor, completed as far as the candidates agree. */
  text: string;
  /** Every candidate when there is more than one (the console lists them, as a second Tab in bash does). */
  candidates: string[];
}

const outputFormats = ['json', 'yaml', 'wide', 'name', 'jsonpath=', 'custom-columns=', 'go-template='];

/** Commands whose first argument is a TYPE (then NAMEs of it, or TYPE/NAME). */
const typedCommands = new Set([
  'get',
  'describe',
  'delete',
  'edit',
  'label',
  'annotate',
  'scale',
  'patch',
  'wait',
  'autoscale',
  'expose',
  'explain',
  'taint',
  'rollout status',
  'rollout history',
  'rollout undo',
  'rollout restart',
  'rollout pause',
  'rollout resume',
  'set image',
  'set env',
  'set resources',
  'set selector',
  'set serviceaccount',
]);

/** Commands whose arguments name objects of one type. */
const fixedTypeCommands: Record<string, string> = {
  logs: 'pods',
  exec: 'pods',
  attach: 'pods',
  'port-forward': 'pods',
  'top pod': 'pods',
  'top node': 'nodes',
  cordon: 'nodes',
  uncordon: 'nodes',
  drain: 'nodes',
};

type Command = KubectlCatalog['commands'][number];

/** The resource type a word names: plural, singular, short name, Kind, optionally with .group. */
export function resolveType(resources: readonly ResourceType[], word: string): ResourceType | undefined {
  const lower = word.toLowerCase();
  const [name, ...groupParts] = lower.split('.');
  const group = groupParts.join('.');
  const matches = resources.filter(
    (rt) => (rt.resource === name || rt.singular === name || rt.shortNames.includes(name) || rt.kind.toLowerCase() === name) && (!group || rt.group === group || `${rt.version}.${rt.group}` === group),
  );
  // Prefer the core and apps groups on a tie, as kubectl's discovery priority does.
  return matches.sort((a, b) => priority(a) - priority(b))[0];
}

function priority(rt: ResourceType): number {
  return rt.group === '' ? 0 : rt.group === 'apps' ? 1 : rt.group === 'events.k8s.io' ? 9 : 2;
}

function commonPrefix(words: string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0];
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

function finish(before: string, current: string, candidates: string[]): Completion {
  const unique = [...new Set(candidates)].filter((c) => c.startsWith(current)).sort();
  const base = before.slice(0, before.length - current.length);
  if (unique.length === 0) return { text: before, candidates: [] };
  if (unique.length === 1) {
    const word = unique[0];
    const open = word.endsWith('=') || word.endsWith('/');
    return { text: base + word + (open ? '' : ' '), candidates: [] };
  }
  const prefix = commonPrefix(unique);
  return { text: base + (prefix.length > current.length ? prefix : current), candidates: unique };
}

function takesValue(flag: KubectlFlagInfo | undefined): boolean {
  return !!flag && flag.type !== 'bool';
}

/** Completes the word before the cursor. `before` is the prompt's text up to the cursor. */
export function complete(before: string, source: CompletionSource): Completion {
  const endsInSpace = before === '' || /\s$/.test(before);
  const words = before.trim() === '' ? [] : before.trim().split(/\s+/);
  const current = endsInSpace ? '' : words.pop()!;

  // The program's own name (the console also takes commands without it).
  if (words.length === 0 && current !== '' && 'kubectl'.startsWith(current)) return finish(before, current, ['kubectl']);
  const args = words[0] === 'kubectl' ? words.slice(1) : words;

  // Walk the words: the command they name, the flags given, the positional arguments.
  let command: Command | undefined;
  let namespace: string | undefined;
  let allNamespaces = false;
  const positional: string[] = [];
  const flagsOf = (): KubectlFlagInfo[] => [...(command?.flags ?? []), ...source.catalog.globalFlags];
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word.startsWith('-')) {
      const [flagPart, value] = word.split('=', 2);
      const flag = flagPart.startsWith('--') ? flagsOf().find((f) => f.name === flagPart.slice(2)) : flagsOf().find((f) => f.shorthand === flagPart.slice(1));
      let flagValue = value;
      if (value === undefined && takesValue(flag) && flagPart.length > 1) flagValue = args[++i];
      if (flag?.name === 'namespace') namespace = flagValue;
      if (flag?.name === 'all-namespaces' && value !== 'false') allNamespaces = true;
      continue;
    }
    const sub = positional.length === 0 ? childOf(source.catalog, command, word) : undefined;
    if (sub) command = sub;
    else positional.push(word);
  }

  // A flag's value: `-n <Tab>`, `--namespace=<Tab>`, `-o <Tab>`.
  const previous = args[args.length - 1];
  const valueFlag = (name: string): KubectlFlagInfo | undefined => (name.startsWith('--') ? flagsOf().find((f) => f.name === name.slice(2)) : flagsOf().find((f) => f.shorthand === name.slice(1)));
  let flagForValue: KubectlFlagInfo | undefined;
  let valuePrefix = '';
  if (current.startsWith('-') && current.includes('=')) {
    const [name] = current.split('=', 1);
    flagForValue = valueFlag(name);
    valuePrefix = `${name}=`;
  } else if (previous?.startsWith('-') && !previous.includes('=') && takesValue(valueFlag(previous))) {
    flagForValue = valueFlag(previous);
  }
  if (flagForValue) return finish(before, current, flagValues(flagForValue, source).map((v) => valuePrefix + v));

  if (current.startsWith('-')) {
    const flags = flagsOf().filter((f) => f.name !== 'help');
    return finish(before, current, flags.map((f) => (f.type === 'bool' ? `--${f.name}` : `--${f.name}=`)));
  }

  // Subcommands, or the root's commands.
  const children = childrenOf(source.catalog, command);
  if (positional.length === 0 && children.length > 0) {
    return finish(before, current, children.map((c) => c.path[c.path.length - 1]));
  }
  if (!command) return { text: before, candidates: [] };

  const path = command.path.join(' ');
  const ns = allNamespaces ? undefined : (namespace ?? source.namespace);
  const fixed = fixedTypeCommands[path];
  if (fixed) {
    const rt = resolveType(source.resources, fixed);
    return rt ? finish(before, current, source.objectNames(rt, rt.namespaced ? ns : undefined)) : { text: before, candidates: [] };
  }
  if (!typedCommands.has(path)) return { text: before, candidates: [] };
  if (positional.length === 0) {
    const slash = current.indexOf('/');
    if (slash > 0) {
      const rt = resolveType(source.resources, current.slice(0, slash));
      if (!rt) return { text: before, candidates: [] };
      const prefix = current.slice(0, slash + 1);
      return finish(before, current, source.objectNames(rt, rt.namespaced ? ns : undefined).map((n) => prefix + n));
    }
    const kinds = source.resources.filter((rt) => !(rt.group === 'events.k8s.io' && rt.resource === 'events')).map((rt) => rt.resource);
    return finish(before, current, path === 'get' ? [...kinds, 'all'] : kinds);
  }
  if (path === 'explain') return { text: before, candidates: [] };
  const rt = resolveType(source.resources, positional[0].split(',')[0]);
  if (!rt || positional[0].includes('/')) return { text: before, candidates: [] };
  return finish(before, current, source.objectNames(rt, rt.namespaced ? ns : undefined));
}

function childrenOf(catalog: KubectlCatalog, parent: Command | undefined): Command[] {
  const depth = parent ? parent.path.length + 1 : 1;
  return catalog.commands.filter((c) => c.path.length === depth && (!parent || parent.path.every((p, i) => c.path[i] === p)));
}

function childOf(catalog: KubectlCatalog, parent: Command | undefined, word: string): Command | undefined {
  return childrenOf(catalog, parent).find((c) => c.path[c.path.length - 1] === word || c.aliases.includes(word));
}

function flagValues(flag: KubectlFlagInfo, source: CompletionSource): string[] {
  if (flag.name === 'namespace') {
    const rt = resolveType(source.resources, 'namespaces');
    return rt ? source.objectNames(rt, undefined) : [];
  }
  if (flag.name === 'output') return outputFormats;
  return [];
}
