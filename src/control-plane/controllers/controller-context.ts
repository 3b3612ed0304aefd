// What kube-controller-manager hands every controller it starts: a client, the shared informers of this
// controller-manager process, the clock, the trace, the kind registry and the seeded rng.
import type { ResourceRegistry } from '../../shared/api/resources';
import type { TraceSink } from '../../shared/protocol/trace';
import type { Client } from '../client/client';
import type { SharedInformerFactory } from '../informers/factory';
import type { Clock } from '../sim/clock';
import type { Rng } from '../sim/rng';
import type { QueueSnapshot } from '../workqueue/rate-limiting-queue';

export interface ControllerContext {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace: TraceSink;
  registry: ResourceRegistry;
  rng: Rng;
  config: ControllerManagerConfig;
}

/** kube-controller-manager flags the playground exposes. */
export interface ControllerManagerConfig {
  /**
   * --node-monitor-grace-period: how long a node may be silent before it is marked Unknown. Default 40 s. A
   * function is read at every health check (the cluster's live settings, config/cluster-settings.ts).
   */
  nodeMonitorGracePeriodMs?: number | (() => number);
  /** --terminated-pod-gc-threshold. Default 12 500. */
  terminatedPodGCThreshold?: number;
}

/** A started controller as the controller manager holds it. */
export interface RunningController {
  readonly name: string;
  /** Its work queues, for the UI (most controllers have one; the garbage collector has two). */
  queues(): QueueSnapshot[];
  shutDown(): void;
}

/** One entry of the controller manager's table, like kube-controller-manager's NewControllerDescriptors(). */
export interface ControllerDescriptor {
  name: string;
  /** Starts the controller: it registers its informer handlers and begins working once caches sync. */
  start(ctx: ControllerContext): RunningController;
}
