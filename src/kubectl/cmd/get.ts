// kubectl get (k8s.io/kubectl v0.32.4 pkg/cmd/get/get.go): resolve the resource arguments (TYPE, TYPE NAME…,
// TYPE/NAME…, TYPE1,TYPE2, kind.group, categories such as "all", -f), ask the API server for Tables
// (as=Table: the server prints, kubectl lays out) or for objects (-o json|yaml|name|jsonpath|custom-columns), and
// print them as kubectl does: one table per type, a blank line between types, kind prefixes when several types
// are shown, NAMESPACE with -A, "No resources found in default namespace." on stderr when nothing was printed.
// -w/--watch-only stream one row per change (headers once, widths remembered) until Ctrl+C.
import type { Table } from '../../control-plane/apiserver/printers/table';
import type { ResourceType } from '../../shared/api/resources';
import { isStatusError } from '../../shared/api/status';
import type { KubeList, KubeObject, WatchEvent } from '../../shared/api/types';
import { Verb, type ApiRequest } from '../../shared/api/request';
import { humanDuration } from '../../shared/lib/duration';
import type { CommandIO, CommandSpec, FlagSpec, FlagValues, KubectlEnv } from '../cli/command';
import { kubectlErrorMessage } from '../cordon';
import { HumanReadablePrinter } from '../printers/table-printer';
import { asList, getAllowedFormats, printerFor, type ObjectPrinter } from '../printers/print';
import { sortObjects, sortTableRows } from '../printers/sort';
import { LineWriter, newTabWriter } from '../printers/tabwriter';
import {
  CommandError,
  expandCategories,
  infoForManifest,
  isNotFound,
  mappingFor,
  missingResourceMessage,
  readManifests,
} from '../resource-builder';

// ------------------------------------------------------------------ flags

const getFlags: FlagSpec[] = [
  {
    name: 'all-namespaces',
    shorthand: 'A',
    type: 'bool',
    default: false,
    usage: 'If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace.',
  },
  {
    name: 'allow-missing-template-keys',
    type: 'bool',
    default: true,
    usage: 'If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.',
  },
  { name: 'chunk-size', type: 'int', default: 500, usage: 'Return large lists in chunks rather than all at once. Pass 0 to disable. This flag is beta and may change in the future.' },
  {
    name: 'field-selector',
    type: 'string',
    default: '',
    usage: "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type.",
  },
  { name: 'filename', shorthand: 'f', type: 'stringSlice', default: [], usage: 'Filename, directory, or URL to files identifying the resource to get from a server.' },
  { name: 'ignore-not-found', type: 'bool', default: false, usage: 'If the requested object does not exist the command will return exit code 0.' },
  { name: 'kustomize', shorthand: 'k', type: 'string', default: '', usage: "Process the kustomization directory. This flag can't be used together with -f or -R." },
  {
    name: 'label-columns',
    shorthand: 'L',
    type: 'stringSlice',
    default: [],
    usage: 'Accepts a comma separated list of labels that are going to be presented as columns. Names are case-sensitive. You can also use multiple flag options like -L label1 -L label2...',
  },
  { name: 'no-headers', type: 'bool', default: false, usage: "When using the default or custom-column output format, don't print headers (default print headers)." },
  {
    name: 'output',
    shorthand: 'o',
    type: 'string',
    default: '',
    usage:
      'Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file, custom-columns, custom-columns-file, wide). See custom columns [https://kubernetes.io/docs/reference/kubectl/#custom-columns], golang template [http://golang.org/pkg/text/template/#pkg-overview] and jsonpath template [https://kubernetes.io/docs/reference/kubectl/jsonpath/].',
  },
  { name: 'output-watch-events', type: 'bool', default: false, usage: 'Output watch event objects when --watch or --watch-only is used. Existing objects are output as initial ADDED events.' },
  { name: 'raw', type: 'string', default: '', usage: 'Raw URI to request from the server.  Uses the transport specified by the kubeconfig file.' },
  {
    name: 'recursive',
    shorthand: 'R',
    type: 'bool',
    default: false,
    usage: 'Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory.',
  },
  {
    name: 'selector',
    shorthand: 'l',
    type: 'string',
    default: '',
    usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints.",
  },
  { name: 'server-print', type: 'bool', default: true, usage: 'If true, have the server return the appropriate table output. Supports extension APIs and CRDs.' },
  { name: 'show-kind', type: 'bool', default: false, usage: 'If present, list the resource type for the requested object(s).' },
  { name: 'show-labels', type: 'bool', default: false, usage: 'When printing, show all labels as the last column (default hide labels column)' },
  { name: 'show-managed-fields', type: 'bool', default: false, usage: 'If true, keep the managedFields when printing objects in JSON or YAML format.' },
  {
    name: 'sort-by',
    type: 'string',
    default: '',
    usage:
      "If non-empty, sort list types using this field specification.  The field specification is expressed as a JSONPath expression (e.g. '{.metadata.name}'). The field in the API resource specified by this JSONPath expression must be an integer or a string.",
  },
  { name: 'subresource', type: 'string', default: '', usage: 'If specified, gets the subresource of the requested object. This flag is beta and may change in the future.' },
  {
    name: 'template',
    type: 'string',
    default: '',
    usage: 'Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview].',
  },
  { name: 'watch', shorthand: 'w', type: 'bool', default: false, usage: 'After listing/getting the requested object, watch for changes.' },
  { name: 'watch-only', type: 'bool', default: false, usage: 'Watch for changes to the requested object(s), without listing/getting first.' },
];

const str = (flags: FlagValues, name: string): string => {
  const v = flags.get(name);
  return typeof v === 'string' ? v : '';
};
const bool = (flags: FlagValues, name: string): boolean => flags.get(name) === true;
const list = (flags: FlagValues, name: string): string[] => {
  const v = flags.get(name);
  return Array.isArray(v) ? v : [];
};

// ------------------------------------------------------------------ options

interface GetOptions {
  output: string;
  template: string;
  namespace: string;
  explicitNamespace: boolean;
  allNamespaces: boolean;
  labelSelector: string;
  fieldSelector: string;
  sortBy: string;
  noHeaders: boolean;
  ignoreNotFound: boolean;
  watch: boolean;
  watchOnly: boolean;
  outputWatchEvents: boolean;
  chunkSize: number;
  serverPrint: boolean;
  isHumanReadable: boolean;
  subresource: string;
  showKind: boolean;
  showLabels: boolean;
  labelColumns: string[];
  showManagedFields: boolean;
  allowMissingTemplateKeys: boolean;
  filenames: string[];
}

function options(env: KubectlEnv, flags: FlagValues): GetOptions {
  const output = str(flags, 'output');
  const template = str(flags, 'template');
  const allNamespaces = bool(flags, 'all-namespaces');
  // Custom columns, yaml and json are printed from objects, not from server-side Tables.
  const serverPrint = bool(flags, 'server-print') && !(output.includes('custom-columns') || output === 'yaml' || output.includes('json'));
  return {
    output,
    template,
    namespace: env.namespace,
    explicitNamespace: env.namespaceExplicit && !allNamespaces,
    allNamespaces,
    labelSelector: str(flags, 'selector'),
    fieldSelector: str(flags, 'field-selector'),
    sortBy: str(flags, 'sort-by'),
    noHeaders: bool(flags, 'no-headers'),
    ignoreNotFound: bool(flags, 'ignore-not-found'),
    watch: bool(flags, 'watch'),
    watchOnly: bool(flags, 'watch-only'),
    outputWatchEvents: bool(flags, 'output-watch-events'),
    chunkSize: typeof flags.get('chunk-size') === 'number' ? (flags.get('chunk-size') as number) : 500,
    serverPrint,
    isHumanReadable: (output === '' && template === '') || output === 'wide',
    subresource: str(flags, 'subresource'),
    showKind: bool(flags, 'show-kind'),
    showLabels: bool(flags, 'show-labels'),
    labelColumns: list(flags, 'label-columns'),
    showManagedFields: bool(flags, 'show-managed-fields'),
    allowMissingTemplateKeys: flags.get('allow-missing-template-keys') !== false,
    filenames: list(flags, 'filename'),
  };
}

// ------------------------------------------------------------------ resource arguments

/** One request get makes: a list (no name) or a named object, of one resource type. */
interface Visit {
  rt: ResourceType;
  /** The namespace of the request; undefined for cluster-scoped types and -A lists. */
  namespace?: string;
  name?: string;
}

interface Visits {
  visits: Visit[];
  /** kubectl's singleItemImplied: one object was named (TYPE NAME, TYPE/NAME, one -f object). */
  singleItemImplied: boolean;
  /** Errors found while reading -f (reported after what could be printed). */
  errors: unknown[];
}

/**
 * Builder.mappingFor, plus the shortcut expander's warning when a short name is ambiguous:
 * `Warning: short name "ev" could also match lower priority resource events.events.k8s.io`.
 */
function mapResource(env: KubectlEnv, arg: string, warn: (message: string) => void): ResourceType {
  const rt = mappingFor(env.registry, arg);
  const short = arg.toLowerCase();
  if (!short.includes('.') && rt.shortNames.includes(short)) {
    for (const other of env.registry.resolve(short)) {
      if (other === rt || !other.shortNames.includes(short)) continue;
      warn(`Warning: short name ${JSON.stringify(short)} could also match lower priority resource ${other.group ? `${other.resource}.${other.group}` : other.resource}`);
    }
  }
  return rt;
}

function splitResourceArgument(arg: string): string[] {
  return [...new Set(arg.split(',').filter((s) => s !== ''))];
}

/** Builder.ResourceTypeOrNameArgs + the visitors: which requests the arguments mean. Throws argument errors. */
function resolveVisits(env: KubectlEnv, o: GetOptions, args: string[], singleResourceType: boolean, warn: (message: string) => void): Visits {
  const namespace = o.allNamespaces ? '' : o.namespace;
  const result: Visits = { visits: [], singleItemImplied: false, errors: [] };
  const namedNamespace = (rt: ResourceType): string | undefined => {
    if (!rt.namespaced) return undefined;
    if (!namespace) throw new CommandError(o.allNamespaces ? 'a resource cannot be retrieved by name across all namespaces' : 'namespace may not be empty when retrieving a resource by name');
    return namespace;
  };

  if (o.filenames.length > 0) {
    if (args.length > 0) throw new CommandError('when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well');
    const read = readManifests(env, o.filenames);
    if (read.error) throw read.error;
    result.errors.push(...read.errors);
    for (const item of read.objects) {
      const info = infoForManifest(item, o.namespace, o.explicitNamespace);
      result.visits.push({ rt: info.rt, namespace: info.namespace, name: info.name });
    }
    result.singleItemImplied = result.visits.length === 1 && !o.filenames.includes('-') && o.filenames.length === 1;
    return result;
  }

  // "TYPE1,TYPE2 NAME…" means TYPE1/NAME… TYPE2/NAME… (normalizeMultipleResourcesArgs).
  let normalized = args;
  if (args.length >= 2 && splitResourceArgument(args[0]).length > 1) {
    normalized = splitResourceArgument(args[0]).flatMap((r) => args.slice(1).map((n) => `${r}/${n}`));
  }
  const slashes = normalized.filter((a) => a.includes('/')).length;
  if (slashes > 0 && slashes !== normalized.length) {
    throw new CommandError(
      "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
    );
  }

  if (slashes > 0) {
    // visitByResource
    const tuples = normalized.map((s) => {
      const seg = s.split('/');
      if (seg.length !== 2) throw new CommandError('arguments in resource/name form may not have more than one slash');
      const [resource, name] = seg;
      if (!resource || !name || splitResourceArgument(resource).length !== 1) throw new CommandError('arguments in resource/name form must have a single resource and name');
      return { resource, name };
    });
    if (o.labelSelector || o.fieldSelector) throw new CommandError('selectors and the all flag cannot be used when passing resource/name arguments');
    const mappings = new Map<string, ResourceType>();
    for (const t of tuples) if (!mappings.has(t.resource)) mappings.set(t.resource, mapResource(env, t.resource, warn));
    if (singleResourceType && new Set([...mappings.values()].map((rt) => `${rt.group}/${rt.resource}`)).size > 1) throw new CommandError('you may only specify a single resource type');
    result.singleItemImplied = tuples.length === 1;
    for (const t of tuples) {
      const rt = mappings.get(t.resource)!;
      result.visits.push({ rt, namespace: namedNamespace(rt), name: t.name });
    }
    return result;
  }

  if (normalized.length === 0) throw new CommandError(missingResourceMessage);
  const resources = splitResourceArgument(expandCategories(env.registry, normalized[0]).join(','));
  const names = normalized.slice(1);
  if (names.length > 0) {
    // visitByName
    if (o.labelSelector || o.fieldSelector) throw new CommandError('name cannot be provided when a selector is specified');
    if (resources.length > 1) throw new CommandError('you must specify only one resource');
    const rt = mapResource(env, resources[0], warn);
    result.singleItemImplied = names.length === 1;
    for (const name of names) result.visits.push({ rt, namespace: namedNamespace(rt), name });
    return result;
  }
  // visitBySelector (a lone TYPE selects everything)
  if (o.subresource) throw new CommandError('subresource cannot be used when bulk resources are specified');
  if (resources.length > 1 && singleResourceType) throw new CommandError('you may only specify a single resource type');
  const seen = new Set<string>();
  for (const r of resources) {
    const rt = mapResource(env, r, warn);
    const key = `${rt.group}/${rt.version}/${rt.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.visits.push({ rt, namespace: rt.namespaced && namespace ? namespace : undefined });
  }
  return result;
}

// ------------------------------------------------------------------ requests

function request(visit: Visit, o: GetOptions, extra: Partial<ApiRequest> & { options?: ApiRequest['options'] }): ApiRequest {
  return {
    verb: visit.name !== undefined ? Verb.Get : Verb.List,
    group: visit.rt.group,
    version: visit.rt.version,
    resource: visit.rt.resource,
    namespace: visit.namespace,
    ...(visit.name !== undefined ? { name: visit.name } : {}),
    ...(o.subresource && visit.name !== undefined ? { subresource: o.subresource as ApiRequest['subresource'] } : {}),
    ...extra,
    options: {
      ...(visit.name === undefined && o.labelSelector ? { labelSelector: o.labelSelector } : {}),
      ...(visit.name === undefined && o.fieldSelector ? { fieldSelector: o.fieldSelector } : {}),
      ...extra.options,
    },
  };
}

/**
 * EnhanceListError (cli-runtime helper.go): a list's BadRequest or NotFound names what was listed, e.g.
 * `Unable to find "/v1, Resource=pods" that match label selector "a=b=c", field selector "": …`.
 */
function enhanceListError(err: unknown, visit: Visit, o: GetOptions): unknown {
  if (visit.name !== undefined || !isStatusError(err) || (err.code !== 400 && err.code !== 404)) return err;
  const rt = visit.rt;
  const subject = `${rt.group}/${rt.version}, Resource=${rt.resource}`;
  const message =
    !o.labelSelector && !o.fieldSelector
      ? `Unable to list ${JSON.stringify(subject)}: ${err.status.message}`
      : `Unable to find ${JSON.stringify(subject)} that match label selector ${JSON.stringify(o.labelSelector)}, field selector ${JSON.stringify(o.fieldSelector)}: ${err.status.message}`;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(err) as object) as typeof err, err);
  Object.defineProperty(copy, 'status', { value: { ...err.status, message } });
  Object.defineProperty(copy, 'message', { value: message });
  return copy;
}

/** The server's Table for a visit: a list (read in chunks of --chunk-size, rows concatenated) or one object. */
function fetchTable(env: KubectlEnv, requested: Visit, o: GetOptions): Table {
  // The server prints from its internal form: a Table reads the same at every served version, so ask at the
  // storage version (the served-version conversion converts objects, not Tables).
  const storage = env.registry.forGroupResource(requested.rt);
  const visit = storage && storage.version !== requested.rt.version ? { ...requested, rt: { ...requested.rt, version: storage.version } } : requested;
  const tableOptions = { as: 'Table' as const, ...(o.sortBy ? { includeObject: 'Object' as const } : {}) };
  if (visit.name !== undefined) return env.client.handle<Table>(request(visit, o, { options: tableOptions })).body;
  const chunk = o.sortBy ? 0 : o.chunkSize;
  let table: Table | undefined;
  let cont: string | undefined;
  do {
    const page = env.client.handle<Table>(request(visit, o, { options: { ...tableOptions, ...(chunk > 0 ? { limit: chunk } : {}), ...(cont ? { continue: cont } : {}) } })).body;
    if (!table) table = page;
    else table = { ...table, metadata: page.metadata, rows: [...table.rows, ...page.rows] };
    cont = page.metadata?.continue || undefined;
  } while (cont);
  return table;
}

/** The objects of a visit: a list's items (with apiVersion and kind, as kubectl's unstructured decoding sets) or one object. */
function fetchObjects(env: KubectlEnv, visit: Visit, o: GetOptions): { objects: KubeObject[]; resourceVersion?: string } {
  if (visit.name !== undefined) return { objects: [env.client.handle<KubeObject>(request(visit, o, {})).body] };
  const chunk = o.sortBy ? 0 : o.chunkSize;
  const objects: KubeObject[] = [];
  let cont: string | undefined;
  let resourceVersion: string | undefined;
  do {
    const page = env.client.handle<KubeList>(request(visit, o, { options: { ...(chunk > 0 ? { limit: chunk } : {}), ...(cont ? { continue: cont } : {}) } })).body;
    const apiVersion = page.apiVersion ?? (visit.rt.group ? `${visit.rt.group}/${visit.rt.version}` : visit.rt.version);
    for (const item of page.items) objects.push({ ...item, apiVersion: item.apiVersion ?? apiVersion, kind: item.kind ?? visit.rt.kind });
    resourceVersion = page.metadata?.resourceVersion;
    cont = page.metadata?.continue || undefined;
  } while (cont);
  return { objects, resourceVersion };
}

// ------------------------------------------------------------------ errors

/** cmdutil.CheckErr of get's aggregated errors: one line each ("Error from server (NotFound): …"). */
function printErrors(io: CommandIO, errors: unknown[]): number {
  if (errors.length === 0) return 0;
  if (errors.length === 1) {
    for (const line of kubectlErrorMessage(errors[0]).replace(/\n$/, '').split('\n')) io.stderr(line);
    return 1;
  }
  for (const err of errors) {
    const msg = isStatusError(err) ? kubectlErrorMessage(err) : err instanceof Error ? err.message : String(err);
    for (const line of msg.replace(/\n$/, '').split('\n')) io.stderr(line);
  }
  return 1;
}

function printError(io: CommandIO, err: unknown): number {
  return printErrors(io, [err]);
}

/** "Deployment.apps" / "Pod": schema.GroupKind.String(). */
function groupKindString(rt: ResourceType): string {
  return rt.group ? `${rt.kind}.${rt.group}` : rt.kind;
}

// ------------------------------------------------------------------ run

async function runGet(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): Promise<number> {
  const o = options(env, flags);

  const raw = str(flags, 'raw');
  if (raw) {
    if (args.length > 0) return printError(io, new CommandError('arguments may not be passed when --raw is specified'));
    return getRaw(raw, io);
  }

  if (o.watch && o.sortBy) io.stderr('warning: --watch requested, --sort-by will be ignored for watch events received');
  else if (o.watchOnly && o.sortBy) io.stderr('warning: --watch-only requested, --sort-by will be ignored');
  else if (!o.watch && !o.watchOnly && args.length === 0 && o.filenames.length === 0 && !str(flags, 'kustomize')) {
    io.stderr('You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.');
    io.stderr('');
    io.stderr('error: Required resource not specified.');
    io.stderr('Use "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).');
    io.stderr("See 'kubectl get -h' for help and examples");
    return 1;
  }

  // Validate
  if (o.showLabels && o.output !== '' && o.output !== 'wide') return printError(io, new CommandError(`--show-labels option cannot be used with ${o.output} printer`));
  if (o.outputWatchEvents && !(o.watch || o.watchOnly)) return printError(io, new CommandError('--output-watch-events option can only be used with --watch or --watch-only'));
  if (str(flags, 'kustomize')) return printError(io, new CommandError('kustomize is not supported in kubeplay; use -f'));

  if (o.watch || o.watchOnly) return watch(env, o, args, io);

  let resolved: Visits;
  try {
    resolved = resolveVisits(env, o, args, false, (m) => io.stderr(m));
  } catch (err) {
    return printError(io, err);
  }

  const errors: unknown[] = [...resolved.errors];
  const keep = (err: unknown): void => {
    if (o.ignoreNotFound && isNotFound(err)) return;
    errors.push(err);
  };

  if (!o.isHumanReadable) return printGeneric(env, o, resolved, errors, keep, io);

  // Human-readable: one Table per visit (a list, or one named object).
  const infos: { visit: Visit; table?: Table; objects?: KubeObject[] }[] = [];
  for (const visit of resolved.visits) {
    try {
      if (o.serverPrint) infos.push({ visit, table: fetchTable(env, visit, o) });
      else infos.push({ visit, objects: fetchObjects(env, visit, o).objects });
    } catch (err) {
      keep(enhanceListError(err, visit, o));
    }
  }
  const printWithKind = new Set(infos.map((i) => `${i.visit.rt.group}/${i.visit.rt.version}/${i.visit.rt.kind}`)).size > 1;

  // RuntimeSorter: with several responses kubectl sorts the responses themselves (the Table objects) by the field.
  if (o.sortBy && infos.length > 1) {
    try {
      const order = sortObjects(infos.map((info, i) => ({ ...((info.table ?? { items: info.objects }) as unknown as KubeObject), __index: i }) as unknown as KubeObject), o.sortBy);
      const sorted = order.map((t) => infos[(t as unknown as { __index: number }).__index]);
      infos.splice(0, infos.length, ...sorted);
    } catch (err) {
      return printError(io, err);
    }
  }

  const lines = new LineWriter((line) => io.stdout(line));
  let separatorReady = false;
  const out = (text: string): void => {
    if (text && separatorReady) {
      lines.write('\n');
      separatorReady = false;
    }
    lines.write(text);
  };
  const w = newTabWriter(out);
  let printer: HumanReadablePrinter | undefined;
  let lastResource: string | undefined;
  let allResourcesNamespaced = !o.allNamespaces;
  for (const info of infos) {
    const rt = info.visit.rt;
    allResourcesNamespaced = allResourcesNamespaced && rt.namespaced;
    const resourceKey = `${rt.group}/${rt.version}/${rt.resource}`;
    if (!printer || lastResource !== resourceKey) {
      w.flush();
      w.setRememberedWidths(null);
      if (lastResource !== undefined && !o.noHeaders && lines.written > 0) separatorReady = true;
      printer = new HumanReadablePrinter({
        noHeaders: o.noHeaders,
        wide: o.output === 'wide',
        withNamespace: o.allNamespaces && rt.namespaced,
        withKind: printWithKind || o.showKind,
        kind: groupKindString(rt),
        columnLabels: o.labelColumns,
        showLabels: o.showLabels,
      });
      lastResource = resourceKey;
    }
    // The SortingPrinter's errors are lost in kubectl (get ignores PrintObj's error): the table is not printed.
    if (o.sortBy) {
      try {
        if (info.table) sortTableRows(info.table, o.sortBy);
        else if (info.objects && info.objects.length > 0) info.objects = sortObjects(info.objects, o.sortBy);
      } catch {
        continue;
      }
    }
    if (info.table) printer.printTable(info.table, w);
    else printer.printObjectMeta(info.objects ?? [], env.clock.now(), w, humanDuration);
  }
  w.flush();
  lines.close();
  if (lines.written === 0 && !o.ignoreNotFound && errors.length === 0) {
    io.stderr(allResourcesNamespaced ? `No resources found in ${o.namespace} namespace.` : 'No resources found');
  }
  return printErrors(io, errors);
}

/** printGeneric: json, yaml, name, jsonpath, custom-columns — several objects are printed as one List. */
function printGeneric(env: KubectlEnv, o: GetOptions, resolved: Visits, errors: unknown[], keep: (err: unknown) => void, io: CommandIO): number {
  const objects: KubeObject[] = [];
  const singleItemImplied = resolved.singleItemImplied;
  for (const visit of resolved.visits) {
    try {
      objects.push(...fetchObjects(env, visit, o).objects);
    } catch (err) {
      const e = enhanceListError(err, visit, o);
      if (singleItemImplied && !(o.ignoreNotFound && isNotFound(e))) return printError(io, e);
      keep(e);
    }
  }
  if (objects.length === 0 && o.ignoreNotFound) return printErrors(io, errors);

  let printer: ObjectPrinter | undefined;
  try {
    printer = printerFor(
      {
        output: o.output,
        template: o.template,
        noHeaders: o.noHeaders,
        showManagedFields: o.showManagedFields,
        allowMissingTemplateKeys: o.allowMissingTemplateKeys,
      },
      getAllowedFormats,
    );
  } catch (err) {
    return printError(io, err);
  }
  if (!printer) return printErrors(io, errors);

  const lines = new LineWriter((line) => io.stdout(line));
  const out = (text: string): void => lines.write(text);
  try {
    if (!singleItemImplied || objects.length !== 1) {
      const items = o.sortBy ? sortObjects(objects, o.sortBy) : objects;
      printer.printObj(asList(items), out);
    } else {
      printer.printObj(objects[0], out);
    }
    printer.flush?.(out);
  } catch (err) {
    lines.close();
    errors.push(err);
    return printErrors(io, errors);
  }
  lines.close();
  return printErrors(io, errors);
}

/** --raw: the few non-resource paths the playground's server answers. */
function getRaw(path: string, io: CommandIO): number {
  if (!path.startsWith('/')) return printError(io, new CommandError(`--raw must be a valid URL path: parse "${path}": invalid URI for request`));
  if (['/healthz', '/livez', '/readyz'].includes(path.split('?')[0])) {
    io.stdout('ok');
    return 0;
  }
  return printError(io, new CommandError(`--raw ${path} is not supported in kubeplay; use kubectl get with a resource type`));
}

// ------------------------------------------------------------------ watch

/**
 * kubectl get -w: list (or get) and print, then watch from that resourceVersion and print each change as it comes
 * (--watch-only: only the changes). A watch of one named object starts at "0" and skips the synthetic ADDED event
 * of the object it already printed. Ends on Ctrl+C (exit 1, as kubectl's interrupt handler exits).
 */
async function watch(env: KubectlEnv, o: GetOptions, args: string[], io: CommandIO): Promise<number> {
  let resolved: Visits;
  try {
    resolved = resolveVisits(env, o, args, true, (m) => io.stderr(m));
  } catch (err) {
    return printError(io, err);
  }
  if (resolved.errors.length) return printErrors(io, resolved.errors);
  if (resolved.visits.length === 0) return printError(io, new CommandError(missingResourceMessage));
  const kinds = new Set(resolved.visits.map((v) => `${v.rt.group}/${v.rt.version}/${v.rt.kind}`));
  if (kinds.size > 1) return printError(io, new CommandError('watch is only supported on individual resources and resource collections - more than 1 resource was found'));
  const visit = resolved.visits[0];
  const rt = visit.rt;
  const useTable = o.isHumanReadable && o.serverPrint;

  let generic: ObjectPrinter | undefined;
  try {
    generic = useTable ? undefined : printerFor({ output: o.output, template: o.template, noHeaders: o.noHeaders, showManagedFields: o.showManagedFields, allowMissingTemplateKeys: o.allowMissingTemplateKeys });
  } catch (err) {
    return printError(io, err);
  }
  const human = new HumanReadablePrinter({
    noHeaders: o.noHeaders,
    wide: o.output === 'wide',
    withNamespace: o.allNamespaces && rt.namespaced,
    withKind: o.showKind,
    kind: groupKindString(rt),
    columnLabels: o.labelColumns,
    showLabels: o.showLabels,
  });
  const lines = new LineWriter((line) => io.stdout(line));
  const w = newTabWriter((text) => lines.write(text));
  let outputObjects = !o.watchOnly;

  /** Prints one Table or object (skipPrinter: rows suppressed, columns kept, while outputObjects is false). */
  const print = (obj: KubeObject | Table, eventType?: string): void => {
    if ((obj as Table).kind === 'Table') {
      const table = obj as Table;
      human.printTable(outputObjects ? table : { ...table, rows: [] }, w, o.outputWatchEvents ? eventType : undefined);
    } else if (outputObjects) {
      if (generic) {
        const body = o.outputWatchEvents ? ({ type: eventType ?? 'ADDED', object: obj } as unknown as KubeObject) : (obj as KubeObject);
        generic.printObj(body, (text) => lines.write(text));
      } else {
        human.printObjectMeta([obj as KubeObject], env.clock.now(), w, humanDuration);
      }
    }
  };

  // The initial state.
  let resourceVersion = '0';
  const isList = visit.name === undefined;
  try {
    if (useTable) {
      const table = fetchTable(env, visit, o);
      if (isList) resourceVersion = table.metadata?.resourceVersion ?? '0';
      for (const row of [table]) print(row, 'ADDED');
    } else {
      const fetched = fetchObjects(env, visit, o);
      if (isList) resourceVersion = fetched.resourceVersion ?? '0';
      for (const obj of fetched.objects) print(obj, 'ADDED');
    }
  } catch (err) {
    if (o.ignoreNotFound && isNotFound(err)) return 0;
    return printError(io, enhanceListError(err, visit, o));
  }
  w.flush();
  // Watches started from lists carry no synthetic ADDED events; one started for an object does: skip it.
  outputObjects = isList;

  return new Promise<number>((resolve) => {
    let done = false;
    let handle: { stop(): void } | undefined;
    const finish = (code: number): void => {
      if (done) return;
      done = true;
      handle?.stop();
      w.flush();
      lines.close();
      resolve(code);
    };
    const onEvents = (events: WatchEvent[]): void => {
      for (const e of events) {
        if (done) return;
        if (e.type === 'BOOKMARK') continue;
        if (e.type === 'ERROR') {
          w.flush();
          lines.close();
          const status = e.object as unknown as { reason?: string; message?: string };
          io.stderr(status.reason ? `Error from server (${status.reason}): ${status.message ?? ''}` : `Error from server: ${status.message ?? ''}`);
          finish(1);
          return;
        }
        print(e.object as KubeObject | Table, e.type);
        w.flush();
        outputObjects = true;
      }
    };
    try {
      handle = env.client.watch(
        {
          verb: Verb.Watch,
          group: rt.group,
          version: rt.version,
          resource: rt.resource,
          namespace: visit.namespace,
          options: {
            resourceVersion,
            ...(useTable ? { as: 'Table' as const } : {}),
            ...(visit.name !== undefined ? { fieldSelector: `metadata.name=${visit.name}` } : {}),
            ...(visit.name === undefined && o.labelSelector ? { labelSelector: o.labelSelector } : {}),
            ...(visit.name === undefined && o.fieldSelector ? { fieldSelector: o.fieldSelector } : {}),
          },
        },
        onEvents,
      );
    } catch (err) {
      lines.close();
      resolve(printError(io, err));
      return;
    }
    env.signal.onCancel(() => finish(1));
  });
}

// ------------------------------------------------------------------ the command

export const getCommand: CommandSpec = {
  path: ['get'],
  use: 'get [(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags]',
  short: 'Display one or many resources',
  long: `Display one or many resources.

 Prints a table of the most important information about the specified resources. You can filter the list using a label selector and the --selector flag. If the desired resource type is namespaced you will only see results in the current namespace if you don't specify any namespace.

 By specifying the output as 'template' and providing a Go template as the value of the --template flag, you can filter the attributes of the fetched resources.

Use "kubectl api-resources" for a complete list of supported resources.`,
  example: `  # List all pods in ps output format
  kubectl get pods
  
  # List all pods in ps output format with more information (such as node name)
  kubectl get pods -o wide
  
  # List a single replication controller with specified NAME in ps output format
  kubectl get replicationcontroller web
  
  # List deployments in JSON output format, in the "v1" version of the "apps" API group
  kubectl get deployments.v1.apps -o json
  
  # List a single pod in JSON output format
  kubectl get -o json pod web-pod-13je7
  
  # List a pod identified by type and name specified in "pod.yaml" in JSON output format
  kubectl get -f pod.yaml -o json
  
  # List resources from a directory with kustomization.yaml - e.g. dir/kustomization.yaml
  kubectl get -k dir/
  
  # Return only the phase value of the specified pod
  kubectl get -o template pod/web-pod-13je7 --template={{.status.phase}}
  
  # List resource information in custom columns
  kubectl get pod test-pod -o custom-columns=CONTAINER:.spec.containers[0].name,IMAGE:.spec.containers[0].image
  
  # List all replication controllers and services together in ps output format
  kubectl get rc,services
  
  # List one or more resources by their type and names
  kubectl get rc/web service/frontend pods/web-pod-13je7
  
  # List the 'status' subresource for a single pod
  kubectl get pod web-pod-13je7 --subresource status
  
  # List all deployments in namespace 'backend'
  kubectl get deployments.apps --namespace backend
  
  # List all pods existing in all namespaces
  kubectl get pods --all-namespaces`,
  flags: getFlags,
  run: runGet,
};
