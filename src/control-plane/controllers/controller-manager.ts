// kube-controller-manager: one process running many controllers over one set of shared informers. A crash and
// restart (the fault the UI offers) throws away every cache and queue and starts again from a fresh LIST, as a
// real restart does; level-triggered controllers then converge without duplicating anything.
import type { ResourceRegistry } from '../../shared/api/resources';
import type { TraceSink } from '../../shared/protocol/trace';
import type { Client } from '../client/client';
import { SharedInformerFactory, type InformerStatus } from '../informers/factory';
import type { Clock } from '../sim/clock';
import type { Rng } from '../sim/rng';
import type { QueueSnapshot } from '../workqueue/rate-limiting-queue';
import type { ControllerDescriptor, ControllerManagerConfig, RunningController } from './controller-context';

export interface ControllerManagerOptions {
  client: Client;
  clock: Clock;
  trace: TraceSink;
  registry: ResourceRegistry;
  rng: Rng;
  controllers: readonly ControllerDescriptor[];
  config?: ControllerManagerConfig;
}

export class ControllerManager {
  private informers?: SharedInformerFactory;
  private running: RunningController[] = [];

  constructor(private readonly options: ControllerManagerOptions) {}

  get isRunning(): boolean {
    return this.informers !== undefined;
  }

  /** Starts every controller over fresh informers (a new process). */
  start(): void {
    if (this.informers) return;
    const { client, clock, trace, registry, rng } = this.options;
    const informers = new SharedInformerFactory({ client, clock, trace });
    this.informers = informers;
    const config = this.options.config ?? {};
    this.running = this.options.controllers.map((d) => d.start({ client, informers, clock, trace, registry, rng, config }));
    informers.start();
  }

  /** Stops every controller and drops its caches and queues (the process exits). */
  stop(): void {
    for (const c of this.running) c.shutDown();
    this.running = [];
    this.informers?.shutdown();
    this.informers = undefined;
  }

  restart(): void {
    this.stop();
    this.start();
  }

  controllers(): readonly RunningController[] {
    return this.running;
  }

  /** The shared informers of this process (empty while stopped), for the UI: resource, synced, objects. */
  informerStatus(): InformerStatus[] {
    return this.informers?.status() ?? [];
  }

  queues(): QueueSnapshot[] {
    return this.running.flatMap((c) => c.queues());
  }
}
