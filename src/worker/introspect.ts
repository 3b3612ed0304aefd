// Answers the page's questions about the running components (sim/components, sim/decisions, trace/why).
// Reads only: nothing here changes the cluster. sim/components is polled several times a second, so it only
// takes counts the components already keep and caps every list it copies.
import { newBadRequest } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';
import type {
  ComponentsSnapshot,
  ControllerView,
  DecisionsParams,
  InformerView,
  KubeletView,
  NodeDecisionView,
  SchedulerView,
  SchedulingDecisionView,
  WhyParams,
  WhyResult,
  WorkQueueView,
} from '../shared/protocol/introspection';
import type { TraceEvent } from '../shared/protocol/trace';
import type { InformerStatus } from '../control-plane/informers/factory';
import { creationChain } from '../control-plane/introspection/why';
import type { NodeState } from '../control-plane/kubelet/node-simulator';
import type { SchedulingDecision } from '../control-plane/scheduler/decisions';
import type { QueueSnapshot as SchedulingQueueSnapshot } from '../control-plane/scheduler/queue/scheduling-queue';
import { objectKey } from '../control-plane/store/keys';
import type { QueueSnapshot } from '../control-plane/workqueue/rate-limiting-queue';
import type { ServableCluster } from './serve';

/** Lists in a snapshot are cut here; the counts beside them are full. */
export const snapshotListCap = 20;

/**
 * What introspection reads of a cluster beyond what serving needs (src/control-plane/cluster.ts's Cluster has it
 * all). Every part is optional: a bare API server has no controllers, scheduler or nodes.
 */
export interface IntrospectionParts {
  store: {
    /** Keys under a prefix ('' = all), O(1) for a directory prefix. */
    count?(prefix: string): number;
    get?(key: string, atRevision?: number): { value: KubeObject; createRevision: number } | undefined;
  };
  trace: {
    readonly lastSeq?: number;
    get?(seq: number): TraceEvent | undefined;
    recent?(): TraceEvent[];
  };
  controllerManager: {
    controllers?(): readonly { readonly name: string; queues(): QueueSnapshot[] }[];
    informerStatus?(): InformerStatus[];
  };
  scheduler: {
    queueSnapshot?(): SchedulingQueueSnapshot;
    recentDecisions?(limit?: number): SchedulingDecision[];
    decisions?(podKey: string): SchedulingDecision[];
    informerStatus?(): InformerStatus[];
  };
  nodes: {
    states?(): NodeState[];
  };
}

const cap = <T>(list: readonly T[]): T[] => list.slice(0, snapshotListCap);

function queueView(q: QueueSnapshot): WorkQueueView {
  return {
    name: q.name,
    keys: cap(q.queued),
    depth: q.queued.length,
    processing: q.processing,
    waiting: q.waiting.length,
    retries: cap(q.retries).map((r) => ({ key: r.key, requeues: r.requeues })),
  };
}

/** "deployments.apps" (the informer's name) → "apps/deployments"; core resources stay bare. */
function informerResource(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 ? name : `${name.slice(dot + 1)}/${name.slice(0, dot)}`;
}

function informerViews(owner: string, status: InformerStatus[] | undefined): InformerView[] {
  return (status ?? []).map((s) => ({ resource: informerResource(s.resource), owner, synced: s.synced, items: s.objects }));
}

/** A decision as plain JSON (no typed arrays, no undefined fields). */
export function decisionView(d: SchedulingDecision): SchedulingDecisionView {
  const view: SchedulingDecisionView = {
    pod: d.pod,
    uid: d.uid,
    attempt: d.attempt,
    cycle: d.cycle,
    time: d.time,
    result: d.result,
    numAllNodes: d.numAllNodes,
    evaluatedNodes: d.evaluatedNodes,
    feasibleNodes: d.feasibleNodes,
    nodes: d.nodes.map((n) => {
      const nv: NodeDecisionView = { node: n.node };
      if (n.filtered) nv.filtered = { plugin: n.filtered.plugin, code: n.filtered.code, reasons: [...n.filtered.reasons] };
      if (n.scores) nv.scores = n.scores.map((s) => ({ plugin: s.plugin, raw: Number(s.raw), score: Number(s.score), weight: s.weight }));
      if (n.total !== undefined) nv.total = Number(n.total);
      if (n.chosen) nv.chosen = true;
      return nv;
    }),
  };
  if (d.node !== undefined) view.node = d.node;
  if (d.bound !== undefined) view.bound = d.bound;
  if (d.message !== undefined) view.message = d.message;
  if (d.nominatedNode !== undefined) view.nominatedNode = d.nominatedNode;
  return view;
}

function schedulerView(scheduler: NonNullable<ServableCluster['scheduler']>): SchedulerView {
  const q = scheduler.queueSnapshot?.() ?? { active: [], backoff: [], unschedulable: [], inFlight: [] };
  const view: SchedulerView = {
    running: scheduler.isRunning,
    activeQ: cap(q.active),
    backoffQ: cap(q.backoff),
    unschedulable: cap(q.unschedulable),
    counts: { active: q.active.length, backoff: q.backoff.length, unschedulable: q.unschedulable.length, inFlight: q.inFlight.length },
  };
  const last = scheduler.recentDecisions?.(1)[0];
  if (last) view.lastDecision = decisionView(last);
  return view;
}

export function describeComponents(cluster: ServableCluster): ComponentsSnapshot {
  const { store, controllerManager: cm, scheduler, nodes, trace } = cluster;
  const controllers: ControllerView[] = (cm?.controllers?.() ?? []).map((c) => ({ name: c.name, queues: c.queues().map(queueView) }));
  const kubelets: KubeletView[] = (nodes?.states?.() ?? []).map((s) => ({ node: s.name, running: s.running, reachable: s.reachable, pods: s.pods.length }));
  const snapshot: ComponentsSnapshot = {
    time: cluster.clock.now(),
    // A bare API server (no simulated network) is always serving.
    apiServer: { serving: cluster.endpoint?.isServing ?? true },
    etcd: { revision: store.revision, keys: store.count?.('') ?? 0 },
    controllerManager: { running: cm?.isRunning ?? false, controllers },
    kubelets,
    informers: [...informerViews('kube-controller-manager', cm?.informerStatus?.()), ...informerViews('kube-scheduler', scheduler?.informerStatus?.())],
    traceSeq: trace.lastSeq ?? 0,
  };
  if (scheduler) snapshot.scheduler = schedulerView(scheduler);
  return snapshot;
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw newBadRequest(`${what} is required`);
  return value;
}

export function schedulingDecisions(cluster: ServableCluster, params: DecisionsParams): SchedulingDecisionView[] {
  const namespace = requireString(params?.namespace, 'namespace');
  const name = requireString(params?.name, 'name');
  return (cluster.scheduler?.decisions?.(`${namespace}/${name}`) ?? []).map(decisionView);
}

export function whyExists(cluster: ServableCluster, params: WhyParams): WhyResult {
  const resource = requireString(params?.resource, 'resource');
  const name = requireString(params?.name, 'name');
  const group = typeof params.group === 'string' ? params.group : '';
  const rt = cluster.registry.forGroupResource({ group, resource });
  if (!rt) throw newBadRequest(`the server doesn't have a resource type "${group ? `${resource}.${group}` : resource}"`);
  const namespace = rt.namespaced ? requireString(params.namespace, 'namespace') : undefined;
  const key = objectKey(rt, namespace, name);
  const { trace, store } = cluster;
  if (!trace.get || !trace.recent) {
    return { chain: [], complete: false, note: 'This cluster keeps no trace to follow.' };
  }
  const reader = { get: trace.get.bind(trace), recent: trace.recent.bind(trace) };
  const storeReader = store.get ? { get: store.get.bind(store) } : undefined;
  const uid = typeof params.uid === 'string' && params.uid !== '' ? params.uid : undefined;
  return creationChain(reader, storeReader, { key, uid });
}
