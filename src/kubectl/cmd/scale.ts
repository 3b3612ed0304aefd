// kubectl scale --replicas=N (-f FILE | TYPE NAME… | TYPE/NAME… | -l | --all) (k8s.io/kubectl/pkg/cmd/scale and
// pkg/scale, v1.32): a merge patch of the scale subresource ({"spec":{"replicas":N}}), or — with --current-replicas
// or --resource-version — a GET of the Scale, the precondition check and a PUT. `deployment.apps/nginx scaled`.
// --timeout waits (on the virtual clock) until the Scale's status reaches the new size.
import type { Scale } from 'kubernetes-types/autoscaling/v1';
import { PatchType } from '../../shared/api/request';
import { isStatusError } from '../../shared/api/status';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { buildResources, clientFor, CommandError, type ResourceInfo } from '../resource-builder';
import { boolFlag, checkErr, DryRun, dryRunStrategy, filenames, guardedAsync, intFlag, ObjectPrinter, requireFlags, stringFlag, visitErrors } from './create-common';

export const scaleCommand: CommandSpec = {
  path: ["scale"],
  use: "scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME)",
  short: "Set a new size for a deployment, replica set, or replication controller",
  long: "Set a new size for a deployment, replica set, replication controller, or stateful set.\n\n Scale also allows users to specify one or more preconditions for the scale action.\n\n If --current-replicas or --resource-version is specified, it is validated before the scale is attempted, and it is guaranteed that the precondition holds true when the scale is sent to the server.",
  example: "  # Scale a replica set named 'foo' to 3\n  kubectl scale --replicas=3 rs/foo\n  \n  # Scale a resource identified by type and name specified in \"foo.yaml\" to 3\n  kubectl scale --replicas=3 -f foo.yaml\n  \n  # If the deployment named mysql's current size is 2, scale mysql to 3\n  kubectl scale --current-replicas=2 --replicas=3 deployment/mysql\n  \n  # Scale multiple replication controllers\n  kubectl scale --replicas=5 rc/example1 rc/example2 rc/example3\n  \n  # Scale stateful set named 'web' to 3\n  kubectl scale --replicas=3 statefulset/web",
  flags: [
    { name: "all", type: 'bool', default: false, usage: "Select all resources in the namespace of the specified resource types" },
    { name: "allow-missing-template-keys", type: 'bool', default: true, usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "current-replicas", type: 'int', default: -1, usage: "Precondition for current size. Requires that the current size of the resource match this value in order to scale. -1 (default) for no condition." },
    { name: "dry-run", type: 'string', default: "none", noOptDefault: 'unchanged', usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "filename", shorthand: "f", type: 'stringSlice', default: [], usage: "Filename, directory, or URL to files identifying the resource to set a new size" },
    { name: "output", shorthand: "o", type: 'string', default: "", usage: "Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "recursive", shorthand: "R", type: 'bool', default: false, usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "replicas", type: 'int', default: 0, usage: "The new desired number of replicas. Required." },
    { name: "resource-version", type: 'string', default: "", usage: "Precondition for resource version. Requires that the current resource version match this value in order to scale." },
    { name: "selector", shorthand: "l", type: 'string', default: "", usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints." },
    { name: "show-managed-fields", type: 'bool', default: false, usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
    { name: "timeout", type: 'duration', default: "0s", usage: "The length of time to wait before giving up on a scale operation, zero means don't wait. Any other values should contain a corresponding time unit (e.g. 1s, 2m, 3h)." },
  ],
  run: (env, args, flags, io) => guardedAsync(io, 'scale', () => runScale(env, args, flags, io)),
};

async function runScale(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): Promise<number> {
  requireFlags(flags, ['replicas']);
  const dryRun = dryRunStrategy(flags);
  const printer = ObjectPrinter.create(stringFlag(flags, 'output'), 'scaled', { dryRun, showManagedFields: boolFlag(flags, 'show-managed-fields') });
  const replicas = intFlag(flags, 'replicas', 0);
  const currentReplicas = intFlag(flags, 'current-replicas', -1);
  if (replicas < 0) throw new CommandError('The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  if (currentReplicas < -1) throw new CommandError('The --current-replicas must specify an integer of -1 or greater');

  const built = buildResources(env, {
    args,
    filenames: filenames(flags),
    all: boolFlag(flags, 'all'),
    allowEmptySelector: boolFlag(flags, 'all'),
    labelSelector: stringFlag(flags, 'selector') || undefined,
    requireObject: true,
    latest: true,
  });
  if (built.error) throw built.error;
  const infos = built.infos;
  const infoErr = built.errors.length > 0 ? visitErrors(built.errors) : undefined;
  const resourceVersion = stringFlag(flags, 'resource-version');
  if (resourceVersion && infos.length > 1) throw new CommandError('cannot use --resource-version with multiple resources');
  if (infos.length === 0) {
    if (infoErr !== undefined) throw new CommandError(`no objects passed to scale ${errorText(infoErr)}`);
    throw new CommandError('no objects passed to scale');
  }
  const timeoutMs = intFlag(flags, 'timeout', 0);
  for (const info of infos) {
    if (dryRun !== DryRun.Client) {
      scaleSimple(env, info, replicas, currentReplicas, resourceVersion, dryRun === DryRun.Server);
      if (timeoutMs > 0 && dryRun === DryRun.None) {
        const synced = await waitForDesiredReplicas(env, info, replicas, timeoutMs);
        if (synced === 'cancelled') return 130;
        if (!synced) throw new CommandError(`timed out waiting for ${JSON.stringify(info.name)} to be synced`);
      }
    }
    printer.print(io, info.object!);
  }
  if (infoErr !== undefined) return checkErr(io, infoErr);
  return 0;
}

function errorText(err: unknown): string {
  if (Array.isArray(err)) return `[${err.map(errorText).join(', ')}]`;
  return err instanceof Error ? err.message : String(err);
}

/** genericScaler.ScaleSimple: a PUT after checking the preconditions, else a merge patch of the scale subresource. */
function scaleSimple(env: KubectlEnv, info: ResourceInfo, replicas: number, currentReplicas: number, resourceVersion: string, dryRun: boolean): void {
  const client = clientFor(env.client, info.rt);
  const namespace = info.rt.namespaced ? info.namespace : undefined;
  if (currentReplicas !== -1 || resourceVersion) {
    const scale = client.getScale(info.name, { namespace });
    const current = scale.spec?.replicas ?? 0;
    if (currentReplicas !== -1 && current !== currentReplicas) throw new CommandError(`Expected replicas to be ${currentReplicas}, was ${current}`);
    if (resourceVersion && scale.metadata?.resourceVersion !== resourceVersion) throw new CommandError(`Expected resource version to be ${resourceVersion}, was ${scale.metadata?.resourceVersion ?? ''}`);
    const updated: Scale = { ...scale, spec: { ...scale.spec, replicas } };
    client.updateScale(info.name, updated, { namespace, dryRun });
    return;
  }
  client.patch(info.name, PatchType.MergePatch, { spec: { replicas } }, { namespace, subresource: 'scale', ...(dryRun ? { dryRun: true } : {}) });
}

/** WaitForScaleHasDesiredReplicas: polls the Scale every second (immediately first) until status matches. */
function waitForDesiredReplicas(env: KubectlEnv, info: ResourceInfo, desired: number, timeoutMs: number): Promise<boolean | 'cancelled'> {
  const client = clientFor(env.client, info.rt);
  const namespace = info.rt.namespaced ? info.namespace : undefined;
  const deadline = env.clock.now() + timeoutMs;
  const synced = (): boolean => {
    const scale = client.getScale(info.name, { namespace });
    if ((scale.spec?.replicas ?? 0) !== desired) return true;
    return (scale.status?.replicas ?? 0) === desired;
  };
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof env.clock.setTimer> | undefined;
    let done = false;
    env.signal.onCancel(() => {
      if (done) return;
      done = true;
      env.clock.clearTimer(timer);
      resolve('cancelled');
    });
    const poll = () => {
      if (done) return;
      try {
        if (synced()) {
          done = true;
          resolve(true);
          return;
        }
      } catch (err) {
        done = true;
        reject(isStatusError(err) ? err : new CommandError(String(err)));
        return;
      }
      if (env.clock.now() + 1000 > deadline) {
        done = true;
        resolve(false);
        return;
      }
      timer = env.clock.setTimer(1000, poll, 'kubectl scale --timeout poll');
    };
    poll();
  });
}
