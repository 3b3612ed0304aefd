// What the console needs to complete a command line without running anything: every command path (groups
// included), its aliases and flags, and kubectl's global flags. Plain JSON, sent to the page once.
import type { CommandSpec, FlagSpec, FlagType } from './command';
import { globalFlags } from './global-flags';
import { buildCommandTree, type CommandNode } from './tree';

export interface CatalogFlag {
  name: string;
  shorthand?: string;
  type: FlagType;
}

export interface CatalogCommand {
  path: string[];
  aliases: string[];
  short: string;
  /** False for a group that only holds subcommands. */
  runnable: boolean;
  flags: CatalogFlag[];
}

export interface CommandCatalog {
  commands: CatalogCommand[];
  globalFlags: CatalogFlag[];
}

function flagInfo(flags: readonly FlagSpec[]): CatalogFlag[] {
  return flags.filter((f) => !f.hidden).map((f) => ({ name: f.name, ...(f.shorthand ? { shorthand: f.shorthand } : {}), type: f.type }));
}

export function commandCatalog(commands: readonly CommandSpec[]): CommandCatalog {
  const out: CatalogCommand[] = [];
  const visit = (node: CommandNode): void => {
    for (const child of node.children) {
      if (!child.spec) continue;
      out.push({ path: child.path, aliases: child.spec.aliases ?? [], short: child.spec.short, runnable: !!child.run, flags: flagInfo(child.spec.flags ?? []) });
      visit(child);
    }
  };
  visit(buildCommandTree(commands));
  return { commands: out, globalFlags: flagInfo(globalFlags) };
}
