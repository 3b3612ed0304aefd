// The composition root: wires a whole cluster — virtual clock, seeded rng, trace bus, MVCC store (restored from
// a persistence when given), API server with RBAC and admission, in-process client, shared informers and the
// controllers. Wiring only: every behaviour lives in the parts.
//
// It is also the headless entry point: tests, benchmarks and the worker all start a cluster here.
import { installDefaultStorageClass } from './controllers/volume/default-storage-class';
import { ingressNginxClass } from './controllers/ingress/ingress-class';
import type { KubeObject } from '../shared/api/types';
import { ResourceRegistry } from '../shared/api/resources';
import { TraceKind } from '../shared/protocol/trace';
import type { ClusterSettings } from '../shared/protocol/introspection';
import { defaultAdmissionChain } from './apiserver/admission/chain';
import { systemPriorityClassObjects } from './apiserver/admission/priority';
import { APIServer } from './apiserver/server';
import { Client } from './client/client';
import { ApiServerEndpoint } from './client/connection';
import { LiveClusterSettings, initialClusterSettings } from './config/cluster-settings';
import { LivePlaygroundLimits } from './config/live-playground-limits';
import type { PlaygroundLimits } from './config/playground-limits';
import { StoreUsage } from './config/store-usage';
import { ControllerManager } from './controllers/controller-manager';
import type { ControllerDescriptor, RunningController } from './controllers/controller-context';
import { defaultControllers } from './controllers/index';
import { controllerManagerUser } from './controllers/shared/controller';
import type { ControllerManagerConfig } from './controllers/controller-context';
import { NodeSimulator } from './kubelet/node-simulator';
import { DataPlane } from './network/data-plane';
import { podNetwork } from './network/pod-network';
import type { PodNetwork } from './network/tools';
import { defaultNodeConfigs, type NodeConfig } from './kubelet/node-config';
import { Scheduler, schedulerUser } from './scheduler/scheduler';
import { createRng, type Rng } from './sim/rng';
import { VirtualClock } from './sim/virtual-clock';
import { MvccStore } from './store/mvcc-store';
import type { ClusterMeta, Persistence } from './store/persistence/types';
import type { RevisionBatch } from './store/types';
import { TraceBus } from './trace/trace-bus';
import { WorkloadLoads } from './metrics/loads';
import { MetricsServer } from './metrics/metrics-server';
import { CommitCauses, attachCommitCauses } from './introspection/commit-causes';
import type { QueueSnapshot } from './workqueue/rate-limiting-queue';

export interface ClusterOptions {
  /** Seed of the rng (uids, generated names, jitter). Default 1. Ignored when a persisted cluster is restored. */
  seed?: number;
  /**
   * Create the default StorageClass "standard" (WaitForFirstConsumer, Delete) and the CSIDriver of its simulated
   * driver hostpath.csi.kubeplay.io on a new cluster, as kind installs its "standard" class. Default true.
   */
  defaultStorageClass?: boolean;
  /** Virtual start time, ms since the epoch. Default 2026-01-01T00:00:00Z. Ignored when restoring. */
  startTime?: number;
  /**
   * Where committed revisions go and the cluster is restored from. Default none: pure memory. The cluster
   * never closes it: whoever passed it in does, after close().
   */
  persistence?: Persistence;
  /** Store history kept for watches, in revisions (older ones get 410 Gone). Default the store's 10 000. */
  historyRevisions?: number;
  /**
   * Which kube-controller-manager controllers run: all (true, the default), none (false: a bare API server +
   * store, for API-level tests), or the named ones (a component test runs its own controller beside them).
   */
  controllers?: boolean | readonly string[];
  /** Trace ring buffer size. Default 10 000. */
  traceCapacity?: number;
  /**
   * Worker nodes, each with its kubelet: a count of default-sized nodes (node-1…, 4 cpu, 8Gi, zones a/b/c) or
   * their configurations. Default 3. A restored cluster gets its kubelets back the same way.
   */
  nodes?: number | NodeConfig[];
  /** Run kube-scheduler. Default true. */
  scheduler?: boolean;
  /**
   * kube-controller-manager flags (node-monitor-grace-period, …). The grace period is the initial value of
   * settings.nodeMonitorGracePeriodSeconds (settings wins when both are given).
   */
  controllerManager?: ControllerManagerConfig;
  /**
   * Initial demo-timing settings (config/cluster-settings.ts); the rest take their defaults. A restored cluster
   * keeps the settings it saved. Out-of-range values throw a 400 StatusError.
   */
  settings?: Partial<ClusterSettings>;
  /**
   * kubeplay's playground-wide caps (config/playground-limits.ts): the defaults, with these values over them.
   * Benchmarks pass noPlaygroundLimits. Not saved: a restored cluster gets the caps of the code that opens it.
   */
  limits?: Partial<PlaygroundLimits>;
}

export interface Cluster {
  readonly clock: VirtualClock;
  readonly store: MvccStore;
  readonly apiserver: APIServer;
  /** Acts as the API server's current user (the admin of a fresh playground), like kubectl. */
  readonly client: Client;
  /** The API server as the network sees it: stop()/start() it, or connect() a component and partition it. */
  readonly endpoint: ApiServerEndpoint;
  /** kube-controller-manager: every controller, over its own informers; restart() is a crash and restart. */
  readonly controllerManager: ControllerManager;
  /** kube-scheduler (absent when disabled); stop()/start() is a crash and restart. */
  readonly scheduler?: Scheduler;
  /** The simulated machines: add, remove, kill, restart and partition nodes; container logs. */
  readonly nodes: NodeSimulator;
  /** The simulated data plane: cluster DNS, kube-proxy and the pod network (network.request sends HTTP traffic). */
  readonly network: DataPlane;
  readonly trace: TraceBus;
  /** The demo-timing settings, live: configure() applies at once to the running components and is persisted. */
  readonly settings: LiveClusterSettings;
  /** The playground-wide caps, live, and the usage they are measured against (the Settings dialog shows both). */
  readonly limits: LivePlaygroundLimits;
  /** The simulated per-workload loads ('sim/load'), saved with the cluster's meta. */
  readonly loads: WorkloadLoads;
  /** The simulated metrics-server (kubectl top, the HPA controller). */
  readonly metrics: MetricsServer;
  readonly rng: Rng;
  readonly seed: number;
  readonly persistence?: Persistence;
  readonly registry: ResourceRegistry;
  /** The running controllers (empty while the controller manager is stopped). */
  controllers(): readonly RunningController[];
  /** The controllers' work queues, for the UI. */
  queues(): QueueSnapshot[];
  /** Runs deferred work and timers until nothing is pending or maxTimeMs passes (see VirtualClock.runUntilIdle). */
  runUntilIdle(options?: { maxTimeMs?: number; maxSteps?: number }): void;
  /** Moves virtual time forward, firing what comes due. */
  advance(ms: number): void;
  /** Runs until predicate() holds or maxMs of virtual time passes; returns whether it held. */
  runUntil(predicate: () => boolean, maxMs?: number): boolean;
  /** Resolves once everything committed so far (and the clock/rng state) is durable. No-op without persistence. */
  flush(): Promise<void>;
  /** Stops controllers and informers and flushes the persistence (which stays open: its owner closes it). */
  close(): Promise<void>;
}

/**
 * A pod's view of the data plane, built on its first use: every container start gets one, and most programs
 * (nginx serving, sleep) never call out, so a pod that does not costs one small object instead of the view's closures.
 */
class LazyPodNetwork implements PodNetwork {
  private view?: PodNetwork;

  constructor(
    private readonly dataPlane: () => DataPlane,
    private readonly namespace: string,
    private readonly pod: string,
  ) {}

  request(req: Parameters<PodNetwork['request']>[0]): ReturnType<PodNetwork['request']> {
    return this.resolve().request(req);
  }

  lookup(name: string): ReturnType<PodNetwork['lookup']> {
    return this.resolve().lookup(name);
  }

  private resolve(): PodNetwork {
    return (this.view ??= podNetwork(this.dataPlane(), this.namespace, this.pod));
  }
}

function selectControllers(which: ClusterOptions['controllers']): readonly ControllerDescriptor[] {
  if (which === false) return [];
  if (which === undefined || which === true) return defaultControllers;
  const unknown = which.filter((name) => !defaultControllers.some((d) => d.name === name));
  if (unknown.length) throw new Error(`unknown controllers: ${unknown.join(', ')}`);
  return defaultControllers.filter((d) => which.includes(d.name));
}

/**
 * Creates (or restores) a cluster. Time is virtual: nothing happens until the clock is driven, by the caller
 * (runUntilIdle/advance/runUntil) or by a RealtimeDriver in the worker.
 *
 * @example
 * const cluster = await createCluster({ seed: 1 });
 * cluster.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
 * cluster.runUntilIdle();                                   // the serviceaccount controller reacts
 * cluster.client.serviceAccounts.get('default', { namespace: 'team-a' });
 * await cluster.close();
 *
 * @example
 * // Survives a "reload": the same persistence restores objects, revisions, uids, time and the rng stream.
 * const persistence = new MemoryPersistence();
 * const first = await createCluster({ persistence });
 * first.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } });
 * await first.close();
 * const second = await createCluster({ persistence });    // configmap "c" is there, same uid and resourceVersion
 */
export async function createCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const persistence = options.persistence;
  const snapshot = persistence ? await persistence.load() : undefined;
  const meta = snapshot?.meta;

  const seed = meta?.seed ?? options.seed ?? 1;
  const clock = new VirtualClock({ startTime: meta?.clockTime ?? options.startTime });
  const rng = createRng(meta?.rngState ?? seed);
  const trace = new TraceBus({ clock, capacity: options.traceCapacity });
  const grace = options.controllerManager?.nodeMonitorGracePeriodMs;
  const graceMs = typeof grace === 'function' ? grace() : grace;
  const settings = new LiveClusterSettings(
    initialClusterSettings(meta?.settings, { ...(graceMs !== undefined ? { nodeMonitorGracePeriodSeconds: graceMs / 1000 } : {}), ...options.settings }),
  );
  const loads = new WorkloadLoads(meta?.loads);
  const currentMeta = (): ClusterMeta => ({ clockTime: clock.now(), rngState: rng.state(), seed, settings: { ...settings.get() }, ...loadsMeta() });
  // Absent when no workload has a load (a cluster without loads saves the meta it always did).
  function loadsMeta(): { loads?: ReturnType<WorkloadLoads['list']> } {
    const list = loads.list();
    return list.length ? { loads: list } : {};
  }
  // A changed setting is saved with the next batch (or on its own at the next flush).
  settings.subscribe(() => persistence?.setMeta(currentMeta()));
  loads.subscribe(() => persistence?.setMeta(currentMeta()));

  // Watch deliveries of a revision name its store.commit as their cause (see introspection/commit-causes.ts).
  const commitCauses = new CommitCauses();
  const onCommit = (batch: RevisionBatch): void => {
    const seq = trace.emit({
      kind: TraceKind.StoreCommit,
      component: 'etcd',
      data: { revision: batch.revision, events: batch.events.map((e) => ({ type: e.type, key: e.kv.key })) },
    });
    commitCauses.record(batch.revision, seq);
    storeUsage.observe(batch);
    if (persistence) {
      persistence.enqueue(batch);
      // Queued with the batch, so time and the rng stream are saved atomically with the objects.
      persistence.setMeta(currentMeta());
    }
  };
  const store = new MvccStore({ clock, historyRevisions: options.historyRevisions, snapshot, onCommit });
  attachCommitCauses(store, commitCauses);
  const storeUsage = new StoreUsage(store);
  const limits = new LivePlaygroundLimits(options.limits, storeUsage);

  const registry = new ResourceRegistry();
  // The server's defaults are the real ones: RBAC over its own objects (system:masters may do anything) and the
  // admission plugins a kubeadm v1.32 server enables, drawing generated names from the cluster's rng.
  const admission = defaultAdmissionChain(() => rng.next(), {
    defaultTolerationSeconds: () => settings.defaultTolerationSeconds,
    playgroundLimits: limits,
  });
  const apiserver = new APIServer({ clock, store, registry, trace, rng, mutatingPlugins: admission.mutating, validatingPlugins: admission.validating });
  // Creates the default namespaces and RBAC objects that are missing (a restored cluster already has them), and
  // the ingress addon's default IngressClass "nginx" served by the simulated ingress-nginx, and the system
  // PriorityClasses (system-node-critical, system-cluster-critical).
  apiserver.bootstrap([ingressNginxClass() as KubeObject, ...systemPriorityClassObjects()]);

  const endpoint = new ApiServerEndpoint(apiserver, clock);
  const client = new Client(endpoint.connect('kubectl'));
  // The node simulator is built below; metrics-server reaches its kubelets once the clock runs.
  const metrics = new MetricsServer({ clock, client: new Client(endpoint.connect('metrics-server')), kubelets: () => nodes.list(), loads });
  // A new cluster comes with its default StorageClass, as kind installs one (a restored cluster keeps its own).
  if (!snapshot && (options.defaultStorageClass ?? true)) installDefaultStorageClass(client);
  const controllerManager = new ControllerManager({
    client: new Client(endpoint.connect('kube-controller-manager'), controllerManagerUser),
    clock,
    trace,
    registry,
    rng,
    controllers: selectControllers(options.controllers),
    config: { ...options.controllerManager, nodeMonitorGracePeriodMs: () => settings.nodeMonitorGracePeriodMs, resourceMetrics: metrics },
  });
  controllerManager.start();

  // kube-scheduler runs as its own process with its own informers, like the real one.
  const scheduler =
    options.scheduler === false
      ? undefined
      : new Scheduler({ client: new Client(endpoint.connect('kube-scheduler'), schedulerUser), clock, trace, rng });
  scheduler?.start();

  const nodeConfigs = typeof options.nodes === 'number' || options.nodes === undefined ? defaultNodeConfigs(options.nodes ?? 3) : options.nodes;
  // Containers' own programs reach the data plane created just below (their pods start only once the clock runs).
  const dataPlane = (): DataPlane => network;
  const kubeletNetwork = (namespace: string, pod: string): PodNetwork => new LazyPodNetwork(dataPlane, namespace, pod);
  const nodes = new NodeSimulator({ client: new Client(endpoint.connect('kubelet')), clock, rng, trace, nodes: nodeConfigs, kubelet: { settings, podNetwork: kubeletNetwork } });
  // kube-proxy and cluster DNS watch the API like the node agents they are; their rng is their own (seeded tests keep their stream).
  const network = new DataPlane({
    client: new Client(endpoint.connect('kube-proxy')),
    clock,
    trace,
    seed: (seed ^ 0x6b7072) >>> 0,
    containers: (namespace, pod, container) => nodes.kubeletFor(namespace, pod)?.containerProcess(namespace, pod, container),
  });
  network.start();

  let closed = false;
  return {
    clock,
    store,
    apiserver,
    client,
    endpoint,
    controllerManager,
    scheduler,
    nodes,
    network,
    trace,
    settings,
    limits,
    loads,
    metrics,
    rng,
    seed,
    persistence,
    registry,
    controllers: () => controllerManager.controllers(),
    queues: () => controllerManager.queues(),
    runUntilIdle: (opts) => clock.runUntilIdle(opts),
    advance: (ms) => clock.advance(ms),
    runUntil: (predicate, maxMs) => clock.runUntil(predicate, maxMs),
    async flush() {
      if (!persistence || closed) return;
      persistence.setMeta(currentMeta());
      await persistence.flush();
    },
    async close() {
      if (closed) return;
      nodes.stop();
      network.stop();
      scheduler?.stop();
      controllerManager.stop();
      if (persistence) {
        persistence.setMeta(currentMeta());
        await persistence.flush();
      }
      closed = true;
    },
  };
}
