// The node selection kubectl's cordon, uncordon and drain share (pkg/cmd/drain DrainCmdOptions.Complete):
// NODE names (or node/NAME), or -l over all nodes, never both; anything not a node is refused.
import type { Node } from 'kubernetes-types/core/v1';
import type { CommandIO, FlagValues, KubectlEnv } from '../cli/command';
import type { KubeObject } from '../../shared/api/types';
import { AggregateError, checkErr } from './check-err';
import { stringFlag } from './flags';
import { resolveTargets } from './target';

/** Complete's usage errors, as cmdutil.UsageErrorf prints them (exit 1). */
function usageError(io: CommandIO, command: string, message: string): number {
  io.stderr(message.startsWith('error: ') ? message : `error: ${message}`);
  io.stderr(`See 'kubectl ${command} -h' for help and examples`);
  return 1;
}

/** The nodes a command acts on, or the exit code after printing why there are none to act on. */
export function selectNodes(env: KubectlEnv, command: 'cordon' | 'uncordon' | 'drain', args: string[], flags: FlagValues, io: CommandIO): (Node & KubeObject)[] | number {
  const selector = stringFlag(flags, 'selector');
  if (args.length === 0 && !flags.changed('selector')) return usageError(io, command, `USAGE: ${command} NODE [flags]`);
  if (args.length > 0 && selector) return usageError(io, command, 'error: cannot specify both a node name and a --selector option');
  try {
    // ResourceNames("nodes", args...): a bare name is a node; TYPE/NAME is taken as given.
    const resolved = selector
      ? resolveTargets(env, ['nodes'], { selector })
      : resolveTargets(env, args.map((a) => (a.includes('/') ? a : `nodes/${a}`)));
    if (resolved.errors.length > 0) throw new AggregateError([resolved.errors[0]]);
    for (const t of resolved.targets) {
      if (t.rt.group !== '' || t.rt.resource !== 'nodes') {
        throw new Error(`error: expected resource of type node, got ${JSON.stringify(`${t.rt.group}/${t.rt.version}, Resource=${t.rt.resource}`)}`);
      }
    }
    return resolved.targets.map((t) => t.object as Node & KubeObject);
  } catch (err) {
    return checkErr(io, err);
  }
}
