// kubectl delete (k8s.io/kubectl/pkg/cmd/delete, v1.32): TYPE NAME…, TYPE/NAME…, -f, -l, --all [-A], with
// --cascade=background|foreground|orphan, --grace-period, --now, --force, --ignore-not-found. Each deletion prints
// `pod "x" deleted` (`deployment.apps "web" deleted`); then, with --wait (the default), kubectl waits until every
// deleted object is gone — on the cluster's virtual clock, so a pod's 30 s grace period takes 30 simulated seconds.
import type { Status } from '../../shared/api/status';
import { isStatusError } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { buildResources, clientFor, CommandError, isNotFound, kindGroupString, withSource, type ResourceInfo } from '../resource-builder';
import { boolFlag, checkErr, DryRun, dryRunStrategy, filenames, guardedAsync, intFlag, stringFlag } from './create-common';

export const deleteCommand: CommandSpec = {
  path: ["delete"],
  use: "delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)])",
  short: "Delete resources by file names, stdin, resources and names, or by resources and label selector",
  long: "Delete resources by file names, stdin, resources and names, or by resources and label selector.\n\n JSON and YAML formats are accepted. Only one type of argument may be specified: file names, resources and names, or resources and label selector.\n\n Some resources, such as pods, support graceful deletion. These resources define a default period before they are forcibly terminated (the grace period) but you may override that value with the --grace-period flag, or pass --now to set a grace-period of 1. Because these resources often represent entities in the cluster, deletion may not be acknowledged immediately. If the node hosting a pod is down or cannot reach the API server, termination may take significantly longer than the grace period. To force delete a resource, you must specify the --force flag. Note: only a subset of resources support graceful deletion. In absence of the support, the --grace-period flag is ignored.\n\n IMPORTANT: Force deleting pods does not wait for confirmation that the pod's processes have been terminated, which can leave those processes running until the node detects the deletion and completes graceful deletion. If your processes use shared storage or talk to a remote API and depend on the name of the pod to identify themselves, force deleting those pods may result in multiple processes running on different machines using the same identification which may lead to data corruption or inconsistency. Only force delete pods when you are sure the pod is terminated, or if your application can tolerate multiple copies of the same pod running at once. Also, if you force delete pods, the scheduler may place new pods on those nodes before the node has released those resources and causing those pods to be evicted immediately.\n\n Note that the delete command does NOT do resource version checks, so if someone submits an update to a resource right when you submit a delete, their update will be lost along with the rest of the resource.\n\n After a CustomResourceDefinition is deleted, invalidation of discovery cache may take up to 6 hours. If you don't want to wait, you might want to run \"kubectl api-resources\" to refresh the discovery cache.",
  example: "  # Delete a pod using the type and name specified in pod.json\n  kubectl delete -f ./pod.json\n  \n  # Delete resources from a directory containing kustomization.yaml - e.g. dir/kustomization.yaml\n  kubectl delete -k dir\n  \n  # Delete resources from all files that end with '.json'\n  kubectl delete -f '*.json'\n  \n  # Delete a pod based on the type and name in the JSON passed into stdin\n  cat pod.json | kubectl delete -f -\n  \n  # Delete pods and services with same names \"baz\" and \"foo\"\n  kubectl delete pod,service baz foo\n  \n  # Delete pods and services with label name=myLabel\n  kubectl delete pods,services -l name=myLabel\n  \n  # Delete a pod with minimal delay\n  kubectl delete pod foo --now\n  \n  # Force delete a pod on a dead node\n  kubectl delete pod foo --force\n  \n  # Delete all pods\n  kubectl delete pods --all\n  \n  # Delete all pods only if the user confirms the deletion\n  kubectl delete pods --all --interactive",
  flags: [
    { name: "all", type: 'bool', default: false, usage: "Delete all resources, in the namespace of the specified resource types." },
    { name: "all-namespaces", shorthand: "A", type: 'bool', default: false, usage: "If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace." },
    { name: "cascade", type: 'string', default: "background", noOptDefault: 'background', usage: "Must be \"background\", \"orphan\", or \"foreground\". Selects the deletion cascading strategy for the dependents (e.g. Pods created by a ReplicationController). Defaults to background." },
    { name: "dry-run", type: 'string', default: "none", noOptDefault: 'unchanged', usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "field-selector", type: 'string', default: "", usage: "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type." },
    { name: "filename", shorthand: "f", type: 'stringSlice', default: [], usage: "containing the resource to delete." },
    { name: "force", type: 'bool', default: false, usage: "If true, immediately remove resources from API and bypass graceful deletion. Note that immediate deletion of some resources may result in inconsistency or data loss and requires confirmation." },
    { name: "grace-period", type: 'int', default: -1, usage: "Period of time in seconds given to the resource to terminate gracefully. Ignored if negative. Set to 1 for immediate shutdown. Can only be set to 0 when --force is true (force deletion)." },
    { name: "ignore-not-found", type: 'bool', default: false, usage: "Treat \"resource not found\" as a successful delete. Defaults to \"true\" when --all is specified." },
    { name: "now", type: 'bool', default: false, usage: "If true, resources are signaled for immediate shutdown (same as --grace-period=1)." },
    { name: "output", shorthand: "o", type: 'string', default: "", usage: "Output mode. Use \"-o name\" for shorter output (resource/name)." },
    { name: "recursive", shorthand: "R", type: 'bool', default: false, usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "selector", shorthand: "l", type: 'string', default: "", usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints." },
    { name: "timeout", type: 'duration', default: "0s", usage: "The length of time to wait before giving up on a delete, zero means determine a timeout from the size of the object" },
    { name: "wait", type: 'bool', default: true, usage: "If true, wait for resources to be gone before returning. This waits for finalizers." },
  ],
  run: (env, args, flags, io) => guardedAsync(io, 'delete', () => runDelete(env, args, flags, io)),
};

export const forceDeletionWarning =
  'Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.';

type Propagation = 'Background' | 'Foreground' | 'Orphan';

/** delete_flags.go parseCascadingFlag, with its warning for the deprecated boolean values. */
export function parseCascadingFlag(value: string, io: CommandIO): Propagation {
  switch (value) {
    case 'orphan':
      return 'Orphan';
    case 'foreground':
      return 'Foreground';
    case 'background':
      return 'Background';
  }
  const bool = parseGoBool(value);
  if (bool === undefined) throw new CommandError(`invalid cascade value (${value}). Must be "background", "foreground", or "orphan"`);
  io.stderr(`warning: --cascade=${value} is deprecated (boolean value) and can be replaced with --cascade=${bool ? 'background' : 'orphan'}.`);
  return bool ? 'Background' : 'Orphan';
}

/** strconv.ParseBool. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

async function runDelete(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): Promise<number> {
  // Complete
  const cascade = parseCascadingFlag(stringFlag(flags, 'cascade') || 'background', io);
  const deleteAll = boolFlag(flags, 'all');
  const allNamespaces = boolFlag(flags, 'all-namespaces');
  const labelSelector = stringFlag(flags, 'selector');
  const fieldSelector = stringFlag(flags, 'field-selector');
  const force = boolFlag(flags, 'force');
  let gracePeriod = intFlag(flags, 'grace-period', -1);
  let ignoreNotFound = boolFlag(flags, 'ignore-not-found');
  const warnClusterScope = env.namespaceExplicit && !allNamespaces;
  if ((deleteAll || labelSelector || fieldSelector) && !flags.changed('ignore-not-found')) ignoreNotFound = true;
  if (boolFlag(flags, 'now')) {
    if (gracePeriod !== -1) throw new CommandError('--now and --grace-period cannot be specified together');
    gracePeriod = 1;
  }
  if (gracePeriod === 0 && !force) gracePeriod = 1;
  if (force && gracePeriod < 0) gracePeriod = 0;
  const dryRun = dryRunStrategy(flags);
  const built = buildResources(env, {
    args,
    filenames: filenames(flags),
    labelSelector: labelSelector || undefined,
    fieldSelector: fieldSelector || undefined,
    all: deleteAll,
    allNamespaces,
  });
  if (built.error) throw built.error;

  // Validate
  const output = stringFlag(flags, 'output');
  if (output !== '' && output !== 'name') throw new CommandError(`unexpected -o output mode: ${output}. We only support '-o name'`);
  if (deleteAll && labelSelector) throw new CommandError('cannot set --all and --selector at the same time');
  if (deleteAll && fieldSelector) throw new CommandError('cannot set --all and --field-selector at the same time');
  if (gracePeriod === 0 && force) io.stderr(`Warning: ${forceDeletionWarning}`);
  else if (gracePeriod > 0 && force) throw new CommandError('--force and --grace-period greater than 0 cannot be specified together');

  // DeleteResult
  const errors = built.errors.filter((e) => !(ignoreNotFound && isNotFound(e)));
  const deleted: { info: ResourceInfo; uid?: string }[] = [];
  let warnScope = warnClusterScope;
  for (const info of built.infos) {
    if (warnScope && !info.rt.namespaced) {
      io.stderr('Warning: deleting cluster-scoped resources, not scoped to the provided namespace');
      warnScope = false;
    }
    if (dryRun === DryRun.Client) {
      deleted.push({ info });
      printDeleted(io, info, output, gracePeriod, dryRun);
      continue;
    }
    let response: KubeObject | Status;
    try {
      response = clientFor(env.client, info.rt).delete(info.name, {
        namespace: info.rt.namespaced ? info.namespace : undefined,
        ...(gracePeriod >= 0 ? { gracePeriodSeconds: gracePeriod } : {}),
        propagationPolicy: cascade,
        ...(dryRun === DryRun.Server ? { dryRun: true } : {}),
      });
    } catch (err) {
      if (ignoreNotFound && isNotFound(err)) continue;
      errors.push(withSource(err, 'deleting', info.source));
      continue;
    }
    printDeleted(io, info, output, gracePeriod, dryRun);
    const uid = (response as Status).kind === 'Status' ? (response as Status).details?.uid : (response as KubeObject).metadata?.uid;
    deleted.push({ info, uid });
  }
  if (errors.length > 0) return checkErr(io, errors);
  if (deleted.length === 0) {
    io.stdout('No resources found');
    return 0;
  }
  if (!boolFlag(flags, 'wait') || dryRun !== DryRun.None) return 0;
  const timeoutMs = intFlag(flags, 'timeout', 0) || 168 * 3600_000;
  return waitForDeletion(env, deleted, timeoutMs, io);
}

/** PrintObj for a deleted object: `pod "x" deleted`, `force deleted`, the dry-run suffixes, or `-o name`. */
function printDeleted(io: CommandIO, info: ResourceInfo, output: string, gracePeriod: number, dryRun: DryRun): void {
  const kind = kindGroupString(info.rt);
  if (output === 'name') {
    io.stdout(`${kind}/${info.name}`);
    return;
  }
  let operation = gracePeriod === 0 ? 'force deleted' : 'deleted';
  if (dryRun === DryRun.Client) operation += ' (dry run)';
  if (dryRun === DryRun.Server) operation += ' (server dry run)';
  io.stdout(`${kind} "${info.name}" ${operation}`);
}

/**
 * wait.IsDeleted for each object in turn: gone (NotFound) or replaced (another uid) ends it at once; otherwise a
 * watch on the name waits for DELETED. One deadline covers all objects; Ctrl+C stops the wait (exit 130).
 * A Forbidden or MethodNotAllowed answer ends the wait quietly, as kubectl's does.
 */
export async function waitForDeletion(env: KubectlEnv, deleted: { info: ResourceInfo; uid?: string }[], timeoutMs: number, io: CommandIO): Promise<number> {
  const deadline = env.clock.now() + timeoutMs;
  for (const { info, uid } of deleted) {
    let outcome: 'gone' | 'timeout' | 'cancelled';
    try {
      outcome = await waitForOne(env, info, uid, deadline);
    } catch (err) {
      if (isStatusError(err) && (err.reason === 'Forbidden' || err.reason === 'MethodNotAllowed')) return 0;
      return checkErr(io, err);
    }
    if (outcome === 'cancelled') return 130;
    if (outcome === 'timeout') return checkErr(io, new CommandError(`timed out waiting for the condition on ${info.rt.resource}/${info.name}`));
  }
  return 0;
}

function waitForOne(env: KubectlEnv, info: ResourceInfo, uid: string | undefined, deadline: number): Promise<'gone' | 'timeout' | 'cancelled'> {
  const client = clientFor(env.client, info.rt);
  const namespace = info.rt.namespaced ? info.namespace : undefined;
  const exists = (): boolean => {
    try {
      const obj = client.get(info.name, { namespace });
      return !(uid && obj.metadata?.uid !== uid);
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  };
  if (!exists()) return Promise.resolve('gone');
  if (env.signal.cancelled) return Promise.resolve('cancelled');
  const remaining = deadline - env.clock.now();
  if (remaining <= 0) return Promise.resolve('timeout');
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (outcome: 'gone' | 'timeout' | 'cancelled') => {
      if (done) return;
      done = true;
      handle?.stop();
      env.clock.clearTimer(timer);
      resolve(outcome);
    };
    const timer = env.clock.setTimer(remaining, () => finish('timeout'), 'kubectl delete --wait timeout');
    env.signal.onCancel(() => finish('cancelled'));
    let handle: { stop(): void } | undefined;
    try {
      handle = client.watch({ namespace, fieldSelector: `metadata.name=${info.name}` }, (events) => {
        for (const e of events) {
          if (e.type === 'DELETED' && (!uid || e.object.metadata?.uid === uid)) finish('gone');
        }
      });
      // The object may have gone between the GET and the watch (UntilWithSync's precondition).
      if (!exists()) finish('gone');
    } catch (err) {
      done = true;
      env.clock.clearTimer(timer);
      reject(err);
    }
  });
}
