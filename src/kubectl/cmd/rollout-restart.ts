// kubectl rollout restart (k8s.io/kubectl v0.32.4 pkg/cmd/rollout/rollout_restart.go): stamps the pod template
// with kubectl.kubernetes.io/restartedAt (the clock's RFC 3339 time), which makes the controller roll every pod:
// `deployment.apps/nginx restarted`. A second restart within the same second changes nothing and is refused.
import type { CommandSpec } from '../cli/command';
import { fieldManagerFlag, filenameFlags, printFlags, selectorFlag } from '../rollout/flags';
import { runObjectPatch } from '../rollout/object-patch';
import { restartObject } from '../rollout/polymorphic';

export const rolloutRestartCommand: CommandSpec = {
  path: ['rollout', 'restart'],
  use: 'restart RESOURCE',
  short: 'Restart a resource',
  long: `Restart a resource.

        Resource rollout will be restarted.`,
  example: `  # Restart all deployments in the test-namespace namespace
  kubectl rollout restart deployment -n test-namespace
  
  # Restart a deployment
  kubectl rollout restart deployment/nginx
  
  # Restart a daemon set
  kubectl rollout restart daemonset/abc
  
  # Restart deployments with the app=nginx label
  kubectl rollout restart deployment --selector=app=nginx`,
  flags: [fieldManagerFlag('kubectl-rollout'), ...filenameFlags('identifying the resource to get from a server.'), selectorFlag, ...printFlags],
  run: (env, args, flags, io) =>
    runObjectPatch(
      {
        mutate: (e, obj) => restartObject(obj, e.clock.now()),
        operation: 'restarted',
        onEmpty: { error: (name) => `failed to create patch for ${name}: if restart has already been triggered within the past second, please wait before attempting to trigger another` },
      },
      env,
      args,
      flags,
      io,
    ),
};
