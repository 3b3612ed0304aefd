// Fixtures for the scheduler's tests: Node and Pod objects shaped as the API server stores them, and a real
// cluster (createCluster) with a Scheduler started beside it.
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { TraceKind, type TraceEvent } from '../../shared/protocol/trace';
import { Client, type Typed } from '../client/client';
import { createCluster, type Cluster } from '../cluster';
import { Scheduler, schedulerUser } from './scheduler';
import type { SchedulerProfile } from './profile';
import type { SharedLister } from './framework/interface';
import { NodeInfo, newPodInfo, type PodInfo } from './framework/types';

export interface NodeSpec {
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  unschedulable?: boolean;
  zone?: string;
}

/** A Ready node with allocatable = capacity, hostname/os labels and the zone label when given. */
export function makeNode(name: string, spec: NodeSpec = {}): Typed<Node> {
  const resources = { cpu: spec.cpu ?? '4', memory: spec.memory ?? '8Gi', pods: spec.pods ?? '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        ...(spec.zone ? { 'topology.kubernetes.io/zone': spec.zone } : {}),
        ...(spec.labels ?? {}),
      },
    },
    spec: { ...(spec.taints ? { taints: spec.taints } : {}), ...(spec.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
    },
  } as Typed<Node>;
}

export interface PodSpecInput {
  namespace?: string;
  cpu?: string;
  memory?: string;
  labels?: Record<string, string>;
  priority?: number;
  extra?: Partial<Pod['spec']>;
  ownerReferences?: NonNullable<Pod['metadata']>['ownerReferences'];
}

export function makePod(name: string, input: PodSpecInput = {}): Typed<Pod> {
  const requests: Record<string, string> = {};
  if (input.cpu) requests.cpu = input.cpu;
  if (input.memory) requests.memory = input.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: input.namespace ?? 'default',
      ...(input.labels ? { labels: input.labels } : {}),
      ...(input.ownerReferences ? { ownerReferences: input.ownerReferences } : {}),
    },
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.27', ...(Object.keys(requests).length ? { resources: { requests } } : {}) }],
      ...(input.priority !== undefined ? { priority: input.priority } : {}),
      ...(input.extra ?? {}),
    },
  } as Typed<Pod>;
}

export interface SchedulerFixture {
  cluster: Cluster;
  scheduler: Scheduler;
  nodeOf(name: string, namespace?: string): string | undefined;
  events(name: string, reason: string): { message: string; count: number; type: string; source: string }[];
  /** The scheduler's trace reports (schedule.attempt, .bound, .failed) as a subscriber sees them: leaves, not kept in the ring. */
  reports(): TraceEvent[];
}

/**
 * A real cluster with a started scheduler and no kubelets or controllers, so the nodes the test creates stay as
 * written (no node lifecycle tainting them for missed heartbeats); the default ServiceAccount is created here.
 */
export async function schedulerFixture(options: { profile?: SchedulerProfile; seed?: number } = {}): Promise<SchedulerFixture> {
  const cluster = await createCluster({ controllers: false, nodes: 0, scheduler: false, seed: options.seed ?? 1 });
  cluster.client.serviceAccounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  cluster.runUntilIdle();
  const reports: TraceEvent[] = [];
  cluster.trace.subscribe((e) => {
    if (e.kind === TraceKind.Custom && e.component === 'scheduler') reports.push(e);
  });
  const scheduler = new Scheduler({
    client: new Client(cluster.endpoint.connect('kube-scheduler'), schedulerUser),
    clock: cluster.clock,
    trace: cluster.trace,
    rng: cluster.rng,
    profile: options.profile,
  });
  scheduler.start();
  return {
    cluster,
    scheduler,
    nodeOf: (name, namespace = 'default') => cluster.client.pods.get(name, { namespace }).spec?.nodeName,
    events: (name, reason) =>
      cluster.client.events
        .list({ namespace: 'default' })
        .items.filter((e) => e.involvedObject.name === name && e.reason === reason)
        .map((e) => ({ message: e.message ?? '', count: e.count ?? 0, type: e.type ?? '', source: e.source?.component ?? '' })),
    reports: () => reports,
  };
}

let uidCounter = 0;

/** A PodInfo for plugin unit tests (uid filled in); nodeName places it. */
export function podInfoOf(pod: Typed<Pod>, nodeName?: string): PodInfo {
  const p = {
    ...pod,
    metadata: { ...pod.metadata, uid: pod.metadata.uid ?? `uid-${++uidCounter}` },
    spec: { ...pod.spec!, ...(nodeName ? { nodeName } : {}) },
  } as Typed<Pod>;
  return newPodInfo(p);
}

/** A NodeInfo holding the node and the given pods. */
export function nodeInfoOf(node: Typed<Node>, pods: PodInfo[] = []): NodeInfo {
  const ni = new NodeInfo(node);
  for (const p of pods) ni.addPod(p);
  return ni;
}

/** A SharedLister over fixed NodeInfos, for PreFilter/PreScore in plugin tests. */
export function listerOf(nodes: NodeInfo[]): SharedLister {
  return {
    nodeInfos: () => nodes,
    getNodeInfo: (name) => nodes.find((n) => n.name === name),
    havePodsWithAffinityList: () => nodes.filter((n) => n.podsWithAffinity.length > 0),
    havePodsWithRequiredAntiAffinityList: () => nodes.filter((n) => n.podsWithRequiredAntiAffinity.length > 0),
  };
}
