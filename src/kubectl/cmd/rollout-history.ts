// kubectl rollout history (k8s.io/kubectl v0.32.4 pkg/cmd/rollout/rollout_history.go): the name printer with
// the history as its "operation", so the output reads
//
//   deployment.apps/nginx 
//   REVISION  CHANGE-CAUSE
//   1         <none>
//   2         kubectl set image deployment/nginx nginx=nginx:1.16.1 --record=true
//   (a blank line)
//
// or `deployment.apps/nginx with revision #2` and that revision's pod template. With -o, the revision objects
// themselves (ReplicaSets, or the DaemonSet/StatefulSet as of each revision) are printed.
import type { CommandSpec } from '../cli/command';
import { AggregateError, checkErr } from '../rollout/check-err';
import { filenameFlags, intFlag, printFlags, selectorFlag, stringFlag, stringListFlag } from '../rollout/flags';
import { historyViewerFor } from '../rollout/history';
import { kindOf, printNameWithOperation, toPrinter } from '../rollout/print';
import { resolveTargets } from '../rollout/target';

export const rolloutHistoryCommand: CommandSpec = {
  path: ['rollout', 'history'],
  use: 'history (TYPE NAME | TYPE/NAME) [flags]',
  short: 'View rollout history',
  long: 'View previous rollout revisions and configurations.',
  example: `  # View the rollout history of a deployment
  kubectl rollout history deployment/abc
  
  # View the details of daemonset revision 3
  kubectl rollout history daemonset/abc --revision=3`,
  flags: [
    ...filenameFlags('identifying the resource to get from a server.'),
    { name: 'revision', type: 'int', default: 0, usage: 'See the details, including podTemplate of the revision specified' },
    selectorFlag,
    ...printFlags,
  ],
  run(env, args, flags, io) {
    if (args.length === 0 && stringListFlag(flags, 'filename').length === 0 && !stringFlag(flags, 'kustomize')) {
      return checkErr(io, new Error('required resource not specified'));
    }
    const revision = intFlag(flags, 'revision');
    if (revision < 0) return checkErr(io, new Error(`revision must be a positive integer: ${revision}`));
    let resolved;
    try {
      resolved = resolveTargets(env, args, { allowEmptySelector: true, selector: stringFlag(flags, 'selector'), filenames: stringListFlag(flags, 'filename') });
    } catch (err) {
      return checkErr(io, err);
    }
    const errors = [...resolved.errors];
    const outputGiven = stringFlag(flags, 'output') !== '';
    for (const target of resolved.targets) {
      try {
        const viewer = historyViewerFor(env.client, target.rt);
        if (outputGiven) {
          const printer = toPrinter(io, flags, '');
          const history = viewer.getHistory(target.namespace ?? '', target.name);
          if (revision > 0) {
            const obj = history.get(revision);
            // kubectl hands its printer a nil object here (and crashes); the viewer's error says why instead.
            if (!obj) throw new Error('unable to find the specified revision');
            printer.print(kindOf(obj), obj);
          } else {
            for (const r of [...history.keys()].sort((a, b) => a - b)) printer.print(kindOf(history.get(r)!), history.get(r)!);
          }
          continue;
        }
        const historyInfo = viewer.viewHistory(target.namespace ?? '', target.name, revision);
        const withRevision = revision > 0 ? `with revision #${revision}` : '';
        printNameWithOperation(io, target.rt, target.name, `${withRevision}\n${historyInfo}`);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) return checkErr(io, new AggregateError(errors));
    return 0;
  },
};
