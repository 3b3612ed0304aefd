// kubectl drain NODE (k8s.io/kubectl v1.32: pkg/cmd/drain RunDrain, pkg/drain Helper and filters), over the
// in-process Client and the virtual clock:
//
//   1. cordon the node (`node/node-1 cordoned`);
//   2. list the pods bound to it and filter them as kubectl does: DaemonSet-managed pods are never evicted
//      (an error without --ignore-daemonsets), mirror pods are skipped, pods with emptyDir volumes need
//      --delete-emptydir-data, pods no controller manages need --force; finished pods always go. Errors stop
//      the drain before anything is evicted; warnings are printed as `Warning: …`;
//   3. evict every pod through pods/eviction (or DELETE with --disable-eviction) — a 429 from a
//      PodDisruptionBudget is printed and retried every 5 s, as kubectl retries it — then poll each pod every
//      second until it is gone (`pod/web-abc evicted`);
//   4. `node/node-1 drained`, or kubectl's error lines and exit code 1.
//
// Design: a state machine driven by clock timers, not a loop — drain() does the synchronous part at once and
// returns a DrainHandle whose output grows as virtual time advances (retries and polls are clock timers), and
// whose `finished` promise resolves with the whole output when the command would exit. Nothing blocks:
//
//   const run = drain({ client, clock }, 'node-1', { ignoreDaemonSets: true });
//   cluster.runUntil(() => run.done);
//   run.result  // { exitCode: 0, lines: [{stream: 'stdout', text: 'node/node-1 cordoned'}, …] }
//
// The timers are foreground work: while a drain waits (for a pod on a dead node, say) runUntilIdle keeps
// running, as a hung kubectl would. cancel() is Ctrl-C.
import type { Pod } from 'kubernetes-types/core/v1';
import { StatusReason, isStatusError } from '../shared/api/status';
import type { Client } from '../control-plane/client/client';
import type { Clock, TimerHandle } from '../control-plane/sim/clock';
import { CommandOutput, setUnschedulable, type CommandLine, type CommandResult } from './cordon';

export interface DrainOptions {
  /** Continue even if there are pods that do not declare a controller. */
  force?: boolean;
  /** Ignore DaemonSet-managed pods. */
  ignoreDaemonSets?: boolean;
  /** Continue even if there are pods using emptyDir (local data that will be deleted when the node is drained). */
  deleteEmptyDirData?: boolean;
  /** Seconds given to each pod to terminate gracefully; negative (the default) uses the pod's own. */
  gracePeriodSeconds?: number;
  /** How long to wait before giving up, in seconds; 0 (the default) waits for ever. */
  timeoutSeconds?: number;
  /** Label selector to filter pods on the node. */
  podSelector?: string;
  /** DELETE the pods instead of evicting them (bypasses PodDisruptionBudgets). */
  disableEviction?: boolean;
  /** Do not wait for a pod whose deletionTimestamp is older than this many seconds (0: always wait). */
  skipWaitForDeleteTimeoutSeconds?: number;
}

export interface DrainDeps {
  client: Client;
  clock: Clock;
}

export interface DrainHandle {
  readonly node: string;
  /** What was printed so far. */
  readonly lines: readonly CommandLine[];
  /** Whether the command has exited. */
  readonly done: boolean;
  /** The whole output and exit code, once done. */
  readonly result: CommandResult | undefined;
  /** Resolves with the result when the command exits. */
  readonly finished: Promise<CommandResult>;
  /** Calls fn with every line as it is printed; returns an unsubscribe function. */
  onLine(fn: (line: CommandLine) => void): () => void;
  /** Ctrl-C: stops retrying and waiting (exit code 130). The node stays cordoned; evictions made stand. */
  cancel(): void;
}

/** kubectl's fixed retry delay after a refused eviction (pkg/drain: "will retry after 5s"). */
export const evictionRetryDelayMs = 5_000;
/** waitForDelete polls each pod this often. */
export const deletePollIntervalMs = 1_000;

const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

const daemonSetFatal = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const daemonSetWarning = 'ignoring DaemonSet-managed Pods';
const localStorageFatal = 'Pods with local storage (use --delete-emptydir-data to override)';
const localStorageWarning = 'deleting Pods with local storage';
const unmanagedFatal = 'Pods that declare no controller (use --force to override)';
const unmanagedWarning = 'deleting Pods that declare no controller';

/** PodDeleteStatus. */
interface PodDeleteStatus {
  delete: boolean;
  reason: 'Okay' | 'Skip' | 'Warning' | 'Error';
  message?: string;
}

const okay: PodDeleteStatus = { delete: true, reason: 'Okay' };
const skip: PodDeleteStatus = { delete: false, reason: 'Skip' };
const warning = (del: boolean, message: string): PodDeleteStatus => ({ delete: del, reason: 'Warning', message });
const error = (message: string): PodDeleteStatus => ({ delete: false, reason: 'Error', message });

interface PodDeleteList {
  items: { pod: Pod; status: PodDeleteStatus }[];
}

/** Starts `kubectl drain <node>`; see the file comment. */
export function drain(deps: DrainDeps, node: string, options: DrainOptions = {}): DrainHandle {
  const run = new DrainRun(deps, node, options);
  run.start();
  return run;
}

type PodTaskState = 'evicting' | 'waiting' | 'finished';

interface PodTask {
  pod: Pod;
  state: PodTaskState;
  timer?: TimerHandle;
}

class DrainRun implements DrainHandle {
  private readonly out = new CommandOutput();
  private readonly usingEviction: boolean;
  private tasks: PodTask[] = [];
  private readonly errors: string[] = [];
  private deadline = Infinity;
  private timeoutTimer?: TimerHandle;
  private finishedResult: CommandResult | undefined;
  private resolve!: (result: CommandResult) => void;
  readonly finished: Promise<CommandResult>;

  constructor(
    private readonly deps: DrainDeps,
    readonly node: string,
    private readonly options: DrainOptions,
  ) {
    this.usingEviction = !options.disableEviction;
    this.finished = new Promise((resolve) => (this.resolve = resolve));
  }

  get lines(): readonly CommandLine[] {
    return this.out.lines;
  }

  get done(): boolean {
    return this.finishedResult !== undefined;
  }

  get result(): CommandResult | undefined {
    return this.finishedResult;
  }

  onLine(fn: (line: CommandLine) => void): () => void {
    return this.out.onLine(fn);
  }

  cancel(): void {
    if (this.done) return;
    this.out.exitCode = 130;
    this.finish();
  }

  start(): void {
    const { client } = this.deps;
    let nodeObj;
    try {
      nodeObj = client.nodes.get(this.node);
    } catch (err) {
      this.out.fail(err);
      this.finish();
      return;
    }
    setUnschedulable(client, nodeObj, true, 'none', this.out);

    let list: PodDeleteList;
    try {
      list = this.podsForDeletion();
    } catch (err) {
      this.failNode(isStatusError(err) ? err.message : String(err));
      return;
    }
    const errs = listErrors(list);
    if (errs.length > 0) {
      this.failNode(aggregate(errs));
      return;
    }
    const warnings = listWarnings(list);
    if (warnings) this.out.stderr(`Warning: ${warnings}`);

    const pods = list.items.filter((i) => i.status.delete).map((i) => i.pod);
    if (pods.length === 0) {
      this.succeed();
      return;
    }
    const timeoutMs = (this.options.timeoutSeconds ?? 0) * 1000;
    if (timeoutMs > 0) {
      this.deadline = this.deps.clock.now() + timeoutMs;
      this.timeoutTimer = this.deps.clock.setTimer(timeoutMs, () => this.onTimeout(), `kubectl drain ${this.node} timeout`);
    }
    this.tasks = pods.map((pod) => ({ pod, state: 'evicting' }));
    if (this.usingEviction) {
      for (const task of this.tasks) this.evict(task);
    } else {
      this.deleteAll();
    }
    this.checkDone();
  }

  // ---------------------------------------------------------------- GetPodsForDeletion

  private podsForDeletion(): PodDeleteList {
    const pods = this.deps.client.pods.list({ fieldSelector: `spec.nodeName=${this.node}`, labelSelector: this.options.podSelector || undefined }).items as Pod[];
    const filters = [
      (p: Pod) => this.skipDeletedFilter(p),
      (p: Pod) => this.daemonSetFilter(p),
      (p: Pod) => (p.metadata?.annotations?.[mirrorPodAnnotation] !== undefined ? skip : okay),
      (p: Pod) => this.localStorageFilter(p),
      (p: Pod) => this.unreplicatedFilter(p),
    ];
    const items = pods.map((pod) => {
      let status = okay;
      for (const filter of filters) {
        status = filter(pod);
        // Short-circuits as soon as a pod is filtered out: only the last filter's message counts.
        if (!status.delete) break;
      }
      return { pod, status };
    });
    return { items };
  }

  private skipDeletedFilter(pod: Pod): PodDeleteStatus {
    return this.shouldSkipPod(pod) ? skip : okay;
  }

  private shouldSkipPod(pod: Pod): boolean {
    const limit = this.options.skipWaitForDeleteTimeoutSeconds ?? 0;
    const ts = pod.metadata?.deletionTimestamp;
    if (limit <= 0 || !ts) return false;
    return Math.floor((this.deps.clock.now() - Date.parse(ts)) / 1000) > limit;
  }

  private daemonSetFilter(pod: Pod): PodDeleteStatus {
    // DaemonSet pods are never evicted, whatever the flags: the DaemonSet controller would put them back at once.
    const ref = controllerOf(pod);
    if (!ref || ref.kind !== 'DaemonSet') return okay;
    if (finished(pod)) return okay;
    try {
      this.deps.client.daemonSets.get(ref.name, { namespace: pod.metadata?.namespace });
    } catch (err) {
      if (!isStatusError(err)) throw err;
      // An orphan (its DaemonSet is gone) goes with --force.
      if (err.reason === StatusReason.NotFound && this.options.force) return warning(true, err.message);
      return error(err.message);
    }
    if (!this.options.ignoreDaemonSets) return error(daemonSetFatal);
    return warning(false, daemonSetWarning);
  }

  private localStorageFilter(pod: Pod): PodDeleteStatus {
    if (!(pod.spec?.volumes ?? []).some((v) => v.emptyDir)) return okay;
    if (finished(pod)) return okay;
    if (!this.options.deleteEmptyDirData) return error(localStorageFatal);
    return warning(true, localStorageWarning);
  }

  private unreplicatedFilter(pod: Pod): PodDeleteStatus {
    if (finished(pod)) return okay;
    if (controllerOf(pod)) return okay;
    if (this.options.force) return warning(true, unmanagedWarning);
    return error(unmanagedFatal);
  }

  // ---------------------------------------------------------------- evictPods

  private deleteOptions(): { gracePeriodSeconds?: number } {
    const grace = this.options.gracePeriodSeconds ?? -1;
    return grace >= 0 ? { gracePeriodSeconds: grace } : {};
  }

  /** One turn of evictPods' per-pod loop: print, check the deadline, POST the eviction. */
  private evict(task: PodTask): void {
    if (this.done) return;
    const { name, namespace } = task.pod.metadata ?? {};
    this.out.stdout(`evicting pod ${namespace}/${name}`);
    if (this.deps.clock.now() >= this.deadline) {
      this.taskFailed(task, `error when evicting pods/${JSON.stringify(name)} -n ${JSON.stringify(namespace)}: global timeout reached: ${goDuration(this.options.timeoutSeconds ?? 0)}`);
      return;
    }
    try {
      this.deps.client.handle({
        verb: 'create',
        group: '',
        version: 'v1',
        resource: 'pods',
        subresource: 'eviction',
        namespace,
        name,
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, deleteOptions: this.deleteOptions() },
      });
    } catch (err) {
      if (!isStatusError(err)) throw err;
      if (err.reason === StatusReason.NotFound) {
        // Already gone: nothing to wait for, and kubectl prints nothing more for it.
        task.state = 'finished';
        this.checkDone();
        return;
      }
      if (err.reason === StatusReason.TooManyRequests) {
        this.out.stderr(`error when evicting pods/${JSON.stringify(name)} -n ${JSON.stringify(namespace)} (will retry after 5s): ${err.message}`);
        task.timer = this.deps.clock.setTimer(evictionRetryDelayMs, () => this.evict(task), `kubectl drain ${this.node} retry eviction`);
        return;
      }
      const terminating = err.reason === StatusReason.Forbidden && (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
      if (terminating && task.pod.metadata?.deletionTimestamp) {
        // The namespace is going and so is the pod: just wait for it.
      } else if (terminating) {
        this.out.stderr(`error when evicting pod ${JSON.stringify(name)} from terminating namespace ${JSON.stringify(namespace)} (will retry after 5s): ${err.message}`);
        task.timer = this.deps.clock.setTimer(evictionRetryDelayMs, () => this.evict(task), `kubectl drain ${this.node} retry eviction`);
        return;
      } else {
        this.taskFailed(task, `error when evicting pods/${JSON.stringify(name)} -n ${JSON.stringify(namespace)}: ${err.message}`);
        return;
      }
    }
    task.state = 'waiting';
    this.poll(task);
  }

  /** deletePods (--disable-eviction): DELETE each pod, stopping at the first error, then wait for them all. */
  private deleteAll(): void {
    for (const task of this.tasks) {
      const { name, namespace } = task.pod.metadata ?? {};
      try {
        this.deps.client.pods.delete(name ?? '', { namespace, ...this.deleteOptions() });
      } catch (err) {
        if (!isStatusError(err)) throw err;
        if (err.reason !== StatusReason.NotFound) {
          this.fail(err.message);
          return;
        }
      }
      task.state = 'waiting';
    }
    for (const task of this.tasks) this.poll(task);
  }

  /** waitForDelete for one pod: gone (or replaced by a pod with another uid) → `pod/<name> evicted`. */
  private poll(task: PodTask): void {
    if (this.done || task.state !== 'waiting') return;
    const { name, namespace, uid } = task.pod.metadata ?? {};
    let current: Pod | undefined;
    try {
      current = this.deps.client.pods.get(name ?? '', { namespace });
    } catch (err) {
      if (!isStatusError(err)) throw err;
      if (err.reason !== StatusReason.NotFound) {
        this.taskFailed(task, this.waitError(task, err.message));
        return;
      }
    }
    if (!current || current.metadata?.uid !== uid) {
      this.out.stdout(`pod/${name} ${this.usingEviction ? 'evicted' : 'deleted'}`);
      task.state = 'finished';
      this.checkDone();
      return;
    }
    if (this.shouldSkipPod(current)) {
      this.out.stdout(`pod ${JSON.stringify(name)} has DeletionTimestamp older than ${this.options.skipWaitForDeleteTimeoutSeconds} seconds, skipping`);
      task.state = 'finished';
      this.checkDone();
      return;
    }
    task.timer = this.deps.clock.setTimer(deletePollIntervalMs, () => this.poll(task), `kubectl drain ${this.node} wait for ${namespace}/${name}`);
  }

  private waitError(task: PodTask, message: string): string {
    const { name, namespace } = task.pod.metadata ?? {};
    return this.usingEviction ? `error when waiting for pod ${JSON.stringify(name)} in namespace ${JSON.stringify(namespace)} to terminate: ${message}` : message;
  }

  /** The global --timeout: pods still being waited for fail now; pods between retries fail at their next turn. */
  private onTimeout(): void {
    this.timeoutTimer = undefined;
    if (this.done) return;
    const waiting = this.tasks.filter((t) => t.state === 'waiting');
    if (!this.usingEviction) {
      if (waiting.length > 0) this.fail('context deadline exceeded');
      return;
    }
    for (const task of waiting) this.taskFailed(task, this.waitError(task, 'context deadline exceeded'));
  }

  private taskFailed(task: PodTask, message: string): void {
    this.deps.clock.clearTimer(task.timer);
    task.state = 'finished';
    this.errors.push(message);
    this.checkDone();
  }

  private checkDone(): void {
    if (this.done || this.tasks.some((t) => t.state !== 'finished')) return;
    if (this.errors.length > 0) this.fail(aggregate(this.errors));
    else this.succeed();
  }

  // ---------------------------------------------------------------- RunDrain's ending

  private succeed(): void {
    this.out.stdout(`node/${this.node} drained`);
    this.finish();
  }

  /** deleteOrEvictPodsSimple failed after evicting: list what is left on the node, then fail the node. */
  private fail(message: string): void {
    try {
      const pending = this.podsForDeletion().items.filter((i) => i.status.delete);
      if (pending.length > 0) {
        this.out.stderr(`There are pending pods in node ${JSON.stringify(this.node)} when an error occurred: ${message}`);
        for (const i of pending) this.out.stderr(`pod/${i.pod.metadata?.name}`);
      }
    } catch (err) {
      if (!isStatusError(err)) throw err;
      this.out.stderr(`Following errors occurred while getting the list of pods to delete:\n${err.message}`);
    }
    this.failNode(message);
  }

  private failNode(message: string): void {
    this.out.stderr(`error: unable to drain node ${JSON.stringify(this.node)} due to error: ${message}, continuing command...`);
    this.out.stderr('There are pending nodes to be drained:');
    this.out.stderr(` ${this.node}`);
    this.out.stderr(`error: ${message}`);
    this.out.exitCode = 1;
    this.finish();
  }

  private finish(): void {
    for (const t of this.tasks) this.deps.clock.clearTimer(t.timer);
    this.deps.clock.clearTimer(this.timeoutTimer);
    this.finishedResult = this.out.result();
    this.resolve(this.finishedResult);
  }
}

function controllerOf(pod: Pod): { kind: string; name: string } | undefined {
  return (pod.metadata?.ownerReferences ?? []).find((r) => r.controller);
}

function finished(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** PodDeleteList.Warnings: "<message>: ns/a, ns/b; <message>: …" (kubectl's map order; here first seen first). */
function listWarnings(list: PodDeleteList): string {
  const byMessage = new Map<string, string[]>();
  for (const { pod, status } of list.items) {
    if (status.reason !== 'Warning') continue;
    const key = status.message ?? '';
    byMessage.set(key, [...(byMessage.get(key) ?? []), `${pod.metadata?.namespace}/${pod.metadata?.name}`]);
  }
  return [...byMessage].map(([msg, pods]) => `${msg}: ${pods.join(', ')}`).join('; ');
}

/** PodDeleteList.errors: "cannot delete <message>: ns/a, ns/b", one per message. */
function listErrors(list: PodDeleteList): string[] {
  const byMessage = new Map<string, string[]>();
  for (const { pod, status } of list.items) {
    if (status.reason !== 'Error') continue;
    const key = status.message || 'unexpected error';
    byMessage.set(key, [...(byMessage.get(key) ?? []), `${pod.metadata?.namespace}/${pod.metadata?.name}`]);
  }
  return [...byMessage].map(([msg, pods]) => `cannot delete ${msg}: ${pods.join(', ')}`);
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several as "[a, b]". */
function aggregate(messages: string[]): string {
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

/** time.Duration.String() for whole seconds: 30s, 1m30s, 1h0m0s. */
export function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
