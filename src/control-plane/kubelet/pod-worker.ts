// One pod's lifecycle on its node (the kubelet's pod worker + kuberuntime SyncPod + prober + the status it
// reports). Level-triggered: sync() looks at the pod as the API server last described it and at what runs, and
// takes the next steps — create the sandbox, pull images, run init containers in order, start containers,
// restart them per restartPolicy with CrashLoopBackOff, kill them when liveness fails or the pod is deleted — then
// schedules itself for the next moment something is due (a container exits, a probe ticks, a back-off ends).
import type { Container, ContainerState as ApiContainerState, ContainerStatus, Pod, PodCondition, PodStatus } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../shared/api/types';
import { parseQuantity, toNumber } from '../../shared/lib/quantity';
import { computePodQOS } from '../apiserver/registry/generic/podspec/resources';
import type { Clock, TimerHandle } from '../sim/clock';
import { rfc3339 } from '../sim/clock';
import type { Backoff } from './backoff';
import { formatBackoff, formatGoDuration, formatPod } from './format';
import { InvalidImageNameError, parseImageReference, profileFor, type ImageProfile, type ImageReference } from './images';
import { getPhase, initializedCondition, containersReadyCondition, mergeConditions, readyCondition, PodPhase, isRestartableInitContainer } from './pod-status';
import { answerKey, lastAnswer, outputUntil, runExecCommand, runProgram, filesAt, SigtermAction, type NetworkCall, type ProgramContext, type ProgramRun } from './program';
import type { PodNetwork } from '../network/tools';
import { probeTimings, runProbe, ProbeType } from './probes';
import type { ContainerRuntime, PullResult } from './runtime';
import { nextMountRetryMs, type VolumeSetUpFailure } from './volumes';
import type { AttachWaitResult } from './volume-attach';
import { sameJson } from '../../shared/lib/same-json';

export type EventType = 'Normal' | 'Warning';

/** What a pod worker needs from its kubelet. */
export interface PodWorkerHost {
  readonly clock: Clock;
  readonly nodeName: string;
  readonly hostIP: string;
  readonly runtime: ContainerRuntime;
  readonly crashBackoff: Backoff;
  readonly pullBackoff: Backoff;
  /** fieldPath names the container, as `spec.containers{nginx}` (kubectl describe's "From" column). */
  event(pod: KubeObject, type: EventType, reason: string, message: string, fieldPath?: string): void;
  trace(data: Record<string, unknown>): void;
  /** Resolves the container's environment (configMap/secret refs need the API server). */
  resolveEnv(pod: Pod, container: Container): { env: Record<string, string> } | { error: string };
  /** The pod's volumes whose SetUp fails now (a configMap/secret volume whose object is missing). */
  volumeSetUpFailures(pod: Pod): VolumeSetUpFailure[];
  /** Whether the pod's PVC volumes are bound and attached to this node (volume-attach.ts); absent: nothing to wait for. */
  waitForAttach?(pod: Pod, now: number): AttachWaitResult;
  /** The pod's view of the data plane for its containers' own programs (network/pod-network.ts); absent: none. */
  podNetwork?(pod: Pod): PodNetwork | undefined;
  /** The worker's status changed: write it (the status manager). */
  statusChanged(worker: PodWorker): void;
  /** Termination finished: write the final status and delete the pod object. */
  terminated(worker: PodWorker): void;
}

export type ContainerKind = 'init' | 'sidecar' | 'regular';

type PlannedExit = { at: number; code: number; reason: string };

/** The probe timers of an instance without probes (most have none): one shared empty list, replaced at the first. */
const noProbeTimers = Object.freeze([]) as unknown as TimerHandle[];

/**
 * The resolved image of a container, shared by every container of the same image reference and id: each pod of a
 * Deployment would otherwise hold its own copy of these fields. Frozen (a record is replaced, never changed).
 */
interface ResolvedImage {
  readonly normalized: string;
  readonly imageID: string;
  readonly ref: ImageReference;
  /** profileFor(ref), made once per resolved image rather than kept by each container. */
  readonly profile: ImageProfile;
}

const resolvedImages = new WeakMap<ImageReference, ResolvedImage[]>();

export function resolvedImage(normalized: string, imageID: string, ref: ImageReference): ResolvedImage {
  let list = resolvedImages.get(ref);
  if (!list) resolvedImages.set(ref, (list = []));
  for (const r of list) if (r.normalized === normalized && r.imageID === imageID) return r;
  const r: ResolvedImage = Object.freeze({ normalized, imageID, ref, profile: profileFor(ref) });
  // A few ids per reference at most (a re-pulled tag may resolve to a new digest): keep the latest few.
  if (list.length >= 4) list.shift();
  list.push(r);
  return r;
}

/** The bits of an instance's flags. */
const InstanceFlag = { Killing: 1, Started: 2, Ready: 4 } as const;

/**
 * One run of a container. A class whose common members are made in the constructor: a member added afterwards
 * costs the object a separate property array, and every running pod holds one. The rare ones (probe counts, a
 * context re-interpreted with its network journal, a network poll timer) are added by the few that need them.
 */
class Instance {
  /** How it ended (finishInstance), or undefined while it runs. */
  exit: PlannedExit | undefined = undefined;
  /**
   * The program's context when it cannot be made again from the members below (a run re-interpreted with its
   * network journal); otherwise undefined, and contextOf makes it when asked (exec, probes, logs): a container
   * lives long, and its context (with the files it reads) cost ~180 bytes per pod.
   */
  declare ctx?: ProgramContext;
  /** The exit planned (the program's own, or a kill's) and the timer that makes it, made only when there is one. */
  exitPlan: { readonly exit: PlannedExit; timer: TimerHandle | undefined } | undefined = undefined;
  /** The next re-check of the answers a program waiting on the network (ProgramEnd 'poll') depends on. */
  declare pollTimer?: TimerHandle;
  probeTimers: TimerHandle[] = noProbeTimers;
  /** killing, started and ready (InstanceFlag bits): one small integer, not a member each. */
  private flags: number;
  /** Consecutive probe results per probe type, made at the first result (most containers have no probes). */
  declare counts?: Partial<Record<ProbeType, { success: number; failure: number }>>;

  constructor(
    readonly id: string,
    /** The image it runs (shared by every container of the image). */
    readonly resolved: ResolvedImage,
    readonly startedAt: number,
    public run: ProgramRun,
    /** The environment resolved at start (env is fixed for the container's life). */
    readonly env: Record<string, string>,
    started: boolean,
  ) {
    this.flags = started ? InstanceFlag.Started : 0;
  }

  get plannedExit(): PlannedExit | undefined {
    return this.exitPlan?.exit;
  }

  /** Being killed (preStop, SIGTERM, the grace period). */
  get killing(): boolean {
    return (this.flags & InstanceFlag.Killing) !== 0;
  }

  set killing(on: boolean) {
    this.flags = on ? this.flags | InstanceFlag.Killing : this.flags & ~InstanceFlag.Killing;
  }

  /** Its startup probe succeeded (or it has none). */
  get started(): boolean {
    return (this.flags & InstanceFlag.Started) !== 0;
  }

  set started(on: boolean) {
    this.flags = on ? this.flags | InstanceFlag.Started : this.flags & ~InstanceFlag.Started;
  }

  get ready(): boolean {
    return (this.flags & InstanceFlag.Ready) !== 0;
  }

  set ready(on: boolean) {
    this.flags = on ? this.flags | InstanceFlag.Ready : this.flags & ~InstanceFlag.Ready;
  }

  get finishedAt(): number | undefined {
    return this.exit?.at;
  }

  get exitCode(): number | undefined {
    return this.exit?.code;
  }

  get reason(): string | undefined {
    return this.exit?.reason;
  }

  get profile(): ImageProfile {
    return this.resolved.profile;
  }
}

/**
 * A container of the pod: its spec, its current and previous runs. The pod's records are a list linked through
 * next, in spec order (init containers first): a pod has one or two containers, and an array (with a holder of
 * its own) cost more than the records. Members made in the constructor; the rare ones (a pull in flight, its
 * error, a config back-off, what a kubelet restart carried over, a previous run, a waiting reason) are added
 * when first needed.
 */
class ContainerRecord {
  restartCount = 0;
  current: Instance | undefined = undefined;
  /** The image is present and resolved for the next start. */
  image: ResolvedImage | undefined = undefined;
  /** The pod's next container record. */
  next: ContainerRecord | undefined = undefined;
  /** The run before current, from the first restart on. */
  declare previous?: Instance;
  /** Why it waits (an image or config error, a back-off), while it does. */
  declare waiting?: { reason: string; message?: string };
  /** An image pull in flight for this container. */
  declare pull?: { cancel: () => void; image: string };
  declare lastPullError?: string;
  /** After a CreateContainerConfigError: the pod worker's back-off before the next attempt. */
  declare configRetryAt?: number;
  /** From the API status, when the kubelet restarted and the runtime lost the container. */
  declare carried?: { lastState: ApiContainerState; restart: boolean };

  constructor(
    public spec: Container,
    /** Its kind and fieldPath, shared by the containers of that kind and name (containerSlot). */
    private readonly slot: ContainerSlot,
  ) {}

  get kind(): ContainerKind {
    return this.slot.kind;
  }

  /** The ObjectReference fieldPath of its events (`spec.containers{nginx}`): one string for all of them. */
  get fieldPath(): string {
    return this.slot.fieldPath;
  }
}

/** A container's kind and events' fieldPath: the same for every pod's container of that kind and name. */
interface ContainerSlot {
  readonly kind: ContainerKind;
  readonly fieldPath: string;
}

/** Recent slots by kind and container name: a cache, started again when it holds too many. */
const maxContainerSlots = 256;
const containerSlots = { regular: new Map<string, ContainerSlot>(), init: new Map<string, ContainerSlot>(), sidecar: new Map<string, ContainerSlot>() };

export function containerSlot(kind: ContainerKind, name: string): ContainerSlot {
  const cache = containerSlots[kind];
  let slot = cache.get(name);
  if (slot === undefined) {
    if (cache.size >= maxContainerSlots) cache.clear();
    slot = Object.freeze({ kind, fieldPath: containerFieldPath(kind, name) });
    cache.set(name, slot);
  }
  return slot;
}

/** The record of the named container, from the pod's first record. */
function recordNamed(first: ContainerRecord | undefined, name: string): ContainerRecord | undefined {
  for (let rec = first; rec; rec = rec.next) if (rec.spec.name === name) return rec;
  return undefined;
}

const sandboxSetupMs = 600;

/** Where a pod's sandbox is: not made yet, being created, ready, or torn down. */
const SandboxState = { None: 0, Creating: 1, Ready: 2, TornDown: 3 } as const;
type SandboxState = (typeof SandboxState)[keyof typeof SandboxState];

/** The bits of a pod worker's flags. */
const Flag = { SyncQueued: 1, Stopped: 2, TerminationReported: 4, Rejected: 8, VolumesMounted: 16 } as const;
/** Where the sandbox state sits in the flags (two bits). */
const sandboxStateShift = 5;
type Flag = (typeof Flag)[keyof typeof Flag];
const gracefulExitMs = 100;
const minimumGracePeriodMs = 2000;
const defaultRetryMs = 10_000;
const minNetworkPollMs = 1000;

/** Asks the network one of a program's questions again. */
function ask(network: PodNetwork, call: NetworkCall) {
  return call.kind === 'lookup' ? network.lookup(call.name) : network.request({ url: call.url, ...(call.method ? { method: call.method } : {}), ...(call.host ? { host: call.host } : {}) });
}

function containerKind(c: Container, init: boolean): ContainerKind {
  if (!init) return 'regular';
  return isRestartableInitContainer(c) ? 'sidecar' : 'init';
}

function memoryLimit(c: Container): number | undefined {
  const raw = c.resources?.limits?.memory;
  if (raw === undefined) return undefined;
  try {
    return toNumber(parseQuantity(String(raw)));
  } catch {
    return undefined;
  }
}

/** Kubernetes' $(VAR) expansion of command and args ($$ escapes). */
export function expandContainerArgs(args: readonly string[] | undefined, env: Record<string, string>): string[] | undefined {
  if (!args) return undefined;
  return args.map((a) =>
    a.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
      if (m === '$$') return '$';
      return name !== undefined && name in env ? env[name] : m;
    }),
  );
}

/** Whether the pod changed in what the kubelet acts on (the comparison is of JSON texts, made without them). */
function specChanged(a: Pod, b: Pod): boolean {
  const am = a.metadata ?? {};
  const bm = b.metadata ?? {};
  return (
    am.deletionTimestamp !== bm.deletionTimestamp ||
    am.deletionGracePeriodSeconds !== bm.deletionGracePeriodSeconds ||
    !sameJson(a.spec, b.spec) ||
    !sameJson(am.labels ?? {}, bm.labels ?? {}) ||
    !sameJson(am.annotations ?? {}, bm.annotations ?? {}) ||
    !sameForeignConditions(a.status?.conditions ?? [], b.status?.conditions ?? [])
  );
}

/** The conditions the kubelet computes itself; a change to the others (DisruptionTarget, gates…) wakes it. */
function isKubeletCondition(c: PodCondition): boolean {
  return c.type === 'Ready' || c.type === 'ContainersReady' || c.type === 'Initialized' || c.type === 'PodReadyToStartContainers';
}

/** The conditions other than the kubelet's, in order, compared as their JSON texts. */
function sameForeignConditions(a: readonly PodCondition[], b: readonly PodCondition[]): boolean {
  let j = 0;
  for (const c of a) {
    if (isKubeletCondition(c)) continue;
    while (j < b.length && isKubeletCondition(b[j])) j++;
    if (j >= b.length || !sameJson(c, b[j])) return false;
    j++;
  }
  while (j < b.length && isKubeletCondition(b[j])) j++;
  return j === b.length;
}

export class PodWorker {
  pod: Pod;
  /** namespace/name, made once (a pod's name and namespace never change): labels and traces use it often. */
  readonly key: string;
  /** The first container record (the rest follow through next). */
  private readonly containers: ContainerRecord | undefined;
  // The pod sandbox: members of the worker's own (an object of its own, with a boxed time, cost ~70 bytes a pod),
  // its state (SandboxState) in the flags.
  /** When a sandbox being created is ready; undefined otherwise (so no boxed number stays for a running pod). */
  private sandboxReadyAt: number | undefined = undefined;
  /** The sandbox's IP, kept after its teardown (the pod's status still shows it). */
  private sandboxIP: string | undefined = undefined;
  private startTime: number | undefined;
  /** Pending wake-ups; made at the first (a running pod usually has none). */
  private timers: Set<TimerHandle> | undefined;
  /** The worker's yes/no state (Flag bits) and its sandbox's state: one small integer rather than a member each. */
  private flags = 0;
  /** Set once the pod ended for good (restartPolicy Never/OnFailure, init failure, rejection). */
  private terminalPhase: PodPhase | undefined;
  // The members below are added when first needed (a running pod has none of them).
  private declare terminalReason?: { reason: string; message: string };
  private declare terminating?: { since: number; graceMs: number };
  /** The volume SetUp back-off, made at the first failure (most pods mount at once). */
  private declare mountRetry?: { delayMs: number; at: number };
  /** When the pending attach re-check fires (one timer at a time); absent: none yet. */
  private declare attachWakeAt?: number;
  /** The status last computed, for the status manager. */
  lastStatus: PodStatus | undefined;
  /**
   * The status manager's: the status last written for this pod — the very object the worker computed (its
   * lastStatus until it computes a different one), so remembering it costs nothing and the next status is
   * compared field by field. Kept here, not in a map of the kubelet's by uid: the worker is per pod already.
   */
  writtenStatus: PodStatus | undefined;
  /** The stored status writtenStatus was last shared with (the kubelet's shareWrittenStatus), to do it once per version. */
  writtenSharedWith: PodStatus | undefined;
  /** The kubelet's admission: this pod's requests, computed at the first need (container resources are immutable). */
  admissionRequests: { cpu: number; memory: number } | undefined = undefined;

  constructor(
    private readonly host: PodWorkerHost,
    pod: Pod,
  ) {
    this.pod = pod;
    this.key = [String(pod.metadata!.namespace), '/', String(pod.metadata!.name)].join('');
    const spec = pod.spec!;
    const records: ContainerRecord[] = [];
    const add = (c: Container, kind: ContainerKind): void => {
      const rec = new ContainerRecord(c, containerSlot(kind, c.name));
      const i = records.findIndex((r) => r.spec.name === c.name);
      if (i >= 0) records[i] = rec;
      else records.push(rec);
    };
    for (const c of spec.initContainers ?? []) add(c, containerKind(c, true));
    for (const c of spec.containers) add(c, 'regular');
    for (let i = 1; i < records.length; i++) records[i - 1].next = records[i];
    this.containers = records[0];
    this.adoptApiStatus(pod);
  }

  /** After a kubelet restart: what the API server says ran before (restart counts, start time, finished pods). */
  private adoptApiStatus(pod: Pod): void {
    const status = pod.status;
    if (!status) return;
    if (status.phase === PodPhase.Succeeded || status.phase === PodPhase.Failed) {
      this.terminalPhase = status.phase;
      this.lastStatus = structuredClone(status) as PodStatus;
      if (status.reason) this.terminalReason = { reason: status.reason, message: status.message ?? '' };
    }
    if (status.startTime) this.startTime = Date.parse(status.startTime);
    const now = this.host.clock.now();
    for (const s of [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])]) {
      const rec = recordNamed(this.containers, s.name);
      if (!rec) continue;
      rec.restartCount = s.restartCount ?? 0;
      if (s.state?.running) {
        rec.carried = {
          restart: true,
          lastState: { terminated: { exitCode: 255, reason: 'Unknown', startedAt: s.state.running.startedAt, finishedAt: rfc3339(now), containerID: s.containerID } },
        };
      } else if (s.state?.terminated) {
        rec.carried = { restart: true, lastState: { terminated: { ...s.state.terminated } } };
      } else if (s.lastState?.terminated) {
        rec.carried = { restart: false, lastState: { terminated: { ...s.lastState.terminated } } };
      }
    }
  }


  get podIP(): string | undefined {
    return this.sandboxIP;
  }

  /** The pod's uid (the same in every version of the pod). */
  get uid(): string {
    return this.pod.metadata!.uid!;
  }

  private get sandboxState(): SandboxState {
    return ((this.flags >> sandboxStateShift) & 3) as SandboxState;
  }

  private set sandboxState(state: SandboxState) {
    this.flags = (this.flags & ~(3 << sandboxStateShift)) | (state << sandboxStateShift);
  }

  private get syncQueued(): boolean {
    return (this.flags & Flag.SyncQueued) !== 0;
  }

  private set syncQueued(on: boolean) {
    this.setFlag(Flag.SyncQueued, on);
  }

  private get stopped(): boolean {
    return (this.flags & Flag.Stopped) !== 0;
  }

  private set stopped(on: boolean) {
    this.setFlag(Flag.Stopped, on);
  }

  private get terminationReported(): boolean {
    return (this.flags & Flag.TerminationReported) !== 0;
  }

  private set terminationReported(on: boolean) {
    this.setFlag(Flag.TerminationReported, on);
  }

  /** Refused at admission: its status is only the phase, reason and message. */
  private get rejected(): boolean {
    return (this.flags & Flag.Rejected) !== 0;
  }

  private set rejected(on: boolean) {
    this.setFlag(Flag.Rejected, on);
  }

  /** Every volume is set up; until then nothing is created (WaitForAttachAndMount). */
  private get volumesMounted(): boolean {
    return (this.flags & Flag.VolumesMounted) !== 0;
  }

  private set volumesMounted(on: boolean) {
    this.setFlag(Flag.VolumesMounted, on);
  }

  private setFlag(flag: Flag, on: boolean): void {
    this.flags = on ? this.flags | flag : this.flags & ~flag;
  }

  /** Whether the pod finished (Succeeded/Failed) and nothing more will run. */
  get isTerminal(): boolean {
    return this.terminalPhase !== undefined;
  }

  /** Requests the node resources count: a running or pending pod. */
  get countsForAdmission(): boolean {
    return !this.isTerminal;
  }

  /** The informer's newer view of the pod. A changed container image restarts that container. */
  update(pod: Pod): void {
    const before = this.pod;
    this.pod = pod;
    // Like the kubelet's config source, only a change to what the kubelet acts on wakes the worker: its own
    // status writes coming back through the watch do not.
    if (!specChanged(before, pod)) {
      // The same containers: hold the newest object's, so the older pod objects can be freed.
      this.adoptContainerSpecs(pod);
      return;
    }
    const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
    for (const c of all) {
      const rec = recordNamed(this.containers, c.name);
      if (!rec) continue;
      const changed = rec.spec.image !== c.image;
      rec.spec = c;
      if (!changed) continue;
      rec.image = undefined;
      const inst = rec.current;
      if (inst && inst.finishedAt === undefined && !pod.metadata?.deletionTimestamp) {
        this.killInstance(rec, inst, 'changed', (pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000);
      }
    }
    this.requestSync();
  }

  private adoptContainerSpecs(pod: Pod): void {
    for (const list of [pod.spec?.initContainers, pod.spec?.containers]) {
      for (const c of list ?? []) {
        const rec = recordNamed(this.containers, c.name);
        if (rec) rec.spec = c;
      }
    }
  }

  requestSync(): void {
    if (this.syncQueued || this.stopped) return;
    this.syncQueued = true;
    this.host.clock.defer(() => {
      this.syncQueued = false;
      if (!this.stopped) this.sync();
    }, `kubelet/${this.host.nodeName} sync ${this.key}`);
  }

  private wakeAt(at: number, label: string): void {
    const handle = this.host.clock.setTimer(Math.max(0, at - this.host.clock.now()), () => {
      this.timers?.delete(handle);
      if (this.timers?.size === 0) this.timers = undefined;
      this.requestSync();
    }, `kubelet/${this.host.nodeName} ${label} ${this.key}`);
    (this.timers ??= new Set()).add(handle);
  }

  /** The node died: everything stops, no status, no events. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers ?? []) this.host.clock.clearTimer(t);
    this.timers = undefined;
    for (let rec = this.containers; rec; rec = rec.next) {
      rec.pull?.cancel();
      for (const inst of [rec.current, rec.previous]) if (inst) this.clearInstanceTimers(inst);
    }
    this.host.runtime.releaseIP(this.sandboxIP);
  }

  /** The pod is gone from the API server (force-deleted, or deleted while the kubelet was away): kill now. */
  forceKill(): void {
    for (let rec = this.containers; rec; rec = rec.next) {
      const inst = rec.current;
      if (inst && inst.finishedAt === undefined) {
        this.host.event(this.pod as KubeObject, 'Normal', 'Killing', `Stopping container ${rec.spec.name}`, rec.fieldPath);
        this.finishInstance(rec, inst, { at: this.host.clock.now(), code: 137, reason: 'Error' });
      }
    }
    this.host.trace({ event: 'kubelet.pod.removed', pod: this.key });
    this.stop();
  }

  // ------------------------------------------------------------------ sync

  sync(): void {
    const now = this.host.clock.now();
    const pod = this.pod;
    if (pod.metadata?.deletionTimestamp) {
      this.syncTerminating(now);
      this.host.statusChanged(this);
      return;
    }
    if (this.terminalPhase) {
      this.stopEverything(now);
      this.host.statusChanged(this);
      return;
    }
    if (this.startTime === undefined) this.startTime = now;
    const ads = pod.spec?.activeDeadlineSeconds;
    if (ads !== undefined && now >= this.startTime + ads * 1000) {
      this.failPod('DeadlineExceeded', 'Pod was active on the node longer than the specified deadline', now);
      this.host.event(pod as KubeObject, 'Normal', 'DeadlineExceeded', 'Pod was active on the node longer than the specified deadline');
      this.host.statusChanged(this);
      return;
    }
    if (ads !== undefined) this.wakeAt(this.startTime + ads * 1000, 'activeDeadline');

    if (!this.mountVolumes(now) || !this.ensureSandbox(now)) {
      this.host.statusChanged(this);
      return;
    }
    if (this.syncInitContainers(now)) {
      for (const rec of this.regular()) this.syncContainer(rec, now);
      this.checkCompletion(now);
    }
    this.host.statusChanged(this);
  }

  private regular(): ContainerRecord[] {
    return (this.pod.spec?.containers ?? []).map((c) => recordNamed(this.containers, c.name)!).filter(Boolean);
  }

  private inits(): ContainerRecord[] {
    return (this.pod.spec?.initContainers ?? []).map((c) => recordNamed(this.containers, c.name)!).filter(Boolean);
  }

  /** SyncPod waits for the volumes before the sandbox; a failed SetUp is retried on the executor's back-off. */
  private mountVolumes(now: number): boolean {
    if (this.volumesMounted) return true;
    const attach = this.host.waitForAttach?.(this.pod, now);
    if (attach && !attach.ready) {
      if (attach.failedMount) this.host.event(this.pod as KubeObject, 'Warning', 'FailedMount', attach.failedMount);
      if ((this.attachWakeAt ?? 0) <= now) {
        this.attachWakeAt = attach.retryAt;
        this.wakeAt(attach.retryAt, 'attachRetry');
      }
      return false;
    }
    if (this.mountRetry && now < this.mountRetry.at) return false;
    const failures = this.host.volumeSetUpFailures(this.pod);
    if (failures.length === 0) {
      this.volumesMounted = true;
      return true;
    }
    for (const f of failures) {
      this.host.event(this.pod as KubeObject, 'Warning', 'FailedMount', `MountVolume.SetUp failed for volume ${JSON.stringify(f.volume)} : ${f.message}`);
    }
    const retry = (this.mountRetry ??= { delayMs: 0, at: 0 });
    retry.delayMs = nextMountRetryMs(retry.delayMs);
    retry.at = now + retry.delayMs;
    this.wakeAt(retry.at, 'mountRetry');
    return false;
  }

  private ensureSandbox(now: number): boolean {
    if (this.sandboxState === SandboxState.None) {
      const readyAt = now + sandboxSetupMs;
      this.sandboxState = SandboxState.Creating;
      this.sandboxReadyAt = readyAt;
      this.host.trace({ event: 'kubelet.sandbox.create', pod: this.key });
      this.wakeAt(readyAt, 'sandbox');
      return false;
    }
    if (this.sandboxState === SandboxState.Creating) {
      if (now < this.sandboxReadyAt!) return false;
      this.sandboxState = SandboxState.Ready;
      this.sandboxReadyAt = undefined;
      this.sandboxIP = this.pod.spec?.hostNetwork ? this.host.hostIP : this.host.runtime.allocateIP();
      this.host.trace({ event: 'kubelet.sandbox.ready', pod: this.key, podIP: this.sandboxIP });
    }
    return true;
  }

  /** Runs init containers in order; true when all have completed (sidecars: started). */
  private syncInitContainers(now: number): boolean {
    for (const rec of this.inits()) {
      if (rec.kind === 'sidecar') {
        this.syncContainer(rec, now);
        if (!rec.current || rec.current.finishedAt !== undefined || !rec.current.started) return false;
        continue;
      }
      const inst = rec.current;
      if (inst && inst.finishedAt !== undefined && inst.exitCode === 0) continue;
      if (inst && inst.finishedAt === undefined) return false;
      if (inst && inst.finishedAt !== undefined && this.pod.spec?.restartPolicy === 'Never') {
        this.terminalPhase = PodPhase.Failed;
        this.stopEverything(now);
        return false;
      }
      this.syncContainer(rec, now);
      return false;
    }
    return true;
  }

  private shouldRestart(rec: ContainerRecord, exitCode: number): boolean {
    if (rec.kind === 'sidecar') return true;
    const policy = this.pod.spec?.restartPolicy ?? 'Always';
    if (rec.kind === 'init') return policy !== 'Never' && exitCode !== 0;
    if (policy === 'Always') return true;
    if (policy === 'OnFailure') return exitCode !== 0;
    return false;
  }

  /** Starts the container if it should run and does not (pulling its image first, honouring back-offs). */
  private syncContainer(rec: ContainerRecord, now: number): void {
    const inst = rec.current;
    if (inst && inst.finishedAt === undefined) return;
    if (inst && !this.shouldRestart(rec, inst.exitCode ?? 0)) return;
    if (inst) {
      // doBackOff: the finish time of the last container is the start of the back-off.
      const key = `${this.uid}/${rec.spec.name}`;
      const backoff = this.host.crashBackoff;
      if (backoff.isInBackOffSince(key, inst.finishedAt!, now)) {
        const period = backoff.get(key);
        rec.waiting = {
          reason: 'CrashLoopBackOff',
          message: `back-off ${formatBackoff(period)} restarting failed container=${rec.spec.name} pod=${formatPod(this.pod as KubeObject)}`,
        };
        this.host.event(this.pod as KubeObject, 'Warning', 'BackOff', `Back-off restarting failed container ${rec.spec.name} in pod ${formatPod(this.pod as KubeObject)}`, rec.fieldPath);
        this.wakeAt(inst.finishedAt! + period, 'crashloop');
        return;
      }
    }
    if (!this.ensureImage(rec, now)) return;
    // The back-off moves on only when the container really starts again (the pull may take a while).
    if (inst) this.host.crashBackoff.next(`${this.uid}/${rec.spec.name}`, inst.finishedAt!, now);
    this.startContainer(rec, now);
  }

  /** EnsureImageExists; true when the image is present. */
  private ensureImage(rec: ContainerRecord, now: number): boolean {
    const spec = rec.spec;
    const image = spec.image ?? '';
    if (rec.image && rec.image.ref.original === image) return true;
    if (rec.pull) return false;
    let ref: ImageReference;
    try {
      ref = parseImageReference(image);
    } catch (err) {
      if (!(err instanceof InvalidImageNameError)) throw err;
      const msg = `Failed to apply default image tag ${JSON.stringify(image)}: ${err.message}`;
      if (rec.waiting?.reason !== 'InvalidImageName') {
        this.host.event(this.pod as KubeObject, 'Warning', 'InspectFailed', msg, rec.fieldPath);
        this.host.event(this.pod as KubeObject, 'Warning', 'Failed', 'Error: InvalidImageName', rec.fieldPath);
      }
      rec.waiting = { reason: 'InvalidImageName', message: msg };
      return false;
    }
    const present = this.host.runtime.image(ref.normalized);
    const policy = spec.imagePullPolicy ?? 'IfNotPresent';
    const shouldPull = policy === 'Always' || (policy === 'IfNotPresent' && !present);
    if (!shouldPull) {
      if (present) {
        this.host.event(this.pod as KubeObject, 'Normal', 'Pulled', `Container image ${JSON.stringify(image)} already present on machine`, rec.fieldPath);
        rec.image = resolvedImage(present.normalized, present.imageID, ref);
        return true;
      }
      const msg = `Container image ${JSON.stringify(image)} is not present with pull policy of Never`;
      this.host.event(this.pod as KubeObject, 'Warning', 'ErrImageNeverPull', msg, rec.fieldPath);
      this.host.event(this.pod as KubeObject, 'Warning', 'Failed', 'Error: ErrImageNeverPull', rec.fieldPath);
      rec.waiting = { reason: 'ErrImageNeverPull', message: msg };
      this.wakeAt(now + defaultRetryMs, 'imageNeverPull');
      return false;
    }
    const backoffKey = `${this.uid}_${image}`;
    const pullBackoff = this.host.pullBackoff;
    if (pullBackoff.isInBackOffSinceUpdate(backoffKey, now)) {
      this.host.event(this.pod as KubeObject, 'Normal', 'BackOff', `Back-off pulling image ${JSON.stringify(image)}`, rec.fieldPath);
      this.host.event(this.pod as KubeObject, 'Warning', 'Failed', 'Error: ImagePullBackOff', rec.fieldPath);
      rec.waiting = { reason: 'ImagePullBackOff', message: `Back-off pulling image ${JSON.stringify(image)}: ErrImagePull: ${rec.lastPullError ?? ''}` };
      this.wakeAt(pullBackoff.lastUpdate(backoffKey)! + pullBackoff.get(backoffKey), 'pullBackoff');
      return false;
    }
    this.host.event(this.pod as KubeObject, 'Normal', 'Pulling', `Pulling image ${JSON.stringify(image)}`, rec.fieldPath);
    this.host.trace({ event: 'kubelet.image.pull', pod: this.key, container: spec.name, image: ref.normalized });
    const cancel = this.host.runtime.pull(ref, (result) => this.pullDone(rec, ref, result));
    rec.pull = { cancel, image };
    return false;
  }

  private pullDone(rec: ContainerRecord, ref: ImageReference, result: PullResult): void {
    if (this.stopped) return;
    rec.pull = undefined;
    const image = ref.original;
    const now = this.host.clock.now();
    if (result.outcome.ok) {
      this.host.event(
        this.pod as KubeObject,
        'Normal',
        'Pulled',
        `Successfully pulled image ${JSON.stringify(image)} in ${formatGoDuration(result.pullMs)} (${formatGoDuration(result.totalMs)} including waiting). Image size: ${result.outcome.sizeBytes} bytes.`,
        rec.fieldPath,
      );
      rec.image = resolvedImage(ref.normalized, result.outcome.imageID, ref);
      if (rec.lastPullError !== undefined) rec.lastPullError = undefined;
      this.host.trace({ event: 'kubelet.image.pulled', pod: this.key, container: rec.spec.name, image: ref.normalized, ms: result.pullMs });
    } else {
      const msg = result.outcome.message;
      this.host.event(this.pod as KubeObject, 'Warning', 'Failed', `Failed to pull image ${JSON.stringify(image)}: ${msg}`, rec.fieldPath);
      this.host.event(this.pod as KubeObject, 'Warning', 'Failed', 'Error: ErrImagePull', rec.fieldPath);
      this.host.pullBackoff.next(`${this.uid}_${image}`, now, now);
      rec.lastPullError = msg;
      rec.waiting = { reason: 'ErrImagePull', message: msg };
      this.host.trace({ event: 'kubelet.image.failed', pod: this.key, container: rec.spec.name, image: ref.normalized, message: msg });
      // The pod worker retries after its error back-off; by then the pull back-off shows.
      this.host.statusChanged(this);
      this.wakeAt(now + 1000, 'pullRetry');
      return;
    }
    this.requestSync();
  }

  /** The program context of a started instance: the one it keeps, or the same made again from what it keeps. */
  private contextOf(rec: ContainerRecord, inst: Instance): ProgramContext {
    return inst.ctx ?? this.programContext(rec, inst.env, inst.profile, inst.resolved.ref, inst.startedAt, this.host.podNetwork?.(this.pod));
  }

  private programContext(
    rec: ContainerRecord,
    env: Record<string, string>,
    profile: ImageProfile,
    ref: ImageReference,
    now: number,
    network: PodNetwork | undefined,
  ): ProgramContext {
    const c = rec.spec;
    const command = expandContainerArgs(c.command, env);
    const args = expandContainerArgs(c.args, env);
    const argv = command ? [...command, ...(args ?? [])] : args ? [...(profile.entrypoint ?? []), ...args] : undefined;
    const hostname = this.pod.spec?.hostname ?? this.pod.metadata?.name ?? '';
    // One literal per shape (a property added later costs the object a separate property array).
    const files: Record<string, string> =
      this.pod.spec?.automountServiceAccountToken !== false
        ? { '/etc/hostname': hostname, '/etc/machine-id': this.host.nodeName, '/var/run/secrets/kubernetes.io/serviceaccount/namespace': this.pod.metadata?.namespace ?? '' }
        : { '/etc/hostname': hostname, '/etc/machine-id': this.host.nodeName };
    const declaresPorts = (c.ports ?? []).length > 0;
    // One literal per shape, as for files: the context lives as long as its container.
    return network
      ? { argv, imageDefault: argv === undefined, image: profile, ref, env, hostname, files, startTime: now, declaresPorts, network, internetStandIn: true }
      : { argv, imageDefault: argv === undefined, image: profile, ref, env, hostname, files, startTime: now, declaresPorts };
  }

  private startContainer(rec: ContainerRecord, now: number): void {
    if (rec.configRetryAt !== undefined && now < rec.configRetryAt) return;
    const resolved = this.host.resolveEnv(this.pod, rec.spec);
    if ('error' in resolved) {
      // Every failed attempt records the event (kubectl describe: "Error: … (x12 over 2m)"); the pod worker
      // retries after its back-off period.
      this.host.event(this.pod as KubeObject, 'Warning', 'Failed', `Error: ${resolved.error}`, rec.fieldPath);
      rec.waiting = { reason: 'CreateContainerConfigError', message: resolved.error };
      rec.configRetryAt = now + defaultRetryMs;
      this.wakeAt(rec.configRetryAt, 'configRetry');
      return;
    }
    // The rare members are written only when present (a member added to a record costs it a property array).
    if (rec.configRetryAt !== undefined) rec.configRetryAt = undefined;
    const img = rec.image!;
    const ctx = this.programContext(rec, resolved.env, img.profile, img.ref, now, this.host.podNetwork?.(this.pod));
    const run = runProgram(ctx);
    const firstStart = !rec.current && !rec.carried?.restart;
    if (!firstStart) rec.restartCount++;
    if (rec.carried) rec.carried = { ...rec.carried, restart: false };
    const id = this.host.runtime.newContainerID(this.uid, rec.spec.name, rec.restartCount);
    const inst = new Instance(id, img, now, run, resolved.env, !rec.spec.startupProbe);
    inst.ready = inst.started && !rec.spec.readinessProbe && rec.kind !== 'init';
    if (rec.current) {
      this.clearInstanceTimers(rec.current);
      rec.previous = rec.current;
    }
    rec.current = inst;
    if (rec.waiting) rec.waiting = undefined;
    // imagePullPolicy Always: every start pulls (a restart too).
    if (rec.spec.imagePullPolicy === 'Always') rec.image = undefined;
    this.host.event(this.pod as KubeObject, 'Normal', 'Created', `Created container: ${rec.spec.name}`, rec.fieldPath);
    this.host.event(this.pod as KubeObject, 'Normal', 'Started', `Started container ${rec.spec.name}`, rec.fieldPath);
    this.host.trace({ event: 'kubelet.container.start', pod: this.key, container: rec.spec.name, restartCount: rec.restartCount, containerID: inst.id });

    this.planExit(rec, inst, this.naturalExit(rec, inst));
    this.watchNetwork(rec, inst);
    this.startProbes(rec, inst);
  }

  /** How the container ends on its own: its program exits, or it allocates past its memory limit. */
  private naturalExit(rec: ContainerRecord, inst: Instance): PlannedExit | undefined {
    const { run, startedAt, profile } = inst;
    let planned: PlannedExit | undefined;
    if (run.end.type === 'exit') planned = { at: startedAt + run.end.at, code: run.end.code, reason: run.end.code === 0 ? 'Completed' : 'Error' };
    const limit = memoryLimit(rec.spec);
    if (limit !== undefined) {
      const base = profile.memoryBytes;
      const oomAt = base > limit ? 100 : run.allocations.find((a) => base + a.bytes > limit)?.at;
      if (oomAt !== undefined && (!planned || startedAt + oomAt < planned.at)) planned = { at: startedAt + oomAt, code: 137, reason: 'OOMKilled' };
    }
    return planned;
  }

  /**
   * A program waiting on the network (ProgramEnd 'poll'): at each iteration of its loop, ask the network the
   * questions it asks; while every answer is the one it got, nothing changes. When one differs, interpret the
   * program again with its journal — the same past, the live network from this iteration on — and go on with that
   * future (the loop ends, the script proceeds). A background timer: a pod waiting on a Service is not busy.
   */
  private watchNetwork(rec: ContainerRecord, inst: Instance): void {
    const end = inst.run.end;
    // The pod's network as the container started with it: made again (a view of the data plane by the pod's
    // namespace and name, which never change) rather than kept by every container.
    const network = end.type === 'poll' ? this.host.podNetwork?.(this.pod) : undefined;
    if (end.type !== 'poll' || !network || inst.killing || inst.finishedAt !== undefined) return;
    const now = this.host.clock.now();
    // The next iteration at least a second away: a tight loop is not re-checked more often than that.
    const k = Math.max(1, Math.ceil((now + minNetworkPollMs - inst.startedAt - end.at) / end.period));
    const at = inst.startedAt + end.at + k * end.period;
    inst.pollTimer = this.host.clock.setTimer(at - now, () => {
      inst.pollTimer = undefined;
      if (this.stopped || inst.finishedAt !== undefined || inst.killing) return;
      const journal = inst.run.network ?? [];
      const changed = end.watch.some((call) => answerKey(ask(network, call)) !== answerKey(lastAnswer(journal, call)));
      if (changed) {
        const ctx: ProgramContext = { ...this.contextOf(rec, inst), networkJournal: { liveFrom: at - inst.startedAt, calls: journal } };
        inst.run = runProgram(ctx);
        inst.ctx = ctx;
        this.host.trace({ event: 'kubelet.container.network', pod: this.key, container: rec.spec.name, end: inst.run.end.type });
        this.planExit(rec, inst, this.naturalExit(rec, inst));
        this.requestSync();
      }
      this.watchNetwork(rec, inst);
    }, `kubelet/${this.host.nodeName} network poll ${this.key}/${rec.spec.name}`, { background: true });
  }

  private planExit(rec: ContainerRecord, inst: Instance, planned: PlannedExit | undefined): void {
    if (inst.exitPlan?.timer) this.host.clock.clearTimer(inst.exitPlan.timer);
    if (!planned) {
      inst.exitPlan = undefined;
      return;
    }
    const plan: NonNullable<Instance['exitPlan']> = { exit: planned, timer: undefined };
    inst.exitPlan = plan;
    plan.timer = this.host.clock.setTimer(Math.max(0, planned.at - this.host.clock.now()), () => {
      plan.timer = undefined;
      if (this.stopped || inst.finishedAt !== undefined) return;
      this.finishInstance(rec, inst, planned);
      this.requestSync();
    }, `kubelet/${this.host.nodeName} exit ${this.key}/${rec.spec.name}`);
  }

  private finishInstance(rec: ContainerRecord, inst: Instance, exit: PlannedExit): void {
    inst.exit = exit;
    inst.ready = false;
    this.clearInstanceTimers(inst);
    this.host.trace({ event: 'kubelet.container.exit', pod: this.key, container: rec.spec.name, exitCode: exit.code, reason: exit.reason });
  }

  private clearInstanceTimers(inst: Instance): void {
    for (const t of inst.probeTimers) this.host.clock.clearTimer(t);
    inst.probeTimers = noProbeTimers;
    if (inst.exitPlan?.timer) {
      this.host.clock.clearTimer(inst.exitPlan.timer);
      inst.exitPlan.timer = undefined;
    }
    if (inst.pollTimer) {
      this.host.clock.clearTimer(inst.pollTimer);
      inst.pollTimer = undefined;
    }
  }

  // ------------------------------------------------------------------ probes

  private startProbes(rec: ContainerRecord, inst: Instance): void {
    const spec = rec.spec;
    if (rec.kind === 'init') return;
    if (spec.startupProbe) this.scheduleProbe(rec, inst, ProbeType.Startup, 0);
    else this.startPostStartupProbes(rec, inst);
  }

  private startPostStartupProbes(rec: ContainerRecord, inst: Instance): void {
    if (rec.spec.livenessProbe) this.scheduleProbe(rec, inst, ProbeType.Liveness, 0);
    if (rec.spec.readinessProbe) this.scheduleProbe(rec, inst, ProbeType.Readiness, 0);
  }

  /** Probe workers tick every period from the container's start; ticks before initialDelaySeconds are skipped. */
  private scheduleProbe(rec: ContainerRecord, inst: Instance, type: ProbeType, tick: number): void {
    const probe = type === ProbeType.Startup ? rec.spec.startupProbe! : type === ProbeType.Liveness ? rec.spec.livenessProbe! : rec.spec.readinessProbe!;
    const timing = probeTimings(probe);
    const now = this.host.clock.now();
    let n = tick;
    let at = inst.startedAt + n * timing.periodMs;
    while (at < now || at - inst.startedAt < timing.initialDelayMs) {
      n++;
      at = inst.startedAt + n * timing.periodMs;
    }
    const handle = this.host.clock.setTimer(at - now, () => {
      inst.probeTimers = inst.probeTimers.filter((h) => h !== handle);
      if (this.stopped || inst.finishedAt !== undefined || inst.killing) return;
      this.probe(rec, inst, type, probe);
      if (inst.finishedAt === undefined && !inst.killing && !(type === ProbeType.Startup && inst.started)) this.scheduleProbe(rec, inst, type, n + 1);
    }, `kubelet/${this.host.nodeName} ${type.toLowerCase()} probe ${this.key}/${rec.spec.name}`, {
      // A probe that can still move the container forward (not yet ready, not yet started) is pending work;
      // a steady-state probe is a heartbeat that does not keep the cluster busy.
      background: type === ProbeType.Liveness || (type === ProbeType.Readiness && inst.ready) || (type === ProbeType.Startup && inst.started),
    });
    if (inst.probeTimers === noProbeTimers) inst.probeTimers = [];
    inst.probeTimers.push(handle);
  }

  private probe(rec: ContainerRecord, inst: Instance, type: ProbeType, probe: NonNullable<Container['livenessProbe']>): void {
    const timing = probeTimings(probe);
    const result = runProbe(probe, {
      container: rec.spec,
      run: inst.run,
      ctx: this.contextOf(rec, inst),
      imagePorts: inst.profile.ports,
      podIP: this.sandboxIP ?? '',
      elapsedMs: this.host.clock.now() - inst.startedAt,
    });
    const counts = ((inst.counts ??= {})[type] ??= { success: 0, failure: 0 });
    if (result.success) {
      counts.success++;
      counts.failure = 0;
    } else {
      counts.failure++;
      counts.success = 0;
      this.host.event(this.pod as KubeObject, 'Warning', 'Unhealthy', `${type} probe failed: ${result.output}`, rec.fieldPath);
    }
    switch (type) {
      case ProbeType.Startup:
        if (counts.success >= timing.successThreshold && !inst.started) {
          inst.started = true;
          inst.ready = !rec.spec.readinessProbe;
          this.host.trace({ event: 'kubelet.probe', pod: this.key, container: rec.spec.name, probe: type, result: 'success' });
          this.startPostStartupProbes(rec, inst);
          this.requestSync();
        } else if (counts.failure >= timing.failureThreshold) {
          this.killInstance(rec, inst, 'startup', this.probeGraceMs(probe));
        }
        return;
      case ProbeType.Liveness:
        if (counts.failure >= timing.failureThreshold) this.killInstance(rec, inst, 'liveness', this.probeGraceMs(probe));
        return;
      case ProbeType.Readiness: {
        const ready = inst.ready ? counts.failure < timing.failureThreshold : counts.success >= timing.successThreshold;
        if (ready !== inst.ready) {
          inst.ready = ready;
          this.host.trace({ event: 'kubelet.probe', pod: this.key, container: rec.spec.name, probe: type, result: ready ? 'ready' : 'unready' });
          this.requestSync();
        }
        return;
      }
    }
  }

  private probeGraceMs(probe: NonNullable<Container['livenessProbe']>): number {
    return (probe.terminationGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
  }

  // ------------------------------------------------------------------ killing and termination

  /** killContainer: preStop, then SIGTERM, then SIGKILL at the end of the grace period. */
  private killInstance(rec: ContainerRecord, inst: Instance, why: 'liveness' | 'startup' | 'changed' | 'delete' | 'terminal', graceMs: number): void {
    if (inst.finishedAt !== undefined || inst.killing) return;
    inst.killing = true;
    inst.ready = false;
    for (const t of inst.probeTimers) this.host.clock.clearTimer(t);
    inst.probeTimers = noProbeTimers;
    const name = rec.spec.name;
    const message =
      why === 'liveness'
        ? `Container ${name} failed liveness probe, will be restarted`
        : why === 'startup'
          ? `Container ${name} failed startup probe, will be restarted`
          : why === 'changed'
            ? `Container ${name} definition changed, will be restarted`
            : `Stopping container ${name}`;
    this.host.event(this.pod as KubeObject, 'Normal', 'Killing', message, rec.fieldPath);
    this.host.trace({ event: 'kubelet.container.kill', pod: this.key, container: name, reason: why, graceMs });
    const now = this.host.clock.now();
    let preStopMs = 0;
    const preStop = rec.spec.lifecycle?.preStop;
    if (preStop && graceMs > 0) {
      if (preStop.exec?.command) {
        const res = runExecCommand(preStop.exec.command, this.contextOf(rec, inst), filesAt(inst.run, now - inst.startedAt));
        preStopMs = res.durationMs;
        if (res.code !== 0) {
          this.host.event(this.pod as KubeObject, 'Warning', 'FailedPreStopHook', `PreStopHook failed`, rec.fieldPath);
        }
      } else if (preStop.sleep) {
        preStopMs = preStop.sleep.seconds * 1000;
      }
      preStopMs = Math.min(preStopMs, graceMs);
    }
    const sigtermAt = now + preStopMs;
    const deadline = graceMs <= 0 ? now : now + Math.max(graceMs, preStopMs + minimumGracePeriodMs);
    let exit: PlannedExit;
    if (graceMs <= 0) exit = { at: now, code: 137, reason: 'Error' };
    else if (inst.run.sigterm === SigtermAction.Exit0) exit = { at: sigtermAt + gracefulExitMs, code: 0, reason: 'Completed' };
    else if (inst.run.sigterm === SigtermAction.Exit143) exit = { at: sigtermAt + gracefulExitMs, code: 143, reason: 'Error' };
    else exit = { at: deadline, code: 137, reason: 'Error' };
    const natural = inst.plannedExit;
    if (natural && natural.at < exit.at) exit = natural;
    if (exit.at <= now) {
      this.finishInstance(rec, inst, exit);
      this.requestSync();
      return;
    }
    this.planExit(rec, inst, exit);
  }

  private running(): { rec: ContainerRecord; inst: Instance }[] {
    const out: { rec: ContainerRecord; inst: Instance }[] = [];
    for (let rec = this.containers; rec; rec = rec.next) if (rec.current && rec.current.finishedAt === undefined) out.push({ rec, inst: rec.current });
    return out;
  }

  private cancelPulls(): void {
    for (let rec = this.containers; rec; rec = rec.next) {
      rec.pull?.cancel();
      rec.pull = undefined;
    }
  }

  /** The pod is being deleted: kill regular containers, then sidecars; once all have exited, report and delete. */
  private syncTerminating(now: number): void {
    if (!this.terminating) {
      const grace = this.pod.metadata?.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30;
      this.terminating = { since: now, graceMs: grace * 1000 };
      this.cancelPulls();
      this.host.trace({ event: 'kubelet.pod.terminating', pod: this.key, gracePeriodSeconds: grace });
    }
    const remaining = Math.max(0, this.terminating.since + this.terminating.graceMs - now);
    const live = this.running();
    const regular = live.filter((r) => r.rec.kind !== 'sidecar');
    for (const { rec, inst } of regular) this.killInstance(rec, inst, 'delete', remaining);
    if (regular.length === 0) for (const { rec, inst } of live) this.killInstance(rec, inst, 'delete', remaining);
    if (live.length > 0) return;
    this.tearDownSandbox();
    if (!this.terminationReported) {
      this.terminationReported = true;
      // Deferred so the status write of this sync goes first.
      this.host.clock.defer(() => {
        if (!this.stopped) this.host.terminated(this);
      }, `kubelet/${this.host.nodeName} terminated ${this.key}`);
    }
  }

  private tearDownSandbox(): void {
    if (this.sandboxState === SandboxState.Creating || this.sandboxState === SandboxState.Ready) {
      this.sandboxState = SandboxState.TornDown;
      this.sandboxReadyAt = undefined;
      this.host.runtime.releaseIP(this.sandboxIP);
      this.host.trace({ event: 'kubelet.sandbox.remove', pod: this.key });
    }
  }

  /** A finished pod: stop what still runs (sidecars) and release the sandbox. */
  private stopEverything(now: number): void {
    this.cancelPulls();
    const live = this.running();
    const grace = (this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
    for (const { rec, inst } of live) this.killInstance(rec, inst, 'terminal', grace);
    if (live.length === 0) this.tearDownSandbox();
    void now;
  }

  private failPod(reason: string, message: string, now: number): void {
    this.terminalPhase = PodPhase.Failed;
    this.terminalReason = { reason, message };
    this.stopEverything(now);
  }

  /** Rejected at admission: the pod never runs. */
  reject(reason: string, message: string): void {
    this.rejected = true;
    this.terminalPhase = PodPhase.Failed;
    this.terminalReason = { reason, message: `Pod was rejected: ${message}` };
    this.startTime = this.host.clock.now();
    this.requestSync();
  }

  /** restartPolicy Never/OnFailure: the pod is done when no regular container runs or will restart. */
  private checkCompletion(now: number): void {
    if ((this.pod.spec?.restartPolicy ?? 'Always') === 'Always') return;
    for (const rec of this.regular()) {
      const inst = rec.current;
      if (!inst || inst.finishedAt === undefined) return;
      if (this.shouldRestart(rec, inst.exitCode ?? 0)) return;
    }
    const statuses = this.regular().map((r) => r.current!);
    this.terminalPhase = statuses.every((i) => i.exitCode === 0) ? PodPhase.Succeeded : PodPhase.Failed;
    this.host.trace({ event: 'kubelet.pod.completed', pod: this.key, phase: this.terminalPhase });
    this.stopEverything(now);
  }

  // ------------------------------------------------------------------ status

  private terminatedState(inst: Instance): ApiContainerState {
    return {
      terminated: {
        containerID: inst.id,
        exitCode: inst.exitCode ?? 0,
        finishedAt: rfc3339(inst.finishedAt ?? this.host.clock.now()),
        reason: inst.reason,
        startedAt: rfc3339(inst.startedAt),
      },
    };
  }

  private containerStatus(rec: ContainerRecord): ContainerStatus {
    const spec = rec.spec;
    const inst = rec.current;
    const status: ContainerStatus = {
      name: spec.name,
      image: inst?.resolved.normalized ?? spec.image ?? '',
      imageID: inst?.resolved.imageID ?? '',
      ready: false,
      restartCount: rec.restartCount,
      started: false,
      state: {},
      lastState: {},
    };
    if (inst) status.containerID = inst.id;
    if (inst && inst.finishedAt === undefined) {
      status.state = { running: { startedAt: rfc3339(inst.startedAt) } };
      status.ready = inst.ready;
      status.started = inst.started;
      if (rec.previous) status.lastState = this.terminatedState(rec.previous);
      else if (rec.carried) status.lastState = rec.carried.lastState;
    } else if (inst) {
      const restarting = !this.terminalPhase && !this.terminating && this.shouldRestart(rec, inst.exitCode ?? 0);
      if (restarting && rec.waiting) {
        status.state = { waiting: { ...rec.waiting } };
        status.lastState = this.terminatedState(inst);
      } else {
        status.state = this.terminatedState(inst);
        if (rec.previous) status.lastState = this.terminatedState(rec.previous);
      }
    } else {
      // convertToAPIContainerStatuses' default waiting state.
      const reason = (this.pod.spec?.initContainers ?? []).length > 0 ? 'PodInitializing' : 'ContainerCreating';
      status.state = { waiting: rec.waiting ? { ...rec.waiting } : { reason } };
      if (rec.carried) status.lastState = rec.carried.lastState;
    }
    const mounts = (spec.volumeMounts ?? []).map((m) => {
      const vm: Record<string, unknown> = { name: m.name, mountPath: m.mountPath };
      if (m.readOnly) vm.readOnly = true;
      vm.recursiveReadOnly = 'Disabled';
      return vm;
    });
    if (mounts.length) (status as unknown as Record<string, unknown>).volumeMounts = mounts;
    return status;
  }

  /** generateAPIPodStatus. */
  computeStatus(): PodStatus {
    const now = this.host.clock.now();
    const pod = this.pod;
    const spec = pod.spec!;
    if (this.terminalPhase && this.lastStatus && this.containersUntouched()) return this.lastStatus;
    if (this.rejected) {
      // rejectPod: SetPodStatus with just these (the stored conditions stay).
      this.lastStatus = {
        phase: PodPhase.Failed,
        reason: this.terminalReason?.reason,
        message: this.terminalReason?.message,
        conditions: pod.status?.conditions,
        qosClass: pod.status?.qosClass,
        startTime: rfc3339(this.startTime ?? now),
      };
      return this.lastStatus;
    }
    const initStatuses = this.inits().map((r) => this.containerStatus(r));
    const statuses = this.regular()
      .map((r) => this.containerStatus(r))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const allStopped = this.running().length === 0;
    let phase = this.terminalPhase ?? getPhase(spec, initStatuses, statuses, !!this.terminating && allStopped);
    const previousPhase = pod.status?.phase;
    // A pod never leaves a terminal phase.
    if (previousPhase === PodPhase.Succeeded || previousPhase === PodPhase.Failed) phase = previousPhase;
    const existing = (pod.status?.conditions ?? []) as PodCondition[];
    const sandboxUp = this.sandboxState === SandboxState.Ready;
    const generated = [
      sandboxUp ? { type: 'PodReadyToStartContainers', status: 'True' } : { type: 'PodReadyToStartContainers', status: 'False' },
      initializedCondition(spec, initStatuses, statuses, phase),
      readyCondition(spec, initStatuses, statuses, phase, existing),
      containersReadyCondition(spec, initStatuses, statuses, phase, 'ContainersReady'),
      { type: 'PodScheduled', status: 'True' },
    ];
    const stamp = rfc3339(now);
    const conditions = mergeConditions(existing, generated, stamp);
    const startTime = rfc3339(this.startTime ?? now);
    const qosClass = pod.status?.qosClass ?? computePodQOS(spec as unknown as Record<string, unknown>);
    const ip = this.sandboxIP ?? pod.status?.podIP;
    // One literal per shape, podIP included: the kubelet keeps the status it last wrote for every pod, and a
    // member added afterwards costs the object a separate property array.
    const status: PodStatus = ip
      ? { phase, conditions, hostIP: this.host.hostIP, hostIPs: [{ ip: this.host.hostIP }], startTime, containerStatuses: statuses, qosClass, podIP: ip, podIPs: [{ ip }] }
      : { phase, conditions, hostIP: this.host.hostIP, hostIPs: [{ ip: this.host.hostIP }], startTime, containerStatuses: statuses, qosClass };
    if (initStatuses.length) status.initContainerStatuses = initStatuses;
    if (this.terminalReason) {
      status.reason = this.terminalReason.reason;
      status.message = this.terminalReason.message;
    }
    if (pod.status?.nominatedNodeName) status.nominatedNodeName = pod.status.nominatedNodeName;
    this.lastStatus = status;
    return status;
  }

  /** A pod that was already finished when this worker started: nothing ran here. */
  private containersUntouched(): boolean {
    for (let rec = this.containers; rec; rec = rec.next) if (rec.current) return false;
    return true;
  }

  // ------------------------------------------------------------------ logs

  logs(container: string, previous: boolean, limit: number): { at: number; text: string }[] | undefined {
    const rec = recordNamed(this.containers, container);
    if (!rec) return undefined;
    const inst = previous ? rec.previous ?? (rec.current?.finishedAt !== undefined && rec.waiting ? rec.current : undefined) : rec.current;
    if (!inst) return undefined;
    const end = (inst.finishedAt ?? this.host.clock.now()) - inst.startedAt;
    return outputUntil(inst.run, end, limit).map((l) => ({ at: inst.startedAt + l.at, text: l.text }));
  }

  containerNames(): string[] {
    const names: string[] = [];
    for (let rec = this.containers; rec; rec = rec.next) names.push(rec.spec.name);
    return names;
  }

  /** A running container's process, read-only (kubectl exec runs beside it; metrics-server measures it). */
  process(container: string): ContainerProcess | undefined {
    const rec = recordNamed(this.containers, container);
    const inst = rec?.current;
    if (!rec || !inst || inst.finishedAt !== undefined) return undefined;
    return { spec: rec.spec, ctx: this.contextOf(rec, inst), run: inst.run, startedAt: inst.startedAt, baseMemoryBytes: inst.profile.memoryBytes, podIP: this.sandboxIP };
  }
}

/** What kubectl exec and the simulated metrics-server read of a running container. */
export interface ContainerProcess {
  spec: Container;
  ctx: ProgramContext;
  run: ProgramRun;
  /** ms since the epoch. */
  startedAt: number;
  /** Resident memory of the image's process before anything the program allocates. */
  baseMemoryBytes: number;
  podIP?: string;
}

/**
 * The ObjectReference fieldPath of a container, as the kubelet sets it on container events: made once per kind
 * and name (containerSlot), so the pods of a template (their records and every stored Event about them) share
 * it; joined (a flat string): a template literal leaves a tree of cons strings.
 */
export function containerFieldPath(kind: ContainerKind, name: string): string {
  return [kind === 'regular' ? 'spec.containers{' : 'spec.initContainers{', name, '}'].join('');
}
