// kubectl edit (k8s.io/kubectl v0.32.4 pkg/cmd/edit + pkg/cmd/util/editor/editoptions.go, normal edit mode):
// fetch the objects (several become one List), show them as YAML under kubectl's header comment in the page's
// editor (env.openEditor), and when saved with changes, send each object's two-way strategic merge patch (a
// JSON merge patch for custom resources) with the kubectl-edit field manager: `deployment.apps/nginx edited`.
//
//   saved unchanged (or closed)  → `Edit cancelled, no changes made.`
//   emptied                      → `Edit cancelled, saved file was empty.`
//   not YAML                     → reopened with `# The edited file had a syntax error: …` in the header
//   rejected as Invalid          → `error: deployments.apps "nginx" is invalid` and reopened with the causes;
//                                  closing it unchanged then ends with `error: Edit cancelled, no valid changes were saved.`
//   other API errors             → `error: … could not be patched: …` and kubectl's `replace -f` hint (exit 1)
//
// kubectl keeps the edited text in a temporary file; its path appears in those messages as kubectl words them.
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { PatchType, Verb, type FieldValidation } from '../../shared/api/request';
import { isStatusError, StatusReason } from '../../shared/api/status';
import type { ManagedFieldsEntry } from 'kubernetes-types/meta/v1';
import type { KubeObject } from '../../shared/api/types';
import { toYaml } from '../../shared/lib/yaml';
import { goJson } from '../../control-plane/apiserver/printers/go-json';
import type { JsonObject, JsonValue } from '../../control-plane/apiserver/patch/json-value';
import { goJsonEncode, withLastApplied } from '../apply';
import { AggregateError, checkErr, messageOf } from '../rollout/check-err';
import { boolFlag, fieldManagerFlag, filenameFlags, printFlags, stringFlag, stringListFlag } from '../rollout/flags';
import { createMergePatch, editHeader, hasLines, manualStrip, readEditedObjects, stripComments, type EditReason, type EditedObject } from '../rollout/edit-file';
import { twoWayMergePatch } from '../rollout/patch';
import { toPrinter } from '../rollout/print';
import { changeCause, recordChangeCause, recordFlag, warnRecordDeprecated } from '../rollout/record';
import { objectName, resolveTargets, resourceString, type Target } from '../rollout/target';

export const editCommand: CommandSpec = {
  path: ['edit'],
  use: 'edit (RESOURCE/NAME | -f FILENAME)',
  short: 'Edit a resource on the server',
  long: `Edit a resource from the default editor.

 The edit command allows you to directly edit any API resource you can retrieve via the command-line tools. It will open the editor defined by your KUBE_EDITOR, or EDITOR environment variables, or fall back to 'vi' for Linux or 'notepad' for Windows. When attempting to open the editor, it will first attempt to use the shell that has been defined in the 'SHELL' environment variable. If this is not defined, the default shell will be used, which is '/bin/bash' for Linux or 'cmd' for Windows.

 You can edit multiple objects, although changes are applied one at a time. The command accepts file names as well as command-line arguments, although the files you point to must be previously saved versions of resources.

 Editing is done with the API version used to fetch the resource. To edit using a specific API version, fully-qualify the resource, version, and group.

 The default format is YAML. To edit in JSON, specify "-o json".

 The flag --windows-line-endings can be used to force Windows line endings, otherwise the default for your operating system will be used.

 In the event an error occurs while updating, a temporary file will be created on disk that contains your unapplied changes. The most common error when updating a resource is another editor changing the resource on the server. When this occurs, you will have to apply your changes to the newer version of the resource, or update your temporary saved copy to include the latest resource version.`,
  example: `  # Edit the service named 'registry'
  kubectl edit svc/registry
  
  # Use an alternative editor
  KUBE_EDITOR="nano" kubectl edit svc/registry
  
  # Edit the job 'myjob' in JSON using the v1 API format
  kubectl edit job.v1.batch/myjob -o json
  
  # Edit the deployment 'mydeployment' in YAML and save the modified config in its annotation
  kubectl edit deployment/mydeployment -o yaml --save-config
  
  # Edit the 'status' subresource for the 'mydeployment' deployment
  kubectl edit deployment mydeployment --subresource='status'`,
  flags: [
    fieldManagerFlag('kubectl-edit'),
    ...filenameFlags('to use to edit the resource'),
    { name: 'output-patch', type: 'bool', default: false, usage: 'Output the patch if the resource is edited.' },
    recordFlag,
    {
      name: 'save-config',
      type: 'bool',
      default: false,
      usage:
        'If true, the configuration of current object will be saved in its annotation. Otherwise, the annotation will be unchanged. This flag is useful when you want to perform kubectl apply on this object in the future.',
    },
    { name: 'subresource', type: 'string', default: '', usage: 'If specified, edit will operate on the subresource of the requested object. This flag is beta and may change in the future.' },
    {
      name: 'validate',
      type: 'string',
      default: 'strict',
      noOptDefault: 'strict',
      usage:
        'Must be one of: strict (or true), warn, ignore (or false). "true" or "strict" will use a schema to validate the input and fail the request if invalid. It will perform server side validation if ServerSideFieldValidation is enabled on the api-server, but will fall back to less reliable client-side validation if not. "warn" will warn about unknown or duplicate fields without blocking the request if server-side field validation is enabled on the API server, and behave as "ignore" otherwise. "false" or "ignore" will not perform any schema validation, silently dropping any unknown or duplicate fields.',
    },
    { name: 'windows-line-endings', type: 'bool', default: false, usage: 'Defaults to the line ending native to your platform.' },
    ...printFlags,
  ],
  run: (env, args, flags, io) => runEdit(env, args, flags, io),
};

const supportedSubresources = ['status'];

async function runEdit(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): Promise<number> {
  warnRecordDeprecated(flags, io);
  const output = stringFlag(flags, 'output');
  const subresource = stringFlag(flags, 'subresource');
  let validation: FieldValidation;
  let targets: Target[];
  try {
    // editPrinterOptions: only YAML (with the header) or JSON (without) can be edited.
    if (output !== '' && output !== 'yaml' && output !== 'json') {
      throw new Error(`unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: json,yaml`);
    }
    if (subresource && !supportedSubresources.includes(subresource)) {
      throw new Error(`invalid subresource value: ${JSON.stringify(subresource)}. Must be one of [${supportedSubresources.join(' ')}]`);
    }
    validation = validationDirective(stringFlag(flags, 'validate'));
    const resolved = resolveTargets(env, args, { allowEmptySelector: true, filenames: stringListFlag(flags, 'filename') });
    if (resolved.errors.length > 0) throw new AggregateError(resolved.errors);
    targets = resolved.targets;
    if (targets.length === 0) throw new Error('edit cancelled, no objects found');
  } catch (err) {
    return checkErr(io, err);
  }
  if (!env.openEditor) return checkErr(io, new Error('there is no editor to open: kubectl edit needs the page\'s editor'));

  const asJson = output === 'json';
  const crlf = boolFlag(flags, 'windows-line-endings');
  const tempFile = `/tmp/kubectl-edit-${String(env.clock.now() % 4294967296).padStart(10, '0')}.${asJson ? 'json' : 'yaml'}`;
  const title = targets.map((t) => objectName(t.rt, t.name)).join(', ');
  const cause = flags.get('record') === true ? changeCause(editCommand, env, args, flags) : undefined;

  // managedFields are hidden in the editor and put back on both sides before diffing (extractManagedFields).
  const managedFields = new Map<string, ManagedFieldsEntry[] | undefined>();
  const shown = targets.map((t) => {
    const obj = structuredClone(t.object);
    managedFields.set(obj.metadata.uid ?? '', obj.metadata.managedFields);
    delete obj.metadata.managedFields;
    return obj;
  });
  const originalObj: KubeObject =
    shown.length === 1 ? shown[0] : ({ apiVersion: 'v1', kind: 'List', metadata: {}, items: shown } as unknown as KubeObject);

  let reasons: EditReason[] = [];
  let containsError = false;
  let original = '';
  let edited = '';
  for (;;) {
    let buffer = asJson ? '' : editHeader(reasons);
    if (!containsError) {
      buffer += asJson ? `${goJson(originalObj, '    ')}\n` : toYaml(originalObj);
      original = buffer;
    } else {
      buffer += manualStrip(edited);
    }
    const previous = edited;
    const saved = await env.openEditor(crlf ? buffer.replace(/\n/g, '\r\n') : buffer, title);
    if (env.signal.cancelled) return 130;
    // Closing the editor without saving leaves the file as it was opened.
    edited = (saved ?? (containsError ? previous : buffer)).replace(/\r\n/g, '\n');

    if (containsError && stripComments(previous) === stripComments(edited)) {
      io.stderr(`A copy of your changes has been stored to ${JSON.stringify(tempFile)}`);
      return checkErr(io, new Error('Edit cancelled, no valid changes were saved.'));
    }
    if (stripComments(original) === stripComments(edited)) {
      io.stderr('Edit cancelled, no changes made.');
      return 0;
    }
    if (!hasLines(edited)) {
      io.stderr('Edit cancelled, saved file was empty.');
      return 0;
    }

    let updated: EditedObject[];
    try {
      updated = readEditedObjects(edited, env.registry);
    } catch (err) {
      containsError = true;
      reasons = [{ head: `The edited file had a syntax error: ${messageOf(err)}`, other: [] }];
      continue;
    }
    containsError = false;
    reasons = [];

    const results = { retryable: 0, notfound: 0, edit: 0 };
    try {
      for (const u of updated) {
        const mf = managedFields.get(u.object.metadata?.uid ?? '');
        if (mf !== undefined) u.object.metadata.managedFields = mf;
        requireNamespace(u, env.namespace);
        if (boolFlag(flags, 'save-config')) u.object = withLastApplied(u.object);
        recordChangeCause(u.object, cause);
      }
      for (const u of updated) {
        const originalTarget = targets.find((t) => t.object.metadata.uid === u.object.metadata?.uid);
        if (!originalTarget) throw new Error(`no original object found for ${JSON.stringify(u.object)}`);
        visitToPatch(env, io, flags, originalTarget, u, { subresource, validation, reasons, results });
      }
    } catch (err) {
      io.stderr(`A copy of your changes has been stored to ${JSON.stringify(tempFile)}`);
      return checkErr(io, err);
    }
    if (results.retryable > 0) {
      io.stderr(`You can run \`kubectl replace -f ${tempFile}\` to try this update again.`);
      return 1;
    }
    if (results.notfound > 0) {
      io.stderr(`The edits you made on deleted resources have been saved to ${JSON.stringify(tempFile)}`);
      return 1;
    }
    if (results.edit === 0) return 0;
    if (reasons.length > 0) containsError = true;
  }
}

interface PatchContext {
  subresource: string;
  validation: FieldValidation;
  reasons: EditReason[];
  results: { retryable: number; notfound: number; edit: number };
}

/** visitToPatch for one edited object: skip it when unchanged, else patch it and report as kubectl does. */
function visitToPatch(env: KubectlEnv, io: CommandIO, flags: FlagValues, original: Target, edited: EditedObject, ctx: PatchContext): void {
  const { rt } = original;
  const before = original.object as unknown as JsonObject;
  const after = edited.object as unknown as JsonObject;
  if (goJsonEncode(before) === goJsonEncode(after)) {
    toPrinter(io, flags, 'skipped').print(rt, edited.object);
    return;
  }
  let patchType: (typeof PatchType)[keyof typeof PatchType];
  let patch: JsonValue;
  if (rt.custom) {
    patchType = PatchType.MergePatch;
    patch = createMergePatch(before, after);
  } else {
    patchType = PatchType.StrategicMergePatch;
    patch = twoWayMergePatch(original.object, edited.object, rt.kind);
  }
  // The preconditions: apiVersion, kind and metadata.name may not change.
  const p = patch as JsonObject;
  const meta = p.metadata as JsonObject | undefined;
  if ('apiVersion' in p || 'kind' in p || 'managedFields' in p || (meta && typeof meta === 'object' && 'name' in meta)) {
    throw new Error('At least one of apiVersion, kind and name was changed');
  }
  if (boolFlag(flags, 'output-patch')) io.stdout(`Patch: ${goJsonEncode(patch)}`);

  let patched: KubeObject;
  try {
    const res = env.client.handle<KubeObject>({
      verb: Verb.Patch,
      group: rt.group,
      version: rt.version,
      resource: rt.resource,
      ...(rt.namespaced ? { namespace: original.namespace } : {}),
      name: original.name,
      ...(ctx.subresource ? { subresource: ctx.subresource as 'status' } : {}),
      patchType,
      body: patch,
      options: { fieldManager: stringFlag(flags, 'field-manager') || 'kubectl-edit', fieldValidation: ctx.validation },
    });
    for (const w of res.warnings ?? []) io.stderr(`Warning: ${w}`);
    patched = res.body;
  } catch (err) {
    io.stderr(addError(err, original, ctx));
    return;
  }
  toPrinter(io, flags, 'edited').print(rt, { ...patched, apiVersion: patched.apiVersion ?? original.object.apiVersion, kind: patched.kind ?? rt.kind });
}

/** editResults.addError: counts the failure and returns the line kubectl prints for it. */
function addError(err: unknown, info: Target, ctx: PatchContext): string {
  const resource = resourceString(info.rt);
  const name = JSON.stringify(info.name);
  if (isStatusError(err) && err.reason === StatusReason.Invalid) {
    ctx.results.edit++;
    ctx.reasons.push({ head: `${resource} ${name} was not valid`, other: (err.status.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`) });
    return `error: ${resource} ${name} is invalid`;
  }
  if (isStatusError(err) && err.reason === StatusReason.NotFound) {
    ctx.results.notfound++;
    return `error: ${resource} ${name} could not be found on the server`;
  }
  ctx.results.retryable++;
  return `error: ${resource} ${name} could not be patched: ${messageOf(err)}`;
}

/** resource.RequireNamespace: a namespaced object keeps the command's namespace. */
function requireNamespace(u: EditedObject, namespace: string): void {
  if (!u.rt.namespaced) return;
  const own = u.object.metadata?.namespace;
  if (!own) {
    u.object.metadata = { ...(u.object.metadata ?? {}), namespace };
    return;
  }
  if (own !== namespace) {
    throw new Error(`the namespace from the provided object ${JSON.stringify(own)} does not match the namespace ${JSON.stringify(namespace)}. You must pass '--namespace=${own}' to perform this operation.`);
  }
}

/** cmdutil.GetValidationDirective. */
function validationDirective(value: string): FieldValidation {
  switch (value.toLowerCase()) {
    case 'strict':
    case 'true':
      return 'Strict';
    case 'warn':
      return 'Warn';
    case 'ignore':
    case 'false':
      return 'Ignore';
    default:
      throw new Error(`invalid - validate option ${JSON.stringify(value)}; must be one of: strict (or true), warn, ignore (or false)`);
  }
}
