// Test support for the node lifecycle, taint eviction and pod GC tests: nodes, leases and bound pods written
// straight through the client, and a minimal stand-in kubelet that renews its Lease until stopped (the real
// kubelet is built elsewhere). Used only by tests.
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Node, Pod, Toleration } from 'kubernetes-types/core/v1';
import type { Client, Typed } from '../../client/client';
import { rfc3339, rfc3339Micro, type Clock, type TimerHandle } from '../../sim/clock';
import type { VirtualClock } from '../../sim/virtual-clock';
import { NamespaceNodeLease } from './node-lifecycle-controller';

export function nodeObject(name: string, zone: string, nowMs: number): Node {
  const now = rfc3339(nowMs);
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': zone,
      },
    },
    spec: {},
    status: {
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
    },
  };
}

/**
 * A stand-in kubelet: registers its Node and Lease, renews the Lease every 10 s (starting offsetMs after
 * creation) until stopped, and can post a Ready condition.
 */
export class LeaseKubelet {
  private timer: TimerHandle | undefined;
  lastRenew: number;

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    readonly nodeName: string,
    zone: string,
    offsetMs = 2_000,
  ) {
    const now = clock.now();
    client.nodes.create(nodeObject(nodeName, zone, now));
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: nodeName, namespace: NamespaceNodeLease },
      spec: { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime: rfc3339Micro(now) },
    };
    client.leases.create(lease);
    this.lastRenew = now;
    this.timer = clock.setTimer(offsetMs, () => this.renew(), `kubelet ${nodeName} lease`);
  }

  private renew(): void {
    const lease = this.client.leases.get(this.nodeName, { namespace: NamespaceNodeLease });
    this.client.leases.update({ ...lease, spec: { ...lease.spec, renewTime: rfc3339Micro(this.clock.now()) } });
    this.lastRenew = this.clock.now();
    this.timer = this.clock.setTimer(10_000, () => this.renew(), `kubelet ${this.nodeName} lease`);
  }

  /** The kubelet dies: no more renewals. */
  stop(): void {
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** The kubelet comes back: renews its Lease and posts Ready at once, then every 10 s. */
  resume(): void {
    this.stop();
    this.postReady('True');
    this.renew();
  }

  /** Posts the Ready condition with a fresh heartbeat (and a transition when the status changes). */
  postReady(status: 'True' | 'False', reason = status === 'True' ? 'KubeletReady' : 'KubeletNotReady', message = status === 'True' ? 'kubelet is posting ready status' : 'container runtime is down'): void {
    const node = this.client.nodes.get(this.nodeName);
    const now = rfc3339(this.clock.now());
    const conditions = (node.status?.conditions ?? []).map((c) =>
      c.type === 'Ready'
        ? { ...c, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: c.status === status ? c.lastTransitionTime : now }
        : { ...c, lastHeartbeatTime: now },
    );
    this.client.nodes.updateStatus({ ...node, status: { ...node.status, conditions } });
  }
}

export interface PodOptions {
  namespace?: string;
  tolerations?: Toleration[];
  labels?: Record<string, string>;
}

/** Creates a pod, binds it to the node through pods/binding, and reports it Running and Ready as a kubelet would. */
export function runningPod(client: Client, clock: Clock, name: string, nodeName: string, options: PodOptions = {}): Typed<Pod> {
  const namespace = options.namespace ?? 'default';
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: options.labels ?? { app: 'web' } },
    spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], tolerations: options.tolerations },
  };
  client.pods.create(pod);
  bindPod(client, namespace, name, nodeName);
  const bound = client.pods.get(name, { namespace });
  const now = rfc3339(clock.now());
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: now });
  return client.pods.updateStatus({
    ...bound,
    status: {
      ...bound.status,
      phase: 'Running',
      conditions: [condition('Initialized'), condition('Ready'), condition('ContainersReady'), condition('PodScheduled')],
      startTime: now,
    },
  });
}

export function bindPod(client: Client, namespace: string, name: string, nodeName: string): void {
  client.handle({
    verb: 'create',
    group: '',
    version: 'v1',
    resource: 'pods',
    subresource: 'binding',
    namespace,
    name,
    body: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } },
  });
}

/** The pod, or undefined when it is gone. */
export function getPod(client: Client, name: string, namespace = 'default'): Typed<Pod> | undefined {
  return client.pods.list({ namespace }).items.find((p) => p.metadata.name === name);
}

/**
 * Moves virtual time forward by ms, firing timers in order with the deferred work (watch deliveries, queue
 * processing) after each one, so every component sees each step as it happens.
 */
export function advance(clock: VirtualClock, ms: number): void {
  clock.runUntil(() => false, ms);
}

/** advance() to an absolute time. */
export function advanceTo(clock: VirtualClock, target: number): void {
  advance(clock, Math.max(0, target - clock.now()));
}
