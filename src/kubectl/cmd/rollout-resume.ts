// kubectl rollout resume (k8s.io/kubectl v0.32.4 pkg/cmd/rollout/rollout_resume.go): `deployment.apps/nginx
// resumed`; `error: deployments.apps "nginx" is not paused`; other kinds: `… resuming is not supported`.
import type { CommandSpec } from '../cli/command';
import { fieldManagerFlag, filenameFlags, printFlags, selectorFlag } from '../rollout/flags';
import { runObjectPatch } from '../rollout/object-patch';
import { resumeObject } from '../rollout/polymorphic';

export const rolloutResumeCommand: CommandSpec = {
  path: ['rollout', 'resume'],
  use: 'resume RESOURCE',
  short: 'Resume a paused resource',
  long: `Resume a paused resource.

 Paused resources will not be reconciled by a controller. By resuming a resource, we allow it to be reconciled again. Currently only deployments support being resumed.`,
  example: `  # Resume an already paused deployment
  kubectl rollout resume deployment/nginx`,
  flags: [fieldManagerFlag('kubectl-rollout'), ...filenameFlags('identifying the resource to get from a server.'), selectorFlag, ...printFlags],
  run: (env, args, flags, io) =>
    runObjectPatch({ mutate: (_env, obj) => resumeObject(obj), operation: 'resumed', onEmpty: { operation: 'already resumed' } }, env, args, flags, io),
};
