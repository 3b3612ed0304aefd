// kubectl set image (k8s.io/kubectl v0.32.4 pkg/cmd/set/set_image.go): CONTAINER=IMAGE pairs applied to the
// containers and init containers of each object's pod template (`*` for all), sent as a strategic merge patch
// with the kubectl-set field manager: `deployment.apps/nginx image updated`. A name no container has gives
// `error: unable to find container named "x"`; an unchanged image prints nothing.
import type { Container } from 'kubernetes-types/core/v1';
import type { CommandSpec } from '../cli/command';
import { PatchType } from '../../shared/api/request';
import type { KubeObject } from '../../shared/api/types';
import { AggregateError, checkErr, messageOf } from '../rollout/check-err';
import { boolFlag, DryRun, dryRunFlag, dryRunStrategy, fieldManagerFlag, filenameFlags, printFlags, selectorFlag, stringFlag, stringListFlag } from '../rollout/flags';
import { calculatePatch, isEmptyPatch } from '../rollout/patch';
import { podSpecOf } from '../rollout/pod-spec';
import { toPrinter, type ObjectPrinter } from '../rollout/print';
import { changeCause, recordChangeCause, recordFlag, warnRecordDeprecated } from '../rollout/record';
import { resolveTargets, type Resolved } from '../rollout/target';

export const localResourceError = `error: you must specify resources by --filename when --local is set.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'`;

export const setImageCommand: CommandSpec = {
  path: ['set', 'image'],
  use: 'image (-f FILENAME | TYPE NAME) CONTAINER_NAME_1=CONTAINER_IMAGE_1 ... CONTAINER_NAME_N=CONTAINER_IMAGE_N',
  short: 'Update the image of a pod template',
  long: `Update existing container image(s) of resources.

 Possible resources include (case insensitive):

        pod (po), replicationcontroller (rc), deployment (deploy), daemonset (ds), statefulset (sts), cronjob (cj), replicaset (rs)`,
  example: `  # Set a deployment's nginx container image to 'nginx:1.9.1', and its busybox container image to 'busybox'
  kubectl set image deployment/nginx busybox=busybox nginx=nginx:1.9.1
  
  # Update all deployments' and rc's nginx container's image to 'nginx:1.9.1'
  kubectl set image deployments,rc nginx=nginx:1.9.1 --all
  
  # Update image of all containers of daemonset abc to 'nginx:1.9.1'
  kubectl set image daemonset abc *=nginx:1.9.1
  
  # Print result (in yaml format) of updating nginx container image from local file, without hitting the server
  kubectl set image -f path/to/file.yaml nginx=nginx:1.9.1 --local -o yaml`,
  flags: [
    { name: 'all', type: 'bool', default: false, usage: 'Select all resources, in the namespace of the specified resource types' },
    dryRunFlag,
    fieldManagerFlag('kubectl-set'),
    ...filenameFlags('identifying the resource to get from a server.'),
    { name: 'local', type: 'bool', default: false, usage: 'If true, set image will NOT contact api-server but run locally.' },
    recordFlag,
    selectorFlag,
    ...printFlags,
  ],
  run(env, args, flags, io) {
    warnRecordDeprecated(flags, io);
    const all = boolFlag(flags, 'all');
    const selector = stringFlag(flags, 'selector');
    const local = boolFlag(flags, 'local');
    let dryRun: DryRun;
    let printer: ObjectPrinter;
    let resources: string[];
    let images: Map<string, string>;
    let resolved: Resolved;
    // Complete: the printer, the arguments, then the objects (any lookup error ends the command).
    try {
      dryRun = dryRunStrategy(flags);
      printer = toPrinter(io, flags, 'image updated', dryRun);
      ({ resources, pairs: images } = resourcesAndPairs(args, 'image'));
      // --local works on -f files only: resource arguments would need the server.
      if (local && resources.length > 0) throw new Error(localResourceError);
      resolved = resolveTargets(env, resources, { allowEmptySelector: all, all, selector, filenames: stringListFlag(flags, 'filename'), local });
      if (resolved.errors.length > 0) throw new AggregateError(resolved.errors);
    } catch (err) {
      return checkErr(io, err);
    }
    // Validate.
    const invalid: Error[] = [];
    if (all && selector) invalid.push(new Error('cannot set --all and --selector at the same time'));
    if (resources.length < 1 && stringListFlag(flags, 'filename').length === 0) {
      invalid.push(new Error('one or more resources must be specified as <resource> <name> or <resource>/<name>'));
    }
    if (images.size < 1) invalid.push(new Error('at least one image update is required'));
    else if (images.size > 1 && images.has('*')) invalid.push(new Error('all containers are already specified by *, but saw more than one container_name=container_image pairs'));
    if (local && dryRun === DryRun.Server) invalid.push(new Error('cannot specify --local and --dry-run=server - did you mean --dry-run=client?'));
    if (invalid.length > 0) return checkErr(io, new AggregateError(invalid));

    const cause = flags.get('record') === true ? changeCause(setImageCommand, env, args, flags) : undefined;
    const allErrs: unknown[] = [];
    const patches = resolved.targets.map((t) =>
      calculatePatch(t, (obj) => {
        const spec = podSpecOf(obj);
        for (const [name, image] of images) {
          const initFound = setImage(spec.initContainers, name, image);
          const found = setImage(spec.containers, name, image);
          if (!found && !initFound) allErrs.push(new Error(`error: unable to find container named ${JSON.stringify(name)}`));
        }
        recordChangeCause(obj, cause);
      }),
    );
    const fieldManager = stringFlag(flags, 'field-manager') || 'kubectl-set';
    for (const p of patches) {
      const { rt, name, namespace } = p.target;
      if (p.err !== undefined) {
        allErrs.push(new Error(`error: ${rt.resource}/${name} ${messageOf(p.err)}\n`));
        continue;
      }
      if (isEmptyPatch(p.patch)) continue;
      if (local || dryRun === DryRun.Client) {
        printer.print(rt, p.after!);
        continue;
      }
      let actual: KubeObject;
      try {
        actual = env.client
          .resource({ group: rt.group, version: rt.version, resource: rt.resource })
          .patch(name, PatchType.StrategicMergePatch, p.patch, { namespace, fieldManager, dryRun: dryRun === DryRun.Server });
      } catch (err) {
        allErrs.push(new Error(`failed to patch image update to pod template: ${messageOf(err)}`));
        continue;
      }
      printer.print(rt, actual);
    }
    return allErrs.length > 0 ? checkErr(io, new AggregateError(allErrs)) : 0;
  },
};

function setImage(containers: Container[] | undefined, name: string, image: string): boolean {
  let found = false;
  for (const c of containers ?? []) {
    if (c.name === name || name === '*') {
      found = true;
      c.image = image;
    }
  }
  return found;
}

/** cmdutil.GetResourcesAndPairs + ParsePairs (without removal): resources first, then NAME=VALUE pairs. */
export function resourcesAndPairs(args: readonly string[], pairType: string): { resources: string[]; pairs: Map<string, string> } {
  const resources: string[] = [];
  const pairArgs: string[] = [];
  let foundPair = false;
  for (const s of args) {
    const nonResource = (s.includes('=') && s[0] !== '=') || (s.endsWith('-') && s !== '-');
    if (nonResource) {
      foundPair = true;
      pairArgs.push(s);
    } else if (!foundPair) {
      resources.push(s);
    } else {
      throw new Error(`all resources must be specified before ${pairType} changes: ${s}`);
    }
  }
  const pairs = new Map<string, string>();
  const invalid: string[] = [];
  for (const arg of pairArgs) {
    if (arg.includes('=') && arg[0] !== '=') {
      const i = arg.indexOf('=');
      pairs.set(arg.slice(0, i), arg.slice(i + 1));
    } else {
      invalid.push(arg);
    }
  }
  if (invalid.length > 0) throw new Error(`invalid ${pairType} format: ${invalid.join(', ')}`);
  return { resources, pairs };
}
