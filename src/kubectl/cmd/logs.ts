// kubectl logs (k8s.io/kubectl pkg/cmd/logs + polymorphichelpers.LogsForObject): the simulated container's
// output as the kubelet keeps it, for POD [CONTAINER], TYPE/NAME (a pod picked ByLogging, "Found N pods"),
// or -l (every matching pod, last 10 lines each), with -c, --all-containers, --previous, --tail, --since,
// --since-time, --timestamps, --prefix, --limit-bytes, and -f (streams until the container stops or Ctrl+C).
import type { Pod } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../shared/api/status';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { kubectlErrorMessage } from '../cordon';
import { CommandError } from '../resource-builder';
import { allContainerNames, byLogging, Cancelled, defaultContainerAnnotation, findContainer, podsForSelector, resolveObject, selectorForObject } from './pod-for-object';

const usage = 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]';
const usageError = `expected '${usage}'.\nPOD or TYPE/NAME is a required argument for the logs command`;
/** How often a followed log is read again (virtual time), as the kubelet's follow reader polls its file. */
const followPollMs = 1_000;
/** kuberuntime's RFC3339NanoFixed prefix the kubelet adds with timestamps=true, and its width. */
const timestampWidth = '2006-01-02T15:04:05.000000000Z'.length;

interface LogRequest {
  pod: Pod;
  container: string;
  fieldPath: string;
}

interface LogOptions {
  previous: boolean;
  tailLines?: number;
  timestamps: boolean;
  sinceMs?: number;
  limitBytes?: number;
}

function usageFailure(io: CommandIO, message: string): number {
  for (const line of `error: ${message}`.split('\n')) io.stderr(line);
  io.stderr("See 'kubectl logs -h' for help and examples");
  return 1;
}

/** An error the kubelet (through the API server's proxy) answers: BadRequest, or a dial error without a reason. */
export function logsErrorLine(text: string): string {
  return text.startsWith('Get "') ? `Error from server: ${text}` : `Error from server (BadRequest): ${text}`;
}

export const logsCommand: CommandSpec = {
  path: ['logs'],
  use: usage,
  short: 'Print the logs for a container in a pod',
  long: 'Print the logs for a container in a pod or specified resource. If the pod has only one container, the container name is optional.',
  example: `  # Return snapshot logs from pod nginx with only one container
  kubectl logs nginx
  
  # Return snapshot logs from pod nginx, prefixing each line with the source pod and container name
  kubectl logs nginx --prefix
  
  # Return snapshot logs from pod nginx, limiting output to 500 bytes
  kubectl logs nginx --limit-bytes=500
  
  # Return snapshot logs from pod nginx, waiting up to 20 seconds for it to start running.
  kubectl logs nginx --pod-running-timeout=20s
  
  # Return snapshot logs from pod nginx with multi containers
  kubectl logs nginx --all-containers=true
  
  # Return snapshot logs from all pods in the deployment nginx
  kubectl logs deployment/nginx --all-pods=true
  
  # Return snapshot logs from all containers in pods defined by label app=nginx
  kubectl logs -l app=nginx --all-containers=true
  
  # Return snapshot logs from all pods defined by label app=nginx, limiting concurrent log requests to 10 pods
  kubectl logs -l app=nginx --max-log-requests=10
  
  # Return snapshot of previous terminated ruby container logs from pod web-1
  kubectl logs -p -c ruby web-1
  
  # Begin streaming the logs from pod nginx, continuing even if errors occur
  kubectl logs nginx -f --ignore-errors=true
  
  # Begin streaming the logs of the ruby container in pod web-1
  kubectl logs -f -c ruby web-1
  
  # Begin streaming the logs from all containers in pods defined by label app=nginx
  kubectl logs -f -l app=nginx --all-containers=true
  
  # Display only the most recent 20 lines of output in pod nginx
  kubectl logs --tail=20 nginx
  
  # Show all logs from pod nginx written in the last hour
  kubectl logs --since=1h nginx
  
  # Show all logs with timestamps from pod nginx starting from August 30, 2024, at 06:00:00 UTC
  kubectl logs nginx --since-time=2024-08-30T06:00:00Z --timestamps=true
  
  # Show logs from a kubelet with an expired serving certificate
  kubectl logs --insecure-skip-tls-verify-backend nginx
  
  # Return snapshot logs from first container of a job named hello
  kubectl logs job/hello
  
  # Return snapshot logs from container nginx-1 of a deployment named nginx
  kubectl logs deployment/nginx -c nginx-1`,
  flags: [
    { name: 'all-containers', type: 'bool', default: false, usage: "Get all containers' logs in the pod(s)." },
    { name: 'all-pods', type: 'bool', default: false, usage: 'Get logs from all pod(s). Sets prefix to true.' },
    { name: 'container', shorthand: 'c', type: 'string', default: '', usage: 'Print the logs of this container' },
    { name: 'follow', shorthand: 'f', type: 'bool', default: false, usage: 'Specify if the logs should be streamed.' },
    { name: 'ignore-errors', type: 'bool', default: false, usage: 'If watching / following pod logs, allow for any errors that occur to be non-fatal' },
    {
      name: 'insecure-skip-tls-verify-backend',
      type: 'bool',
      default: false,
      usage:
        'Skip verifying the identity of the kubelet that logs are requested from.  In theory, an attacker could provide invalid log content back. You might want to use this if your kubelet serving certificates have expired.',
    },
    { name: 'limit-bytes', type: 'int', default: 0, usage: 'Maximum bytes of logs to return. Defaults to no limit.' },
    { name: 'max-log-requests', type: 'int', default: 5, usage: 'Specify maximum number of concurrent logs to follow when using by a selector. Defaults to 5.' },
    { name: 'pod-running-timeout', type: 'duration', default: '20s', usage: 'The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod is running' },
    { name: 'prefix', type: 'bool', default: false, usage: 'Prefix each log line with the log source (pod name and container name)' },
    { name: 'previous', shorthand: 'p', type: 'bool', default: false, usage: 'If true, print the logs for the previous instance of the container in a pod if it exists.' },
    {
      name: 'selector',
      shorthand: 'l',
      type: 'string',
      default: '',
      usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints.",
    },
    { name: 'since', type: 'duration', default: '0s', usage: 'Only return logs newer than a relative duration like 5s, 2m, or 3h. Defaults to all logs. Only one of since-time / since may be used.' },
    { name: 'since-time', type: 'string', default: '', usage: 'Only return logs after a specific date (RFC3339). Defaults to all logs. Only one of since-time / since may be used.' },
    { name: 'tail', type: 'int', default: -1, usage: 'Lines of recent log file to display. Defaults to -1 with no selector, showing all log lines otherwise 10, if a selector is provided.' },
    { name: 'timestamps', type: 'bool', default: false, usage: 'Include timestamps on each line in the log output' },
  ],
  async run(env, args, flags, io) {
    try {
      return await runLogs(env, args, flags, io);
    } catch (err) {
      if (err instanceof Cancelled) return 130;
      io.stderr(kubectlErrorMessage(err));
      return 1;
    }
  },
};

async function runLogs(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): Promise<number> {
  const selector = flags.get<string>('selector') ?? '';
  let container = flags.get<string>('container') ?? '';
  if (args.length === 0 && !selector) return usageFailure(io, usageError);
  if (args.length === 1 && selector) return usageFailure(io, 'only a selector (-l) or a POD name is allowed');
  if (args.length > 2) return usageFailure(io, usageError);
  if (args.length === 2) container = args[1];
  const allPods = flags.get<boolean>('all-pods') === true;
  const prefix = flags.get<boolean>('prefix') === true || allPods;
  const allContainers = flags.get<boolean>('all-containers') === true;
  const tail = flags.get<number>('tail') ?? -1;
  const sinceTime = flags.get<string>('since-time') ?? '';
  const since = flags.get<number>('since') ?? 0;
  const limitBytes = flags.get<number>('limit-bytes') ?? 0;
  const timeoutMs = flags.get<number>('pod-running-timeout') ?? 20_000;

  let sinceMs: number | undefined;
  if (sinceTime) {
    sinceMs = Date.parse(sinceTime);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(sinceTime) || Number.isNaN(sinceMs)) {
      throw new CommandError(`parsing time ${JSON.stringify(sinceTime)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(sinceTime)} as "2006"`);
    }
  }
  if (since !== 0) sinceMs = env.clock.now() - Math.round(since / 1000) * 1000;

  // Complete: the object the arguments name.
  let pods: Pod[];
  let target: { kind: 'pods'; pods: Pod[] } | { kind: 'object'; selector: string };
  if (selector) {
    pods = env.client.pods.list({ namespace: env.namespace, labelSelector: selector }).items as Pod[];
    if (pods.length === 0) io.stderr(`No resources found in ${env.namespace} namespace.`);
    target = { kind: 'pods', pods };
  } else {
    let resolved;
    try {
      resolved = resolveObject(env, args[0]);
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) throw new CommandError(`error from server (NotFound): ${err.message} in namespace ${JSON.stringify(env.namespace)}`);
      throw err;
    }
    target = resolved.rt.kind === 'Pod' && resolved.rt.group === '' ? { kind: 'pods', pods: [resolved.object as Pod] } : { kind: 'object', selector: selectorForObject(resolved.rt, resolved.object, 'get the logs from') };
  }

  // Validate.
  if (sinceTime && since !== 0) throw new CommandError('at most one of `sinceTime` or `sinceSeconds` may be specified');
  if (allContainers && container) throw new CommandError(`--all-containers=true should not be specified with container name ${container}`);
  if (flags.changed('container') && args.length === 2) throw new CommandError('only one of -c or an inline [CONTAINER] arg is allowed');
  if (limitBytes < 0) throw new CommandError('--limit-bytes must be greater than 0');
  if (since < 0) throw new CommandError('--since must be greater than 0');
  if (tail < -1) throw new CommandError('--tail must be greater than or equal to -1');

  const options: LogOptions = {
    previous: flags.get<boolean>('previous') === true,
    timestamps: flags.get<boolean>('timestamps') === true,
    tailLines: selector && tail === -1 && !flags.changed('tail') ? 10 : tail !== -1 ? tail : undefined,
    sinceMs,
    limitBytes: limitBytes > 0 ? limitBytes : undefined,
  };

  // LogsForObject: the (pod, container) pairs to read.
  if (target.kind === 'object') {
    const found = await podsForSelector(env, env.namespace, target.selector, byLogging, timeoutMs);
    if (found.length > 1 && !allPods) io.stderr(`Found ${found.length} pods, using pod/${found[0].metadata?.name}`);
    pods = allPods ? found : [found[0]];
  } else {
    pods = target.pods;
  }
  const requests: LogRequest[] = [];
  for (const pod of pods) requests.push(...requestsForPod(pod, container, allContainers, allPods, io));

  const follow = flags.get<boolean>('follow') === true;
  const maxFollow = flags.get<number>('max-log-requests') ?? 5;
  if (follow && requests.length > 1 && requests.length > maxFollow) {
    throw new CommandError(`you are attempting to follow ${requests.length} log streams, but maximum allowed concurrency is ${maxFollow}, use --max-log-requests to increase the limit`);
  }
  const ignoreErrors = flags.get<boolean>('ignore-errors') === true;
  const write = (req: LogRequest, line: string) => io.stdout(prefix ? `[pod/${req.pod.metadata?.name}/${req.container}] ${line}` : line);

  if (!follow) {
    for (const req of requests) {
      const result = readLogs(env, req, options);
      if ('error' in result) {
        if (!ignoreErrors) return fail(io, result.error);
        io.stdout(`error: ${logsErrorLine(result.error)}`);
        continue;
      }
      for (const line of result.lines) write(req, line);
    }
    return 0;
  }
  return followAll(env, requests, options, ignoreErrors, write, io);
}

function fail(io: CommandIO, error: string): number {
  io.stderr(logsErrorLine(error));
  return 1;
}

/** One pod's requests: every container with --all-containers, else -c, the default-container annotation or the first. */
function requestsForPod(pod: Pod, container: string, allContainers: boolean, allPods: boolean, io: CommandIO): LogRequest[] {
  const name = pod.metadata?.name ?? '';
  if (allContainers) {
    const names = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])].map((c) => c.name);
    return names.map((c) => ({ pod, container: c, fieldPath: findContainer(pod, c)!.fieldPath }));
  }
  let chosen = container;
  if (!chosen) {
    const annotated = pod.metadata?.annotations?.[defaultContainerAnnotation];
    if (annotated) {
      if (findContainer(pod, annotated)) chosen = annotated;
      else io.stderr(`Default container name ${JSON.stringify(annotated)} not found in pod ${name}`);
    }
  }
  if (!chosen) {
    chosen = pod.spec?.containers[0]?.name ?? '';
    const many = (pod.spec?.containers.length ?? 0) > 1 || (pod.spec?.initContainers?.length ?? 0) > 0 || (pod.spec?.ephemeralContainers?.length ?? 0) > 0;
    if (many && !allPods) io.stderr(`Defaulted container ${JSON.stringify(chosen)} out of: ${allContainerNames(pod)}`);
  }
  const found = findContainer(pod, chosen);
  if (!found) throw new CommandError(`container ${chosen} is not valid for pod ${name}`);
  return [{ pod, container: chosen, fieldPath: found.fieldPath }];
}

interface TimedLine {
  time: number;
  text: string;
}

/** The log request as the API server's pods/log serves it (the kubelet's /containerLogs). */
function fetchTimed(env: KubectlEnv, req: LogRequest, options: Pick<LogOptions, 'previous' | 'tailLines'>): { lines: TimedLine[] } | { error: string } {
  // A pod with no node yet has no log to stream: the API server answers with an empty body.
  if (!req.pod.spec?.nodeName) return { lines: [] };
  if (!env.nodes) return { error: `the server could not find the requested resource ( pods/log ${req.pod.metadata?.name})` };
  const result = env.nodes.logs(req.pod.metadata?.namespace ?? env.namespace, req.pod.metadata?.name ?? '', req.container, { previous: options.previous, tailLines: options.tailLines, timestamps: true });
  if ('error' in result) return result;
  return {
    lines: result.lines.map((l) => {
      const stamp = l.slice(0, timestampWidth);
      const time = Date.parse(stamp);
      return Number.isNaN(time) || l[timestampWidth] !== ' ' ? { time: 0, text: l } : { time, text: l.slice(timestampWidth + 1) };
    }),
  };
}

function format(line: TimedLine, timestamps: boolean): string {
  return timestamps && line.time ? `${logTimestampOf(line.time)} ${line.text}` : line.text;
}

function logTimestampOf(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000000Z`;
}

/** Applies sinceTime/sinceSeconds (before the tail, as the kubelet does) and limitBytes. */
function readLogs(env: KubectlEnv, req: LogRequest, options: LogOptions): { lines: string[] } | { error: string } {
  const sinceFilter = options.sinceMs !== undefined;
  const result = fetchTimed(env, req, { previous: options.previous, tailLines: sinceFilter ? undefined : options.tailLines });
  if ('error' in result) return result;
  let lines = result.lines;
  if (sinceFilter) {
    lines = lines.filter((l) => l.time >= options.sinceMs!);
    if (options.tailLines !== undefined) lines = options.tailLines === 0 ? [] : lines.slice(-options.tailLines);
  }
  const out = lines.map((l) => format(l, options.timestamps));
  return { lines: options.limitBytes !== undefined ? limitBytes(out, options.limitBytes) : out };
}

function limitBytes(lines: string[], max: number): string[] {
  const out: string[] = [];
  let left = max;
  for (const line of lines) {
    if (left <= 0) break;
    const bytes = new TextEncoder().encode(`${line}\n`);
    if (bytes.length <= left) {
      out.push(line);
      left -= bytes.length;
    } else {
      out.push(new TextDecoder().decode(bytes.slice(0, left)).replace(/\n$/, ''));
      left = 0;
    }
  }
  return out;
}

/** The running instance of a container, as the API server last saw it (its startedAt identifies it). */
function runningSince(env: KubectlEnv, req: LogRequest): string | undefined {
  try {
    const pod = env.client.pods.get(req.pod.metadata?.name ?? '', { namespace: req.pod.metadata?.namespace });
    const status = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].find((s) => s.name === req.container);
    return status?.state?.running?.startedAt;
  } catch {
    return undefined;
  }
}

/**
 * -f: prints what is there, then what the container writes, until every stream ended (the container stopped
 * or the pod went away) or Ctrl+C. Streams of several requests interleave line by line.
 */
function followAll(env: KubectlEnv, requests: LogRequest[], options: LogOptions, ignoreErrors: boolean, write: (req: LogRequest, line: string) => void, io: CommandIO): Promise<number> {
  return new Promise((resolve) => {
    let open = requests.length;
    let exitCode = 0;
    const timers = new Set<ReturnType<typeof env.clock.setTimer>>();
    let finished = false;
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      for (const t of timers) env.clock.clearTimer(t);
      resolve(code);
    };
    env.signal.onCancel(() => finish(130));
    if (open === 0) {
      finish(0);
      return;
    }
    const ended = () => {
      open--;
      if (open === 0) finish(exitCode);
    };
    for (const req of requests) {
      const first = readLogs(env, req, options);
      if ('error' in first) {
        if (!ignoreErrors) {
          io.stderr(logsErrorLine(first.error));
          exitCode = 1;
          finish(1);
          return;
        }
        io.stdout(`error: ${logsErrorLine(first.error)}`);
        ended();
        continue;
      }
      for (const line of first.lines) write(req, line);
      if (options.previous) {
        ended();
        continue;
      }
      // Lines at or before `seen` are printed (and `seenAtSame` of those at exactly `seen`).
      const initial = fetchTimed(env, req, { previous: false });
      const lines = 'lines' in initial ? initial.lines : [];
      let seen = lines.length ? lines[lines.length - 1].time : -Infinity;
      let seenAtSame = lines.filter((l) => l.time === seen).length;
      const instance = runningSince(env, req);
      const poll = () => {
        if (finished) return;
        const result = fetchTimed(env, req, { previous: false });
        const still = runningSince(env, req);
        if ('error' in result) {
          ended();
          return;
        }
        const same = result.lines.filter((l) => l.time === seen);
        // After a restart the kubelet serves the new instance: only lines from before it belong to this stream.
        const cutoff = still && still !== instance ? Date.parse(still) : Infinity;
        const fresh = [...same.slice(seenAtSame), ...result.lines.filter((l) => l.time > seen)].filter((l) => l.time < cutoff);
        for (const l of fresh) write(req, format(l, options.timestamps));
        if (fresh.length) {
          seen = fresh[fresh.length - 1].time;
          seenAtSame = result.lines.filter((l) => l.time === seen).length;
        }
        // The kubelet's follow ends when the container it streams from exits.
        if (!instance || still !== instance) {
          ended();
          return;
        }
        schedule();
      };
      const schedule = () => {
        const t = env.clock.setTimer(followPollMs, () => {
          timers.delete(t);
          poll();
        }, 'kubectl logs -f', { background: true });
        timers.add(t);
      };
      schedule();
    }
  });
}
