// kubectl annotate (k8s.io/kubectl/pkg/cmd/annotate, v1.32): add (KEY=VALUE, the value may contain "="),
// overwrite (--overwrite) or remove (KEY-) annotations, as a JSON merge patch (field manager "kubectl-annotate").
// Prints `pod/x annotated`; --list shows the annotations.
import { setOwn } from '../../control-plane/apiserver/patch/json-value';
import { goJson } from '../../control-plane/apiserver/printers/go-json';
import { PatchType } from '../../shared/api/request';
import type { KubeObject } from '../../shared/api/types';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { clientFor, CommandError, type ResourceInfo } from '../resource-builder';
import { boolFlag, checkErr, DryRun, dryRunStrategy, filenames, guarded, ObjectPrinter, stringFlag, visitErrors } from './create-common';
import { createMergePatch, getResourcesAndPairs, listPairs, pairTargets, withoutResourceVersion } from './label';

export const annotateCommand: CommandSpec = {
  path: ["annotate"],
  use: "annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]",
  short: "Update the annotations on a resource",
  long: "Update the annotations on one or more resources.\n\n All Kubernetes objects support the ability to store additional data with the object as annotations. Annotations are key/value pairs that can be larger than labels and include arbitrary string values such as structured JSON. Tools and system extensions may use annotations to store their own data.\n\n Attempting to set an annotation that already exists will fail unless --overwrite is set. If --resource-version is specified and does not match the current resource version on the server the command will fail.\n\nUse \"kubectl api-resources\" for a complete list of supported resources.",
  example: "  # Update pod 'foo' with the annotation 'description' and the value 'my frontend'\n  # If the same annotation is set multiple times, only the last value will be applied\n  kubectl annotate pods foo description='my frontend'\n  \n  # Update a pod identified by type and name in \"pod.json\"\n  kubectl annotate -f pod.json description='my frontend'\n  \n  # Update pod 'foo' with the annotation 'description' and the value 'my frontend running nginx', overwriting any existing value\n  kubectl annotate --overwrite pods foo description='my frontend running nginx'\n  \n  # Update all pods in the namespace\n  kubectl annotate pods --all description='my frontend running nginx'\n  \n  # Update pod 'foo' only if the resource is unchanged from version 1\n  kubectl annotate pods foo description='my frontend running nginx' --resource-version=1\n  \n  # Update pod 'foo' by removing an annotation named 'description' if it exists\n  # Does not require the --overwrite flag\n  kubectl annotate pods foo description-",
  flags: [
    { name: "all", type: 'bool', default: false, usage: "Select all resources, in the namespace of the specified resource types." },
    { name: "all-namespaces", shorthand: "A", type: 'bool', default: false, usage: "If true, check the specified action in all namespaces." },
    { name: "allow-missing-template-keys", type: 'bool', default: true, usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "dry-run", type: 'string', default: "none", noOptDefault: 'unchanged', usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "field-manager", type: 'string', default: "kubectl-annotate", usage: "Name of the manager used to track field ownership." },
    { name: "field-selector", type: 'string', default: "", usage: "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type." },
    { name: "filename", shorthand: "f", type: 'stringSlice', default: [], usage: "Filename, directory, or URL to files identifying the resource to update the annotation" },
    { name: "list", type: 'bool', default: false, usage: "If true, display the annotations for a given resource." },
    { name: "local", type: 'bool', default: false, usage: "If true, annotation will NOT contact api-server but run locally." },
    { name: "output", shorthand: "o", type: 'string', default: "", usage: "Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "overwrite", type: 'bool', default: false, usage: "If true, allow annotations to be overwritten, otherwise reject annotation updates that overwrite existing annotations." },
    { name: "recursive", shorthand: "R", type: 'bool', default: false, usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "resource-version", type: 'string', default: "", usage: "If non-empty, the annotation update will only succeed if this is the current resource-version for the object. Only valid when specifying a single resource." },
    { name: "selector", shorthand: "l", type: 'string', default: "", usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints." },
    { name: "show-managed-fields", type: 'bool', default: false, usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
  ],
  run: (env, args, flags, io) => guarded(io, 'annotate', () => runAnnotate(env, args, flags, io)),
};

/** The annotation kubectl record and rollout history use; it may always be overwritten. */
const changeCauseAnnotation = 'kubernetes.io/change-cause';

/** cmdutil.ParsePairs(…, "annotation", true). */
function parsePairs(pairs: string[], pairType: string): { add: Record<string, string>; remove: string[] } {
  const add: Record<string, string> = {};
  const remove: string[] = [];
  const invalid: string[] = [];
  for (const p of pairs) {
    if (p.includes('=') && p[0] !== '=') {
      const eq = p.indexOf('=');
      setOwn(add, p.slice(0, eq), p.slice(eq + 1));
    } else if (p.endsWith('-') && p !== '-') {
      remove.push(p.slice(0, -1));
    } else {
      invalid.push(p);
    }
  }
  if (invalid.length > 0) throw new CommandError(`invalid ${pairType} format: ${invalid.join(', ')}`);
  return { add, remove };
}

function runAnnotate(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  const dryRun = dryRunStrategy(flags);
  const output = stringFlag(flags, 'output');
  const printer = ObjectPrinter.create(output, 'annotated', { dryRun });
  const { resources, pairs } = getResourcesAndPairs(args, 'annotation');
  const { add, remove } = parsePairs(pairs, 'annotation');
  const list = boolFlag(flags, 'list');
  const local = boolFlag(flags, 'local');
  if (list && output) throw new CommandError('--list and --output may not be specified together');
  if (boolFlag(flags, 'all') && stringFlag(flags, 'selector')) throw new CommandError('cannot set --all and --selector at the same time');
  if (boolFlag(flags, 'all') && stringFlag(flags, 'field-selector')) throw new CommandError('cannot set --all and --field-selector at the same time');
  if (!local) {
    if (resources.length < 1 && filenames(flags).length === 0) throw new CommandError('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  } else {
    if (dryRun === DryRun.Server) throw new CommandError('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
    if (resources.length > 0) throw new CommandError('can only use local files by -f rsrc.yaml or --filename=rsrc.json when --local=true is set');
    if (filenames(flags).length === 0) throw new CommandError('one or more files must be specified as -f rsrc.yaml or --filename=rsrc.json');
  }
  if (Object.keys(add).length < 1 && remove.length < 1 && !list) throw new CommandError('at least one annotation update is required');
  const both = remove.filter((k) => Object.hasOwn(add, k));
  if (both.length > 0) throw new CommandError(`can not both modify and remove the following annotation(s) in the same command: ${both.join(', ')}`);

  const built = pairTargets(env, flags, resources, local);
  if (built.error) throw built.error;
  const single = built.singleItemImplied;
  const resourceVersion = stringFlag(flags, 'resource-version');
  if (!single && resourceVersion) throw new CommandError('--resource-version may only be used with a single resource');

  const errors: unknown[] = [...built.errors];
  for (const info of built.infos) {
    try {
      const outputObj = annotateOne(env, info, { add, remove, overwrite: boolFlag(flags, 'overwrite'), resourceVersion, dryRun, offline: dryRun === DryRun.Client || local || list, fieldManager: stringFlag(flags, 'field-manager') });
      if (list) listPairs(io, info, outputObj.metadata?.annotations, 'annotations', single);
      else printer.print(io, outputObj);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) return checkErr(io, visitErrors(errors));
  return 0;
}

interface AnnotateRun {
  add: Record<string, string>;
  remove: string[];
  overwrite: boolean;
  resourceVersion: string;
  dryRun: DryRun;
  /** Client dry run, --local or --list: change the object locally, send nothing. */
  offline: boolean;
  fieldManager: string;
}

function annotateOne(env: KubectlEnv, info: ResourceInfo, o: AnnotateRun): KubeObject {
  const obj: KubeObject = structuredClone(info.object!);
  if (o.offline) {
    updateAnnotations(obj, o);
    return obj;
  }
  if (o.resourceVersion) obj.metadata = withoutResourceVersion(obj.metadata);
  const oldData = JSON.parse(goJson(obj)) as unknown;
  updateAnnotations(obj, o);
  const patch = createMergePatch(oldData, JSON.parse(goJson(obj)));
  return clientFor(env.client, info.rt).patch(info.name, PatchType.MergePatch, patch, {
    namespace: info.rt.namespaced ? info.namespace : undefined,
    fieldManager: o.fieldManager,
    ...(o.dryRun === DryRun.Server ? { dryRun: true } : {}),
  });
}

function updateAnnotations(obj: KubeObject, o: AnnotateRun): void {
  const current = obj.metadata?.annotations ?? {};
  if (!o.overwrite) {
    const conflicts = Object.keys(o.add)
      .filter((k) => k !== changeCauseAnnotation && Object.hasOwn(current, k) && current[k] !== o.add[k])
      .map((k) => `'${k}' already has a value (${current[k]})`);
    if (conflicts.length > 0) throw new CommandError(`--overwrite is false but found the following declared annotation(s): ${conflicts.join('; ')}`);
  }
  const annotations = { ...current, ...o.add };
  for (const k of o.remove) delete annotations[k];
  obj.metadata = { ...obj.metadata, annotations, ...(o.resourceVersion ? { resourceVersion: o.resourceVersion } : {}) };
}
