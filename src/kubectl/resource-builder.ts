// What cli-runtime's resource.Builder does for kubectl commands: turn the command line's resource arguments
// (TYPE NAME…, TYPE/NAME…, TYPE1,TYPE2 with -l/--all, kind.group, short names, categories such as "all") and
// -f manifests into a list of ResourceInfo, with the same argument errors and texts as kubectl v1.32.
//
//   const result = buildResources(env, { args: ['deploy', 'web'], requireObject: true });
//   if (result.error) return printError(io, result.error);         // argument errors: nothing was visited
//   for (const info of result.infos) ...                              // deployment.apps web in env.namespace
//   for (const err of result.errors) ...                              // per-object errors (ContinueOnError)
//
// -f accepts "-" (the command's stdin: a heredoc pasted in the console) and "editor" (the page's editor buffer);
// any other path is `the path "x" does not exist`, as kubectl says for a missing file.
import type { Client, ResourceClient } from '../control-plane/client/client';
import type { ResourceRegistry, ResourceType } from '../shared/api/resources';
import { isStatusError, StatusReason } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';
import { parseApiVersion } from '../shared/api/types';
import { parseSelector, selectorMatches } from '../shared/lib/labels';
import { parseManifests } from '../shared/lib/yaml';
import type { KubectlEnv } from './cli/command';

/** A client-side error kubectl prints as `error: <message>` (a Go fmt.Errorf in kubectl). */
export class CommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/** One object a command acts on (cli-runtime's resource.Info). */
export interface ResourceInfo {
  rt: ResourceType;
  /** Set for namespaced types; undefined for cluster-scoped ones. */
  namespace?: string;
  name: string;
  /** The object: from the manifest (-f), the list (selector/--all), or the server (requireObject). */
  object?: KubeObject;
  /** The file it came from: "STDIN", "editor"; kubectl's `error when deleting "<source>": …`. */
  source?: string;
  /** The manifest document's own text, when it came from -f (for the server's duplicate-field report). */
  rawBody?: string;
}

export interface BuildOptions {
  /** Positional arguments: `TYPE [NAME…]`, `TYPE/NAME…`, `TYPE1,TYPE2`. */
  args?: string[];
  /** -f values. */
  filenames?: string[];
  /** -l */
  labelSelector?: string;
  /** --field-selector */
  fieldSelector?: string;
  /** --all: every object of the types given (a selector matching everything). */
  all?: boolean;
  /** -A / --all-namespaces. */
  allNamespaces?: boolean;
  /** ResourceTypeOrNameArgs(allowEmptySelector=true): a lone TYPE lists everything of that type (get). */
  allowEmptySelector?: boolean;
  /** Refuse several resource types (scale, expose…): `you may only specify a single resource type`. */
  singleResourceType?: boolean;
  /** Fetch objects named by arguments from the server (RequireObject + Latest); errors go to `errors`. */
  requireObject?: boolean;
  /** Re-read -f objects from the server (Latest): label/annotate/scale act on the live object. */
  latest?: boolean;
  /** Namespace override; default env.namespace. */
  namespace?: string;
  /** Whether the namespace was given explicitly (-n): -f objects in another namespace are refused. */
  enforceNamespace?: boolean;
}

export interface BuildResult {
  /** An argument error: nothing was visited (kubectl fails before any request). */
  error?: Error;
  infos: ResourceInfo[];
  /** Per-object errors kubectl reports and continues past (ContinueOnError). */
  errors: unknown[];
  /** Whether the arguments named single objects (TYPE NAME, TYPE/NAME, -f) rather than selecting (-l, --all). */
  targetsSingleItems: boolean;
  /** Whether exactly one object was named (kubectl's singleItemImplied). */
  singleItemImplied: boolean;
}

// ------------------------------------------------------------------ naming

/** `deployment.apps` / `pod`: the lower-cased kind and group, as the name printer shows an object. */
export function kindGroupString(rt: Pick<ResourceType, 'kind' | 'group'>): string {
  return rt.group ? `${rt.kind.toLowerCase()}.${rt.group}` : rt.kind.toLowerCase();
}

/** `deployment.apps/nginx`: what `-o name` and the success messages print. */
export function objectName(rt: Pick<ResourceType, 'kind' | 'group'>, name: string): string {
  return `${kindGroupString(rt)}/${name}`;
}

/** `deployments.apps` / `pods`: the GroupResource string of the API's messages. */
export function groupResourceOf(rt: Pick<ResourceType, 'resource' | 'group'>): string {
  return rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
}

/** The client for a type, at the version the registry maps it to. */
export function clientFor(client: Client, rt: ResourceType): ResourceClient {
  return client.resource({ group: rt.group, version: rt.version, resource: rt.resource });
}

// ------------------------------------------------------------------ resource arguments

/**
 * The RESTMapping for a resource argument (Builder.mappingFor): `pods`, `pod`, `po`, `Pod`, `deployments.apps`,
 * `deployments.v1.apps`, `deploy.apps`. Throws `the server doesn't have a resource type "x"`.
 */
export function mappingFor(registry: ResourceRegistry, arg: string): ResourceType {
  const lower = arg.toLowerCase();
  const parts = lower.split('.');
  // resource.version.group (schema.ParseResourceArg's fully specified form) first.
  if (parts.length >= 3) {
    const [resource, version, ...group] = parts;
    const match = registry
      .resolve(`${resource}.${group.join('.')}`)
      .find((t) => t.group === group.join('.') && (t.version === version || t.alsoServedAt?.includes(version)));
    if (match) return match.version === version ? match : { ...match, version };
  }
  const found = registry.resolve(lower).filter((t) => parts.length === 1 || t.group === parts.slice(1).join('.') || t.group.startsWith(`${parts.slice(1).join('.')}.`));
  if (found.length > 0) return found[0];
  throw new CommandError(`the server doesn't have a resource type ${JSON.stringify(parts[0])}`);
}

/** Categories (`all`) expand to their resources in discovery order; other names stay as they are. */
export function expandCategories(registry: ResourceRegistry, typeArg: string): string[] {
  const out: string[] = [];
  for (const part of typeArg.split(',')) {
    const members = registry.all().filter((t) => t.categories.includes(part.toLowerCase()));
    if (members.length > 0 && registry.resolve(part).length === 0) out.push(...members.map((t) => (t.group ? `${t.resource}.${t.group}` : t.resource)));
    else out.push(part);
  }
  return out;
}

function splitResourceArgument(arg: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of arg.split(',')) {
    if (s && !seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  }
  return out;
}

interface Tuple {
  resource: string;
  name: string;
}

function splitResourceTypeName(s: string): Tuple | undefined {
  if (!s.includes('/')) return undefined;
  const seg = s.split('/');
  if (seg.length !== 2) throw new CommandError('arguments in resource/name form may not have more than one slash');
  const [resource, name] = seg;
  if (!resource || !name || splitResourceArgument(resource).length !== 1) {
    throw new CommandError('arguments in resource/name form must have a single resource and name');
  }
  return { resource, name };
}

/** Builder.ResourceTypeOrNameArgs: resources (types), names, or resource/name tuples. */
function parseArgs(registry: ResourceRegistry, args: string[], allowEmptySelector: boolean): { resources: string[]; names: string[]; tuples: Tuple[]; selectAll: boolean } {
  const hasSlash = args.filter((a) => a.includes('/')).length;
  if (hasSlash > 0 && hasSlash !== args.length) {
    throw new CommandError(
      "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
    );
  }
  if (hasSlash > 0) return { resources: [], names: [], tuples: args.map((a) => splitResourceTypeName(a)!), selectAll: false };
  // "TYPE1,TYPE2 NAME…" means TYPE1/NAME… TYPE2/NAME… (normalizeMultipleResourcesArgs).
  if (args.length >= 2 && splitResourceArgument(args[0]).length > 1) {
    const tuples: Tuple[] = [];
    for (const resource of splitResourceArgument(args[0])) for (const name of args.slice(1)) tuples.push({ resource, name });
    return { resources: [], names: [], tuples, selectAll: false };
  }
  if (args.length === 0) return { resources: [], names: [], tuples: [], selectAll: false };
  const resources = splitResourceArgument(expandCategories(registry, args[0]).join(','));
  return { resources, names: args.slice(1), tuples: [], selectAll: args.length === 1 && allowEmptySelector };
}

export const missingResourceMessage = `You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`;

// ------------------------------------------------------------------ manifests (-f)

/** The text behind a -f value: stdin for "-", the editor buffer for "editor". */
export function readManifestSource(env: Pick<KubectlEnv, 'stdin' | 'editorBuffer' | 'files'>, filename: string): { text: string; source: string } {
  if (filename === '-') return { text: env.stdin ?? '', source: 'STDIN' };
  if (filename === 'editor' && env.editorBuffer !== undefined) return { text: env.editorBuffer, source: 'editor' };
  const file = env.files && Object.hasOwn(env.files, filename) ? env.files[filename] : undefined;
  if (file !== undefined) return { text: file, source: filename };
  throw new CommandError(`the path ${JSON.stringify(filename)} does not exist`);
}

/** One object of a manifest, mapped to its resource type (the namespace not yet defaulted). */
export interface ManifestObject {
  rt: ResourceType;
  object: KubeObject;
  source: string;
  rawBody?: string;
}

/**
 * Reads every -f value into objects, as the builder's FileVisitor + StreamVisitor + mapper do: List documents are
 * flattened, each object is mapped through the registry; documents that fail are errors (the rest still count).
 */
export function readManifests(env: Pick<KubectlEnv, 'stdin' | 'editorBuffer' | 'files' | 'registry'>, filenames: string[]): { objects: ManifestObject[]; errors: unknown[]; error?: Error } {
  const objects: ManifestObject[] = [];
  const errors: unknown[] = [];
  if (filenames.filter((f) => f === '-').length > 1) return { objects, errors, error: new CommandError('standard input cannot be used for multiple arguments') };
  for (const filename of filenames) {
    let text: string;
    let source: string;
    try {
      ({ text, source } = readManifestSource(env, filename));
    } catch (err) {
      return { objects, errors, error: err as Error };
    }
    for (const doc of parseManifests(text)) {
      if (doc.error) {
        errors.push(new CommandError(`error parsing ${source}: error converting YAML to JSON: yaml: line ${doc.error.line}: ${doc.error.message}`));
        continue;
      }
      const obj = doc.object as KubeObject;
      if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
        errors.push(new CommandError(`error validating "${source}": error validating data: invalid object to validate`));
        continue;
      }
      if (!obj.kind || typeof obj.kind !== 'string') {
        errors.push(new CommandError(`unable to decode ${JSON.stringify(source)}: Object 'Kind' is missing in '${compactJson(obj)}'`));
        continue;
      }
      if (!obj.apiVersion || typeof obj.apiVersion !== 'string') {
        errors.push(new CommandError(`unable to decode ${JSON.stringify(source)}: Object 'apiVersion' is missing in '${compactJson(obj)}'`));
        continue;
      }
      const gv = parseApiVersion(obj.apiVersion);
      const rt = env.registry.forKind({ ...gv, kind: obj.kind });
      const meta = (obj.metadata ?? {}) as { name?: string; namespace?: string };
      if (!rt) {
        errors.push(
          new CommandError(
            `resource mapping not found for name: ${JSON.stringify(meta.name ?? '')} namespace: ${JSON.stringify(meta.namespace ?? '')} from ${JSON.stringify(source)}: no matches for kind ${JSON.stringify(obj.kind)} in version ${JSON.stringify(obj.apiVersion)}\nensure CRDs are installed first`,
          ),
        );
        continue;
      }
      const item: ManifestObject = { rt, object: structuredClone(obj), source };
      // The document's own text lets the server report duplicate fields (not for List items: the source is the List).
      if (doc.duplicates?.length && doc.listItem === undefined) item.rawBody = doc.source;
      objects.push(item);
    }
  }
  return { objects, errors };
}

function compactJson(obj: unknown): string {
  try {
    return JSON.stringify(obj, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  } catch {
    return String(obj);
  }
}

/**
 * Sets the namespace of a manifest object as the builder does (DefaultNamespace / RequireNamespace): namespaced
 * objects without one get the command's namespace; with -n given, another namespace is an error.
 */
export function infoForManifest(item: ManifestObject, namespace: string, enforceNamespace: boolean): ResourceInfo {
  const object = item.object;
  const name = object.metadata?.name ?? '';
  const info: ResourceInfo = { rt: item.rt, name, object, source: item.source };
  if (item.rawBody !== undefined) info.rawBody = item.rawBody;
  if (!item.rt.namespaced) return info;
  const own = object.metadata?.namespace;
  if (!own) {
    info.namespace = namespace;
    object.metadata = { ...(object.metadata ?? {}), namespace };
  } else {
    if (enforceNamespace && own !== namespace) {
      throw new CommandError(
        `the namespace from the provided object ${JSON.stringify(own)} does not match the namespace ${JSON.stringify(namespace)}. You must pass '--namespace=${own}' to perform this operation.`,
      );
    }
    info.namespace = own;
  }
  return info;
}

// ------------------------------------------------------------------ the builder

/** Runs the builder: validates the combination of arguments, then visits (lists, reads, fetches) the objects. */
export function buildResources(env: KubectlEnv, options: BuildOptions): BuildResult {
  const result: BuildResult = { infos: [], errors: [], targetsSingleItems: true, singleItemImplied: false };
  const namespace = options.allNamespaces ? '' : (options.namespace ?? env.namespace);
  const enforceNamespace = options.enforceNamespace ?? env.namespaceExplicit;
  const filenames = options.filenames ?? [];
  let parsed: ReturnType<typeof parseArgs>;
  try {
    // SelectAllParam after LabelSelectorParam/FieldSelectorParam, as kubectl's commands call them.
    if (options.all && (options.labelSelector || options.fieldSelector)) throw new CommandError("setting 'all' parameter but found a non empty selector. ");
    parsed = parseArgs(env.registry, options.args ?? [], options.allowEmptySelector ?? false);
  } catch (err) {
    return { ...result, error: err as Error };
  }
  const { resources, names, tuples } = parsed;
  const labelSelector = options.all || parsed.selectAll ? (options.labelSelector ?? '') : options.labelSelector;
  const selecting = labelSelector !== undefined || options.fieldSelector !== undefined;

  const fail = (message: string): BuildResult => ({ ...result, error: new CommandError(message) });

  // visit items specified by paths
  if (filenames.length > 0) {
    result.singleItemImplied = filenames.length === 1 && !filenames.includes('-');
    if (resources.length > 0) return fail('when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well');
    if (names.length > 0) return fail('name cannot be provided when a path is specified');
    if (tuples.length > 0) return fail('resource/name arguments cannot be provided when a path is specified');
    const read = readManifests(env, filenames);
    if (read.error) return { ...result, error: read.error };
    result.errors.push(...read.errors);
    for (const item of read.objects) {
      try {
        const info = infoForManifest(item, options.namespace ?? env.namespace, enforceNamespace);
        // -l filters -f objects client-side (the builder's FilterByLabelSelector).
        if (options.labelSelector && !matchesSelector(info.object?.metadata?.labels ?? {}, options.labelSelector)) continue;
        if (options.latest) info.object = fetchObject(env.client, info);
        result.infos.push(info);
      } catch (err) {
        result.errors.push(withSource(err, 'getting', item.source));
      }
    }
    if (read.objects.length === 0 && read.errors.length === 0) result.singleItemImplied = false;
    return result;
  }

  // visit selectors
  if (selecting) {
    result.targetsSingleItems = false;
    if (names.length > 0) return fail('name cannot be provided when a selector is specified');
    if (tuples.length > 0) return fail('selectors and the all flag cannot be used when passing resource/name arguments');
    if (resources.length === 0) return fail('at least one resource must be specified to use a selector');
    let types: ResourceType[];
    try {
      types = uniqueMappings(env.registry, resources, options.singleResourceType ?? false);
    } catch (err) {
      return { ...result, error: err as Error };
    }
    for (const rt of types) {
      try {
        const list = clientFor(env.client, rt).list({
          namespace: rt.namespaced && namespace ? namespace : undefined,
          labelSelector: labelSelector || undefined,
          fieldSelector: options.fieldSelector || undefined,
        });
        for (const item of list.items) {
          const obj = { ...item, apiVersion: item.apiVersion ?? (rt.group ? `${rt.group}/${rt.version}` : rt.version), kind: item.kind ?? rt.kind };
          result.infos.push({ rt, namespace: rt.namespaced ? obj.metadata.namespace : undefined, name: obj.metadata.name ?? '', object: obj });
        }
      } catch (err) {
        result.errors.push(err);
      }
    }
    return result;
  }

  // visit items specified by resource and name
  if (tuples.length > 0) {
    result.singleItemImplied = tuples.length === 1;
    if (resources.length > 0) return fail('you may not specify individual resources and bulk resources in the same call');
    const mappings = new Map<string, ResourceType>();
    try {
      for (const t of tuples) if (!mappings.has(t.resource)) mappings.set(t.resource, mappingFor(env.registry, t.resource));
    } catch (err) {
      return { ...result, error: err as Error };
    }
    if (options.singleResourceType && new Set([...mappings.values()].map((rt) => `${rt.group}/${rt.resource}`)).size > 1) return fail('you may only specify a single resource type');
    for (const t of tuples) {
      const rt = mappings.get(t.resource)!;
      if (rt.namespaced && !namespace) return fail(options.allNamespaces ? 'a resource cannot be retrieved by name across all namespaces' : 'namespace may not be empty when retrieving a resource by name');
      result.infos.push({ rt, namespace: rt.namespaced ? namespace : undefined, name: t.name });
    }
    return fetchAll(env, result, options.requireObject ?? false);
  }

  // visit items specified by name
  if (names.length > 0) {
    result.singleItemImplied = names.length === 1;
    if (resources.length > 1) return fail('you must specify only one resource');
    let rt: ResourceType;
    try {
      rt = mappingFor(env.registry, resources[0]);
    } catch (err) {
      return { ...result, error: err as Error };
    }
    if (rt.namespaced && !namespace) return fail(options.allNamespaces ? 'a resource cannot be retrieved by name across all namespaces' : 'namespace may not be empty when retrieving a resource by name');
    for (const name of names) result.infos.push({ rt, namespace: rt.namespaced ? namespace : undefined, name });
    return fetchAll(env, result, options.requireObject ?? false);
  }

  if (resources.length > 0) {
    try {
      for (const r of resources) mappingFor(env.registry, r);
    } catch (err) {
      return { ...result, error: err as Error };
    }
    return fail('resource(s) were provided, but no name was specified');
  }
  return fail(missingResourceMessage);
}

function uniqueMappings(registry: ResourceRegistry, resources: string[], single: boolean): ResourceType[] {
  if (resources.length > 1 && single) throw new CommandError('you may only specify a single resource type');
  const out: ResourceType[] = [];
  for (const r of resources) {
    const rt = mappingFor(registry, r);
    if (!out.some((t) => t.group === rt.group && t.kind === rt.kind && t.version === rt.version)) out.push(rt);
  }
  return out;
}

function fetchAll(env: KubectlEnv, result: BuildResult, requireObject: boolean): BuildResult {
  if (!requireObject) return result;
  const infos: ResourceInfo[] = [];
  for (const info of result.infos) {
    try {
      info.object = fetchObject(env.client, info);
      infos.push(info);
    } catch (err) {
      result.errors.push(err);
    }
  }
  result.infos = infos;
  return result;
}

/** GETs the live object of an info (Info.Get). Throws the server's StatusError. */
export function fetchObject(client: Client, info: Pick<ResourceInfo, 'rt' | 'namespace' | 'name'>): KubeObject {
  return clientFor(client, info.rt).get(info.name, { namespace: info.rt.namespaced ? info.namespace : undefined });
}

/** cmdutil.AddSourceToErr: `error when <verb> "<source>": <message>`, keeping an API error's reason. */
export function withSource(err: unknown, verb: string, source: string | undefined): unknown {
  if (!source) return err;
  if (isStatusError(err)) {
    const copy = Object.assign(Object.create(Object.getPrototypeOf(err) as object) as typeof err, err);
    Object.defineProperty(copy, 'status', { value: { ...err.status, message: `error when ${verb} ${JSON.stringify(source)}: ${err.status.message}` } });
    Object.defineProperty(copy, 'message', { value: copy.status.message });
    return copy;
  }
  return new CommandError(`error when ${verb} ${JSON.stringify(source)}: ${err instanceof Error ? err.message : String(err)}`);
}

/** Whether an error is the API's NotFound (for --ignore-not-found). */
export function isNotFound(err: unknown): boolean {
  return isStatusError(err) && err.status.reason === StatusReason.NotFound;
}

/** A label selector (labels.Parse syntax) against a label map; an unparsable selector throws its parse error. */
export function matchesSelector(labels: Record<string, string>, selector: string): boolean {
  return selectorMatches(parseSelector(selector), labels);
}
