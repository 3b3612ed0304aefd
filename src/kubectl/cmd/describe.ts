// kubectl describe (k8s.io/kubectl pkg/cmd/describe): resolves TYPE [NAME_PREFIX], TYPE/NAME, -l, -A and -f
// to objects, describes each with its kind's describer (src/kubectl/describe/), and — when `TYPE NAME` names
// nothing — describes every object of that type whose name starts with NAME (DescribeMatchingResources).
import { isStatusError, StatusReason } from '../../shared/api/status';
import type { CommandIO, CommandSpec } from '../cli/command';
import { kubectlErrorMessage } from '../cordon';
import type { DescriberSettings } from '../describe/context';
import { describerFor } from '../describe/describers';
import { buildResources, clientFor, mappingFor } from '../resource-builder';

const suggestApiResources = 'Use "kubectl api-resources" for a complete list of supported resources.';

/** Prints text (as kubectl writes it to the terminal) one line per call; a final newline ends the last line. */
export function printText(write: (line: string) => void, text: string): void {
  if (text === '') return;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) write(line);
}

/** MultipleErrors: an API error as StandardErrorMessage prints it, any other as its bare text. */
function errorLine(err: unknown): string {
  return isStatusError(err) ? kubectlErrorMessage(err) : err instanceof Error ? err.message : String(err);
}

function printErrors(io: CommandIO, errors: unknown[]): number {
  if (errors.length === 0) return 0;
  // An aggregate of one prints as that error alone (with "error: " when it is not an API error).
  if (errors.length === 1) io.stderr(kubectlErrorMessage(errors[0]));
  else for (const err of errors) io.stderr(errorLine(err));
  return 1;
}

export const describeCommand: CommandSpec = {
  path: ['describe'],
  use: 'describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME)',
  short: 'Show details of a specific resource or group of resources',
  long: `Show details of a specific resource or group of resources.

 Print a detailed description of the selected resources, including related resources such as events or controllers. You may select a single object by name, all objects of that type, provide a name prefix, or label selector. For example:

        $ kubectl describe TYPE NAME_PREFIX
        
 will first check for an exact match on TYPE and NAME_PREFIX. If no such resource exists, it will output details for every resource that has a name prefixed with NAME_PREFIX.

${suggestApiResources}`,
  example: `  # Describe a node
  kubectl describe nodes kubernetes-node-emt8.c.myproject.internal
  
  # Describe a pod
  kubectl describe pods/nginx
  
  # Describe a pod identified by type and name in "pod.json"
  kubectl describe -f pod.json
  
  # Describe all pods
  kubectl describe pods
  
  # Describe pods by label name=myLabel
  kubectl describe pods -l name=myLabel
  
  # Describe all pods managed by the 'frontend' replication controller
  # (rc-created pods get the name of the rc as a prefix in the pod name)
  kubectl describe pods frontend`,
  flags: [
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', default: false, usage: 'If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace.' },
    { name: 'chunk-size', type: 'int', default: 500, usage: 'Return large lists in chunks rather than all at once. Pass 0 to disable. This flag is beta and may change in the future.' },
    { name: 'filename', shorthand: 'f', type: 'stringSlice', default: [], usage: 'Filename, directory, or URL to files containing the resource to describe' },
    { name: 'kustomize', shorthand: 'k', type: 'string', default: '', usage: "Process the kustomization directory. This flag can't be used together with -f or -R." },
    { name: 'recursive', shorthand: 'R', type: 'bool', default: false, usage: 'Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory.' },
    {
      name: 'selector',
      shorthand: 'l',
      type: 'string',
      default: '',
      usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints.",
    },
    { name: 'show-events', type: 'bool', default: true, usage: 'If true, display events related to the described object.' },
  ],
  run(env, args, flags, io) {
    const filenames = flags.get<string[]>('filename') ?? [];
    const allNamespaces = flags.get<boolean>('all-namespaces') === true;
    const selector = flags.get<string>('selector') ?? '';
    if (args.length === 0 && filenames.length === 0) {
      io.stderr(`error: You must specify the type of resource to describe. ${suggestApiResources}`);
      return 1;
    }
    const settings: DescriberSettings = { client: env.client, now: env.clock.now(), showEvents: flags.get<boolean>('show-events') !== false };
    const result = buildResources(env, {
      args,
      filenames,
      labelSelector: selector || undefined,
      allNamespaces,
      allowEmptySelector: true,
      requireObject: true,
      enforceNamespace: allNamespaces ? false : env.namespaceExplicit,
    });
    if (result.error) return printErrors(io, [result.error]);

    // `describe TYPE NAME` that names nothing: describe every object of TYPE whose name has NAME as prefix.
    if (result.infos.length === 0 && args.length === 2 && result.errors.length === 1 && isStatusError(result.errors[0], StatusReason.NotFound)) {
      return describeMatching(env, settings, args[0], args[1], result.errors[0], io);
    }

    const errors = [...result.errors];
    const seen = new Set<string>();
    let out = '';
    let first = true;
    for (const info of result.infos) {
      let text: string;
      try {
        text = describerFor(info.rt)(settings, info.namespace ?? '', info.name);
      } catch (err) {
        const key = errorLine(err);
        if (!seen.has(key)) {
          seen.add(key);
          errors.push(err);
        }
        continue;
      }
      out += first ? text : `\n\n${text}`;
      first = false;
    }
    printText(io.stdout, out);
    if (result.infos.length === 0 && errors.length === 0) {
      io.stderr(allNamespaces ? 'No resources found' : `No resources found in ${env.namespace} namespace.`);
    }
    return printErrors(io, errors);
  },
};

function describeMatching(env: Parameters<CommandSpec['run']>[0], settings: DescriberSettings, type: string, prefix: string, original: unknown, io: CommandIO): number {
  let found = false;
  try {
    const rt = mappingFor(env.registry, type);
    const describe = describerFor(rt);
    const list = clientFor(env.client, rt).list({ namespace: rt.namespaced ? env.namespace : undefined });
    let out = '';
    for (const item of list.items) {
      const name = item.metadata.name ?? '';
      if (!name.startsWith(prefix)) continue;
      found = true;
      out += `${describe(settings, rt.namespaced ? env.namespace : '', name)}\n`;
    }
    printText(io.stdout, out);
  } catch (err) {
    return printErrors(io, [err]);
  }
  return found ? 0 : printErrors(io, [original]);
}
