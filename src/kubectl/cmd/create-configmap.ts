// kubectl create configmap NAME --from-literal=k=v… (pkg/cmd/create/create_configmap.go, v1.32). Files are not
// readable from the browser console, so --from-file and --from-env-file are not offered.
import { setOwn } from '../../control-plane/apiserver/patch/json-value';
import { isConfigMapKey } from '../../shared/lib/validation';
import type { CommandSpec } from '../cli/command';
import { CommandError } from '../resource-builder';
import { arrayFlag, dryRunFlag, fieldManagerFlag, guarded, nameFromCommandArgs, printFlags, runTypedCreate, saveConfigFlag, validateFlag } from './create-common';

export const createConfigMapCommand: CommandSpec = {
  path: ['create', 'configmap'],
  aliases: ['cm'],
  use: 'configmap NAME [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none]',
  short: 'Create a config map from a local file, directory or literal value',
  long: 'Create a config map based on a file, directory, or specified literal value.\n\n A single config map may package one or more key/value pairs.\n\n When creating a config map based on a file, the key will default to the basename of the file, and the value will default to the file content.  If the basename is an invalid key, you may specify an alternate key.\n\n When creating a config map based on a directory, each file whose basename is a valid key in the directory will be packaged into the config map.  Any directory entries except regular files are ignored (e.g. subdirectories, symlinks, devices, pipes, etc).',
  example:
    '  # Create a new config map named my-config based on folder bar\n  kubectl create configmap my-config --from-file=path/to/bar\n  \n  # Create a new config map named my-config with specified keys instead of file basenames on disk\n  kubectl create configmap my-config --from-file=key1=/path/to/bar/file1.txt --from-file=key2=/path/to/bar/file2.txt\n  \n  # Create a new config map named my-config with key1=config1 and key2=config2\n  kubectl create configmap my-config --from-literal=key1=config1 --from-literal=key2=config2\n  \n  # Create a new config map named my-config from the key=value pairs in the file\n  kubectl create configmap my-config --from-file=path/to/bar\n  \n  # Create a new config map named my-config from an env file\n  kubectl create configmap my-config --from-env-file=path/to/foo.env --from-env-file=path/to/bar.env',
  flags: [
    ...printFlags,
    dryRunFlag,
    fieldManagerFlag('kubectl-create'),
    { name: 'from-literal', type: 'stringArray', default: [], usage: 'Specify a key and literal value to insert in configmap (i.e. mykey=somevalue)' },
    saveConfigFlag,
    validateFlag,
  ],
  run: (env, args, flags, io) =>
    guarded(io, 'create configmap', () => {
      const name = nameFromCommandArgs(args, flags);
      const data: Record<string, string> = {};
      for (const source of arrayFlag(flags, 'from-literal')) {
        const [key, value] = parseLiteralSource(source);
        const errs = isConfigMapKey(key);
        if (errs.length > 0) throw new CommandError(`${JSON.stringify(key)} is not a valid key name for a ConfigMap: ${errs.join(',')}`);
        if (Object.hasOwn(data, key)) throw new CommandError(`cannot add key ${JSON.stringify(key)}, another key by that name already exists in Data for ConfigMap ${JSON.stringify(name)}`);
        setOwn(data, key, value);
      }
      const configMap = {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { name, ...(env.namespaceExplicit ? { namespace: env.namespace } : {}), creationTimestamp: null as unknown as string },
        ...(Object.keys(data).length > 0 ? { data: sortedRecord(data) } : {}),
      };
      return runTypedCreate(env, env.namespace, flags, io, { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true }, configMap, (m) => `failed to create configmap: ${m}`);
    }),
};

/** util.ParseLiteralSource: split at the first "="; a leading "=" or none at all is an error. */
export function parseLiteralSource(source: string): [string, string] {
  const eq = source.indexOf('=');
  if (eq <= 0) throw new CommandError(`invalid literal source ${source}, expected key=value`);
  return [source.slice(0, eq), source.slice(eq + 1)];
}

/** A Go map as encoding/json writes it: keys sorted. */
export function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(record).sort()) setOwn(out, k, record[k]);
  return out;
}
