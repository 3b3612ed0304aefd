// kubectl rollout pause (k8s.io/kubectl v0.32.4 pkg/cmd/rollout/rollout_pause.go): `deployment.apps/nginx
// paused`; `error: deployments.apps "nginx" is already paused`; other kinds: `… pausing is not supported`.
import type { CommandSpec } from '../cli/command';
import { fieldManagerFlag, filenameFlags, printFlags, selectorFlag } from '../rollout/flags';
import { runObjectPatch } from '../rollout/object-patch';
import { pauseObject } from '../rollout/polymorphic';

export const rolloutPauseCommand: CommandSpec = {
  path: ['rollout', 'pause'],
  use: 'pause RESOURCE',
  short: 'Mark the provided resource as paused',
  long: `Mark the provided resource as paused.

 Paused resources will not be reconciled by a controller. Use "kubectl rollout resume" to resume a paused resource. Currently only deployments support being paused.`,
  example: `  # Mark the nginx deployment as paused
  # Any current state of the deployment will continue its function; new updates
  # to the deployment will not have an effect as long as the deployment is paused
  kubectl rollout pause deployment/nginx`,
  flags: [fieldManagerFlag('kubectl-rollout'), ...filenameFlags('identifying the resource to get from a server.'), selectorFlag, ...printFlags],
  run: (env, args, flags, io) =>
    runObjectPatch({ mutate: (_env, obj) => pauseObject(obj), operation: 'paused', onEmpty: { operation: 'already paused' } }, env, args, flags, io),
};
