// kubectl create namespace NAME (pkg/cmd/create/create_namespace.go, v1.32). Unlike most generators it returns
// the server's error as it is: `Error from server (AlreadyExists): namespaces "x" already exists`.
import type { CommandSpec } from '../cli/command';
import { dryRunFlag, fieldManagerFlag, guarded, nameFromCommandArgs, printFlags, runTypedCreate, saveConfigFlag, validateFlag } from './create-common';

export const createNamespaceCommand: CommandSpec = {
  path: ['create', 'namespace'],
  aliases: ['ns'],
  use: 'namespace NAME [--dry-run=server|client|none]',
  short: 'Create a namespace with the specified name',
  long: 'Create a namespace with the specified name.',
  example: '  # Create a new namespace named my-namespace\n  kubectl create namespace my-namespace',
  flags: [...printFlags, dryRunFlag, fieldManagerFlag('kubectl-create'), saveConfigFlag, validateFlag],
  run: (env, args, flags, io) =>
    guarded(io, 'create namespace', () => {
      const name = nameFromCommandArgs(args, flags);
      const namespace = { kind: 'Namespace', apiVersion: 'v1', metadata: { name, creationTimestamp: null as unknown as string }, spec: {}, status: {} };
      return runTypedCreate(env, '', flags, io, { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false }, namespace);
    }),
};
