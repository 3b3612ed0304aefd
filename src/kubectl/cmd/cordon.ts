// kubectl cordon / uncordon NODE (k8s.io/kubectl v0.32.4 pkg/cmd/drain RunCordonOrUncordon): the command-line
// side over src/kubectl/cordon.ts, which patches spec.unschedulable and says `node/node-1 cordoned`
// (`already cordoned`, ` (dry run)`); nodes come by name or -l.
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { CommandOutput, setUnschedulable } from '../cordon';
import { checkErr } from '../rollout/check-err';
import { dryRunFlag, dryRunStrategy, selectorFlag } from '../rollout/flags';
import { selectNodes } from '../rollout/nodes';

function runCordonCommand(desired: boolean, env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  const command = desired ? 'cordon' : 'uncordon';
  let dryRun;
  try {
    dryRun = dryRunStrategy(flags);
  } catch (err) {
    return checkErr(io, err);
  }
  const nodes = selectNodes(env, command, args, flags, io);
  if (typeof nodes === 'number') return nodes;
  const out = new CommandOutput();
  out.onLine((line) => (line.stream === 'stdout' ? io.stdout(line.text) : io.stderr(line.text)));
  for (const node of nodes) setUnschedulable(env.client, node, desired, dryRun, out);
  // kubectl reports a failed patch and carries on; the command itself succeeds.
  return 0;
}

export const cordonCommand: CommandSpec = {
  path: ['cordon'],
  use: 'cordon NODE',
  short: 'Mark node as unschedulable',
  long: 'Mark node as unschedulable.',
  example: `  # Mark node "foo" as unschedulable
  kubectl cordon foo`,
  flags: [dryRunFlag, selectorFlag],
  run: (env, args, flags, io) => runCordonCommand(true, env, args, flags, io),
};

export const uncordonCommand: CommandSpec = {
  path: ['uncordon'],
  use: 'uncordon NODE',
  short: 'Mark node as schedulable',
  long: 'Mark node as schedulable.',
  example: `  # Mark node "foo" as schedulable
  kubectl uncordon foo`,
  flags: [dryRunFlag, selectorFlag],
  run: (env, args, flags, io) => runCordonCommand(false, env, args, flags, io),
};
