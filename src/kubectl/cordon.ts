// kubectl cordon / uncordon NODE (k8s.io/kubectl/pkg/cmd/drain RunCordonOrUncordon + pkg/drain CordonHelper):
// read the node, and when spec.unschedulable differs from what is wanted, patch it with the two-way strategic
// merge patch kubectl computes ({"spec":{"unschedulable":true}}, or null to clear it — the field is omitempty).
// The node lifecycle controller then adds (or removes) the node.kubernetes.io/unschedulable:NoSchedule taint.
//
//   cordon(client, 'node-1').lines    // [{stream: 'stdout', text: 'node/node-1 cordoned'}]
//   uncordon(client, 'node-1')        // node/node-1 uncordoned
//
// Over the synchronous in-process Client, as the client's user; errors are printed as kubectl prints them.
import type { Node } from 'kubernetes-types/core/v1';
import { PatchType } from '../shared/api/request';
import { isStatusError, type StatusError } from '../shared/api/status';
import type { Client } from '../control-plane/client/client';

export interface CommandLine {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** What a kubectl command printed, and its exit code (0 success, 1 error). */
export interface CommandResult {
  lines: CommandLine[];
  exitCode: number;
}

export type DryRun = 'none' | 'client' | 'server';

export interface CordonOptions {
  dryRun?: DryRun;
}

/** kubectl cordon NODE: marks the node unschedulable. */
export function cordon(client: Client, node: string, options: CordonOptions = {}): CommandResult {
  return runCordonOrUncordon(client, node, true, options);
}

/** kubectl uncordon NODE: marks the node schedulable again. */
export function uncordon(client: Client, node: string, options: CordonOptions = {}): CommandResult {
  return runCordonOrUncordon(client, node, false, options);
}

/** Both commands; `desired` is the wanted spec.unschedulable. */
export function runCordonOrUncordon(client: Client, nodeName: string, desired: boolean, options: CordonOptions = {}): CommandResult {
  const out = new CommandOutput();
  let node: Node;
  try {
    node = client.nodes.get(nodeName);
  } catch (err) {
    out.fail(err);
    return out.result();
  }
  setUnschedulable(client, node, desired, options.dryRun ?? 'none', out);
  return out.result();
}

/**
 * The cordon step drain shares: prints `node/<name> cordoned` (or `already cordoned`), or kubectl's
 * `error: unable to cordon node "<name>": …` on stderr — after which kubectl carries on.
 */
export function setUnschedulable(client: Client, node: Node, desired: boolean, dryRun: DryRun, out: CommandOutput): void {
  const name = node.metadata?.name ?? '';
  const verb = desired ? 'cordon' : 'uncordon';
  if (!!node.spec?.unschedulable === desired) {
    out.stdout(`node/${name} already ${verb}ed${dryRunSuffix(dryRun)}`);
    return;
  }
  if (dryRun !== 'client') {
    try {
      client.nodes.patch(name, PatchType.StrategicMergePatch, { spec: { unschedulable: desired ? true : null } }, { dryRun: dryRun === 'server' });
    } catch (err) {
      if (!isStatusError(err)) throw err;
      out.stderr(`error: unable to ${verb} node ${JSON.stringify(name)}: ${err.message}`);
      return;
    }
  }
  out.stdout(`node/${name} ${verb}ed${dryRunSuffix(dryRun)}`);
}

function dryRunSuffix(dryRun: DryRun): string {
  return dryRun === 'client' ? ' (dry run)' : dryRun === 'server' ? ' (server dry run)' : '';
}

/** A command's output as it is printed, line by line. */
export class CommandOutput {
  readonly lines: CommandLine[] = [];
  exitCode = 0;
  private readonly listeners = new Set<(line: CommandLine) => void>();

  stdout(text: string): void {
    this.push({ stream: 'stdout', text });
  }

  stderr(text: string): void {
    this.push({ stream: 'stderr', text });
  }

  /** cmdutil.CheckErr: prints the error as kubectl does and sets exit code 1. */
  fail(err: unknown): void {
    this.stderr(kubectlErrorMessage(err));
    this.exitCode = 1;
  }

  onLine(fn: (line: CommandLine) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  result(): CommandResult {
    return { lines: this.lines.map((l) => ({ ...l })), exitCode: this.exitCode };
  }

  private push(line: CommandLine): void {
    this.lines.push(line);
    for (const fn of this.listeners) fn(line);
  }
}

/**
 * cmdutil.StandardErrorMessage: `Error from server (NotFound): nodes "x" not found` for an API error, kubectl's
 * connection-refused sentence when nothing answers, `error: …` for anything else.
 */
export function kubectlErrorMessage(err: unknown): string {
  if (isStatusError(err)) {
    const refused = /^dial tcp ([^:]+:\d+): connect: connection refused$/.exec(err.message);
    if (refused) return `The connection to the server ${refused[1]} was refused - did you specify the right host or port?`;
    return apiErrorMessage(err);
  }
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}

function apiErrorMessage(err: StatusError): string {
  if (err.reason === 'Unauthorized') return `error: You must be logged in to the server (${err.message})`;
  return err.reason ? `Error from server (${err.reason}): ${err.message}` : `Error from server: ${err.message}`;
}
