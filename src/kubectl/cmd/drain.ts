// kubectl drain NODE (k8s.io/kubectl v0.32.4 pkg/cmd/drain): the command-line side over src/kubectl/drain.ts,
// which cordons the node, filters and evicts its pods on the virtual clock and prints kubectl's lines as they
// happen. The command ends when the drain does, or on Ctrl+C (exit 130; the node stays cordoned).
import type { CommandSpec } from '../cli/command';
import { parseSelector } from '../../shared/lib/labels';
import { drain, type DrainOptions } from '../drain';
import { checkErr } from '../rollout/check-err';
import { boolFlag, DryRun, dryRunFlag, dryRunStrategy, durationMs, intFlag, selectorFlag, stringFlag } from '../rollout/flags';
import { selectNodes } from '../rollout/nodes';

export const drainCommand: CommandSpec = {
  path: ['drain'],
  use: 'drain NODE',
  short: 'Drain node in preparation for maintenance',
  long: `Drain node in preparation for maintenance.

 The given node will be marked unschedulable to prevent new pods from arriving. 'drain' evicts the pods if the API server supports https://kubernetes.io/docs/concepts/workloads/pods/disruptions/ eviction https://kubernetes.io/docs/concepts/workloads/pods/disruptions/ . Otherwise, it will use normal DELETE to delete the pods. The 'drain' evicts or deletes all pods except mirror pods (which cannot be deleted through the API server).  If there are daemon set-managed pods, drain will not proceed without --ignore-daemonsets, and regardless it will not delete any daemon set-managed pods, because those pods would be immediately replaced by the daemon set controller, which ignores unschedulable markings.  If there are any pods that are neither mirror pods nor managed by a replication controller, replica set, daemon set, stateful set, or job, then drain will not delete any pods unless you use --force.  --force will also allow deletion to proceed if the managing resource of one or more pods is missing.

 'drain' waits for graceful termination. You should not operate on the machine until the command completes.

 When you are ready to put the node back into service, use kubectl uncordon, which will make the node schedulable again.

https://kubernetes.io/images/docs/kubectl_drain.svg Workflowhttps://kubernetes.io/images/docs/kubectl_drain.svg`,
  example: `  # Drain node "foo", even if there are pods not managed by a replication controller, replica set, job, daemon set, or stateful set on it
  kubectl drain foo --force
  
  # As above, but abort if there are pods not managed by a replication controller, replica set, job, daemon set, or stateful set, and use a grace period of 15 minutes
  kubectl drain foo --grace-period=900`,
  flags: [
    { name: 'chunk-size', type: 'int', default: 500, usage: 'Return large lists in chunks rather than all at once. Pass 0 to disable. This flag is beta and may change in the future.' },
    { name: 'delete-emptydir-data', type: 'bool', default: false, usage: 'Continue even if there are pods using emptyDir (local data that will be deleted when the node is drained).' },
    { name: 'disable-eviction', type: 'bool', default: false, usage: 'Force drain to use delete, even if eviction is supported. This will bypass checking PodDisruptionBudgets, use with caution.' },
    dryRunFlag,
    { name: 'force', type: 'bool', default: false, usage: 'Continue even if there are pods that do not declare a controller.' },
    { name: 'grace-period', type: 'int', default: -1, usage: 'Period of time in seconds given to each pod to terminate gracefully. If negative, the default value specified in the pod will be used.' },
    { name: 'ignore-daemonsets', type: 'bool', default: false, usage: 'Ignore DaemonSet-managed pods.' },
    { name: 'pod-selector', type: 'string', default: '', usage: 'Label selector to filter pods on the node' },
    selectorFlag,
    { name: 'skip-wait-for-delete-timeout', type: 'int', default: 0, usage: 'If pod DeletionTimestamp older than N seconds, skip waiting for the pod.  Seconds must be greater than 0 to skip.' },
    { name: 'timeout', type: 'duration', default: '0s', usage: 'The length of time to wait before giving up, zero means infinite' },
  ],
  async run(env, args, flags, io) {
    const podSelector = stringFlag(flags, 'pod-selector');
    let dryRun;
    try {
      dryRun = dryRunStrategy(flags);
    } catch (err) {
      return checkErr(io, err);
    }
    const nodes = selectNodes(env, 'drain', args, flags, io);
    if (typeof nodes === 'number') return nodes;
    if (podSelector) {
      try {
        parseSelector(podSelector);
      } catch {
        return checkErr(io, new Error('--pod-selector=<pod_selector> must be a valid label selector'));
      }
    }
    if (dryRun !== DryRun.None) return checkErr(io, new Error('--dry-run is not supported by kubectl drain in kubeplay yet'));
    const options: DrainOptions = {
      force: boolFlag(flags, 'force'),
      ignoreDaemonSets: boolFlag(flags, 'ignore-daemonsets'),
      deleteEmptyDirData: boolFlag(flags, 'delete-emptydir-data'),
      gracePeriodSeconds: intFlag(flags, 'grace-period'),
      timeoutSeconds: durationMs(flags.get('timeout')) / 1000,
      podSelector,
      disableEviction: boolFlag(flags, 'disable-eviction'),
      skipWaitForDeleteTimeoutSeconds: intFlag(flags, 'skip-wait-for-delete-timeout'),
    };
    let exitCode = 0;
    for (const node of nodes) {
      const run = drain({ client: env.client, clock: env.clock }, node.metadata.name ?? '', options);
      const write = (line: { stream: string; text: string }) => (line.stream === 'stdout' ? io.stdout(line.text) : io.stderr(line.text));
      for (const line of run.lines) write(line);
      const unsubscribe = run.onLine(write);
      env.signal.onCancel(() => run.cancel());
      const result = await run.finished;
      unsubscribe();
      if (result.exitCode === 130) return 130;
      if (result.exitCode !== 0) exitCode = result.exitCode;
    }
    return exitCode;
  },
};
