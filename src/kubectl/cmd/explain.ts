// kubectl explain TYPE[.FIELD…] (k8s.io/kubectl v0.32.4 pkg/cmd/explain, pkg/explain/v2): the resource's schema
// from the API server's OpenAPI v3 document — the generated schemas the server validates with, or a CRD's
// openAPIV3Schema — printed with the plaintext template: KIND/VERSION (GROUP), FIELD, DESCRIPTION, FIELDS with
// <types> and -required-; --recursive lists the whole field tree.
import { explainPathNodes, JsonPathError } from '../../control-plane/apiserver/printers/jsonpath';
import type { ResourceType } from '../../shared/api/resources';
import { Verb } from '../../shared/api/request';
import type { KubeObject } from '../../shared/api/types';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { kubectlErrorMessage } from '../cordon';
import { customResourceDocument, ExplainError, openApiV3Document, renderExplain, type OpenAPIV3Document, type Schema } from '../printers/explain';
import { CommandError } from '../resource-builder';

/** meta.NoResourceMatchError: kubectl's CheckErr prints it without the "error: " prefix. */
class NoResourceMatch extends Error {}

function fail(io: CommandIO, message: string): number {
  for (const line of message.replace(/\n$/, '').split('\n')) io.stderr(line);
  return 1;
}

function groupResource(rt: ResourceType): string {
  return rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
}

/** SplitAndParseResourceRequest(WithMatchingPrefix): the resource type and the field path after it. */
function splitResourceRequest(env: KubectlEnv, input: string, matchingPrefix: boolean): { rt: ResourceType; fieldPath: string[] } {
  let nodes: (string | null)[];
  try {
    nodes = explainPathNodes(input);
  } catch (err) {
    throw new CommandError((err as Error).message);
  }
  if (nodes.length === 0 || nodes[0] === null) throw new CommandError('invalid jsonpath syntax, first node must be field node');
  const resource = nodes[0];
  const types = env.registry.resolve(resource).filter((t) => t.resource === resource.toLowerCase() || t.singular === resource.toLowerCase() || t.shortNames.includes(resource.toLowerCase()) || t.kind.toLowerCase() === resource.toLowerCase());
  if (types.length === 0) throw new NoResourceMatch(`the server doesn't have a resource type ${JSON.stringify(resource)}`);
  const fields = (list: (string | null)[], message: string): string[] =>
    list.map((n) => {
      if (n === null) throw new CommandError(message);
      return n;
    });
  if (matchingPrefix) {
    for (const rt of types) {
      const prefix = groupResource(rt);
      if (!input.startsWith(prefix)) continue;
      const suffix = input.slice(prefix.length);
      if (!suffix) return { rt, fieldPath: [] };
      let suffixNodes: (string | null)[];
      try {
        // "{.." + ".spec" parses as recursive descent then the fields: skip that first node.
        suffixNodes = explainPathNodes(suffix);
      } catch (err) {
        throw new CommandError((err as Error).message);
      }
      return { rt, fieldPath: fields(suffixNodes.slice(1), 'invalid jsonpath syntax, first node must be field node') };
    }
    return { rt: types[0], fieldPath: fields(nodes.slice(1), 'invalid jsonpath syntax, first node must be field node') };
  }
  return { rt: types[0], fieldPath: fields(nodes.slice(1), 'invalid jsonpath syntax, all nodes must be field nodes') };
}

/** The OpenAPI v3 document the server serves for the type's group/version. */
function documentFor(env: KubectlEnv, rt: ResourceType, version: string): OpenAPIV3Document {
  if (!rt.custom) return openApiV3Document();
  let schema: Schema | undefined;
  try {
    const crd = env.client.handle<KubeObject>({
      verb: Verb.Get,
      group: 'apiextensions.k8s.io',
      version: 'v1',
      resource: 'customresourcedefinitions',
      name: `${rt.resource}.${rt.group}`,
    }).body as unknown as { spec?: { versions?: { name?: string; schema?: { openAPIV3Schema?: Schema } }[] } };
    schema = crd.spec?.versions?.find((v) => v.name === version)?.schema?.openAPIV3Schema;
  } catch {
    schema = undefined;
  }
  return customResourceDocument({ group: rt.group, version, kind: rt.kind }, schema);
}

function run(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  if (args.length === 0) return fail(io, 'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.');
  if (args.length > 1) return fail(io, 'error: We accept only this format: explain RESOURCE');
  const apiVersion = (flags.get<string>('api-version') as string | undefined) ?? '';
  const output = (flags.get<string>('output') as string | undefined) ?? 'plaintext';
  const recursive = flags.get<boolean>('recursive') === true;
  try {
    const { rt, fieldPath } = splitResourceRequest(env, args[0], apiVersion === '');
    let group = rt.group;
    let version = rt.version;
    if (apiVersion) {
      const slash = apiVersion.indexOf('/');
      if (apiVersion.split('/').length > 2) throw new CommandError(`unexpected GroupVersion string: ${apiVersion}`);
      group = slash < 0 ? '' : apiVersion.slice(0, slash);
      version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
      const served = [rt.version, ...(rt.alsoServedAt ?? [])];
      if (group !== rt.group || !served.includes(version)) {
        // schema.GroupVersionResource.String(): "/v1, Resource=pods" for the core group.
        const gvr = `${group}/${version}, Resource=${rt.resource}`;
        // The group/version's document exists, but has no such resource; or there is no such document.
        const gvServed = env.registry.all().some((t) => t.group === group && [t.version, ...(t.alsoServedAt ?? [])].includes(version));
        throw new CommandError(gvServed ? `GVR (${gvr}) not found in OpenAPI schema` : `couldn't find resource for "${gvr}"`);
      }
    }
    // plaintext-openapiv2 prints the same fields in kubeplay (there is no separate v2 document).
    if (output !== 'plaintext' && output !== 'plaintext-openapiv2') throw new CommandError(`unrecognized format: ${output}`);
    const text = renderExplain(documentFor(env, rt, version), { group, version, kind: rt.kind }, fieldPath, recursive);
    const lines = text.split('\n');
    lines.pop();
    for (const line of lines) io.stdout(line);
    return 0;
  } catch (err) {
    if (err instanceof JsonPathError) return fail(io, `error: ${err.message}`);
    if (err instanceof ExplainError) {
      const partial = err.partial.split('\n');
      partial.pop();
      for (const line of partial) io.stdout(line);
      return fail(io, err.message);
    }
    if (err instanceof NoResourceMatch) return fail(io, err.message);
    return fail(io, kubectlErrorMessage(err));
  }
}

export const explainCommand: CommandSpec = {
  path: ['explain'],
  use: 'explain TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [-o|--output=plaintext|plaintext-openapiv2]',
  short: 'Get documentation for a resource',
  long: `Describe fields and structure of various resources.

 This command describes the fields associated with each supported API resource. Fields are identified via a simple JSONPath identifier:

        <type>.<fieldName>[.<fieldName>]
        
 Information about each field is retrieved from the server in OpenAPI format.

Use "kubectl api-resources" for a complete list of supported resources.`,
  example: `  # Get the documentation of the resource and its fields
  kubectl explain pods
  
  # Get all the fields in the resource
  kubectl explain pods --recursive
  
  # Get the explanation for deployment in supported api versions
  kubectl explain deployments --api-version=apps/v1
  
  # Get the documentation of a specific field of a resource
  kubectl explain pods.spec.containers
  
  # Get the documentation of resources in different format
  kubectl explain deployment --output=plaintext-openapiv2`,
  flags: [
    { name: 'api-version', type: 'string', default: '', usage: 'Use given api-version (group/version) of the resource.' },
    { name: 'output', shorthand: 'o', type: 'string', default: 'plaintext', usage: 'Format in which to render the schema. Valid values are: (plaintext, plaintext-openapiv2).' },
    { name: 'recursive', type: 'bool', default: false, usage: 'When true, print the name of all the fields recursively. Otherwise, print the available fields with their description.' },
  ],
  run,
};
