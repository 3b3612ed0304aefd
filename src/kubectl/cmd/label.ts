// kubectl label (k8s.io/kubectl/pkg/cmd/label, v1.32): add (KEY=VALUE), overwrite (--overwrite) or remove (KEY-)
// labels on objects named by TYPE NAME, TYPE/NAME, -f, -l or --all, with a JSON merge patch of the label change
// (field manager "kubectl-label"). Prints `pod/x labeled` (`unlabeled`, `not labeled`); --list shows the labels.
import { getOwn, setOwn } from '../../control-plane/apiserver/patch/json-value';
import { goJson } from '../../control-plane/apiserver/printers/go-json';
import { PatchType } from '../../shared/api/request';
import type { KubeObject } from '../../shared/api/types';
import { isValidLabelValue } from '../../shared/lib/validation';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { buildResources, clientFor, CommandError, type ResourceInfo } from '../resource-builder';
import { boolFlag, checkErr, DryRun, dryRunStrategy, filenames, guarded, ObjectPrinter, stringFlag, visitErrors } from './create-common';

export const labelCommand: CommandSpec = {
  path: ["label"],
  use: "label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]",
  short: "Update the labels on a resource",
  long: "Update the labels on a resource.\n\n  *  A label key and value must begin with a letter or number, and may contain letters, numbers, hyphens, dots, and underscores, up to 63 characters each.\n  *  Optionally, the key can begin with a DNS subdomain prefix and a single '/', like example.com/my-app.\n  *  If --overwrite is true, then existing labels can be overwritten, otherwise attempting to overwrite a label will result in an error.\n  *  If --resource-version is specified, then updates will use this resource version, otherwise the existing resource-version will be used.",
  example: "  # Update pod 'foo' with the label 'unhealthy' and the value 'true'\n  kubectl label pods foo unhealthy=true\n  \n  # Update pod 'foo' with the label 'status' and the value 'unhealthy', overwriting any existing value\n  kubectl label --overwrite pods foo status=unhealthy\n  \n  # Update all pods in the namespace\n  kubectl label pods --all status=unhealthy\n  \n  # Update a pod identified by the type and name in \"pod.json\"\n  kubectl label -f pod.json status=unhealthy\n  \n  # Update pod 'foo' only if the resource is unchanged from version 1\n  kubectl label pods foo status=unhealthy --resource-version=1\n  \n  # Update pod 'foo' by removing a label named 'bar' if it exists\n  # Does not require the --overwrite flag\n  kubectl label pods foo bar-",
  flags: [
    { name: "all", type: 'bool', default: false, usage: "Select all resources, in the namespace of the specified resource types" },
    { name: "all-namespaces", shorthand: "A", type: 'bool', default: false, usage: "If true, check the specified action in all namespaces." },
    { name: "allow-missing-template-keys", type: 'bool', default: true, usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "dry-run", type: 'string', default: "none", noOptDefault: 'unchanged', usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "field-manager", type: 'string', default: "kubectl-label", usage: "Name of the manager used to track field ownership." },
    { name: "field-selector", type: 'string', default: "", usage: "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type." },
    { name: "filename", shorthand: "f", type: 'stringSlice', default: [], usage: "Filename, directory, or URL to files identifying the resource to update the labels" },
    { name: "list", type: 'bool', default: false, usage: "If true, display the labels for a given resource." },
    { name: "local", type: 'bool', default: false, usage: "If true, label will NOT contact api-server but run locally." },
    { name: "output", shorthand: "o", type: 'string', default: "", usage: "Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "overwrite", type: 'bool', default: false, usage: "If true, allow labels to be overwritten, otherwise reject label updates that overwrite existing labels." },
    { name: "recursive", shorthand: "R", type: 'bool', default: false, usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "resource-version", type: 'string', default: "", usage: "If non-empty, the labels update will only succeed if this is the current resource-version for the object. Only valid when specifying a single resource." },
    { name: "selector", shorthand: "l", type: 'string', default: "", usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints." },
    { name: "show-managed-fields", type: 'bool', default: false, usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
  ],
  run: (env, args, flags, io) => guarded(io, 'label', () => runLabel(env, args, flags, io)),
};

/** cmdutil.GetResourcesAndPairs: resource arguments first, then KEY=VALUE / KEY- pairs. */
export function getResourcesAndPairs(args: string[], pairType: string): { resources: string[]; pairs: string[] } {
  const resources: string[] = [];
  const pairs: string[] = [];
  let foundPair = false;
  for (const s of args) {
    const nonResource = (s.includes('=') && s[0] !== '=') || (s.endsWith('-') && s !== '-');
    if (nonResource) {
      foundPair = true;
      pairs.push(s);
    } else if (!foundPair) {
      resources.push(s);
    } else {
      throw new CommandError(`all resources must be specified before ${pairType} changes: ${s}`);
    }
  }
  return { resources, pairs };
}

/** label.go parseLabels. */
function parseLabels(spec: string[]): { add: Record<string, string>; remove: string[] } {
  const add: Record<string, string> = {};
  const remove: string[] = [];
  for (const s of spec) {
    if (s.includes('=')) {
      const parts = s.split('=');
      if (parts.length !== 2) throw new CommandError(`invalid label spec: ${s}`);
      const errs = isValidLabelValue(parts[1]);
      if (errs.length > 0) throw new CommandError(`invalid label value: ${JSON.stringify(s)}: ${errs.join(';')}`);
      setOwn(add, parts[0], parts[1]);
    } else if (s.endsWith('-')) {
      remove.push(s.slice(0, -1));
    } else {
      throw new CommandError(`unknown label spec: ${s}`);
    }
  }
  if (remove.some((k) => Object.hasOwn(add, k))) throw new CommandError('can not both modify and remove a label in the same command');
  return { add, remove };
}

/** jsonpatch.CreateMergePatch: the RFC 7386 merge patch taking `from` to `to` (lists are replaced whole). */
export function createMergePatch(from: unknown, to: unknown): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const a = (from ?? {}) as Record<string, unknown>;
  const b = (to ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    const x = getOwn(a, key);
    const y = b[key];
    if (isPlainObject(x) && isPlainObject(y)) {
      const sub = createMergePatch(x, y);
      if (Object.keys(sub).length > 0) setOwn(patch, key, sub);
    } else if (!Object.hasOwn(a, key) || goJson(x) !== goJson(y)) {
      setOwn(patch, key, y);
    }
  }
  for (const key of Object.keys(a)) if (!Object.hasOwn(b, key)) setOwn(patch, key, null);
  return patch;
}

/** Unstructured.SetResourceVersion(""): the field is removed, so the patch always carries the wanted version. */
export function withoutResourceVersion(meta: KubeObject['metadata']): KubeObject['metadata'] {
  const { resourceVersion: _rv, ...rest } = meta ?? {};
  return rest;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The objects label/annotate act on: the live objects (Latest), or the files as they are with --local. */
export function pairTargets(env: KubectlEnv, flags: FlagValues, resources: string[], local: boolean): ReturnType<typeof buildResources> {
  if (local) return buildResources(env, { filenames: filenames(flags) });
  return buildResources(env, {
    args: resources,
    filenames: filenames(flags),
    labelSelector: stringFlag(flags, 'selector') || undefined,
    fieldSelector: stringFlag(flags, 'field-selector') || undefined,
    all: boolFlag(flags, 'all'),
    allNamespaces: boolFlag(flags, 'all-namespaces'),
    allowEmptySelector: boolFlag(flags, 'all'),
    requireObject: true,
    latest: true,
  });
}

/** Go's map iteration order is random; kubeplay lists keys sorted. */
export function listPairs(io: CommandIO, info: ResourceInfo, pairs: Record<string, string> | undefined, what: 'labels' | 'annotations', single: boolean): void {
  const indent = single ? '' : ' ';
  if (!single) io.stdout(`Listing ${what} for ${info.rt.kind}.${info.rt.group}/${info.name}:`);
  for (const key of Object.keys(pairs ?? {}).sort()) io.stdout(`${indent}${key}=${pairs![key]}`);
}

function runLabel(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  const output = stringFlag(flags, 'output');
  const dryRun = dryRunStrategy(flags);
  ObjectPrinter.create(output, 'labeled'); // an unknown -o fails first
  const { resources, pairs } = getResourcesAndPairs(args, 'label');
  const { add, remove } = parseLabels(pairs);
  const list = boolFlag(flags, 'list');
  const local = boolFlag(flags, 'local');
  const overwrite = boolFlag(flags, 'overwrite');
  const resourceVersion = stringFlag(flags, 'resource-version');
  if (list && output) throw new CommandError('--list and --output may not be specified together');
  // Validate
  if (boolFlag(flags, 'all') && stringFlag(flags, 'selector')) throw new CommandError('cannot set --all and --selector at the same time');
  if (boolFlag(flags, 'all') && stringFlag(flags, 'field-selector')) throw new CommandError('cannot set --all and --field-selector at the same time');
  if (local) {
    if (dryRun === DryRun.Server) throw new CommandError('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
    if (resources.length > 0) throw new CommandError('can only use local files by -f pod.yaml or --filename=pod.json when --local=true is set');
    if (filenames(flags).length === 0) throw new CommandError('one or more files must be specified as -f pod.yaml or --filename=pod.json');
  } else if (resources.length < 1 && filenames(flags).length === 0) {
    throw new CommandError('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  }
  if (Object.keys(add).length < 1 && remove.length < 1 && !list) throw new CommandError('at least one label update is required');

  const built = pairTargets(env, flags, resources, local);
  if (built.error) throw built.error;
  const single = built.singleItemImplied;
  if (!single && resourceVersion) throw new CommandError('--resource-version may only be used with a single resource');

  const errors: unknown[] = [...built.errors];
  for (const info of built.infos) {
    try {
      labelOne(env, info, { add, remove, overwrite, resourceVersion, dryRun, local, list, output, single, fieldManager: stringFlag(flags, 'field-manager') }, io);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) return checkErr(io, visitErrors(errors));
  return 0;
}

interface LabelRun {
  add: Record<string, string>;
  remove: string[];
  overwrite: boolean;
  resourceVersion: string;
  dryRun: DryRun;
  local: boolean;
  list: boolean;
  output: string;
  single: boolean;
  fieldManager: string;
}

function labelOne(env: KubectlEnv, info: ResourceInfo, o: LabelRun, io: CommandIO): void {
  const obj: KubeObject = structuredClone(info.object!);
  if (o.resourceVersion) obj.metadata = withoutResourceVersion(obj.metadata);
  const oldData = goJson(obj);
  let outputObj: KubeObject;
  if (o.dryRun === DryRun.Client || o.local || o.list) {
    labelFunc(obj, o);
    outputObj = obj;
  } else {
    for (const key of o.remove) if (!Object.hasOwn(obj.metadata?.labels ?? {}, key)) io.stdout(`label ${JSON.stringify(key)} not found.`);
    labelFunc(obj, o);
    const patch = createMergePatch(JSON.parse(oldData), JSON.parse(goJson(obj)));
    outputObj = clientFor(env.client, info.rt).patch(info.name, PatchType.MergePatch, patch, {
      namespace: info.rt.namespaced ? info.namespace : undefined,
      fieldManager: o.fieldManager,
      ...(o.dryRun === DryRun.Server ? { dryRun: true } : {}),
    });
  }
  const newData = goJson(obj);
  if (o.list) {
    listPairs(io, info, outputObj.metadata?.labels, 'labels', o.single);
    return;
  }
  let msg = 'not labeled';
  if (oldData !== newData) msg = !o.overwrite && newData.length < oldData.length ? 'unlabeled' : 'labeled';
  ObjectPrinter.create(o.output, msg, { dryRun: o.dryRun }).print(io, obj);
}

/** label.go labelFunc: refuses to overwrite without --overwrite (one error per key, aggregated). */
function labelFunc(obj: KubeObject, o: Pick<LabelRun, 'add' | 'remove' | 'overwrite' | 'resourceVersion'>): void {
  const current = obj.metadata?.labels ?? {};
  if (!o.overwrite) {
    const errs = Object.keys(o.add)
      .filter((k) => Object.hasOwn(current, k) && current[k] !== o.add[k])
      .map((k) => new CommandError(`'${k}' already has a value (${current[k]}), and --overwrite is false`));
    if (errs.length > 0) throw errs;
  }
  const labels = { ...current, ...o.add };
  for (const k of o.remove) delete labels[k];
  obj.metadata = { ...obj.metadata, labels, ...(o.resourceVersion ? { resourceVersion: o.resourceVersion } : {}) };
}
