// The command tree cobra builds with AddCommand, from the flat `commands` list: a node per path, the groups of
// groups.ts filling parents no module registers, and cobra's Find (walk the words that are not flags, matching
// subcommand names and aliases) and its "Did you mean this?" suggestions.
import type { CommandSpec, FlagSpec } from './command';
import { commandGroups, type GroupSpec } from './groups';
import { globalFlags } from './global-flags';
import { helpFlag } from './flags';

export interface CommandNode {
  name: string;
  path: string[];
  /** The command's texts and flags; undefined for the root. */
  spec?: GroupSpec & { flags?: FlagSpec[] };
  /** Undefined for a group: run bare it prints its help (cmdutil.DefaultSubCommandRun). */
  run?: CommandSpec['run'];
  children: CommandNode[];
}

export function buildCommandTree(commands: readonly CommandSpec[]): CommandNode {
  const root: CommandNode = { name: 'kubectl', path: [], children: [] };
  const nodeAt = (path: string[]): CommandNode => {
    let node = root;
    for (let i = 0; i < path.length; i++) {
      let child = node.children.find((c) => c.name === path[i]);
      if (!child) {
        child = { name: path[i], path: path.slice(0, i + 1), children: [] };
        node.children.push(child);
      }
      node = child;
    }
    return node;
  };
  for (const command of commands) {
    const node = nodeAt(command.path);
    node.spec = command;
    node.run = command.run;
  }
  for (const group of commandGroups) {
    const node = findExact(root, group.path);
    if (node && !node.spec) node.spec = group;
  }
  return root;
}

function findExact(root: CommandNode, path: string[]): CommandNode | undefined {
  let node: CommandNode | undefined = root;
  for (const name of path) node = node?.children.find((c) => c.name === name);
  return node;
}

/** Every flag a node's command line may carry: its own, kubectl's global ones, and --help. */
export function flagsFor(node: CommandNode): FlagSpec[] {
  return [...(node.spec?.flags ?? []), ...globalFlags, helpFlag];
}

function matches(node: CommandNode, word: string): boolean {
  return node.name === word || (node.spec?.aliases ?? []).includes(word);
}

/** cobra's stripFlags: the words that are not flags nor flag values, as far as this node's flags tell. */
function nonFlagWords(args: readonly string[], flags: readonly FlagSpec[]): string[] {
  const takesValue = (spec: FlagSpec | undefined): boolean => !spec || (spec.type !== 'bool' && spec.noOptDefault === undefined);
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const s = args[i];
    if (s === '--') break;
    if (s.startsWith('--') && !s.includes('=')) {
      if (takesValue(flags.find((f) => f.name === s.slice(2)))) i++;
    } else if (s.startsWith('-') && s.length === 2 && !s.includes('=')) {
      if (takesValue(flags.find((f) => f.shorthand === s[1]))) i++;
    } else if (s !== '' && !s.startsWith('-')) {
      words.push(s);
    }
  }
  return words;
}

/** cobra's Find: the deepest command the words name, and the arguments left for it (flags included). */
export function findCommand(root: CommandNode, argv: readonly string[]): { node: CommandNode; args: string[] } {
  let node = root;
  let args = [...argv];
  for (;;) {
    const words = nonFlagWords(args, flagsFor(node));
    const next = words.length ? node.children.find((c) => c.spec && matches(c, words[0])) : undefined;
    if (!next) return { node, args };
    const at = args.indexOf(words[0]);
    args = [...args.slice(0, at), ...args.slice(at + 1)];
    node = next;
  }
}

/** The first word Find could not match under the root, if any (cobra's legacyArgs check). */
export function firstWord(node: CommandNode, args: readonly string[]): string | undefined {
  return nonFlagWords(args, flagsFor(node))[0];
}

/** Levenshtein distance, case-insensitive as cobra's ld(…, true). */
function distance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...new Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) d[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
  }
  return d[s.length][t.length];
}

/** cobra's SuggestionsFor (SuggestionsMinimumDistance 2): close names, or names the word starts. */
export function suggestionsFor(node: CommandNode, typed: string): string[] {
  return node.children
    .filter((c) => c.spec)
    .filter((c) => distance(typed, c.name) <= 2 || c.name.toLowerCase().startsWith(typed.toLowerCase()))
    .map((c) => c.name);
}
