// kubectl create deployment NAME --image=… [--replicas] [--port] [-- COMMAND…] (pkg/cmd/create/
// create_deployment.go, v1.32): the Deployment kubectl builds — labels and selector app=NAME, one container per
// image named after the image — POSTed as "kubectl-create". A server error reads `error: failed to create
// deployment: deployments.apps "x" already exists` (kubectl wraps it in a plain error).
import type { KubeObject } from '../../shared/api/types';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { CommandError } from '../resource-builder';
import {
  arrayFlag,
  dryRunFlag,
  fieldManagerFlag,
  guarded,
  intFlag,
  nameFromCommandArgs,
  printFlags,
  requireFlags,
  runTypedCreate,
  saveConfigFlag,
  validateFlag,
} from './create-common';

export const createDeploymentCommand: CommandSpec = {
  path: ['create', 'deployment'],
  aliases: ['deploy'],
  use: 'deployment NAME --image=image -- [COMMAND] [args...]',
  short: 'Create a deployment with the specified name',
  long: 'Create a deployment with the specified name.',
  example:
    '  # Create a deployment named my-dep that runs the busybox image\n  kubectl create deployment my-dep --image=busybox\n  \n  # Create a deployment with a command\n  kubectl create deployment my-dep --image=busybox -- date\n  \n  # Create a deployment named my-dep that runs the nginx image with 3 replicas\n  kubectl create deployment my-dep --image=nginx --replicas=3\n  \n  # Create a deployment named my-dep that runs the busybox image and expose port 5701\n  kubectl create deployment my-dep --image=busybox --port=5701\n  \n  # Create a deployment named my-dep that runs multiple containers\n  kubectl create deployment my-dep --image=busybox:latest --image=ubuntu:latest --image=nginx',
  flags: [
    ...printFlags,
    dryRunFlag,
    fieldManagerFlag('kubectl-create'),
    { name: 'image', type: 'stringSlice', default: [], usage: 'Image names to run. A deployment can have multiple images set for multi-container pod.' },
    { name: 'port', type: 'int', default: -1, usage: 'The containerPort that this deployment exposes.' },
    { name: 'replicas', shorthand: 'r', type: 'int', default: 1, usage: 'Number of replicas to create. Default is 1.' },
    saveConfigFlag,
    validateFlag,
  ],
  run: (env, args, flags, io) => guarded(io, 'create deployment', () => runCreateDeployment(env, args, flags, io)),
};

function runCreateDeployment(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  requireFlags(flags, ['image']);
  const name = nameFromCommandArgs(args, flags);
  const command = args.slice(1);
  const images = arrayFlag(flags, 'image');
  if (images.length > 1 && command.length > 0) throw new CommandError('cannot specify multiple --image options and command');
  const deployment = buildDeployment(name, images, command, intFlag(flags, 'replicas', 1), intFlag(flags, 'port', -1), env.namespaceExplicit ? env.namespace : '', env.clock.now());
  return runTypedCreate(
    env,
    env.namespace,
    flags,
    io,
    { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
    deployment,
    (message) => `failed to create deployment: ${message}`,
  );
}

/** createDeployment(): the appsv1.Deployment in Go field order, as kubectl serializes it. */
export function buildDeployment(name: string, images: string[], command: string[], replicas: number, port: number, namespace: string, seed: number): KubeObject {
  const containers = images.map((image, i) => {
    const container: Record<string, unknown> = { name: containerNameFor(image, seed + i), image };
    if (command.length > 0) container.command = command;
    if (i === 0 && port >= 0) container.ports = [{ containerPort: port }];
    container.resources = {};
    return container;
  });
  return {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: { name, ...(namespace ? { namespace } : {}), creationTimestamp: null as unknown as string, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: name } },
        spec: { containers },
      },
      strategy: {},
    },
    status: {},
  };
}

/** buildPodSpec's container name: the image's last path segment without tag or digest, DNS-1123-sanitized. */
export function containerNameFor(image: string, seed: number): string {
  let name = image.split('/').pop() ?? image;
  if (name.includes(':')) name = name.split(':')[0];
  if (name.includes('@')) name = name.split('@')[0];
  if (/[_.]/.test(name)) name = `${name.replace(/[_.]/g, '-')}-${randomSuffix(seed)}`;
  return name;
}

// utilrand.String(5)'s alphabet; the suffix is drawn from the virtual clock so runs are reproducible.
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

function randomSuffix(seed: number): string {
  let x = Math.abs(Math.floor(seed)) % 2147483647 || 1;
  let out = '';
  for (let i = 0; i < 5; i++) {
    x = (x * 48271) % 2147483647;
    out += alphanums[x % alphanums.length];
  }
  return out;
}
