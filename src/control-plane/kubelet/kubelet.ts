// The kubelet of one simulated node: registers its Node (or adopts the existing one after a restart), renews its
// Lease in kube-node-lease every 10 s, reports node status every 10 s when it changed (else every 5 min), watches
// the pods bound to its node with its own informer, runs each through a PodWorker on the simulated runtime, and
// writes their status through pods/status when it changed. Every call goes through its own connection, which
// can be partitioned; a failed call is retried later, so the kubelet converges once it can talk again.
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Container, Node, NodeCondition, Pod, PodStatus } from 'kubernetes-types/core/v1';
import type { CSIDriver } from 'kubernetes-types/storage/v1';
import { isStatusError, StatusReason } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import { parseQuantity, toMillis, toNumber } from '../../shared/lib/quantity';
import { TraceKind, nullTraceSink, type TraceSink } from '../../shared/protocol/trace';
import { wantsEvent } from '../trace/trace-bus';
import { Client } from '../client/client';
import { EventRecorder } from '../client/record/event-recorder';
import type { Clock, TimerHandle, TimerOptions } from '../sim/clock';
import { rfc3339Micro } from '../sim/clock';
import type { Rng } from '../sim/rng';
import { Backoff } from './backoff';
import type { ApiConnection } from '../client/connection';
import { kubeletConnection } from './connection';
import { completeNodeConfig, type CompleteNodeConfig, type NodeConfig } from './node-config';
import { initialNode, nodeAllocatable, nodeLabels, nodeStatus, nodeStatusChanged } from './node-status';
import { PodSource } from './pod-source';
import { WatchingObjectCache, cacheSyncError, type CachedObject, type ObjectKind } from './object-cache';
import { RecentList } from '../../shared/lib/recent-list';
import { PodWorker, type ContainerProcess, type EventType, type PodWorkerHost } from './pod-worker';
import { ContainerRuntime } from './runtime';
import type { KubeletSettingsSource } from '../config/cluster-settings';
import type { PodNetwork } from '../network/tools';
import { volumeSetUpFailures, type VolumeSetUpFailure } from './volumes';
import { AttachWaiter, podVolumesInUse, type AttachStateReader, type AttachWaitResult } from './volume-attach';
import { containerResourceValue, HostFilesystem, normalizePath, VolumeContentStore, type ObjectData } from './volume-contents';
import { writtenVolumeFiles } from './volume-files';
import { sameJson } from '../../shared/lib/same-json';
import { shareOwnWith } from './same-json';

export interface KubeletOptions {
  /** The node name; defaults to config.name. */
  name?: string;
  config: NodeConfig;
  /** Any client of the cluster: the kubelet talks to the same API server through its own connection and user. */
  client: Client;
  clock: Clock;
  rng: Rng;
  trace?: TraceSink;
  /** Records kubelet events; by default one of its own (source component "kubelet", host = node name). */
  recorder?: EventRecorder;
  /** Position of the node (podCIDR 10.244.<index>.0/24) when the config has none. */
  index?: number;
  /** Default 40 (the lease is renewed every quarter of it). */
  leaseDurationSeconds?: number;
  /** Default 10 s. */
  nodeStatusUpdateFrequencyMs?: number;
  /** Default 5 min. */
  nodeStatusReportFrequencyMs?: number;
  /**
   * The cluster's live settings (config/cluster-settings.ts): when given, the status frequencies and the
   * simulated pull time follow them as they change, over the two options above.
   */
  settings?: KubeletSettingsSource;
  /** A pod's view of the cluster network (network/pod-network.ts), for its containers' own programs. */
  podNetwork?: (namespace: string, pod: string) => PodNetwork | undefined;
}

export interface LogLine {
  /** ms since the epoch. */
  time: number;
  text: string;
}

export type LogsResult = { lines: LogLine[] } | { error: string };

export const NodeLeaseNamespace = 'kube-node-lease';

/** The identity a kubelet acts as. With no Node authorizer in the simulated server it is also a cluster admin. */
export function kubeletUser(nodeName: string) {
  return { username: `system:node:${nodeName}`, groups: ['system:nodes', 'system:authenticated', 'system:masters'] };
}

const statusRetryMs = 10_000;
/** The pod conditions the kubelet sets (isPodStatusByKubeletEqual compares these). */
/** The environment of a container that declares none; frozen, read only (programs copy it). */
const noEnv: Record<string, string> = Object.freeze({}) as Record<string, string>;

const kubeletOwnedConditions = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
const registrationRetryMaxMs = 7_000;
const leaseRetryInitialMs = 200;
const leaseRetryMaxMs = 7_000;
const logLimit = 1000;

/** ObjectData of frozen ConfigMap and Secret views (a pure function of the object, which cannot change). */
const decodedObjects = new WeakMap<object, ObjectData>();

export class Kubelet implements PodWorkerHost {
  readonly nodeName: string;
  readonly config: CompleteNodeConfig;
  readonly clock: Clock;
  readonly runtime: ContainerRuntime;
  readonly crashBackoff = new Backoff(10_000, 300_000);
  readonly pullBackoff = new Backoff(10_000, 300_000);
  private readonly connection: ApiConnection;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly traceSink: TraceSink;
  private readonly rng: Rng;
  private readonly leaseDurationSeconds: number;
  private readonly fixedStatusUpdateMs: number;
  private readonly fixedStatusReportMs: number;
  private readonly settings: KubeletSettingsSource | undefined;
  private unsubscribeSettings: (() => void) | undefined;
  /** The pending tryUpdateNodeStatus tick and when the last one ran, to reschedule it when the frequency changes. */
  private statusTimer: TimerHandle | undefined;
  private lastStatusSyncAt = 0;

  private running = false;
  /** Bumped on every start/stop so timers of an earlier life do nothing. */
  private generation = 0;
  private bootID = '';
  private registered = false;
  private nodeUID: string | undefined;
  private lease: Lease | undefined;
  private lastReportAt = -Infinity;
  /** The condition statuses last reported, as type, status, type, status… (conditionStatuses: shared by the nodes). */
  private lastKnownConditions: readonly string[] | undefined;
  private registrationDelayMs = 100;
  private leaseRetryMs = leaseRetryInitialMs;
  private readonly timers = new Set<TimerHandle>();
  private podSource: PodSource | undefined;
  /** The ConfigMaps and Secrets the node's pods reference, watched by name while they do. */
  private readonly objectCache: WatchingObjectCache;
  /**
   * The workers by namespace/name: at most one per name (a new uid replaces the old worker), so a lookup by uid
   * is one by the pod's name and a check of the uid. One map, not a second by uid: its entries cost ~30 bytes a pod.
   */
  private readonly workers = new Map<string, PodWorker>();
  /** Workers whose status write failed, to retry. */
  private readonly pendingStatus = new Set<PodWorker>();
  /** Workers whose pod deletion waits for their status write or failed, to retry. */
  private readonly pendingDeletes = new Set<PodWorker>();
  private retryTimer: TimerHandle | undefined;
  /** What the volume plugins wrote for each pod (configMap, secret, downwardAPI, projected generations). */
  readonly volumeContents = new VolumeContentStore();
  /** The node's own files, as hostPath volumes see them (they outlive the pods). */
  readonly hostFilesystem = new HostFilesystem();
  /** The volume manager's wait for PVC volumes to be bound and attached. */
  private readonly attachWaiter = new AttachWaiter();
  private readonly networkOf: KubeletOptions['podNetwork'];
  private capacityCache: { pods: number; cpu: number; memory: number } | undefined;
  private allocatableCache: Record<string, string> | undefined;

  constructor(options: KubeletOptions) {
    this.networkOf = options.podNetwork;
    this.nodeName = options.name ?? options.config.name;
    this.config = completeNodeConfig({ ...options.config, name: this.nodeName }, options.index ?? 1);
    this.clock = options.clock;
    this.rng = options.rng;
    this.traceSink = options.trace ?? nullTraceSink;
    this.connection = kubeletConnection(options.client.server, options.clock);
    this.client = new Client(this.connection, kubeletUser(this.nodeName));
    this.objectCache = new WatchingObjectCache({ client: this.client, clock: this.clock, nodeName: this.nodeName, trace: this.traceSink });
    this.recorder = options.recorder ?? new EventRecorder({ client: this.client, clock: options.clock, source: { component: 'kubelet', host: this.nodeName } });
    this.settings = options.settings;
    const settings = options.settings;
    this.runtime = new ContainerRuntime(options.clock, this.nodeName, this.config.podCIDR, settings ? () => settings.imagePullMs : undefined);
    this.leaseDurationSeconds = options.leaseDurationSeconds ?? 40;
    this.fixedStatusUpdateMs = options.nodeStatusUpdateFrequencyMs ?? 10_000;
    this.fixedStatusReportMs = options.nodeStatusReportFrequencyMs ?? 300_000;
  }

  /** --node-status-update-frequency now. */
  get statusUpdateMs(): number {
    return this.settings?.nodeStatusUpdateFrequencyMs ?? this.fixedStatusUpdateMs;
  }

  /** nodeStatusReportFrequency now. */
  get statusReportMs(): number {
    return this.settings?.nodeStatusReportFrequencyMs ?? this.fixedStatusReportMs;
  }

  get hostIP(): string {
    return this.config.internalIP;
  }

  get isRunning(): boolean {
    return this.running;
  }

  get isReachable(): boolean {
    return this.connection.isReachable;
  }

  get isRegistered(): boolean {
    return this.registered;
  }

  // ------------------------------------------------------------------ lifecycle

  /** Boots the kubelet: registers the node, then heartbeats and runs the pods bound to it. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.generation++;
    this.bootID = this.rng.uuid();
    this.registered = false;
    this.lease = undefined;
    this.lastReportAt = -Infinity;
    this.lastKnownConditions = undefined;
    this.registrationDelayMs = 100;
    this.statusTimer = undefined;
    this.unsubscribeSettings = this.settings?.subscribe(() => this.statusFrequencyChanged());
    this.trace({ event: 'kubelet.start', bootID: this.bootID });
    this.nodeEvent('Normal', 'Starting', 'Starting kubelet.');
    this.after(0, () => this.registerNode(), 'register');
  }

  /** The node dies: no heartbeats, no status, and the runtime's containers are gone. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.generation++;
    this.unsubscribeSettings?.();
    this.unsubscribeSettings = undefined;
    this.statusTimer = undefined;
    for (const t of this.timers) this.clock.clearTimer(t);
    this.timers.clear();
    this.clock.clearTimer(this.retryTimer);
    this.retryTimer = undefined;
    this.podSource?.stop();
    this.podSource = undefined;
    this.objectCache.stop();
    for (const w of this.workers.values()) w.stop();
    this.workers.clear();
    this.pendingStatus.clear();
    this.pendingDeletes.clear();
    this.runtime.reset();
    this.connection.closeAll();
    this.trace({ event: 'kubelet.stop' });
  }

  /** Partitions the node from the API server (false) or reconnects it (true). */
  setReachable(reachable: boolean): void {
    if (this.connection.isReachable === reachable) return;
    this.connection.setReachable(reachable);
    this.trace({ event: 'kubelet.network', reachable });
    if (reachable && this.running) {
      // Reconnected: relist at once, and push what piled up.
      this.podSource?.relist();
      this.objectCache.relist();
      this.after(0, () => this.flushPending(), 'reconnect');
    }
  }

  get partitioned(): boolean {
    return !this.connection.isReachable;
  }

  set partitioned(on: boolean) {
    this.setReachable(!on);
  }

  private after(ms: number, fn: () => void, label: string, options?: TimerOptions): TimerHandle {
    const generation = this.generation;
    const handle = this.clock.setTimer(ms, () => {
      this.timers.delete(handle);
      if (this.running && generation === this.generation) fn();
    }, `kubelet/${this.nodeName} ${label}`, options);
    this.timers.add(handle);
    return handle;
  }

  /** Reports what the kubelet did: a leaf (nothing the kubelet does later names it as its cause). */
  trace(data: Record<string, unknown>): void {
    if (!wantsEvent(this.traceSink, TraceKind.Custom, true)) return;
    this.traceSink.emit({ kind: TraceKind.Custom, component: `kubelet/${this.nodeName}`, data: { node: this.nodeName, ...data } }, true);
  }

  event(obj: KubeObject, type: EventType, reason: string, message: string, fieldPath?: string): void {
    if (!this.connection.isReachable || !this.running) return;
    this.recorder.event(obj, type, reason, message, fieldPath);
  }

  private nodeEvent(type: EventType, reason: string, message: string): void {
    // The kubelet refers to its node by name, with the name as UID.
    this.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: this.nodeName, uid: this.nodeName } }, type, reason, message);
  }

  // ------------------------------------------------------------------ node registration and status

  private registerNode(): void {
    const now = this.clock.now();
    const status = nodeStatus({ config: this.config, bootID: this.bootID, now, images: this.runtime.nodeImages() });
    const node = initialNode(this.config, status);
    try {
      let registered: Node;
      try {
        registered = this.client.nodes.create(node);
        this.trace({ event: 'kubelet.register', created: true });
      } catch (err) {
        if (!isStatusError(err, StatusReason.AlreadyExists)) throw err;
        // A restarted node re-registers: adopt the existing object, reconciling what the kubelet owns.
        const existing = this.client.nodes.get(this.nodeName);
        const copy = structuredClone(existing) as Node;
        copy.metadata!.labels = { ...(copy.metadata!.labels ?? {}), ...nodeLabels(this.config) };
        copy.metadata!.annotations = { ...(copy.metadata!.annotations ?? {}), 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' };
        if (!copy.spec?.podCIDR) copy.spec = { ...(copy.spec ?? {}), podCIDR: this.config.podCIDR, podCIDRs: [this.config.podCIDR] };
        registered = this.client.nodes.update(copy);
        this.trace({ event: 'kubelet.register', created: false });
      }
      this.nodeUID = registered.metadata?.uid;
      this.registered = true;
    } catch (err) {
      if (!isStatusError(err)) throw err;
      this.trace({ event: 'kubelet.register.failed', message: err.message });
      const delay = this.registrationDelayMs;
      this.registrationDelayMs = Math.min(delay * 2, registrationRetryMaxMs);
      this.after(delay, () => this.registerNode(), 'register');
      return;
    }
    this.nodeEvent('Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    this.syncNodeStatus();
    this.renewLease();
    this.podSource = new PodSource({
      client: this.client,
      clock: this.clock,
      nodeName: this.nodeName,
      trace: this.traceSink,
      handler: {
        onUpsert: (pod, key) => this.podUpserted(pod, key),
        onDelete: (pod) => this.podDeleted(pod),
        onSynced: () => this.trace({ event: 'kubelet.pods.synced' }),
      },
    });
    this.podSource.start();
  }

  /** tryUpdateNodeStatus, every nodeStatusUpdateFrequency. */
  private syncNodeStatus(): void {
    this.lastStatusSyncAt = this.clock.now();
    this.scheduleStatusSync(this.statusUpdateMs);
    const now = this.clock.now();
    let node: Node;
    try {
      node = this.client.nodes.get(this.nodeName);
    } catch (err) {
      if (!isStatusError(err)) throw err;
      this.trace({ event: 'kubelet.nodeStatus.failed', message: err.message });
      return;
    }
    const status = nodeStatus({ config: this.config, bootID: this.bootID, now, images: this.runtime.nodeImages(), previous: node.status?.conditions });
    // volumesAttached is the attach/detach controller's; the kubelet reports which attachable volumes it uses.
    if (node.status?.volumesAttached) status.volumesAttached = node.status.volumesAttached;
    const inUse = this.volumesInUse();
    if (inUse.length > 0) status.volumesInUse = inUse;
    const changed = nodeStatusChanged(node.status, status);
    if (!changed && now - this.lastReportAt < this.statusReportMs) return;
    const copy = { ...(structuredClone(node) as Node), status };
    try {
      this.client.nodes.updateStatus(copy);
    } catch (err) {
      if (!isStatusError(err)) throw err;
      this.trace({ event: 'kubelet.nodeStatus.failed', message: err.message });
      return;
    }
    this.lastReportAt = now;
    this.recordConditionEvents(status.conditions ?? []);
    this.trace({ event: 'kubelet.nodeStatus', changed });
  }

  private scheduleStatusSync(ms: number): void {
    if (this.statusTimer) {
      this.clock.clearTimer(this.statusTimer);
      this.timers.delete(this.statusTimer);
    }
    this.statusTimer = this.after(ms, () => this.syncNodeStatus(), 'nodeStatus', { background: true });
  }

  /** The cluster settings changed: the next status tick moves to the new period, counted from the last one. */
  private statusFrequencyChanged(): void {
    if (!this.running || !this.statusTimer) return;
    this.scheduleStatusSync(Math.max(0, this.lastStatusSyncAt + this.statusUpdateMs - this.clock.now()));
  }

  /** recordNodeStatusEvent for each condition whose status moved since the kubelet last reported it. */
  private recordConditionEvents(conditions: NodeCondition[]): void {
    const reasonFor: Record<string, [string, string]> = {
      MemoryPressure: ['NodeHasSufficientMemory', 'NodeHasInsufficientMemory'],
      DiskPressure: ['NodeHasNoDiskPressure', 'NodeHasDiskPressure'],
      PIDPressure: ['NodeHasSufficientPID', 'NodeHasInsufficientPID'],
      Ready: ['NodeNotReady', 'NodeReady'],
    };
    for (const c of conditions) {
      if (this.lastKnownConditions && statusOfType(this.lastKnownConditions, c.type) === c.status) continue;
      const [whenFalse, whenTrue] = reasonFor[c.type] ?? [];
      if (!whenFalse) continue;
      const reason = c.status === 'True' ? whenTrue : whenFalse;
      this.nodeEvent('Normal', reason, `Node ${this.nodeName} status is now: ${reason}`);
    }
    this.lastKnownConditions = conditionStatuses(conditions);
  }

  /** The node lease heartbeat: every leaseDuration/4, retried with back-off on failure. */
  private renewLease(): void {
    const now = this.clock.now();
    const renewTime = rfc3339Micro(now);
    try {
      if (!this.lease) {
        try {
          this.lease = this.client.leases.get(this.nodeName, { namespace: NodeLeaseNamespace });
        } catch (err) {
          if (!isStatusError(err, StatusReason.NotFound)) throw err;
          const lease: Lease = {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: {
              name: this.nodeName,
              namespace: NodeLeaseNamespace,
              ownerReferences: this.nodeUID ? [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid: this.nodeUID }] : undefined,
            },
            spec: { holderIdentity: this.nodeName, leaseDurationSeconds: this.leaseDurationSeconds, renewTime },
          };
          this.lease = this.client.leases.create(lease);
          this.afterLease(true);
          return;
        }
      }
      const next = structuredClone(this.lease) as Lease;
      next.spec = { ...(next.spec ?? {}), holderIdentity: this.nodeName, leaseDurationSeconds: this.leaseDurationSeconds, renewTime };
      if (!next.metadata?.ownerReferences?.length && this.nodeUID) {
        next.metadata = { ...next.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid: this.nodeUID }] };
      }
      this.lease = this.client.leases.update(next);
      this.afterLease(true);
    } catch (err) {
      if (!isStatusError(err)) throw err;
      // A conflict or a lease someone deleted: read it again next time.
      this.lease = undefined;
      this.trace({ event: 'kubelet.lease.failed', message: err.message });
      this.afterLease(false);
    }
  }

  private afterLease(ok: boolean): void {
    if (ok) {
      this.leaseRetryMs = leaseRetryInitialMs;
      this.trace({ event: 'kubelet.lease', renewTime: this.lease?.spec?.renewTime });
      this.after((this.leaseDurationSeconds * 1000) / 4, () => this.renewLease(), 'lease', { background: true });
      return;
    }
    const delay = this.leaseRetryMs;
    this.leaseRetryMs = Math.min(delay * 2, leaseRetryMaxMs);
    this.after(delay, () => this.renewLease(), 'lease retry');
  }

  // ------------------------------------------------------------------ pods

  /** key: the pod source's key of the pod ("namespace/name": pods are namespaced). */
  private podUpserted(pod: Pod, key: string): void {
    if (pod.spec?.nodeName !== this.nodeName) return;
    const uid = pod.metadata!.uid!;
    const existing = this.workers.get(key);
    if (existing && existing.uid === uid) {
      // Termination begins: what the containers wrote to hostPath volumes stays on the node.
      if (pod.metadata?.deletionTimestamp && !existing.pod.metadata?.deletionTimestamp) this.keepHostPathFiles(existing);
      existing.update(pod);
      this.reconcileStatus(existing, pod);
      return;
    }
    // The same name with a new uid: the old pod is gone.
    if (existing) this.removeWorker(existing, true);
    this.objectCache.registerPod(pod);
    const worker = new PodWorker(this, pod);
    this.workers.set(worker.key, worker);
    this.trace({ event: 'kubelet.pod.add', pod: worker.key });
    if (!pod.metadata?.deletionTimestamp && !worker.isTerminal) {
      const rejection = this.admit(worker, uid);
      if (rejection) {
        this.event(pod as KubeObject, 'Warning', rejection.reason, rejection.message);
        worker.reject(rejection.reason, rejection.message);
        return;
      }
    }
    worker.requestSync();
  }

  private podDeleted(pod: Pod): void {
    const uid = pod.metadata?.uid;
    if (!uid) return;
    const w = this.workers.get(`${pod.metadata!.namespace}/${pod.metadata!.name}`);
    if (w && w.uid === uid) this.removeWorker(w, true);
  }

  private removeWorker(w: PodWorker, kill: boolean): void {
    const uid = w.uid;
    this.keepHostPathFiles(w);
    this.objectCache.unregisterPod(w.pod);
    this.volumeContents.forget(uid);
    this.attachWaiter.forget(uid);
    if (kill) w.forceKill();
    else w.stop();
    if (this.workers.get(w.key) === w) this.workers.delete(w.key);
    this.pendingStatus.delete(w);
    this.pendingDeletes.delete(w);
    this.crashBackoff.deletePrefix(`${uid}/`);
    this.pullBackoff.deletePrefix(`${uid}_`);
  }

  /** canAdmitPod's resource check: the node's allocatable against what admitted pods request. */
  private admit(worker: PodWorker, uid: string): { reason: string; message: string } | undefined {
    const capacity = this.admissionCapacity();
    let usedCpu = 0;
    let usedMemory = 0;
    let usedPods = 0;
    for (const w of this.workers.values()) {
      if (w.uid === uid || !w.countsForAdmission) continue;
      const r = this.requestsOf(w);
      usedCpu += r.cpu;
      usedMemory += r.memory;
      usedPods++;
    }
    // The new pod's requests, kept on its worker for the admissions after it.
    const want = this.requestsOf(worker);
    const capPods = capacity.pods;
    if (usedPods + 1 > capPods) return outOf('pods', 1, usedPods, capPods);
    const capCpu = capacity.cpu;
    if (want.cpu > 0 && usedCpu + want.cpu > capCpu) return outOf('cpu', want.cpu, usedCpu, capCpu);
    const capMemory = capacity.memory;
    if (want.memory > 0 && usedMemory + want.memory > capMemory) return outOf('memory', want.memory, usedMemory, capMemory);
    return undefined;
  }

  /**
   * An admitted pod's requests, computed once per worker: container resources are immutable in v1.32 (no
   * in-place resize), and admission sums them over every pod of the node for each new one.
   */
  private requestsOf(w: PodWorker): { cpu: number; memory: number } {
    return (w.admissionRequests ??= sharedRequests(podRequests(w.pod)));
  }

  /** The node's allocatable, parsed once (the config is fixed for the kubelet's life). */
  private admissionCapacity(): { pods: number; cpu: number; memory: number } {
    if (!this.capacityCache) {
      const allocatable = nodeAllocatable(this.config);
      this.capacityCache = { pods: Number(allocatable.pods), cpu: toMillis(parseQuantity(allocatable.cpu)), memory: toNumber(parseQuantity(allocatable.memory)) };
    }
    return this.capacityCache;
  }

  /** A pod's files in hostPath volumes stay on the node when the pod goes. */
  private keepHostPathFiles(w: PodWorker): void {
    const hostPaths = new Map((w.pod.spec?.volumes ?? []).filter((v) => v.hostPath).map((v) => [v.name, v.hostPath!.path]));
    if (hostPaths.size === 0) return;
    const running = w.containerNames().flatMap((n) => {
      const p = w.process(n);
      return p ? [{ mounts: p.spec.volumeMounts ?? [], run: p.run, startedAt: p.startedAt }] : [];
    });
    for (const [volume, files] of writtenVolumeFiles(w.pod, running, this.clock.now())) {
      const root = hostPaths.get(volume);
      if (root === undefined) continue;
      for (const [rel, f] of files) {
        if (f.exists) this.hostFilesystem.writeFile(normalizePath(`${root}/${rel}`), f.content);
        else this.hostFilesystem.removeFile(`${root}/${rel}`);
      }
    }
  }

  /**
   * A ConfigMap or Secret as the kubelet's managers give it: from the watch of a registered pod's reference,
   * else (a read that is not for a pod of the node) from the API server.
   */
  private readObject(kind: ObjectKind, namespace: string, name: string): CachedObject {
    const cached = this.objectCache.get(kind, namespace, name);
    if (cached) return cached;
    try {
      return { object: kind === 'configmap' ? this.client.configMaps.get(name, { namespace }) : this.client.secrets.get(name, { namespace }) };
    } catch (err) {
      if (!isStatusError(err)) throw err;
      if (isStatusError(err, StatusReason.NotFound)) return { notFound: true };
      return { error: cacheSyncError(kind) };
    }
  }

  /** The kubelet's ConfigMap/Secret cache: decoded data and when the object last changed, or undefined. */
  objectData(kind: ObjectKind, namespace: string, name: string): ObjectData | undefined {
    const read = this.readObject(kind, namespace, name);
    if (!('object' in read)) return undefined;
    // A cached object is a frozen view, the same until the object changes: every pod mounting it (each pod's
    // kube-root-ca.crt) reads the same decoded data.
    const known = decodedObjects.get(read.object);
    if (known) return known;
    const obj = read.object as { data?: Record<string, string>; binaryData?: Record<string, string>; metadata?: KubeObject['metadata'] };
    const data: Record<string, string> = {};
    if (kind === 'configmap') {
      Object.assign(data, obj.data ?? {});
      for (const [k, v] of Object.entries(obj.binaryData ?? {})) data[k] = decodeBase64(v);
    } else for (const [k, v] of Object.entries(obj.data ?? {})) data[k] = decodeBase64(v);
    const times = [obj.metadata?.creationTimestamp, ...(obj.metadata?.managedFields ?? []).map((f) => f.time)].map((t) => Date.parse(t ?? '')).filter((t) => !Number.isNaN(t));
    const decoded: ObjectData = Object.freeze({ data: Object.freeze(data), changedAt: times.length ? Math.max(...times) : 0 });
    if (Object.isFrozen(read.object)) decodedObjects.set(read.object, decoded);
    return decoded;
  }

  /** What the volume plugins read: the object cache and the node's allocatable. */
  get volumeSources(): { objects: (kind: 'configmap' | 'secret', namespace: string, name: string) => ObjectData | undefined; allocatable: Record<string, string> } {
    return { objects: (kind, namespace, name) => this.objectData(kind, namespace, name), allocatable: this.allocatable() };
  }

  /** nodeAllocatable of the fixed config, computed once (callers only read it). */
  private allocatable(): Record<string, string> {
    this.allocatableCache ??= Object.freeze(nodeAllocatable(this.config)) as Record<string, string>;
    return this.allocatableCache;
  }

  podNetwork(pod: Pod): PodNetwork | undefined {
    return this.networkOf?.(pod.metadata!.namespace!, pod.metadata!.name!);
  }

  waitForAttach(pod: Pod, now: number): AttachWaitResult {
    return this.attachWaiter.wait(pod, now, this.attachStateReader());
  }

  /** The attachable volumes of the pods this kubelet still holds (node.status.volumesInUse), sorted. */
  private volumesInUse(): string[] {
    const reader = this.attachStateReader();
    return [...new Set([...this.workers.values()].flatMap((w) => podVolumesInUse(w.pod, reader)))].sort();
  }

  private attachStateReader(): AttachStateReader {
    const read = <T>(get: () => T): T | undefined | { error: string } => {
      try {
        return get();
      } catch (err) {
        if (!isStatusError(err)) throw err;
        return isStatusError(err, StatusReason.NotFound) ? undefined : { error: (err as Error).message };
      }
    };
    const plain = <T>(x: T | undefined | { error: string }): T | undefined => (x && typeof x === 'object' && 'error' in x ? undefined : (x as T | undefined));
    return {
      claim: (namespace, name) => read(() => this.client.persistentVolumeClaims.get(name, { namespace })),
      volume: (name) => read(() => this.client.persistentVolumes.get(name)),
      csiDriver: (name) => plain(read(() => this.client.resource<CSIDriver>({ group: 'storage.k8s.io', version: 'v1', resource: 'csidrivers' }).get(name))),
      node: () => plain(read(() => this.client.nodes.get(this.nodeName))),
    };
  }

  volumeSetUpFailures(pod: Pod): VolumeSetUpFailure[] {
    const failures = this.volumeSetUpFailuresNow(pod);
    if (failures.length === 0) this.volumeContents.mounted(pod, this.clock.now(), this.volumeSources);
    return failures;
  }

  private volumeSetUpFailuresNow(pod: Pod): VolumeSetUpFailure[] {
    return volumeSetUpFailures(pod, (kind, namespace, name) => {
      const read = this.readObject(kind, namespace, name);
      if ('error' in read) return { error: read.error };
      if (!('object' in read)) return undefined;
      const obj = read.object as { data?: object; binaryData?: object };
      return [...Object.keys(obj.data ?? {}), ...Object.keys(obj.binaryData ?? {})];
    }, this.hostFilesystem);
  }

  resolveEnv(pod: Pod, container: Container): { env: Record<string, string> } | { error: string } {
    const ns = pod.metadata?.namespace ?? '';
    const env: Record<string, string> = {};
    const configMaps = new Map<string, Record<string, string> | undefined>();
    const secrets = new Map<string, Record<string, string> | undefined>();
    const load = (kind: 'configmap' | 'secret', name: string): Record<string, string> | undefined | 'error' => {
      const cache = kind === 'configmap' ? configMaps : secrets;
      if (cache.has(name)) return cache.get(name);
      const read = this.readObject(kind, ns, name);
      if ('error' in read) return 'error';
      if (!('object' in read)) {
        cache.set(name, undefined);
        return undefined;
      }
      const obj = read.object as { data?: Record<string, string> };
      const data: Record<string, string> = {};
      if (kind === 'configmap') Object.assign(data, obj.data ?? {});
      else for (const [k, v] of Object.entries(obj.data ?? {})) data[k] = decodeBase64(v);
      cache.set(name, data);
      return data;
    };
    for (const from of container.envFrom ?? []) {
      const kind = from.configMapRef ? 'configmap' : 'secret';
      const ref = from.configMapRef ?? from.secretRef;
      if (!ref?.name) continue;
      const data = load(kind, ref.name);
      if (data === 'error') return { error: cacheSyncError(kind) };
      if (!data) {
        if (ref.optional) continue;
        return { error: `${kind} ${JSON.stringify(ref.name)} not found` };
      }
      // makeEnvironmentVariables: keys that are no valid variable name (after the prefix) are skipped, with an event.
      const invalid: string[] = [];
      for (const [k, v] of Object.entries(data)) {
        const name = `${from.prefix ?? ''}${k}`;
        if (!envVarName.test(name)) invalid.push(name);
        else env[name] = v;
      }
      if (invalid.length > 0) {
        this.event(pod as KubeObject, 'Warning', 'InvalidEnvironmentVariableNames', `Keys [${invalid.sort().join(', ')}] from the EnvFrom ${kind === 'configmap' ? 'configMap' : 'secret'} ${ns}/${ref.name} were skipped since they are considered invalid environment variable names.`);
      }
    }
    for (const e of container.env ?? []) {
      if (e.value !== undefined || !e.valueFrom) {
        env[e.name] = expandEnvRefs(e.value ?? '', env);
        continue;
      }
      const vf = e.valueFrom;
      if (vf.fieldRef) {
        env[e.name] = fieldRefValue(vf.fieldRef.fieldPath, pod, this);
      } else if (vf.resourceFieldRef) {
        env[e.name] = containerResourceValue(vf.resourceFieldRef, container, this.allocatable());
      } else if (vf.configMapKeyRef || vf.secretKeyRef) {
        const kind = vf.configMapKeyRef ? 'configmap' : 'secret';
        const ref = (vf.configMapKeyRef ?? vf.secretKeyRef)!;
        const data = load(kind, ref.name ?? '');
        if (data === 'error') return { error: cacheSyncError(kind) };
        if (!data) {
          if (ref.optional) continue;
          return { error: `${kind} ${JSON.stringify(ref.name)} not found` };
        }
        if (!(ref.key in data)) {
          if (ref.optional) continue;
          return { error: `couldn't find key ${ref.key} in ${kind === 'configmap' ? 'ConfigMap' : 'Secret'} ${ns}/${ref.name}` };
        }
        env[e.name] = data[ref.key];
      }
    }
    // A container without variables (most) shares one frozen empty environment: its program context keeps it.
    for (const _ in env) return { env };
    return { env: noEnv };
  }

  // ------------------------------------------------------------------ status manager

  statusChanged(worker: PodWorker): void {
    if (!this.running || this.workers.get(worker.key) !== worker) return;
    const status = worker.computeStatus();
    const written = worker.writtenStatus;
    if (written !== undefined && sameJson(written, status)) {
      // The same text as written: keep the written one (shared with the API server's parts), not a second copy.
      worker.lastStatus = written;
      return;
    }
    this.writeStatus(worker, status);
  }

  /**
   * The status manager's needsReconcile: when the API server's copy of a pod disagrees with what the kubelet
   * last wrote about the conditions it owns (the node lifecycle controller marked the pod NotReady while the
   * node was unreachable, say), the kubelet writes its status again.
   */
  private reconcileStatus(worker: PodWorker, pod: Pod): void {
    this.shareWrittenStatus(worker, pod);
    const mine = worker.lastStatus;
    if (!mine || worker.writtenStatus === undefined || pod.metadata?.deletionTimestamp) return;
    const stored = pod.status?.conditions ?? [];
    const differs =
      pod.status?.phase !== mine.phase ||
      (mine.conditions ?? []).some((c) => kubeletOwnedConditions.has(c.type) && stored.find((s) => s.type === c.type)?.status !== c.status);
    if (!differs) return;
    worker.writtenStatus = undefined;
    this.statusChanged(worker);
  }

  /**
   * The watch brought back the status the kubelet wrote: keep, in place of the kubelet's own copy, one with the
   * same JSON text made of the API server's (shared, frozen) parts where they are equal, so remembering what was
   * written costs little memory per pod. (The stored status need not be equal as a whole: other writers own
   * some of it, such as the scheduler's PodScheduled condition or a DisruptionTarget.)
   */
  private shareWrittenStatus(worker: PodWorker, pod: Pod): void {
    const written = worker.writtenStatus;
    const stored = pod.status;
    if (!written || !stored || worker.lastStatus !== written || worker.writtenSharedWith === stored) return;
    // The written status is the worker's own object (computeStatus made it; the API server decoded a copy).
    const shared = shareOwnWith(written, stored);
    worker.lastStatus = shared;
    worker.writtenStatus = shared;
    worker.writtenSharedWith = stored;
  }

  private writeStatus(worker: PodWorker, status: PodStatus): void {
    const cached = this.podSource?.get(worker.key);
    const base = cached && cached.metadata?.uid === worker.uid ? cached : worker.pod;
    for (let attempt = 0; attempt < 2; attempt++) {
      const source = attempt === 0 ? base : this.freshPod(worker);
      if (!source) return;
      // No deep copy: the API server decodes the body into an object of its own and never changes it.
      const body: Pod = { ...source, status };
      try {
        this.client.pods.updateStatus(body as Pod & KubeObject);
        worker.writtenStatus = status;
        worker.writtenSharedWith = undefined;
        this.pendingStatus.delete(worker);
        this.trace({ event: 'kubelet.pod.status', pod: worker.key, phase: status.phase });
        return;
      } catch (err) {
        if (!isStatusError(err)) throw err;
        if (isStatusError(err, StatusReason.NotFound)) return;
        if (isStatusError(err, StatusReason.Conflict) && attempt === 0) continue;
        this.pendingStatus.add(worker);
        this.scheduleRetry();
        return;
      }
    }
  }

  private freshPod(worker: PodWorker): Pod | undefined {
    try {
      const pod = this.client.pods.get(worker.pod.metadata!.name!, { namespace: worker.pod.metadata!.namespace });
      return pod.metadata?.uid === worker.uid ? pod : undefined;
    } catch (err) {
      if (!isStatusError(err)) throw err;
      return undefined;
    }
  }

  /** Termination finished: the kubelet deletes the pod object (grace 0, uid precondition). */
  terminated(worker: PodWorker): void {
    if (!this.running || this.workers.get(worker.key) !== worker) return;
    this.statusChanged(worker);
    if (this.pendingStatus.has(worker)) {
      this.pendingDeletes.add(worker);
      return;
    }
    this.deletePod(worker);
  }

  private deletePod(worker: PodWorker): void {
    const { name, namespace } = worker.pod.metadata!;
    try {
      this.client.pods.delete(name!, { namespace, gracePeriodSeconds: 0, preconditions: { uid: worker.uid } });
      this.pendingDeletes.delete(worker);
      this.trace({ event: 'kubelet.pod.deleted', pod: worker.key });
    } catch (err) {
      if (!isStatusError(err)) throw err;
      if (isStatusError(err, StatusReason.NotFound) || isStatusError(err, StatusReason.Conflict)) {
        this.pendingDeletes.delete(worker);
        return;
      }
      this.pendingDeletes.add(worker);
      this.scheduleRetry();
    }
  }

  private scheduleRetry(): void {
    if (this.retryTimer || !this.running) return;
    const generation = this.generation;
    this.retryTimer = this.clock.setTimer(statusRetryMs, () => {
      this.retryTimer = undefined;
      if (this.running && generation === this.generation) this.flushPending();
    }, `kubelet/${this.nodeName} status retry`);
  }

  private flushPending(): void {
    for (const w of [...this.pendingStatus]) {
      if (this.workers.get(w.key) !== w) {
        this.pendingStatus.delete(w);
        continue;
      }
      w.writtenStatus = undefined;
      this.statusChanged(w);
    }
    for (const w of [...this.pendingDeletes]) {
      const live = this.workers.get(w.key) === w;
      if (live && !this.pendingStatus.has(w)) this.deletePod(w);
      else if (!live) this.pendingDeletes.delete(w);
    }
  }

  // ------------------------------------------------------------------ inspection

  /** Pods this kubelet is running (namespace/name). */
  podKeys(): string[] {
    return [...this.workers.values()].map((w) => w.key).sort();
  }

  /** Whether this kubelet runs the pod (namespace/name): podKeys().includes without listing and sorting. */
  hasPod(namespace: string, name: string): boolean {
    return this.workerFor(namespace, name) !== undefined;
  }

  /** The status the kubelet last computed for a pod (what it writes, or will once it can). */
  podStatus(namespace: string, name: string): Pod['status'] | undefined {
    return this.workerFor(namespace, name)?.lastStatus;
  }

  /** A running container's process here (kubectl exec, metrics), or undefined when it does not run here. */
  containerProcess(namespace: string, pod: string, container: string): ContainerProcess | undefined {
    return this.workerFor(namespace, pod)?.process(container);
  }

  private workerFor(namespace: string, name: string): PodWorker | undefined {
    return this.workers.get(`${namespace}/${name}`);
  }

  /**
   * A container's log (kubectl logs), with the API server's error texts when there is none. container may be
   * omitted for a single-container pod.
   */
  logs(namespace: string, pod: string, container?: string, options: { previous?: boolean; tailLines?: number } = {}): LogsResult {
    const w = this.workerFor(namespace, pod);
    if (!w) return { error: `pods "${pod}" not found` };
    const names = w.pod.spec?.containers.map((c) => c.name) ?? [];
    const all = w.containerNames();
    const name = container ?? (names.length === 1 ? names[0] : undefined);
    if (!name) return { error: `a container name must be specified for pod ${pod}, choose one of: [${names.join(' ')}]` };
    if (!all.includes(name)) return { error: `container ${name} is not valid for pod ${pod}` };
    const lines = w.logs(name, !!options.previous, options.tailLines ?? logLimit);
    if (!lines) {
      if (options.previous) return { error: `previous terminated container "${name}" in pod "${pod}" not found` };
      const status = [...(w.lastStatus?.initContainerStatuses ?? []), ...(w.lastStatus?.containerStatuses ?? [])].find((s) => s.name === name);
      const reason = status?.state?.waiting?.reason ?? 'ContainerCreating';
      const why = reason === 'ErrImagePull' || reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason;
      return { error: `container "${name}" in pod "${pod}" is waiting to start: ${why}` };
    }
    return { lines: lines.map((l) => ({ time: l.at, text: l.text })) };
  }
}

function outOf(resource: string, requested: number, used: number, capacity: number): { reason: string; message: string } {
  return { reason: `OutOf${resource}`, message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}` };
}

/**
 * Requests equal to a recent pod's are that pod's record (read only): the pods of a template ask for the same,
 * and every pod worker keeps one.
 */
const recentRequests = new RecentList<Readonly<{ cpu: number; memory: number }>>(8);

function sharedRequests(r: { cpu: number; memory: number }): { cpu: number; memory: number } {
  return recentRequests.find((x) => x.cpu === r.cpu && x.memory === r.memory) ?? recentRequests.add(Object.freeze(r));
}

/** PodRequests: max(sum of containers + sidecars, each init container + the sidecars before it), cpu in millicores. */
function podRequests(pod: Pod): { cpu: number; memory: number } {
  const req = (c: Container, name: 'cpu' | 'memory'): number => {
    const raw = c.resources?.requests?.[name] ?? c.resources?.limits?.[name];
    if (raw === undefined) return 0;
    try {
      const q = parseQuantity(String(raw));
      return name === 'cpu' ? toMillis(q) : toNumber(q);
    } catch {
      return 0;
    }
  };
  const out = { cpu: 0, memory: 0 };
  for (const name of ['cpu', 'memory'] as const) {
    let sum = 0;
    let sidecars = 0;
    let initMax = 0;
    for (const c of pod.spec?.initContainers ?? []) {
      if (c.restartPolicy === 'Always') {
        sidecars += req(c, name);
        sum += req(c, name);
      } else initMax = Math.max(initMax, sidecars + req(c, name));
    }
    for (const c of pod.spec?.containers ?? []) sum += req(c, name);
    out[name] = Math.max(sum, initMax);
  }
  return out;
}

/** validation.IsEnvVarName: what the kubelet accepts from envFrom. */
const envVarName = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

function decodeBase64(v: string): string {
  try {
    return atob(v);
  } catch {
    return v;
  }
}

function expandEnvRefs(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => (m === '$$' ? '$' : name !== undefined && name in env ? env[name] : m));
}

function fieldRefValue(path: string, pod: Pod, kubelet: Kubelet): string {
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations)?.[m[2]] ?? '';
  switch (path) {
    case 'metadata.name':
      return pod.metadata?.name ?? '';
    case 'metadata.namespace':
      return pod.metadata?.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata?.uid ?? '';
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
    case 'status.hostIPs':
      return kubelet.hostIP;
    case 'status.podIP':
    case 'status.podIPs':
      return kubelet.podStatus(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '')?.podIP ?? '';
    default:
      return '';
  }
}

/** Recent condition status lists: every healthy node reports the same ones. */
const recentConditionStatuses = new RecentList<readonly string[]>(16);

/**
 * What recordConditionEvents compares of the conditions it last reported: their types and statuses, flat, one
 * frozen list for the nodes that report the same (the conditions themselves, with their times and messages,
 * cost ~0.4 KiB a node).
 */
export function conditionStatuses(conditions: readonly NodeCondition[]): readonly string[] {
  const flat = new Array<string>(conditions.length * 2);
  for (let i = 0; i < conditions.length; i++) {
    flat[2 * i] = conditions[i].type;
    flat[2 * i + 1] = conditions[i].status;
  }
  return recentConditionStatuses.find((l) => l.length === flat.length && l.every((v, i) => v === flat[i])) ?? recentConditionStatuses.add(Object.freeze(flat));
}

/** The status of the first condition of that type in a conditionStatuses list, or undefined. */
export function statusOfType(statuses: readonly string[], type: string): string | undefined {
  for (let i = 0; i < statuses.length; i += 2) if (statuses[i] === type) return statuses[i + 1];
  return undefined;
}
