// kubectl rollout undo (k8s.io/kubectl v0.32.4 pkg/cmd/rollout/rollout_undo.go): for each object, the
// rollbacker restores a revision's pod template and the name printer reports it: `deployment.apps/nginx rolled
// back`, `… skipped rollback (current template already matches revision 2)`, or kubectl's error
// (`error: unable to find specified revision 9 in history`).
import type { CommandSpec } from '../cli/command';
import { AggregateError, checkErr } from '../rollout/check-err';
import { dryRunFlag, dryRunStrategy, filenameFlags, intFlag, printFlags, selectorFlag, stringFlag, stringListFlag } from '../rollout/flags';
import { toPrinter } from '../rollout/print';
import { rollbackerFor } from '../rollout/rollback';
import { resolveTargets } from '../rollout/target';

export const rolloutUndoCommand: CommandSpec = {
  path: ['rollout', 'undo'],
  use: 'undo (TYPE NAME | TYPE/NAME) [flags]',
  short: 'Undo a previous rollout',
  long: 'Roll back to a previous rollout.',
  example: `  # Roll back to the previous deployment
  kubectl rollout undo deployment/abc
  
  # Roll back to daemonset revision 3
  kubectl rollout undo daemonset/abc --to-revision=3
  
  # Roll back to the previous deployment with dry-run
  kubectl rollout undo --dry-run=server deployment/abc`,
  flags: [
    ...filenameFlags('identifying the resource to get from a server.'),
    dryRunFlag,
    selectorFlag,
    ...printFlags,
    { name: 'to-revision', type: 'int', default: 0, usage: 'The revision to rollback to. Default to 0 (last revision).' },
  ],
  run(env, args, flags, io) {
    let resolved;
    let dryRun;
    try {
      dryRun = dryRunStrategy(flags);
      if (args.length === 0 && stringListFlag(flags, 'filename').length === 0 && !stringFlag(flags, 'kustomize')) {
        throw new Error('required resource not specified');
      }
      resolved = resolveTargets(env, args, { allowEmptySelector: true, selector: stringFlag(flags, 'selector'), filenames: stringListFlag(flags, 'filename') });
    } catch (err) {
      return checkErr(io, err);
    }
    const toRevision = intFlag(flags, 'to-revision');
    // ContinueOnError: every object is tried, the errors are printed together at the end.
    const errors = [...resolved.errors];
    for (const target of resolved.targets) {
      try {
        const result = rollbackerFor(env.client, target.rt)(target.object, toRevision, dryRun);
        toPrinter(io, flags, result, dryRun).print(target.rt, target.object);
      } catch (err) {
        errors.push(err);
      }
    }
    return errors.length > 0 ? checkErr(io, new AggregateError(errors)) : 0;
  },
};
