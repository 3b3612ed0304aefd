// The worker half of the UI ⇄ worker protocol (the UI half is src/shared/protocol/client.ts): implements the
// method map over a cluster, runs watch subscriptions as list+watch with squashed, ack-paced batches, and a
// capped trace channel. No Kubernetes logic lives here: every object change goes through the API server.
import { frozenJsonLength } from '../shared/lib/json-length';
import type { ApiRequest, ApiResponse, UserInfo } from '../control-plane/apiserver/types';
import { Verb } from '../control-plane/apiserver/types';
import type { ResourceRegistry } from '../shared/api/resources';
import type { Status } from '../shared/api/status';
import { newBadRequest, newInternalError, newServiceUnavailable, toStatus } from '../shared/api/status';
import type { KubeList, KubeObject, WatchEvent } from '../shared/api/types';
import { WatchEventType, formatApiVersion } from '../shared/api/types';
import { changeFromWatchEvent, emptyDiff, fitsWithin, isEmptyDiff, objectKey, recordChange, takeWithin } from '../shared/protocol/diff';
import type { ObjectDiff } from '../shared/protocol/diff';
import type { ClientMessage, PortLike, SubscriptionId, TraceBatch, WatchBatch, WorkerMessage } from '../shared/protocol/messages';
import type { ClusterInfo, MethodName, MethodParams, MethodResult, SimCommand, SimState } from '../shared/protocol/methods';
import { SimAction } from '../shared/protocol/methods';
import type { TraceEvent, TraceSink } from '../shared/protocol/trace';
import { PROTOCOL_VERSION } from '../shared/protocol/version';
import { applyManifest } from './apply';
import { describeComponents, schedulingDecisions, whyExists } from './introspect';
import type { IntrospectionParts } from './introspect';
import { configureCluster, readSettings, type ClusterSettingsPort } from './settings';
import { readPlaygroundLimits } from './limits';
import { listLoads, setLoad, type WorkloadLoadsPort } from './load';
import { sendTraffic, type TrafficPort } from './network';
import type { Client } from '../control-plane/client/client';
import { ClusterFaults, type FaultTarget } from '../control-plane/faults/cluster-faults';
import type { Clock } from '../control-plane/sim/clock';
import type { CommandOutput, NodeCommand } from '../shared/protocol/methods';
import { cordon, uncordon } from '../kubectl/cordon';
import { drain, type DrainHandle } from '../kubectl/drain';
import { KubectlService } from './kubectl';
import type { CommandSpec } from '../kubectl/cli/command';
import { exportCluster } from './export';
import type { StoragePort } from './storage-port';
import { isQuotaExceeded } from '../control-plane/store/persistence/storage-errors';
import { newNoSpaceError } from './storage-health';

/** What serveProtocol needs of a cluster (src/control-plane/cluster.ts's Cluster satisfies it). */
export interface ServableCluster {
  readonly clock: { now(): number };
  readonly store: { readonly revision: number } & IntrospectionParts['store'];
  readonly apiserver: {
    handle(req: ApiRequest): ApiResponse;
    watch(req: ApiRequest, handler: (events: WatchEvent[]) => void): { stop(): void };
    currentUser: UserInfo;
  };
  readonly registry: ResourceRegistry;
  readonly trace: { subscribe(fn: (event: TraceEvent) => void): () => void; emit?: TraceSink['emit'] } & IntrospectionParts['trace'];
  readonly persistence?: { whenDurable(revision: number): Promise<void>; readonly durableRevision: number };
  /** Makes everything written so far durable. */
  flush(): Promise<void>;
  // The simulated machines and components, for 'sim/fault' (a bare API server has none and refuses it).
  // (and, for sim/components, sim/decisions and trace/why, what they read of each: see introspect.ts)
  readonly nodes?: FaultTarget['nodes'] & IntrospectionParts['nodes'];
  readonly endpoint?: FaultTarget['endpoint'];
  readonly controllerManager?: FaultTarget['controllerManager'] & IntrospectionParts['controllerManager'];
  readonly scheduler?: NonNullable<FaultTarget['scheduler']> & IntrospectionParts['scheduler'];
  /** The current user's client through the API server's network endpoint, as kubectl's: for 'kubectl/node'. */
  readonly client?: Client;
  /** The demo-timing settings (control-plane/config/cluster-settings.ts), for 'cluster/settings' and 'cluster/configure'. */
  readonly settings?: ClusterSettingsPort;
  /** The simulated per-workload loads (control-plane/metrics/loads.ts), for 'sim/load' and 'sim/loads'. */
  readonly loads?: WorkloadLoadsPort;
  /** The simulated data plane (control-plane/network/data-plane.ts), for 'net/request'. */
  readonly network?: TrafficPort;
}

/**
 * Where the page's requests go: through the API server's network endpoint, like kubectl's, so they are refused
 * while the API server is stopped. (The page's watches observe the cluster directly: it keeps showing what
 * the kubelets run during an outage.)
 */
function requestPort(cluster: ServableCluster): { handle(req: ApiRequest): ApiResponse } {
  return cluster.client?.server ?? cluster.apiserver;
}

/** What serveProtocol needs of the real-time driver (src/control-plane/sim/realtime-driver.ts's RealtimeDriver). */
export interface SimDriver {
  pause(): unknown;
  resume(): unknown;
  step(): unknown;
  setSpeed(speed: number): unknown;
  /** Work was scheduled outside a timer (a request wrote): tick soon. */
  wake(): void;
  state(): { mode: 'running' | 'paused'; speed: number; time: number; lastError?: string };
}

export interface ClusterSession<C extends ServableCluster = ServableCluster> {
  cluster: C;
  driver?: SimDriver;
  persistenceKind?: ClusterInfo['persistence'];
  /** The storage health ('storage/status', 'storage/retry'); absent: always healthy. */
  storage?: StoragePort;
}

export interface ServeOptions<C extends ServableCluster = ServableCluster> {
  driver?: SimDriver;
  /** Shown by cluster/info; default: 'none' without a persistence, 'memory' with one. */
  persistenceKind?: ClusterInfo['persistence'];
  /**
   * cluster/reset: wipes the current cluster's persisted state and boots a new one. Without it, reset is refused.
   * serveProtocol stops talking to the old cluster before calling it and relists every watch afterwards.
   */
  reset?: (current: ClusterSession<C>) => Promise<ClusterSession<C>>;
  /** The first session's storage health (later sessions bring their own). */
  storage?: StoragePort;
  /** When to send a batch after changes arrive. Default queueMicrotask: everything one tick produced goes together. */
  schedule?: (fn: () => void) => void;
  /** Trace events buffered between two batches; the rest are counted. Default 500. */
  traceCap?: number;
  /**
   * Bytes (JSON length, estimated) of watch and trace batches the page may have unacknowledged at once. The page
   * acknowledges on its next animation frame, so this bounds what one frame must take in; what does not fit
   * waits, squashed per object, for a later frame. Default 90,000 (the page's target is 100 KB per frame).
   */
  frameBytes?: number;
  /**
   * The budget instead of frameBytes while a subscription delivers a (re)list: the initial sync after a reload
   * (10,000 objects are ~10 MB) in fewer, larger frames, each acknowledged before the next. The page applies
   * a list part as a plain map insert, so a larger part keeps its frames short. Default frameBytes.
   */
  syncFrameBytes?: number;
  /** Called on an acknowledgement after which no subscription is still delivering its list (the page is in sync). */
  onSynced?: () => void;
  /** Called after every API request was handled, with the cluster it went to (headless clusters settle deferred work here). */
  afterRequest?: (cluster: C) => void;
  /** The commands 'kubectl/run' knows (default: every registered one, src/kubectl/cmd/index.ts); for tests. */
  kubectlCommands?: readonly CommandSpec[];
  /**
   * A watch batch not acknowledged after this long (real ms) is sent again, then after twice as long, up to 30 s:
   * a lost message must not stall its subscription forever (the page drops what it already has by seq).
   * Default 2000; 0 turns resending off.
   */
  resendAfterMs?: number;
  /** Real-time timer for resends (default setTimeout); returns a cancel function. For tests. */
  setTimer?: (fn: () => void, ms: number) => () => void;
}


export interface ProtocolServer<C extends ServableCluster = ServableCluster> {
  readonly cluster: C;
  /** Number of open watch subscriptions (for tests and the dev overlay). */
  readonly subscriptionCount: number;
  close(): void;
}

const mutatingVerbs: ReadonlySet<string> = new Set([Verb.Create, Verb.Update, Verb.Patch, Verb.Delete, Verb.DeleteCollection]);

interface Subscription {
  id: SubscriptionId;
  request: ApiRequest;
  pending: ObjectDiff;
  resourceVersion: string;
  relist: boolean;
  initial: boolean;
  inFlight: boolean;
  /** Estimated bytes of the batch in flight, released by its ack. */
  inFlightBytes: number;
  watch?: { stop(): void };
  /** Bumped on every (re)list so events of a stopped watch that were already queued are ignored. */
  generation: number;
  closed: boolean;
  /** Number of the last batch sent. */
  seq: number;
  /** Delivering a (re)list that did not fit one batch: its batches may use syncFrameBytes. */
  syncing: boolean;
  /** Cancels the resend of the batch in flight. */
  cancelResend?: () => void;
}

/**
 * Serves the protocol on `port` (a worker's global scope, a MessagePort, one end of createPortPair) and
 * announces readiness. Returns a handle to stop serving.
 */
export function serveProtocol<C extends ServableCluster>(initial: C, port: PortLike, options: ServeOptions<C> = {}): ProtocolServer<C> {
  const schedule = options.schedule ?? queueMicrotask;
  const traceCap = options.traceCap ?? 500;
  const frameBytes = options.frameBytes ?? 90_000;
  const syncFrameBytes = Math.max(frameBytes, options.syncFrameBytes ?? frameBytes);
  const budgetOf = (sub: Subscription) => (sub.syncing ? syncFrameBytes : frameBytes);
  const resendAfterMs = options.resendAfterMs ?? 2000;
  const setTimer =
    options.setTimer ??
    ((fn: () => void, ms: number) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    });
  // Trace events are a lossy view; object changes get the larger share of a frame.
  const traceBytes = Math.floor(frameBytes * 0.3);
  /** Bytes of batches sent and not yet acknowledged (all subscriptions and the trace channel). */
  let inFlightBytes = 0;
  let session: ClusterSession<C> = { cluster: initial, driver: options.driver, persistenceKind: options.persistenceKind, storage: options.storage };
  /** While a reset runs, calls wait for the new cluster. */
  let resetting: Promise<void> | undefined;
  const subscriptions = new Map<SubscriptionId, Subscription>();
  /** Drains still running: a reset or close ends them (Ctrl-C), so their calls get a reply. */
  const drains = new Set<DrainHandle>();
  let closed = false;

  const post = (msg: WorkerMessage): void => {
    if (!closed) port.postMessage(msg);
  };
  /** The console's kubectl commands; a reset or close ends them (Ctrl-C), so their calls get a reply. */
  const kubectl = new KubectlService({ post, afterRequest: () => afterRequest(), durable: () => durable(session.cluster), commands: options.kubectlCommands });

  // ------------------------------------------------------------------ methods

  type Handler<M extends MethodName> = (params: MethodParams<M>) => MethodResult<M> | Promise<MethodResult<M>>;
  const methods: { [M in MethodName]: Handler<M> } = {
    'api/request': async (req) => {
      const { cluster } = session;
      let res: ApiResponse;
      try {
        res = requestPort(cluster).handle(req);
      } finally {
        afterRequest();
      }
      if (mutatingVerbs.has(req.verb) && !req.options?.dryRun) await durable(cluster);
      return res;
    },
    'api/apply': async (params) => {
      const { cluster } = session;
      const result = applyManifest({ apiserver: requestPort(cluster), registry: cluster.registry, store: cluster.store }, params);
      afterRequest();
      if (result.outcomes.some((o) => o.ok)) await durable(cluster);
      return result;
    },
    'api/discovery': () => ({ resources: session.cluster.registry.all() }),
    'sim/control': (cmd) => simControl(cmd),
    'sim/state': () => simState(),
    'sim/fault': (fault) => {
      try {
        return faultsOf(session.cluster).inject(fault);
      } finally {
        afterRequest();
      }
    },
    'sim/faults': () => faultsOf(session.cluster).state(),
    'kubectl/node': (cmd) => nodeCommand(cmd),
    'kubectl/run': (params) => kubectl.run(session.cluster, params),
    'kubectl/catalog': () => kubectl.catalog(),
    'kubectl/cancel': (params) => kubectl.cancel(String(params?.id)),
    'kubectl/edited': (params) => kubectl.edited(String(params?.id), params?.yaml ?? null),
    'sim/components': () => describeComponents(session.cluster),
    'sim/decisions': (params) => schedulingDecisions(session.cluster, params),
    'trace/why': (params) => whyExists(session.cluster, params),
    'cluster/settings': () => readSettings(session.cluster),
    'cluster/limits': () => readPlaygroundLimits(session.cluster),
    'cluster/configure': async (params) => {
      try {
        return configureCluster(session.cluster, params);
      } finally {
        afterRequest();
        await durable(session.cluster);
      }
    },
    'net/request': (params) => {
      try {
        return sendTraffic(session.cluster, params);
      } finally {
        afterRequest();
      }
    },
    'sim/load': async (params) => {
      try {
        return await setLoad(session.cluster, params);
      } finally {
        afterRequest();
      }
    },
    'sim/loads': () => listLoads(session.cluster),
    'cluster/reset': async () => {
      if (!options.reset) throw newServiceUnavailable('this cluster cannot be reset');
      await reset(options.reset);
    },
    'cluster/info': () => {
      const { cluster } = session;
      const info: ClusterInfo = {
        protocolVersion: PROTOCOL_VERSION,
        revision: cluster.store.revision,
        persistence: session.persistenceKind ?? (cluster.persistence ? 'memory' : 'none'),
        user: cluster.apiserver.currentUser,
      };
      if (cluster.persistence) info.durableRevision = cluster.persistence.durableRevision;
      return info;
    },
    'cluster/flush': async () => {
      await session.cluster.flush();
    },
    'storage/status': () => session.storage?.status() ?? {},
    'storage/retry': async () => session.storage?.retry() ?? {},
    'cluster/export': () => exportCluster(session.cluster),
  };

  /** Waits until the store's current revision is durable, so an acknowledged write survives a reload. */
  async function durable(cluster: ServableCluster): Promise<void> {
    if (!cluster.persistence) return;
    try {
      await cluster.persistence.whenDurable(cluster.store.revision);
    } catch (err) {
      if (isQuotaExceeded(err)) throw newNoSpaceError();
      throw newInternalError(`the write was applied but could not be persisted: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  function faultsOf(cluster: C): ClusterFaults {
    const { nodes, endpoint, controllerManager, scheduler, trace } = cluster;
    if (!nodes || !endpoint || !controllerManager || !trace.emit) throw newBadRequest('this cluster has no simulated machines to inject faults into');
    const target: FaultTarget = { nodes, endpoint, controllerManager, scheduler, trace: { emit: (e) => trace.emit!(e) } };
    return new ClusterFaults(target);
  }

  /** kubectl cordon/uncordon/drain; drain replies once it exits, as the clock runs. */
  async function nodeCommand(cmd: NodeCommand): Promise<CommandOutput> {
    const { cluster } = session;
    const clock = cluster.clock as Partial<Clock>;
    if (!cluster.client || typeof clock.setTimer !== 'function') throw newBadRequest('this cluster cannot run kubectl commands');
    if (!cmd || typeof cmd.node !== 'string') throw newBadRequest('a node name is required');
    let output: CommandOutput;
    switch (cmd.command) {
      case 'cordon':
        output = cordon(cluster.client, cmd.node);
        afterRequest();
        break;
      case 'uncordon':
        output = uncordon(cluster.client, cmd.node);
        afterRequest();
        break;
      case 'drain': {
        const run = drain({ client: cluster.client, clock: clock as Clock }, cmd.node, cmd.flags ?? {});
        drains.add(run);
        afterRequest();
        try {
          output = await run.finished;
        } finally {
          drains.delete(run);
        }
        break;
      }
      default:
        throw newBadRequest(`unknown node command "${String((cmd as { command?: unknown }).command)}"`);
    }
    await durable(cluster);
    return output;
  }

  function simState(): SimState {
    const { cluster, driver } = session;
    if (!driver) return { time: cluster.clock.now(), paused: true, speed: 1, realtime: false };
    const s = driver.state();
    const out: SimState = { time: s.time, paused: s.mode === 'paused', speed: s.speed, realtime: true };
    if (s.lastError !== undefined) out.lastError = s.lastError;
    return out;
  }

  /** After a request: let the driver run the work it deferred (watch deliveries, queues), then any hook. */
  function afterRequest(): void {
    session.driver?.wake();
    options.afterRequest?.(session.cluster);
  }

  function simControl(cmd: SimCommand): SimState {
    const { driver } = session;
    if (!driver) throw newBadRequest('no real-time driver: a headless cluster is driven by its clock');
    switch (cmd.action) {
      case SimAction.Pause:
        driver.pause();
        break;
      case SimAction.Resume:
        driver.resume();
        break;
      case SimAction.Step:
        driver.step();
        break;
      case SimAction.Speed:
        if (typeof cmd.speed !== 'number' || !Number.isFinite(cmd.speed)) throw newBadRequest('speed must be a number');
        driver.setSpeed(cmd.speed);
        break;
      default:
        throw newBadRequest(`unknown sim action "${String((cmd as { action?: unknown }).action)}"`);
    }
    return simState();
  }

  async function reset(resetFn: NonNullable<ServeOptions<C>['reset']>): Promise<void> {
    if (resetting) return resetting;
    resetting = (async () => {
      for (const run of drains) run.cancel();
      kubectl.cancelAll();
      for (const sub of subscriptions.values()) stopWatch(sub);
      stopTrace();
      try {
        session = await resetFn(session);
      } finally {
        resetting = undefined;
        if (traceWanted) startTrace();
        for (const sub of subscriptions.values()) list(sub, true);
      }
    })();
    return resetting;
  }

  async function handleCall(id: number, method: MethodName, params: unknown): Promise<void> {
    const handler = methods[method] as ((p: unknown) => unknown) | undefined;
    try {
      if (!handler) throw newBadRequest(`unknown method "${String(method)}"`);
      if (resetting && method !== 'cluster/reset') await resetting;
      const result = await handler(params);
      post({ type: 'reply', id, ok: true, result: result === undefined ? null : result });
    } catch (err) {
      post({ type: 'reply', id, ok: false, status: toStatus(err) });
    }
  }

  // ------------------------------------------------------------------ watch subscriptions

  function startSubscription(id: SubscriptionId, request: ApiRequest): void {
    if (subscriptions.has(id)) stopSubscription(id);
    const sub: Subscription = {
      id,
      request,
      pending: emptyDiff(),
      resourceVersion: '',
      relist: false,
      initial: true,
      inFlight: false,
      inFlightBytes: 0,
      generation: 0,
      closed: false,
      seq: 0,
      syncing: true,
    };
    subscriptions.set(id, sub);
    if (!resetting) list(sub, false);
  }

  function stopWatch(sub: Subscription): void {
    sub.generation++;
    sub.watch?.stop();
    sub.watch = undefined;
  }

  function stopSubscription(id: SubscriptionId): void {
    const sub = subscriptions.get(id);
    if (sub) closeSubscription(sub);
  }

  /** Forgets a subscription and its watch; a batch it had in flight frees its budget for the others. */
  function closeSubscription(sub: Subscription): void {
    subscriptions.delete(sub.id);
    sub.closed = true;
    stopWatch(sub);
    const released = sub.inFlight;
    releaseBatch(sub);
    // Others waiting for room may go (as an ack would let them).
    if (released) scheduleFlush();
  }

  /** Lists, replaces the pending diff with the full list, and watches from the list's resourceVersion. */
  function list(sub: Subscription, relist: boolean): void {
    stopWatch(sub);
    const { cluster } = session;
    const { request } = sub;
    const base: ApiRequest = {
      verb: Verb.List,
      group: request.group,
      version: request.version,
      resource: request.resource,
      namespace: request.namespace,
      user: request.user,
      impersonate: request.impersonate,
      options: { labelSelector: request.options?.labelSelector, fieldSelector: request.options?.fieldSelector },
    };
    let listed: KubeList;
    try {
      listed = cluster.apiserver.handle(base).body as KubeList;
    } catch (err) {
      endSubscription(sub, toStatus(err));
      return;
    }
    const typeMeta = { apiVersion: formatApiVersion(request.group, request.version), kind: kindOf(cluster, request, listed) };
    const full = emptyDiff();
    for (const item of listed.items) {
      // Typed lists leave apiVersion/kind off their items; watch events carry them. Make both alike for the UI.
      const obj = item.kind ? item : { ...typeMeta, ...item };
      full.added[objectKey(obj)] = obj;
    }
    sub.pending = full;
    sub.syncing = true;
    listedSinceSynced = true;
    sub.resourceVersion = listed.metadata.resourceVersion ?? '';
    if (relist) sub.relist = true;
    const generation = ++sub.generation;
    try {
      sub.watch = cluster.apiserver.watch(
        { ...base, verb: Verb.Watch, options: { ...base.options, resourceVersion: sub.resourceVersion, allowWatchBookmarks: true } },
        (events) => {
          if (sub.generation === generation && !sub.closed) onWatchEvents(sub, events);
        },
      );
    } catch (err) {
      endSubscription(sub, toStatus(err));
      return;
    }
    scheduleFlush();
  }

  function onWatchEvents(sub: Subscription, events: WatchEvent[]): void {
    for (const event of events) {
      if (event.type === WatchEventType.Error) {
        // 410 Gone/Expired (history compacted past us) or any other watch failure: relist, like a reflector.
        list(sub, true);
        return;
      }
      const rv = (event.object as KubeObject).metadata?.resourceVersion;
      if (rv) sub.resourceVersion = rv;
      const change = changeFromWatchEvent(event);
      if (change) recordChange(sub.pending, change);
    }
    // A subscription with a batch in flight sends nothing before its ack, which flushes: a write burst (one
    // event per request) then costs no pass over every subscription per request.
    if (!sub.inFlight) scheduleFlush();
  }

  function endSubscription(sub: Subscription, status: Status): void {
    closeSubscription(sub);
    post({ type: 'watch/error', id: sub.id, status });
  }

  /** A subscription (re)listed since onSynced was last called. */
  let listedSinceSynced = false;
  let flushScheduled = false;
  /** Where the next flush starts, so subscriptions take turns at a frame's budget. */
  let flushCursor = 0;

  function scheduleFlush(): void {
    if (flushScheduled || closed) return;
    flushScheduled = true;
    schedule(() => {
      flushScheduled = false;
      flushSubscriptions();
    });
  }

  /**
   * Sends each idle subscription's pending changes, as far as the frame's byte budget allows. Subscriptions whose
   * whole backlog fits go first (a ReplicaSet's status reaches the page with, not after, a flood of its pods);
   * the rest take turns at what remains.
   */
  function flushSubscriptions(): void {
    const subs = [...subscriptions.values()];
    if (subs.length === 0) return;
    const start = flushCursor % subs.length;
    for (let i = 0; i < subs.length; i++) {
      const sub = subs[(start + i) % subs.length];
      if (sub.closed || sub.inFlight || (isEmptyDiff(sub.pending) && !sub.relist && !sub.initial)) continue;
      if (fitsWithin(sub.pending, budgetOf(sub) - inFlightBytes, batchEntryBytes)) flushSubscription(sub);
      // A small list (the Nodes) does not wait behind a large one (10,000 ConfigMaps) that holds the sync budget:
      // it may use a frame budget beyond it.
      else if (sub.syncing && syncFrameBytes > frameBytes && fitsWithin(sub.pending, Math.min(frameBytes, syncFrameBytes + frameBytes - inFlightBytes), batchEntryBytes)) flushSubscription(sub, frameBytes);
    }
    for (let i = 0; i < subs.length; i++) {
      const sub = subs[(start + i) % subs.length];
      if (!flushSubscription(sub)) {
        // Out of budget: the next flush (after an ack) starts with this one.
        flushCursor = (start + i) % subs.length;
        return;
      }
    }
    flushCursor = start + 1;
  }

  /** Sends what fits of one subscription's pending changes; false when the budget ran out before it was done. */
  function flushSubscription(sub: Subscription, beyondBudget = 0): boolean {
    if (sub.closed || sub.inFlight) return true;
    const replace = sub.relist || sub.initial;
    if (!replace && isEmptyDiff(sub.pending)) return true;
    const room = budgetOf(sub) + beyondBudget - inFlightBytes;
    // A relist's first part must go out even when empty: it tells the page to drop what it had.
    if (room <= 0 && !(replace && inFlightBytes === 0)) return false;
    const taken = takeWithin(sub.pending, room, batchEntryBytes, inFlightBytes === 0);
    if (!replace && isEmptyDiff(taken.diff)) return false;
    const batch: WatchBatch = { diff: taken.diff, resourceVersion: sub.resourceVersion, seq: ++sub.seq };
    if (replace) batch.relist = true;
    if (sub.initial) batch.initial = true;
    sub.relist = false;
    sub.initial = false;
    // The list is through once a batch took everything pending; later batches are deltas within frameBytes.
    if (!taken.more) sub.syncing = false;
    sub.inFlight = true;
    sub.inFlightBytes = taken.bytes;
    inFlightBytes += taken.bytes;
    post({ type: 'watch/batch', id: sub.id, batch });
    if (resendAfterMs > 0) resendUntilAcked(sub, batch, resendAfterMs);
    return !taken.more;
  }

  /** Sends the batch in flight again while it stays unacknowledged, backing off to 30 s. */
  function resendUntilAcked(sub: Subscription, batch: WatchBatch, afterMs: number): void {
    sub.cancelResend = setTimer(() => {
      sub.cancelResend = undefined;
      if (closed || sub.closed || !sub.inFlight || sub.seq !== batch.seq) return;
      post({ type: 'watch/batch', id: sub.id, batch });
      resendUntilAcked(sub, batch, Math.min(afterMs * 2, 30_000));
    }, afterMs);
  }

  function releaseBatch(sub: Subscription): void {
    sub.cancelResend?.();
    sub.cancelResend = undefined;
    inFlightBytes -= sub.inFlightBytes;
    sub.inFlightBytes = 0;
    sub.inFlight = false;
  }

  function ackSubscription(id: SubscriptionId, seq: number | undefined): void {
    if (!releaseAcked(id, seq)) return;
    scheduleFlush();
    if (traceBuffer.events.length > 0 || traceBuffer.dropped > 0) scheduleTrace();
    reportSynced();
  }

  /** Once per (re)list round: when no subscription is still delivering its list or waiting for its first ack. */
  function reportSynced(): void {
    if (!listedSinceSynced || !options.onSynced) return;
    for (const sub of subscriptions.values()) if (sub.syncing || (sub.inFlight && sub.seq === 1)) return;
    listedSinceSynced = false;
    options.onSynced();
  }

  /** Releases the batch in flight that an ack names; false when it names none (stale, or unknown). */
  function releaseAcked(id: unknown, seq: unknown): boolean {
    const sub = subscriptions.get(id as SubscriptionId);
    if (!sub) return false;
    // The ack of an earlier batch (its resent duplicate reached the page too): the one in flight is not acknowledged.
    if (seq !== undefined && seq !== sub.seq) return false;
    releaseBatch(sub);
    return true;
  }

  /** A frame's acks in one message: released together, then one flush (as separate acks would schedule). */
  function ackFrame(acks: unknown, trace: boolean): void {
    let released = false;
    if (Array.isArray(acks)) for (const a of acks as { id?: unknown; seq?: unknown }[]) if (a && releaseAcked(a.id, a.seq)) released = true;
    if (trace) releaseTrace();
    if (!released && !trace) return;
    if (traceBuffer.events.length > 0 || traceBuffer.dropped > 0) scheduleTrace();
    scheduleFlush();
    if (released) reportSynced();
  }

  // ------------------------------------------------------------------ trace channel

  let traceWanted = false;
  let traceUnsubscribe: (() => void) | undefined;
  let traceBuffer: TraceBatch = { events: [], dropped: 0, droppedByKind: {} };
  let traceInFlight = false;
  /** Estimated bytes of the trace batch in flight, released by its ack. */
  let traceInFlightBytes = 0;
  let traceScheduled = false;

  function startTrace(): void {
    stopTrace();
    traceUnsubscribe = session.cluster.trace.subscribe((event) => {
      if (traceBuffer.events.length < traceCap) traceBuffer.events.push(event);
      else {
        traceBuffer.dropped++;
        traceBuffer.droppedByKind[event.kind] = (traceBuffer.droppedByKind[event.kind] ?? 0) + 1;
      }
      scheduleTrace();
    });
  }

  function stopTrace(): void {
    traceUnsubscribe?.();
    traceUnsubscribe = undefined;
  }

  function scheduleTrace(): void {
    if (traceInFlight || traceScheduled) return;
    traceScheduled = true;
    schedule(() => {
      traceScheduled = false;
      if (traceInFlight || !traceWanted) return;
      if (traceBuffer.events.length === 0 && traceBuffer.dropped === 0) return;
      // What does not fit this frame's share stays buffered, in order, for the next batch.
      const room = Math.min(traceBytes, frameBytes - inFlightBytes);
      const { events } = traceBuffer;
      let bytes = 0;
      let n = 0;
      while (n < events.length) {
        const size = frozenJsonLength(events[n]) + 1;
        if (bytes + size > room && !(n === 0 && inFlightBytes === 0)) break;
        bytes += size;
        n++;
      }
      if (n === 0 && events.length > 0) return; // out of budget: an ack will reschedule
      const batch: TraceBatch = { events: n === events.length ? events : events.slice(0, n), dropped: traceBuffer.dropped, droppedByKind: traceBuffer.droppedByKind };
      traceBuffer = { events: n === events.length ? [] : events.slice(n), dropped: 0, droppedByKind: {} };
      traceInFlight = true;
      traceInFlightBytes = bytes;
      inFlightBytes += bytes;
      post({ type: 'trace/batch', batch });
    });
  }

  function releaseTrace(): void {
    inFlightBytes -= traceInFlightBytes;
    traceInFlightBytes = 0;
    traceInFlight = false;
  }

  // ------------------------------------------------------------------ dispatch

  function onMessage(event: { data: unknown }): void {
    const msg = event.data as ClientMessage;
    switch (msg?.type) {
      case 'call':
        void handleCall(msg.id, msg.method, msg.params);
        return;
      case 'watch/start':
        startSubscription(msg.id, msg.request);
        return;
      case 'watch/stop':
        stopSubscription(msg.id);
        return;
      case 'watch/ack':
        ackSubscription(msg.id, msg.seq);
        return;
      case 'watch/acks':
        ackFrame(msg.acks, msg.trace === true);
        return;
      case 'trace/start':
        traceWanted = true;
        releaseTrace();
        if (!resetting) startTrace();
        return;
      case 'trace/stop':
        traceWanted = false;
        stopTrace();
        releaseTrace();
        traceBuffer = { events: [], dropped: 0, droppedByKind: {} };
        return;
      case 'trace/ack':
        releaseTrace();
        if (traceBuffer.events.length > 0 || traceBuffer.dropped > 0) scheduleTrace();
        scheduleFlush();
        return;
    }
  }

  port.addEventListener('message', onMessage);
  (port as { start?: () => void }).start?.();
  post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });

  return {
    get cluster() {
      return session.cluster;
    },
    get subscriptionCount() {
      return subscriptions.size;
    },
    close() {
      if (closed) return;
      for (const run of drains) run.cancel();
      kubectl.cancelAll();
      for (const id of [...subscriptions.keys()]) stopSubscription(id);
      stopTrace();
      port.removeEventListener('message', onMessage);
      closed = true;
    },
  };
}

/**
 * Serves a worker whose cluster could not start: it says ready (so the page is not left waiting), then answers
 * every call and watch with the given status, which the page shows.
 */
export function serveUnavailable(port: PortLike, status: Status): { close(): void } {
  const onMessage = (event: { data: unknown }): void => {
    const msg = event.data as ClientMessage;
    if (msg?.type === 'call') port.postMessage({ type: 'reply', id: msg.id, ok: false, status } satisfies WorkerMessage);
    else if (msg?.type === 'watch/start') port.postMessage({ type: 'watch/error', id: msg.id, status } satisfies WorkerMessage);
  };
  port.addEventListener('message', onMessage);
  (port as { start?: () => void }).start?.();
  port.postMessage({ type: 'ready', protocolVersion: PROTOCOL_VERSION } satisfies WorkerMessage);
  return { close: () => port.removeEventListener('message', onMessage) };
}

function kindOf(cluster: ServableCluster, request: ApiRequest, listed: KubeList): string {
  const rt = cluster.registry.forGroupResource({ group: request.group, resource: request.resource });
  if (rt) return rt.kind;
  return listed.kind.endsWith('List') ? listed.kind.slice(0, -'List'.length) : listed.kind;
}

/** One entry of a batch's diff: `"key":{…},`. */
function batchEntryBytes(key: string, object: KubeObject): number {
  return key.length + 4 + frozenJsonLength(object);
}
