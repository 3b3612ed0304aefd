// kubectl create secret generic NAME --from-literal=k=v… [--type] (pkg/cmd/create/create_secret.go, v1.32):
// values are base64-encoded into data; the type is left to the server's default (Opaque) unless --type is given.
import { setOwn } from '../../control-plane/apiserver/patch/json-value';
import { isConfigMapKey } from '../../shared/lib/validation';
import type { CommandSpec } from '../cli/command';
import { CommandError } from '../resource-builder';
import { parseLiteralSource, sortedRecord } from './create-configmap';
import { arrayFlag, dryRunFlag, fieldManagerFlag, guarded, nameFromCommandArgs, printFlags, runTypedCreate, saveConfigFlag, stringFlag, validateFlag } from './create-common';

export const createSecretGenericCommand: CommandSpec = {
  path: ['create', 'secret', 'generic'],
  use: 'generic NAME [--type=string] [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none]',
  short: 'Create a secret from a local file, directory, or literal value',
  long: 'Create a secret based on a file, directory, or specified literal value.\n\n A single secret may package one or more key/value pairs.\n\n When creating a secret based on a file, the key will default to the basename of the file, and the value will default to the file content. If the basename is an invalid key or you wish to chose your own, you may specify an alternate key.\n\n When creating a secret based on a directory, each file whose basename is a valid key in the directory will be packaged into the secret. Any directory entries except regular files are ignored (e.g. subdirectories, symlinks, devices, pipes, etc).',
  example:
    '  # Create a new secret named my-secret with keys for each file in folder bar\n  kubectl create secret generic my-secret --from-file=path/to/bar\n  \n  # Create a new secret named my-secret with specified keys instead of names on disk\n  kubectl create secret generic my-secret --from-file=ssh-privatekey=path/to/id_rsa --from-file=ssh-publickey=path/to/id_rsa.pub\n  \n  # Create a new secret named my-secret with key1=supersecret and key2=topsecret\n  kubectl create secret generic my-secret --from-literal=key1=supersecret --from-literal=key2=topsecret\n  \n  # Create a new secret named my-secret using a combination of a file and a literal\n  kubectl create secret generic my-secret --from-file=ssh-privatekey=path/to/id_rsa --from-literal=passphrase=topsecret\n  \n  # Create a new secret named my-secret from env files\n  kubectl create secret generic my-secret --from-env-file=path/to/foo.env --from-env-file=path/to/bar.env',
  flags: [
    ...printFlags,
    dryRunFlag,
    fieldManagerFlag('kubectl-create'),
    { name: 'from-literal', type: 'stringArray', default: [], usage: 'Specify a key and literal value to insert in secret (i.e. mykey=somevalue)' },
    saveConfigFlag,
    { name: 'type', type: 'string', default: '', usage: 'The type of secret to create' },
    validateFlag,
  ],
  run: (env, args, flags, io) =>
    guarded(io, 'create secret generic', () => {
      const name = nameFromCommandArgs(args, flags);
      const data: Record<string, string> = {};
      for (const source of arrayFlag(flags, 'from-literal')) {
        const [key, value] = parseLiteralSource(source);
        const errs = isConfigMapKey(key);
        if (errs.length > 0) throw new CommandError(`${JSON.stringify(key)} is not valid key name for a Secret ${errs.join(';')}`);
        if (Object.hasOwn(data, key)) throw new CommandError(`cannot add key ${key}, another key by that name already exists`);
        setOwn(data, key, base64(value));
      }
      const type = stringFlag(flags, 'type');
      const secret = {
        kind: 'Secret',
        apiVersion: 'v1',
        metadata: { name, ...(env.namespaceExplicit ? { namespace: env.namespace } : {}), creationTimestamp: null as unknown as string },
        ...(Object.keys(data).length > 0 ? { data: sortedRecord(data) } : {}),
        ...(type ? { type } : {}),
      };
      return runTypedCreate(env, env.namespace, flags, io, { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true }, secret, (m) => `failed to create secret ${m}`);
    }),
};

/** Base64 of the UTF-8 bytes of a string (how []byte fields serialize). */
export function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
