// Runs one console input as kubectl v1.32 would: split like a shell (parse.ts), find the command in the tree
// (cobra's Find), parse its flags with pflag's semantics, apply the global flags (-n, --as, --as-group, --context),
// and call the command's run() with an env for this invocation. Usage errors, --help and the root's help print
// kubectl's texts; errors a command throws print as cmdutil.CheckErr prints them.
//
//   await runKubectl(session, 'kubectl get pods -n kube-system', io)            // → exit code
//   await runKubectl(session, "kubectl apply -f - <<EOF\napiVersion: v1\n…\nEOF", io)
//
// The word "kubectl" at the start is optional (`get pods` runs too). `cat <<EOF | kubectl apply -f -` and
// `echo … | kubectl …` feed the text to kubectl's stdin; `a && b`, `a || b` and `a; b` run in sequence.
import { Client, type ApiServerPort } from '../../control-plane/client/client';
import type { UserInfo } from '../../shared/api/request';
import { commands as registeredCommands } from '../cmd/index';
import { kubectlErrorMessage } from '../cordon';
import type { CommandIO, CommandSpec, KubectlEnv } from './command';
import { parseFlags, type ParsedFlags } from './flags';
import { parseGoDuration } from './go-values';
import { helpText, optionsText, usageSections } from './help';
import { createFilter, filterPrograms, type LineFilter } from './filters';
import { parseShell, type ShellCommand } from './parse';
import { buildCommandTree, findCommand, firstWord, flagsFor, suggestionsFor, type CommandNode } from './tree';

/** What a console session holds between commands: everything of a KubectlEnv but what one command line decides. */
export type KubectlSession = Omit<KubectlEnv, 'namespace' | 'namespaceExplicit'>;

export interface RunOptions {
  /** The command list (default: every registered command, src/kubectl/cmd/index.ts). */
  commands?: readonly CommandSpec[];
}

/** kubectl's exit code for a bash-level syntax error (bash's own: 2) and for a missing program (127). */
const shellSyntaxExit = 2;
const commandNotFoundExit = 127;
/** A command stopped by Ctrl+C. */
export const interruptedExit = 130;

/** Runs a console input (one or more commands); resolves with the exit code of the last one run. */
export async function runKubectl(env: KubectlSession, line: string, io: CommandIO, options: RunOptions = {}): Promise<number> {
  const parsed = parseShell(line);
  if (!parsed.ok) {
    io.stderr(`bash: ${parsed.error}`);
    return shellSyntaxExit;
  }
  const root = buildCommandTree(options.commands ?? registeredCommands);
  let exitCode = 0;
  for (const step of parsed.steps) {
    if (step.op === '&&' && exitCode !== 0) continue;
    if (step.op === '||' && exitCode === 0) continue;
    if (env.signal.cancelled) return interruptedExit;
    exitCode = await runPipeline(root, env, step.pipeline, io);
  }
  return exitCode;
}

/**
 * A pipeline: text producers (`cat <<EOF`, `echo …`), then kubectl (several: each one's output is the next one's
 * stdin, as in `kubectl create … -o yaml --dry-run=client | kubectl apply -f -`), then text filters (grep, head,
 * tail, wc) that the last kubectl's stdout streams through. Like bash without pipefail, the exit code is the
 * last stage's.
 */
async function runPipeline(root: CommandNode, env: KubectlSession, pipeline: ShellCommand[], io: CommandIO): Promise<number> {
  const isProducer = (stage: ShellCommand): boolean => (stage.argv[0] === 'cat' && stage.argv.length === 1) || stage.argv[0] === 'echo';
  const isFilter = (stage: ShellCommand, i: number): boolean => i > 0 && filterPrograms.has(stage.argv[0]);
  const producers = pipeline.findIndex((stage) => !isProducer(stage));
  const firstKubectl = producers < 0 ? pipeline.length : producers;
  let lastKubectl = firstKubectl - 1;
  while (lastKubectl + 1 < pipeline.length && !isFilter(pipeline[lastKubectl + 1], lastKubectl + 1) && (lastKubectl < firstKubectl || pipeline[lastKubectl + 1].argv[0] === 'kubectl')) lastKubectl++;
  let stdin: string | undefined;
  for (const stage of pipeline.slice(0, firstKubectl)) {
    stdin = stage.argv[0] === 'echo' ? echo(stage.argv.slice(1)) : (stage.stdin ?? stdin ?? '');
  }

  // Filters after the last kubectl, chained: each prints into the next, the last onto the console.
  const filters: LineFilter[] = [];
  let sink = (text: string): void => io.stdout(text);
  for (const stage of pipeline.slice(lastKubectl + 1).reverse()) {
    const next = sink;
    const made = createFilter(stage.argv, next);
    if (!made.ok) {
      for (const line of made.error.split('\n')) io.stderr(line);
      return made.exitCode;
    }
    filters.unshift(made.filter);
    sink = (text) => made.filter.line(text);
  }

  let exitCode = 0;
  for (let i = firstKubectl; i <= lastKubectl; i++) {
    const stage = pipeline[i];
    const argv = stage.argv[0] === 'kubectl' ? stage.argv.slice(1) : stage.argv;
    const captured: string[] = [];
    const stageIO: CommandIO = i < lastKubectl ? { stdout: (text) => captured.push(text), stderr: io.stderr } : { stdout: sink, stderr: io.stderr };
    exitCode = await runCommandLine(root, env, argv, stage.stdin ?? stdin, stageIO);
    stdin = captured.length ? `${captured.join('\n')}\n` : '';
  }
  // Nothing but producers before the filters: their text is the filters' input.
  if (lastKubectl < firstKubectl && stdin !== undefined) for (const line of stdin.replace(/\n$/, '').split('\n')) sink(line);
  for (const filter of filters) exitCode = filter.end();
  return exitCode;
}

function echo(args: string[]): string {
  const noNewline = args[0] === '-n';
  const words = noNewline ? args.slice(1) : args;
  return words.join(' ') + (noNewline ? '' : '\n');
}

/** One kubectl invocation: argv without the leading "kubectl". */
async function runCommandLine(root: CommandNode, session: KubectlSession, argv: string[], stdin: string | undefined, io: CommandIO): Promise<number> {
  const { node, args } = findCommand(root, argv);

  // `kubectl help [command]` and `kubectl options` are cobra's and kubectl's own.
  if (node === root) {
    const word = firstWord(root, args);
    if (word === 'help') return help(root, args.slice(args.indexOf('help') + 1), io);
    if (word === 'options') return printLines(io.stdout, optionsText(), 0);
    if (word !== undefined) {
      io.stderr(`error: unknown command ${JSON.stringify(word)} for "kubectl"`);
      const suggestions = suggestionsFor(root, word);
      if (suggestions.length) {
        io.stderr('');
        io.stderr('Did you mean this?');
        for (const s of suggestions) io.stderr(`\t${s}`);
      }
      return 1;
    }
  }

  const commandPath = ['kubectl', ...node.path].join(' ');
  const parsed = parseFlags(flagsFor(node), args);
  if (!parsed.ok) {
    io.stderr(`error: ${parsed.error}`);
    io.stderr(`See '${commandPath} --help' for usage.`);
    return 1;
  }
  const flags = parsed.flags;
  if (flags.get<boolean>('help')) return printLines(io.stdout, helpText(node), 0);
  if (node === root) return printLines(io.stdout, helpText(root), 0);
  if (!node.run) {
    if (parsed.args.length > 0) {
      io.stderr(`error: unknown command ${JSON.stringify(parsed.args.join(' '))}`);
      io.stderr(`See '${commandPath} -h' for help and examples`);
      return 1;
    }
    return printLines(io.stderr, helpText(node), 1);
  }

  const env = commandEnv(session, flags, stdin, io);
  if (typeof env === 'number') return env;
  let exitCode: number;
  try {
    exitCode = await node.run(env, parsed.args, flags, io);
  } catch (err) {
    io.stderr(kubectlErrorMessage(err));
    exitCode = 1;
  }
  // Ctrl+C (SIGINT) ends kubectl whatever it was doing: the shell reports 128+2.
  return session.signal.cancelled ? interruptedExit : exitCode;
}

function help(root: CommandNode, words: string[], io: CommandIO): number {
  const { node, args } = findCommand(root, words);
  const unknown = args.find((a) => !a.startsWith('-'));
  if (node === root && unknown !== undefined) {
    io.stdout(`Unknown help topic [\`${unknown}\`]`);
    return printLines(io.stdout, usageSections(root), 0);
  }
  return printLines(io.stdout, helpText(node), 0);
}

function printLines(write: (text: string) => void, lines: string[], exitCode: number): number {
  for (const line of lines) write(line);
  return exitCode;
}

/** The env one invocation runs with: the namespace, user and kubeconfig context its global flags select. */
function commandEnv(session: KubectlSession, flags: ParsedFlags, stdin: string | undefined, io: CommandIO): KubectlEnv | number {
  const contextName = flags.get<string>('context') || session.kubeconfig.currentContext;
  const context = session.kubeconfig.contexts.find((c) => c.name === contextName);
  if (flags.get<string>('context') && !context) {
    io.stderr(`Error in configuration: context was not found for specified context: ${contextName}`);
    return 1;
  }
  const timeout = flags.get<string>('request-timeout') ?? '0';
  if (!/^\d+$/.test(timeout) && !parseGoDuration(timeout).ok) {
    io.stderr('error: Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)');
    return 1;
  }
  const explicitNamespace = flags.get<string>('namespace') ?? '';
  const namespace = explicitNamespace || context?.namespace || 'default';

  let client = session.client;
  let user: UserInfo = session.user;
  const as = flags.get<string>('as') ?? '';
  const asGroups = flags.get<string[]>('as-group') ?? [];
  if (!as && (asGroups.length || flags.get<string>('as-uid'))) {
    io.stderr('error: requesting uid, groups or user-extra for  without impersonating a user');
    return 1;
  }
  if (as) {
    const impersonate = { username: as, ...(asGroups.length ? { groups: asGroups } : {}) };
    client = new Client(impersonating(session.client.server, impersonate), session.client.user);
    user = { username: as, groups: asGroups.length ? [...asGroups, 'system:authenticated'] : ['system:authenticated'] };
  }
  return {
    ...session,
    client,
    user,
    namespace,
    namespaceExplicit: explicitNamespace !== '',
    ...(stdin !== undefined ? { stdin } : {}),
  };
}

/** kubectl --as: every request carries Impersonate-User (and -Group) headers; the API server authorizes them. */
function impersonating(server: ApiServerPort, impersonate: { username: string; groups?: string[] }): ApiServerPort {
  return {
    handle: (req) => server.handle({ ...req, impersonate }),
    watch: (req, handler) => server.watch({ ...req, impersonate }, handler),
  };
}
