// kubectl rollout status (k8s.io/kubectl v0.32.4 pkg/cmd/rollout/rollout_status.go): watch each object and
// print the status viewer's message for every state the watch delivers — kubectl repeats a message when a change
// leaves it the same — until the rollout is done, the object is deleted, --timeout passes or Ctrl+C.
//
//   Waiting for deployment "nginx" rollout to finish: 1 out of 3 new replicas have been updated...
//   Waiting for deployment "nginx" rollout to finish: 1 old replicas are pending termination...
//   deployment "nginx" successfully rolled out
import type { CommandSpec } from '../cli/command';
import { AggregateError, checkErr } from '../rollout/check-err';
import { durationMs, filenameFlags, intFlag, selectorFlag, stringFlag, stringListFlag } from '../rollout/flags';
import { statusViewerFor } from '../rollout/status-viewer';
import { resolveTargets } from '../rollout/target';
import { untilWithSync } from '../rollout/watch-until';

export const rolloutStatusCommand: CommandSpec = {
  path: ['rollout', 'status'],
  use: 'status (TYPE NAME | TYPE/NAME) [flags]',
  short: 'Show the status of the rollout',
  long: `Show the status of the rollout.

 By default 'rollout status' will watch the status of the latest rollout until it's done. If you don't want to wait for the rollout to finish then you can use --watch=false. Note that if a new rollout starts in-between, then 'rollout status' will continue watching the latest revision. If you want to pin to a specific revision and abort if it is rolled over by another revision, use --revision=N where N is the revision you need to watch for.`,
  example: `  # Watch the rollout status of a deployment
  kubectl rollout status deployment/nginx`,
  flags: [
    ...filenameFlags('identifying the resource to get from a server.'),
    { name: 'revision', type: 'int', default: 0, usage: 'Pin to a specific revision for showing its status. Defaults to 0 (last revision).' },
    selectorFlag,
    {
      name: 'timeout',
      type: 'duration',
      default: '0s',
      usage: 'The length of time to wait before ending watch, zero means never. Any other values should contain a corresponding time unit (e.g. 1s, 2m, 3h).',
    },
    { name: 'watch', shorthand: 'w', type: 'bool', default: true, usage: "Watch the status of the rollout until it's done." },
  ],
  async run(env, args, flags, io) {
    if (args.length === 0 && stringListFlag(flags, 'filename').length === 0 && !stringFlag(flags, 'kustomize')) {
      return checkErr(io, new Error('required resource not specified'));
    }
    const revision = intFlag(flags, 'revision');
    if (revision < 0) return checkErr(io, new Error(`revision must be a positive integer: ${revision}`));
    const watch = flags.get('watch') !== false;
    let timeoutMs: number;
    let resolved;
    try {
      timeoutMs = durationMs(flags.get('timeout'));
      resolved = resolveTargets(env, args, { allowEmptySelector: true, selector: stringFlag(flags, 'selector'), filenames: stringListFlag(flags, 'filename') });
    } catch (err) {
      return checkErr(io, err);
    }
    const errors = [...resolved.errors];
    for (const target of resolved.targets) {
      let viewer;
      try {
        viewer = statusViewerFor(target.rt.group, target.rt.kind);
      } catch (err) {
        errors.push(err);
        continue;
      }
      try {
        const outcome = await untilWithSync(
          env,
          target,
          (obj) => {
            const status = viewer(obj, revision);
            io.stdout(status.message);
            return status.done || !watch;
          },
          { timeoutMs },
        );
        if (outcome === 'cancelled') return 130;
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) return checkErr(io, new AggregateError(errors));
    if (resolved.targets.length === 0) io.stderr(`No resources found in ${env.namespace} namespace.`);
    return 0;
  },
};
