// kubectl create -f FILE (k8s.io/kubectl/pkg/cmd/create/create.go, v1.32): POSTs every object of the manifests
// (-f - for a heredoc, -f editor for the page's editor buffer) as the field manager "kubectl-create", printing
// `deployment.apps/web created` per object; errors (`Error from server (AlreadyExists): error when creating
// "STDIN": …`) come after the successes. The `create <kind>` generators live in create-<kind>.ts.
import type { KubeObject } from '../../shared/api/types';
import { withLastApplied } from '../apply';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { buildResources, CommandError, withSource } from '../resource-builder';
import {
  allowMissingTemplateKeysFlag,
  boolFlag,
  checkErr,
  DryRun,
  dryRunFlag,
  dryRunStrategy,
  fieldManagerFlag,
  filenameFlag,
  filenames,
  ObjectPrinter,
  outputFlag,
  saveConfigFlag,
  selectorFlag,
  showManagedFieldsFlag,
  stringFlag,
  usageError,
  validateFlag,
  validationDirective,
} from './create-common';

export const createCommand: CommandSpec = {
  path: ['create'],
  use: 'create -f FILENAME',
  short: 'Create a resource from a file or from stdin',
  long: 'Create a resource from a file or from stdin.\n\n JSON and YAML formats are accepted.',
  example:
    '  # Create a pod using the data in pod.json\n  kubectl create -f ./pod.json\n  \n  # Create a pod based on the JSON passed into stdin\n  cat pod.json | kubectl create -f -\n  \n  # Edit the data in registry.yaml in JSON then create the resource using the edited data\n  kubectl create -f registry.yaml --edit -o json',
  flags: [
    allowMissingTemplateKeysFlag,
    dryRunFlag,
    fieldManagerFlag('kubectl-create'),
    filenameFlag('Filename, directory, or URL to files to use to create the resource'),
    outputFlag,
    saveConfigFlag,
    selectorFlag,
    showManagedFieldsFlag,
    validateFlag,
  ],
  run: runCreate,
};

function runCreate(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  if (args.length > 0) return usageError(io, 'create', `Unexpected args: [${args.join(' ')}]`);
  let dryRun: DryRun;
  let printer: ObjectPrinter;
  let validation: ReturnType<typeof validationDirective>;
  try {
    dryRun = dryRunStrategy(flags);
    validation = validationDirective(flags);
    printer = ObjectPrinter.create(stringFlag(flags, 'output'), 'created', { dryRun, showManagedFields: boolFlag(flags, 'show-managed-fields') });
    if (filenames(flags).length === 0) throw new CommandError('must specify one of -f and -k');
  } catch (err) {
    return checkErr(io, err);
  }
  const built = buildResources(env, { filenames: filenames(flags), labelSelector: stringFlag(flags, 'selector') || undefined });
  if (built.error) return checkErr(io, built.error);
  const errors: unknown[] = [...built.errors];
  let count = 0;
  for (const info of built.infos) {
    let obj: KubeObject = info.object!;
    if (boolFlag(flags, 'save-config')) obj = withLastApplied(obj);
    if (dryRun !== DryRun.Client) {
      try {
        const res = env.client.handle<KubeObject>({
          verb: 'create',
          group: info.rt.group,
          version: info.rt.version,
          resource: info.rt.resource,
          namespace: info.namespace,
          body: obj,
          ...(info.rawBody !== undefined && !boolFlag(flags, 'save-config') ? { rawBody: info.rawBody } : {}),
          options: { fieldManager: stringFlag(flags, 'field-manager'), fieldValidation: validation, ...(dryRun === DryRun.Server ? { dryRun: true } : {}) },
        });
        for (const w of res.warnings ?? []) io.stderr(`Warning: ${w}`);
        obj = res.body;
      } catch (err) {
        errors.push(withSource(err, 'creating', info.source));
        continue;
      }
    }
    count++;
    printer.print(io, obj);
  }
  if (errors.length > 0) return checkErr(io, errors);
  if (count === 0) return checkErr(io, new CommandError('no objects passed to create'));
  return 0;
}
