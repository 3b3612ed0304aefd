// kubectl exec (k8s.io/kubectl pkg/cmd/exec): runs COMMAND in a container of POD (or of the first pod of
// TYPE/NAME, as attach picks it) through the API server's pods/exec, answered by the simulated container
// (src/kubectl/nodes-adapter.ts): env, hostname, cat/ls of mounted ConfigMaps and Secrets, echo, date, sh -c …;
// a program the image lacks fails as runc does, with `command terminated with exit code 126`.
import type { Pod } from 'kubernetes-types/core/v1';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { kubectlErrorMessage } from '../cordon';
import { CommandError } from '../resource-builder';
import { printText } from './describe';
import { allContainerNames, byActiveReversed, Cancelled, defaultContainerAnnotation, findContainer, podsForSelector, resolveObject, selectorForObject } from './pod-for-object';
import { newBadRequest } from '../../shared/api/status';

const shells = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'ksh']);

function usageFailure(io: CommandIO, message: string): number {
  io.stderr(`error: ${message}`);
  io.stderr("See 'kubectl exec -h' for help and examples");
  return 1;
}

export const execCommand: CommandSpec = {
  path: ['exec'],
  use: 'exec (POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...]',
  short: 'Execute a command in a container',
  long: 'Execute a command in a container.',
  example: `  # Get output from running the 'date' command from pod mypod, using the first container by default
  kubectl exec mypod -- date
  
  # Get output from running the 'date' command in ruby-container from pod mypod
  kubectl exec mypod -c ruby-container -- date
  
  # Switch to raw terminal mode; sends stdin to 'bash' in ruby-container from pod mypod
  # and sends stdout/stderr from 'bash' back to the client
  kubectl exec mypod -c ruby-container -i -t -- bash -il
  
  # List contents of /usr from the first container of pod mypod and sort by modification time
  # If the command you want to execute in the pod has any flags in common (e.g. -i),
  # you must use two dashes (--) to separate your command's flags/arguments
  # Also note, do not surround your command and its flags/arguments with quotes
  # unless that is how you would execute it normally (i.e., do ls -t /usr, not "ls -t /usr")
  kubectl exec mypod -i -t -- ls -t /usr
  
  # Get output from running 'date' command from the first pod of the deployment mydeployment, using the first container by default
  kubectl exec deploy/mydeployment -- date
  
  # Get output from running 'date' command from the first pod of the service myservice, using the first container by default
  kubectl exec svc/myservice -- date`,
  flags: [
    {
      name: 'container',
      shorthand: 'c',
      type: 'string',
      default: '',
      usage: 'Container name. If omitted, use the kubectl.kubernetes.io/default-container annotation for selecting the container to be attached or the first container in the pod will be chosen',
    },
    { name: 'filename', shorthand: 'f', type: 'stringSlice', default: [], usage: 'to use to exec into the resource' },
    { name: 'pod-running-timeout', type: 'duration', default: '1m0s', usage: 'The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod is running' },
    { name: 'quiet', shorthand: 'q', type: 'bool', default: false, usage: 'Only print output from the remote session' },
    { name: 'stdin', shorthand: 'i', type: 'bool', default: false, usage: 'Pass stdin to the container' },
    { name: 'tty', shorthand: 't', type: 'bool', default: false, usage: 'Stdin is a TTY' },
  ],
  async run(env, args, flags, io) {
    try {
      return await runExec(env, args, flags, io);
    } catch (err) {
      if (err instanceof Cancelled) return 130;
      io.stderr(kubectlErrorMessage(err));
      return 1;
    }
  },
};

async function runExec(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): Promise<number> {
  const atDash = (flags as { argsLenAtDash?: number }).argsLenAtDash ?? -1;
  const filenames = flags.get<string[]>('filename') ?? [];
  let resourceName = '';
  let command: string[] = [];
  if (args.length > 0 && atDash !== 0) resourceName = args[0];
  if (atDash > -1) command = args.slice(atDash);
  else if (args.length > 1 || (args.length > 0 && filenames.length > 0)) return usageFailure(io, 'exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead');
  if (!resourceName && filenames.length === 0) throw new CommandError('pod, type/name or --filename must be specified');
  if (command.length === 0) throw new CommandError('you must specify at least one command for the container');
  if (!resourceName) throw new CommandError('exec -f is not supported in kubeplay: name the pod (POD or TYPE/NAME)');

  const resolved = resolveObject(env, resourceName);
  let pod: Pod;
  if (resolved.rt.kind === 'Pod' && resolved.rt.group === '') pod = resolved.object as Pod;
  else {
    const selector = selectorForObject(resolved.rt, resolved.object, 'attach to');
    pod = (await podsForSelector(env, env.namespace, selector, byActiveReversed, flags.get<number>('pod-running-timeout') ?? 60_000))[0];
  }
  const podName = pod.metadata?.name ?? '';
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') throw new CommandError(`cannot exec into a container in a completed pod; current phase is ${phase}`);

  let container = flags.get<string>('container') ?? '';
  if (!container) {
    if ((pod.spec?.containers.length ?? 0) === 0) throw new CommandError(`pod ${pod.metadata?.namespace}/${podName} does not have any containers`);
    const annotated = pod.metadata?.annotations?.[defaultContainerAnnotation];
    if (annotated && findContainer(pod, annotated)) container = annotated;
    else {
      container = pod.spec!.containers[0].name;
      const many = pod.spec!.containers.length > 1 || (pod.spec?.initContainers?.length ?? 0) > 0 || (pod.spec?.ephemeralContainers?.length ?? 0) > 0;
      if (many && flags.get<boolean>('quiet') !== true) io.stderr(`Defaulted container ${JSON.stringify(container)} out of: ${allContainerNames(pod)}`);
    }
  }
  // The API server's ExecLocation checks.
  if (!findContainer(pod, container)) throw newBadRequest(`container ${container} is not valid for pod ${podName}`);
  if (!pod.spec?.nodeName) throw newBadRequest(`pod ${podName} does not have a host assigned`);
  if (!env.nodes?.exec) throw new CommandError('unable to upgrade connection: exec is not available in this cluster');

  const interactive = flags.get<boolean>('stdin') === true;
  const result = env.nodes.exec(pod.metadata?.namespace ?? env.namespace, podName, container, command);
  if ('error' in result) throw new CommandError(result.error);
  printText(io.stdout, result.stdout);
  printText(io.stderr, result.stderr);
  const program = command[0].slice(command[0].lastIndexOf('/') + 1);
  if (interactive && shells.has(program) && !command.includes('-c') && result.exitCode === 0) {
    // No terminal can be attached in the console: the shell read an empty stdin and exited.
    io.stderr(`kubeplay: the console has no interactive terminal; run one command at a time, e.g. kubectl exec ${resourceName} -- ${program} -c 'ls /'`);
  }
  if (result.exitCode !== 0) {
    io.stderr(`command terminated with exit code ${result.exitCode}`);
    return result.exitCode;
  }
  return 0;
}
