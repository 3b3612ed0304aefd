// kubectl run NAME --image=IMAGE (k8s.io/kubectl v0.32.4 pkg/cmd/run + pkg/generate/versioned/run.go BasicPod):
// one pod whose single container is named after it, labelled run=NAME unless --labels, with --env, --port,
// --restart, --command/args, --overrides; created with the kubectl-run field manager: `pod/nginx created`.
// Attaching (-i, -t, --attach, --rm) needs a terminal into the container, which this console does not have.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import type { KubeObject } from '../../shared/api/types';
import { isEnvVarName } from '../../shared/lib/validation';
import { applyMergePatch } from '../../control-plane/apiserver/patch/json-merge-patch';
import { applyStrategicMergePatch } from '../../control-plane/apiserver/patch/strategic-merge-patch';
import { applyJsonPatch, decodeJsonPatch } from '../../control-plane/apiserver/patch/json-patch';
import { builtinSchemaHints } from '../../control-plane/apiserver/patch/list-types';
import { withLastApplied } from '../apply';
import { checkErr, messageOf } from '../rollout/check-err';
import { boolFlag, DryRun, dryRunFlag, dryRunStrategy, fieldManagerFlag, printFlags, stringFlag, stringListFlag } from '../rollout/flags';
import { toPrinter } from '../rollout/print';
import { changeCause, recordChangeCause, recordFlag } from '../rollout/record';
import { resourcesAndPairs } from './set-image';

const podType = { kind: 'Pod', group: '' };

export const runPodCommand: CommandSpec = {
  path: ['run'],
  use: 'run NAME --image=image [--env="key=value"] [--port=port] [--dry-run=server|client] [--overrides=inline-json] [--command] -- [COMMAND] [args...]',
  short: 'Run a particular image on the cluster',
  long: 'Create and run a particular image in a pod.',
  example: `  # Start a nginx pod
  kubectl run nginx --image=nginx
  
  # Start a hazelcast pod and let the container expose port 5701
  kubectl run hazelcast --image=hazelcast/hazelcast --port=5701
  
  # Start a hazelcast pod and set environment variables "DNS_DOMAIN=cluster" and "POD_NAMESPACE=default" in the container
  kubectl run hazelcast --image=hazelcast/hazelcast --env="DNS_DOMAIN=cluster" --env="POD_NAMESPACE=default"
  
  # Start a hazelcast pod and set labels "app=hazelcast" and "env=prod" in the container
  kubectl run hazelcast --image=hazelcast/hazelcast --labels="app=hazelcast,env=prod"
  
  # Dry run; print the corresponding API objects without creating them
  kubectl run nginx --image=nginx --dry-run=client
  
  # Start a nginx pod, but overload the spec with a partial set of values parsed from JSON
  kubectl run nginx --image=nginx --overrides='{ "apiVersion": "v1", "spec": { ... } }'
  
  # Start a busybox pod and keep it in the foreground, don't restart it if it exits
  kubectl run -i -t busybox --image=busybox --restart=Never
  
  # Start the nginx pod using the default command, but use custom arguments (arg1 .. argN) for that command
  kubectl run nginx --image=nginx -- <arg1> <arg2> ... <argN>
  
  # Start the nginx pod using a different command and custom arguments
  kubectl run nginx --image=nginx --command -- <cmd> <arg1> ... <argN>`,
  flags: [
    { name: 'annotations', type: 'stringArray', default: [], usage: 'Annotations to apply to the pod.' },
    {
      name: 'attach',
      type: 'bool',
      default: false,
      usage:
        "If true, wait for the Pod to start running, and then attach to the Pod as if 'kubectl attach ...' were called.  Default false, unless '-i/--stdin' is set, in which case the default is true. With '--restart=Never' the exit code of the container process is returned.",
    },
    {
      name: 'cascade',
      type: 'string',
      default: 'background',
      noOptDefault: 'background',
      usage:
        'Must be "background", "orphan", or "foreground". Selects the deletion cascading strategy for the dependents (e.g. Pods created by a ReplicationController). Defaults to background.',
    },
    { name: 'command', type: 'bool', default: false, usage: "If true and extra arguments are present, use them as the 'command' field in the container, rather than the 'args' field which is the default." },
    dryRunFlag,
    { name: 'env', type: 'stringArray', default: [], usage: 'Environment variables to set in the container.' },
    { name: 'expose', type: 'bool', default: false, usage: 'If true, create a ClusterIP service associated with the pod.  Requires `--port`.' },
    fieldManagerFlag('kubectl-run'),
    { name: 'filename', shorthand: 'f', type: 'stringSlice', default: [], usage: 'to use to replace the resource.' },
    {
      name: 'force',
      type: 'bool',
      default: false,
      usage:
        'If true, immediately remove resources from API and bypass graceful deletion. Note that immediate deletion of some resources may result in inconsistency or data loss and requires confirmation.',
    },
    {
      name: 'grace-period',
      type: 'int',
      default: -1,
      usage: 'Period of time in seconds given to the resource to terminate gracefully. Ignored if negative. Set to 1 for immediate shutdown. Can only be set to 0 when --force is true (force deletion).',
    },
    { name: 'image', type: 'string', default: '', usage: 'The image for the container to run.' },
    { name: 'image-pull-policy', type: 'string', default: '', usage: 'The image pull policy for the container.  If left empty, this value will not be specified by the client and defaulted by the server.' },
    { name: 'kustomize', shorthand: 'k', type: 'string', default: '', usage: "Process a kustomization directory. This flag can't be used together with -f or -R." },
    { name: 'labels', shorthand: 'l', type: 'string', default: '', usage: 'Comma separated labels to apply to the pod. Will override previous values.' },
    {
      name: 'leave-stdin-open',
      type: 'bool',
      default: false,
      usage: 'If the pod is started in interactive mode or with stdin, leave stdin open after the first attach completes. By default, stdin will be closed after the first attach completes.',
    },
    { name: 'override-type', type: 'string', default: 'merge', usage: 'The method used to override the generated object: json, merge, or strategic.' },
    {
      name: 'overrides',
      type: 'string',
      default: '',
      usage: 'An inline JSON override for the generated object. If this is non-empty, it is used to override the generated object. Requires that the object supply a valid apiVersion field.',
    },
    { name: 'pod-running-timeout', type: 'duration', default: '1m0s', usage: 'The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod is running' },
    { name: 'port', type: 'string', default: '', usage: 'The port that this container exposes.' },
    { name: 'privileged', type: 'bool', default: false, usage: 'If true, run the container in privileged mode.' },
    { name: 'quiet', shorthand: 'q', type: 'bool', default: false, usage: 'If true, suppress prompt messages.' },
    recordFlag,
    {
      name: 'recursive',
      shorthand: 'R',
      type: 'bool',
      default: false,
      usage: 'Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory.',
    },
    { name: 'restart', type: 'string', default: 'Always', usage: 'The restart policy for this Pod.  Legal values [Always, OnFailure, Never].' },
    { name: 'rm', type: 'bool', default: false, usage: "If true, delete the pod after it exits.  Only valid when attaching to the container, e.g. with '--attach' or with '-i/--stdin'." },
    {
      name: 'save-config',
      type: 'bool',
      default: false,
      usage:
        'If true, the configuration of current object will be saved in its annotation. Otherwise, the annotation will be unchanged. This flag is useful when you want to perform kubectl apply on this object in the future.',
    },
    { name: 'stdin', shorthand: 'i', type: 'bool', default: false, usage: 'Keep stdin open on the container in the pod, even if nothing is attached.' },
    { name: 'timeout', type: 'duration', default: '0s', usage: 'The length of time to wait before giving up on a delete, zero means determine a timeout from the size of the object' },
    { name: 'tty', shorthand: 't', type: 'bool', default: false, usage: 'Allocate a TTY for the container in the pod.' },
    { name: 'wait', type: 'bool', default: false, usage: 'If true, wait for resources to be gone before returning. This waits for finalizers.' },
    ...printFlags,
  ],
  run: (env, args, flags, io) => runPod(env, args, flags, io),
};

function usageError(io: CommandIO, message: string): number {
  io.stderr(`error: ${message}`);
  io.stderr("See 'kubectl run -h' for help and examples");
  return 1;
}

function runPod(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  const image = stringFlag(flags, 'image');
  // cobra's MarkFlagRequired("image") is checked before the command runs.
  if (!flags.changed('image')) return checkErr(io, new Error('required flag(s) "image" not set'));
  if (args.length === 0) return usageError(io, 'NAME is required for run');
  if (image === '') return checkErr(io, new Error('--image is required'));
  if (!referenceRegexp.test(image)) return checkErr(io, new Error(`Invalid image name ${JSON.stringify(image)}: invalid reference format`));
  const interactive = boolFlag(flags, 'stdin');
  const tty = boolFlag(flags, 'tty');
  const attach = boolFlag(flags, 'attach') || interactive;
  if (tty && !interactive) return usageError(io, '-i/--stdin is required for containers with -t/--tty=true');
  if (boolFlag(flags, 'expose') && !stringFlag(flags, 'port')) return usageError(io, '--port must be set when exposing a service');
  const restart = flags.changed('restart') ? stringFlag(flags, 'restart') : interactive ? 'OnFailure' : 'Always';
  if (!['Always', 'OnFailure', 'Never', ''].includes(restart)) return usageError(io, `invalid restart policy: ${restart}`);
  if (!attach && boolFlag(flags, 'rm')) return usageError(io, '--rm should only be used for attached containers');
  let dryRun: DryRun;
  try {
    dryRun = dryRunStrategy(flags);
  } catch (err) {
    return checkErr(io, err);
  }
  if (attach && dryRun !== DryRun.None) return usageError(io, "--dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)");
  const pullPolicy = stringFlag(flags, 'image-pull-policy');
  if (!['', 'Always', 'IfNotPresent', 'Never'].includes(pullPolicy)) return usageError(io, `invalid image pull policy: ${pullPolicy}`);
  if (attach) return checkErr(io, new Error('attaching to a container (-i, -t, --attach) is not available in this console; run the pod without them and use kubectl logs'));
  if (boolFlag(flags, 'expose')) return checkErr(io, new Error('--expose is not available here; run the pod, then kubectl expose pod ' + args[0] + ' --port=' + stringFlag(flags, 'port')));

  let pod: KubeObject;
  try {
    pod = basicPod(args[0], args.slice(1), flags, restart || 'Always', { interactive, tty });
    pod = override(pod, stringFlag(flags, 'overrides'), stringFlag(flags, 'override-type') || 'merge');
    if (flags.get('record') === true) recordChangeCause(pod, changeCause(runPodCommand, env, args, flags));
  } catch (err) {
    return checkErr(io, err);
  }
  let printer;
  try {
    printer = toPrinter(io, flags, 'created', dryRun);
  } catch (err) {
    return checkErr(io, err);
  }
  if (dryRun === DryRun.Client) {
    if (env.namespaceExplicit) pod.metadata.namespace = env.namespace;
    printer.print(podType, pod);
    return 0;
  }
  if (boolFlag(flags, 'save-config')) pod = withLastApplied(pod);
  let created: KubeObject;
  try {
    created = env.client.pods.create(pod, { namespace: env.namespace, fieldManager: stringFlag(flags, 'field-manager') || 'kubectl-run', dryRun: dryRun === DryRun.Server });
  } catch (err) {
    return checkErr(io, err);
  }
  printer.print(podType, { ...created, apiVersion: created.apiVersion ?? 'v1', kind: created.kind ?? 'Pod' });
  return 0;
}

/** BasicPod.Generate, as the typed object encodes (creationTimestamp: null, resources: {}, status: {}). */
function basicPod(name: string, containerArgs: string[], flags: FlagValues, restartPolicy: string, io: { interactive: boolean; tty: boolean }): KubeObject {
  const labelSpec = stringFlag(flags, 'labels');
  const labels = labelSpec ? parseLabels(labelSpec) : { run: name };
  const annotationArgs = stringListFlag(flags, 'annotations');
  const annotations = annotationArgs.length > 0 ? Object.fromEntries(resourcesAndPairs(annotationArgs, 'annotations').pairs) : undefined;
  const container: Container & Record<string, unknown> = { image: stringFlag(flags, 'image'), name, resources: {} };
  if (io.interactive) {
    container.stdin = true;
    if (!boolFlag(flags, 'leave-stdin-open')) container.stdinOnce = true;
  }
  if (io.tty) container.tty = true;
  if (boolFlag(flags, 'privileged')) container.securityContext = { privileged: true };
  if (containerArgs.length > 0) {
    if (boolFlag(flags, 'command')) container.command = containerArgs;
    else container.args = containerArgs;
  }
  const envs = stringListFlag(flags, 'env').map(parseEnvVar);
  if (envs.length > 0) container.env = envs;
  const pullPolicy = stringFlag(flags, 'image-pull-policy');
  if (pullPolicy) container.imagePullPolicy = pullPolicy;
  const port = stringFlag(flags, 'port');
  if (port) {
    if (!/^[+-]?\d+$/.test(port)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(port)}: invalid syntax`);
    container.ports = [{ containerPort: Number(port) }];
  }
  const metadata: Record<string, unknown> = { creationTimestamp: null, labels, name };
  if (annotations) metadata.annotations = annotations;
  const pod: Pod & Record<string, unknown> = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadata as Pod['metadata'],
    spec: { containers: [container], dnsPolicy: 'ClusterFirst', restartPolicy },
    status: {},
  };
  return pod as unknown as KubeObject;
}

/** generate.ParseLabels. */
function parseLabels(spec: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const item of spec.split(',')) {
    const kv = item.split('=');
    if (kv.length !== 2) throw new Error(`unexpected label spec: ${item}`);
    if (kv[0].length === 0) throw new Error('unexpected empty label key');
    labels[kv[0]] = kv[1];
  }
  return labels;
}

/** parseEnvs: NAME=VALUE with a valid name. */
function parseEnvVar(env: string): { name: string; value: string } {
  const pos = env.indexOf('=');
  if (pos === -1) throw new Error(`invalid env: ${env}`);
  const name = env.slice(0, pos);
  if (name.length === 0 || isEnvVarName(name).length !== 0) throw new Error(`invalid env: ${env}`);
  return { name, value: env.slice(pos + 1) };
}

/** cmdutil.Overrider.Apply: the --overrides JSON applied as a merge, strategic merge or JSON patch. */
function override(obj: KubeObject, overrides: string, type: string): KubeObject {
  if (!overrides) return obj;
  let patch: unknown;
  try {
    patch = JSON.parse(overrides);
  } catch (err) {
    throw new Error(`error: unable to parse ${JSON.stringify(overrides)}: ${messageOf(err)}`);
  }
  switch (type) {
    case 'merge':
      return applyMergePatch(obj, patch) as KubeObject;
    case 'strategic':
      return applyStrategicMergePatch(obj, patch, builtinSchemaHints('Pod')) as KubeObject;
    case 'json':
      return applyJsonPatch(obj, decodeJsonPatch(patch)) as KubeObject;
    default:
      throw new Error(`invalid override type: ${type}`);
  }
}

// github.com/distribution/reference ReferenceRegexp.
const alphaNumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const host = `(?:${domainNameComponent}(?:\\.${domainNameComponent})*|\\[(?:[a-fA-F0-9:]+)\\])`;
const domainAndPort = `${host}(?::[0-9]+)?`;
const pathComponent = `${alphaNumeric}(?:${separator}${alphaNumeric})*`;
const namePat = `(?:${domainAndPort}/)?${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const referenceRegexp = new RegExp(`^(${namePat})(?::(${tag}))?(?:@(${digest}))?$`);
