// The resource.Builder calls of the rollout/set/edit commands (NamespaceParam().DefaultNamespace(),
// FilenameParam, LabelSelectorParam, ResourceTypeOrNameArgs, ContinueOnError, Latest, Flatten) over the shared
// builder (src/kubectl/resource-builder.ts), with every object fetched live.
//
//   resolveTargets(env, ['deployment/nginx'], { allowEmptySelector: true })
//   resolveTargets(env, ['deployments'], { all: true })    // every deployment in the namespace
//
// Builder errors (a bad argument, an unknown type) are thrown; a missing object is collected in `errors` and the
// others are still returned, as ContinueOnError does.
import type { ResourceType } from '../../shared/api/resources';
import type { KubeObject } from '../../shared/api/types';
import type { KubectlEnv } from '../cli/command';
import { buildResources, fetchObject, groupResourceOf, missingResourceMessage, objectName } from '../resource-builder';

export { missingResourceMessage, objectName };

export interface Target {
  rt: ResourceType;
  /** undefined for cluster-scoped kinds. */
  namespace?: string;
  name: string;
  /** The live object (with apiVersion and kind). */
  object: KubeObject;
}

export interface ResolveOptions {
  /** ResourceTypeOrNameArgs(allowEmptySelector): a lone TYPE selects every object of it. */
  allowEmptySelector?: boolean;
  /** -l/--selector. */
  selector?: string;
  /** --all. */
  all?: boolean;
  /** -f values ("-" for stdin, "editor" for the page's editor buffer). */
  filenames?: string[];
  /** --local: the -f objects as written, without asking the server. */
  local?: boolean;
}

export interface Resolved {
  targets: Target[];
  /** Per-object errors (NotFound, Forbidden…), printed after the others were handled. */
  errors: unknown[];
}

/** `deployments.apps`, as kubectl names a resource in its messages. */
export function resourceString(rt: Pick<ResourceType, 'resource' | 'group'>): string {
  return groupResourceOf(rt);
}

export function resolveTargets(env: KubectlEnv, args: readonly string[], options: ResolveOptions = {}): Resolved {
  const selector = options.selector?.trim() || undefined;
  const result = buildResources(env, {
    args: [...args],
    filenames: options.filenames ?? [],
    labelSelector: selector,
    all: options.all,
    allowEmptySelector: options.allowEmptySelector,
    requireObject: !options.local,
    latest: !options.local,
  });
  if (result.error) throw result.error;
  const out: Resolved = { targets: [], errors: [...result.errors] };
  for (const info of result.infos) {
    let object = info.object;
    if (!object && !options.local) {
      try {
        object = fetchObject(env.client, info);
      } catch (err) {
        out.errors.push(err);
        continue;
      }
    }
    if (!object) continue;
    const { rt } = info;
    out.targets.push({
      rt,
      namespace: rt.namespaced ? (info.namespace ?? object.metadata?.namespace) : undefined,
      name: info.name,
      object: { ...object, apiVersion: object.apiVersion ?? (rt.group ? `${rt.group}/${rt.version}` : rt.version), kind: object.kind ?? rt.kind },
    });
  }
  return out;
}
