// kubectl apply -f FILE (k8s.io/kubectl/pkg/cmd/apply, v1.32): reads the manifests (-f - for a heredoc pasted
// in the console, -f editor for the page's editor buffer), then applies each object in turn —
// client-side by default (the last-applied-configuration three-way merge of src/kubectl/apply.ts), or with
// --server-side as one apply patch under the field manager "kubectl". One line per object:
// `deployment.apps/nginx created|configured|unchanged|serverside-applied`, errors after the successes.
import type { ApiRequest, ApiResponse } from '../../shared/api/request';
import { PatchType, Verb } from '../../shared/api/request';
import { isStatusError } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import { clientSideApply, clientSideApplyFieldManager, goJsonEncode, withLastApplied } from '../apply';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { buildResources, CommandError, fetchObject, isNotFound, withSource, type ResourceInfo } from '../resource-builder';
import {
  boolFlag,
  checkErr,
  DryRun,
  dryRunStrategy,
  filenames,
  ObjectPrinter,
  stringFlag,
  usageError,
  validationDirective,
  writeLines,
} from './create-common';

/** The field manager kubectl's server-side apply uses unless --field-manager is given. */
export const serverSideApplyFieldManager = 'kubectl';

const ssaConflictHelp = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

export const applyCommand: CommandSpec = {
  path: ['apply'],
  use: 'apply (-f FILENAME | -k DIRECTORY)',
  short: 'Apply a configuration to a resource by file name or stdin',
  long: "Apply a configuration to a resource by file name or stdin. The resource name must be specified. This resource will be created if it doesn't exist yet. To use 'apply', always create the resource initially with either 'apply' or 'create --save-config'.\n\n JSON and YAML formats are accepted.\n\n Alpha Disclaimer: the --prune functionality is not yet complete. Do not use unless you are aware of what the current state is. See https://issues.k8s.io/34274.",
  example:
    "  # Apply the configuration in pod.json to a pod\n  kubectl apply -f ./pod.json\n  \n  # Apply resources from a directory containing kustomization.yaml - e.g. dir/kustomization.yaml\n  kubectl apply -k dir/\n  \n  # Apply the JSON passed into stdin to a pod\n  cat pod.json | kubectl apply -f -\n  \n  # Apply the configuration from all files that end with '.json'\n  kubectl apply -f '*.json'\n  \n  # Note: --prune is still in Alpha\n  # Apply the configuration in manifest.yaml that matches label app=nginx and delete all other resources that are not in the file and match label app=nginx\n  kubectl apply --prune -f manifest.yaml -l app=nginx\n  \n  # Apply the configuration in manifest.yaml and delete all the other config maps that are not in the file\n  kubectl apply --prune -f manifest.yaml --all --prune-allowlist=core/v1/ConfigMap",
  flags: [
    { name: 'allow-missing-template-keys', type: 'bool', default: true, usage: 'If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.' },
    { name: 'dry-run', type: 'string', default: 'none', noOptDefault: 'unchanged', usage: 'Must be "none", "server", or "client". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource.' },
    { name: 'field-manager', type: 'string', default: 'kubectl-client-side-apply', usage: 'Name of the manager used to track field ownership.' },
    { name: 'filename', shorthand: 'f', type: 'stringSlice', default: [], usage: 'The files that contain the configurations to apply.' },
    { name: 'force-conflicts', type: 'bool', default: false, usage: 'If true, server-side apply will force the changes against conflicts.' },
    { name: 'output', shorthand: 'o', type: 'string', default: '', usage: 'Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file).' },
    { name: 'overwrite', type: 'bool', default: true, usage: 'Automatically resolve conflicts between the modified and live configuration by using values from the modified configuration' },
    { name: 'recursive', shorthand: 'R', type: 'bool', default: false, usage: 'Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory.' },
    { name: 'selector', shorthand: 'l', type: 'string', default: '', usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints." },
    { name: 'server-side', type: 'bool', default: false, usage: 'If true, apply runs in the server instead of the client.' },
    { name: 'show-managed-fields', type: 'bool', default: false, usage: 'If true, keep the managedFields when printing objects in JSON or YAML format.' },
    { name: 'validate', type: 'string', default: 'strict', noOptDefault: 'strict', usage: 'Must be one of: strict (or true), warn, ignore (or false). "true" or "strict" will use a schema to validate the input and fail the request if invalid. It will perform server side validation if ServerSideFieldValidation is enabled on the api-server, but will fall back to less reliable client-side validation if not. "warn" will warn about unknown or duplicate fields without blocking the request if server-side field validation is enabled on the API server, and behave as "ignore" otherwise. "false" or "ignore" will not perform any schema validation, silently dropping any unknown or duplicate fields.' },
  ],
  run: runApply,
};

export interface ApplyRunOptions {
  serverSide: boolean;
  forceConflicts: boolean;
  dryRun: DryRun;
  fieldManager: string;
  validation: 'Strict' | 'Warn' | 'Ignore';
  output: string;
  showManagedFields: boolean;
}

function runApply(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  if (args.length > 0) return usageError(io, 'apply', `Unexpected args: [${args.join(' ')}]`);
  let options: ApplyRunOptions;
  try {
    const serverSide = boolFlag(flags, 'server-side');
    options = {
      serverSide,
      forceConflicts: boolFlag(flags, 'force-conflicts'),
      dryRun: dryRunStrategy(flags),
      fieldManager: flags.changed('field-manager') ? stringFlag(flags, 'field-manager') : serverSide ? serverSideApplyFieldManager : clientSideApplyFieldManager,
      validation: validationDirective(flags),
      output: stringFlag(flags, 'output'),
      showManagedFields: boolFlag(flags, 'show-managed-fields'),
    };
    if (filenames(flags).length === 0) throw new CommandError('must specify one of -f and -k');
    if (options.forceConflicts && !options.serverSide) throw new CommandError('--force-conflicts only works with --server-side');
    if (options.dryRun === DryRun.Client && options.serverSide) throw new CommandError("--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)");
    ObjectPrinter.create(options.output, 'created'); // an unknown -o fails before anything is sent
  } catch (err) {
    return checkErr(io, err);
  }

  const built = buildResources(env, { filenames: filenames(flags), labelSelector: stringFlag(flags, 'selector') || undefined });
  if (built.error) return checkErr(io, built.error);
  const errors: unknown[] = [...built.errors];
  if (built.infos.length === 0 && errors.length === 0) return checkErr(io, new CommandError('no objects passed to apply'));
  for (const info of built.infos) {
    try {
      applyOne(env, info, options, io);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length === 0) return 0;
  return checkErr(io, errors);
}

/** Applies one object and prints its line (or the object for -o yaml|json). Throws what kubectl reports. */
export function applyOne(env: KubectlEnv, info: ResourceInfo, options: ApplyRunOptions, io: CommandIO): void {
  const obj = info.object!;
  if (!info.name) {
    const generateName = obj.metadata?.generateName;
    if (generateName) throw new CommandError(`from ${generateName}: cannot use generate name with apply`);
  }
  const print = (operation: string, printed: KubeObject) => {
    const printer = ObjectPrinter.create(options.output, operation, { dryRun: options.dryRun, showManagedFields: options.showManagedFields });
    printer.print(io, printed);
  };
  const warn = (warnings: readonly string[] | undefined) => {
    for (const w of warnings ?? []) writeLines((l) => io.stderr(l), `Warning: ${w}`);
  };

  if (options.serverSide) {
    let res: ApiResponse<KubeObject>;
    try {
      res = env.client.handle<KubeObject>({
        verb: Verb.Patch,
        group: info.rt.group,
        version: info.rt.version,
        resource: info.rt.resource,
        namespace: info.namespace,
        name: info.name,
        patchType: PatchType.ApplyPatch,
        body: obj,
        options: {
          fieldManager: options.fieldManager,
          force: options.forceConflicts,
          fieldValidation: options.validation,
          ...(options.dryRun === DryRun.Server ? { dryRun: true } : {}),
        },
      });
    } catch (err) {
      if (isStatusError(err) && err.reason === 'Conflict') throw new CommandError(`${err.message}\n${ssaConflictHelp}`);
      throw err;
    }
    warn(res.warnings);
    warnIfDeleting(res.body, io);
    print('serverside-applied', res.body);
    return;
  }

  if (options.dryRun === DryRun.Client) {
    // Client dry run: only find out whether the object exists; print what would be sent.
    let exists = true;
    try {
      fetchObject(env.client, info);
    } catch (err) {
      if (!isNotFound(err)) throw withSource(err, `retrieving current configuration of:\n${infoString(info)}\nfrom server for:`, info.source);
      exists = false;
    }
    print(exists ? 'configured' : 'created', exists ? obj : withLastApplied(obj));
    return;
  }

  let patchBody: unknown;
  let created = false;
  const port = {
    handle(req: ApiRequest): ApiResponse {
      if (req.verb === Verb.Get) return env.client.handle(req);
      created = req.verb === Verb.Create;
      if (req.verb === Verb.Patch) patchBody = req.body;
      const options2 = { ...req.options, fieldManager: options.fieldManager, fieldValidation: options.validation, ...(options.dryRun === DryRun.Server ? { dryRun: true } : {}) };
      return env.client.handle({ ...req, options: options2 });
    },
  };
  let result;
  try {
    result = clientSideApply(port, info.rt, obj, info.rawBody !== undefined ? { rawBody: info.rawBody } : {});
  } catch (err) {
    if (created) throw withSource(err, 'creating', info.source);
    if (patchBody !== undefined) throw withSource(err, `applying patch:\n${goJsonEncode(patchBody)}\nto:\n${infoString(info)}\nfor:`, info.source);
    throw withSource(err, `retrieving current configuration of:\n${infoString(info)}\nfrom server for:`, info.source);
  }
  warn(result.warnings);
  if (result.action !== 'created') warnIfDeleting(result.object, io);
  print(result.action, result.object);
}

/** resource.Info.String(): the mapping and the name, as kubectl's apply errors quote them. */
function infoString(info: ResourceInfo): string {
  const gv = info.rt.group ? `${info.rt.group}/${info.rt.version}` : `/${info.rt.version}`;
  return `Resource: "${gv}, Resource=${info.rt.resource}", GroupVersionKind: "${gv}, Kind=${info.rt.kind}"\nName: ${JSON.stringify(info.name)}, Namespace: ${JSON.stringify(info.namespace ?? '')}`;
}

function warnIfDeleting(obj: KubeObject, io: CommandIO): void {
  if (obj.metadata?.deletionTimestamp) io.stderr(`Warning: Detected changes to resource ${obj.metadata.name} which is currently being deleted.`);
}
