// kubectl api-resources (k8s.io/kubectl v0.32.4 pkg/cmd/apiresources/apiresources.go): the server's preferred
// resources from discovery (subresources left out), sorted by group then name (or --sort-by name|kind), laid out
// with kubectl's tabwriter: NAME SHORTNAMES APIVERSION NAMESPACED KIND [VERBS CATEGORIES].
import { discoveryDocuments, type APIResource } from '../../control-plane/apiserver/handlers/discovery';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { LineWriter, newTabWriter } from '../printers/tabwriter';

interface GroupResource {
  group: string;
  groupVersion: string;
  resource: APIResource;
}

/** ServerPreferredResources: each group at its preferred version, without subresources. */
export function serverPreferredResources(env: Pick<KubectlEnv, 'registry'>): GroupResource[] {
  const docs = discoveryDocuments(env.registry);
  const preferred = new Set<string>(['v1', ...docs.groups.groups.map((g) => g.preferredVersion.groupVersion)]);
  const out: GroupResource[] = [];
  for (const list of docs.resources) {
    if (!preferred.has(list.groupVersion)) continue;
    const group = list.groupVersion.includes('/') ? list.groupVersion.split('/')[0] : '';
    for (const resource of list.resources) {
      if (resource.name.includes('/')) continue;
      out.push({ group, groupVersion: list.groupVersion, resource });
    }
  }
  return out;
}

function usageError(io: CommandIO, message: string): number {
  io.stderr(`error: ${message}`);
  io.stderr("See 'kubectl api-resources -h' for help and examples");
  return 1;
}

function run(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  if (args.length !== 0) return usageError(io, `unexpected arguments: [${args.join(' ')}]`);
  const output = (flags.get<string>('output') as string | undefined) ?? '';
  const sortBy = (flags.get<string>('sort-by') as string | undefined) ?? '';
  if (!['', 'wide', 'name'].includes(output)) {
    io.stderr(`error: --output ${output} is not available`);
    return 1;
  }
  if (sortBy && sortBy !== 'name' && sortBy !== 'kind') {
    io.stderr('error: --sort-by accepts only name or kind');
    return 1;
  }
  const apiGroup = (flags.get<string>('api-group') as string | undefined) ?? '';
  const namespaced = flags.get<boolean>('namespaced') !== false;
  const verbs = (flags.get<string[]>('verbs') as string[] | undefined) ?? [];
  const categories = (flags.get<string[]>('categories') as string[] | undefined) ?? [];

  const resources = serverPreferredResources(env).filter((r) => {
    if (r.resource.verbs.length === 0) return false;
    if (flags.changed('api-group') && apiGroup !== r.group) return false;
    if (flags.changed('namespaced') && namespaced !== r.resource.namespaced) return false;
    if (verbs.length > 0 && !verbs.every((v) => r.resource.verbs.includes(v))) return false;
    if (categories.length > 0 && !categories.every((c) => (r.resource.categories ?? []).includes(c))) return false;
    return true;
  });

  const key = (r: GroupResource): string => (sortBy === 'name' ? r.resource.name : sortBy === 'kind' ? r.resource.kind : r.group);
  // sort.Stable with the chosen value, ties by name.
  resources.sort((a, b) => cmp(key(a), key(b)) || cmp(a.resource.name, b.resource.name));

  const lines = new LineWriter((line) => io.stdout(line));
  const w = newTabWriter((text) => lines.write(text));
  if (!flags.get<boolean>('no-headers') && output !== 'name') {
    const columns = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'];
    if (output === 'wide') columns.push('VERBS', 'CATEGORIES');
    w.write(`${columns.join('\t')}\n`);
  }
  for (const r of resources) {
    const res = r.resource;
    if (output === 'name') {
      w.write(`${r.group ? `${res.name}.${r.group}` : res.name}\n`);
      continue;
    }
    const cells = [res.name, (res.shortNames ?? []).join(','), r.groupVersion, String(res.namespaced), res.kind];
    if (output === 'wide') cells.push(res.verbs.join(','), (res.categories ?? []).join(','));
    w.write(`${cells.join('\t')}\n`);
  }
  w.flush();
  lines.close();
  return 0;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const apiResourcesCommand: CommandSpec = {
  path: ['api-resources'],
  use: 'api-resources [flags]',
  short: 'Print the supported API resources on the server',
  long: 'Print the supported API resources on the server.',
  example: `  # Print the supported API resources
  kubectl api-resources
  
  # Print the supported API resources with more information
  kubectl api-resources -o wide
  
  # Print the supported API resources sorted by a column
  kubectl api-resources --sort-by=name
  
  # Print the supported namespaced resources
  kubectl api-resources --namespaced=true
  
  # Print the supported non-namespaced resources
  kubectl api-resources --namespaced=false
  
  # Print the supported API resources with a specific APIGroup
  kubectl api-resources --api-group=rbac.authorization.k8s.io`,
  flags: [
    { name: 'api-group', type: 'string', default: '', usage: 'Limit to resources in the specified API group.' },
    { name: 'cached', type: 'bool', default: false, usage: 'Use the cached list of resources if available.' },
    { name: 'categories', type: 'stringSlice', default: [], usage: 'Limit to resources that belong to the specified categories.' },
    { name: 'namespaced', type: 'bool', default: true, usage: 'If false, non-namespaced resources will be returned, otherwise returning namespaced resources by default.' },
    { name: 'no-headers', type: 'bool', default: false, usage: "When using the default or custom-column output format, don't print headers (default print headers)." },
    { name: 'output', shorthand: 'o', type: 'string', default: '', usage: 'Output format. One of: (wide, name).' },
    { name: 'sort-by', type: 'string', default: '', usage: "If non-empty, sort list of resources using specified field. The field can be either 'name' or 'kind'." },
    { name: 'verbs', type: 'stringSlice', default: [], usage: 'Limit to resources that support the specified verbs.' },
  ],
  run,
};
