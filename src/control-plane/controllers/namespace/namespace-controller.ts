// kube-controller-manager's namespace controller (pkg/controller/namespace/namespace_controller.go). A Namespace
// with a deletionTimestamp (phase Terminating, spec.finalizers ["kubernetes"]) is queued — 5 s after the event,
// so late creates inside it are seen — and each pass of the deleter removes its content. While content is
// still going (pods terminating with their grace period, finalizers pending), the key comes back after
// estimate/2 + 1 seconds; failures retry with backoff (5 ms doubling, capped at 60 s).
import type { Namespace } from 'kubernetes-types/core/v1';
import type { ResourceRegistry } from '../../../shared/api/resources';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client } from '../../client/client';
import type { SharedInformerFactory } from '../../informers/factory';
import type { Clock } from '../../sim/clock';
import { MaxOfRateLimiter, BucketRateLimiter, ItemExponentialFailureRateLimiter } from '../../workqueue/rate-limiters';
import { RateLimitingQueue, type QueueSnapshot } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import { NamespacedResourcesDeleter, ResourcesRemainingError } from './namespaced-resources-deleter';

export const NamespaceControllerName = 'namespace-controller';

/** namespaceDeletionGracePeriod: lets every API server see the deletion and late creates land first. */
export const namespaceDeletionGracePeriodMs = 5_000;

export interface NamespaceControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  registry: ResourceRegistry;
  clock: Clock;
  trace?: TraceSink;
  /**
   * Informer resync (--namespace-sync-period, 5 min in kube-controller-manager). Default 0: off, so a test
   * cluster can become idle; every pass that leaves content requeues itself anyway.
   */
  resyncPeriodMs?: number;
}

export class NamespaceController {
  readonly name = NamespaceControllerName;
  readonly controller: BaseController;
  readonly deleter: NamespacedResourcesDeleter;

  constructor(options: NamespaceControllerOptions) {
    const { clock, trace } = options;
    const queue = new RateLimitingQueue<string>({
      name: 'namespace',
      clock,
      trace,
      rateLimiter: new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter<string>(5, 60_000), new BucketRateLimiter<string>(clock, 10, 100)),
    });
    this.deleter = new NamespacedResourcesDeleter({ client: options.client, registry: options.registry, clock });
    const nsInformer = options.informers.namespaces;
    const enqueue = (ns: Namespace): void => {
      // Only namespaces being deleted have work.
      if (!ns.metadata?.deletionTimestamp) return;
      queue.addAfter(ns.metadata.name!, namespaceDeletionGracePeriodMs);
    };
    nsInformer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) }, { resyncPeriodMs: options.resyncPeriodMs });

    this.controller = new BaseController({
      name: NamespaceControllerName,
      queue,
      clock,
      sync: (key) => this.syncNamespaceFromKey(key),
      maxRetries: Infinity,
      cacheSyncs: [() => nsInformer.hasSynced()],
      trace,
      client: options.client,
    });
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  run(): void {
    this.controller.run();
  }

  shutDown(): void {
    this.controller.shutDown();
  }

  queues(): QueueSnapshot[] {
    return [this.controller.queue.snapshot()];
  }

  /** The key is the namespace name. Content still going comes back after estimate/2 + 1 s. */
  syncNamespaceFromKey(key: string): void {
    try {
      this.deleter.delete(key);
    } catch (err) {
      if (!(err instanceof ResourcesRemainingError)) throw err;
      const waitSeconds = Math.floor(err.estimate / 2) + 1;
      this.controller.queue.addAfter(key, waitSeconds * 1000);
    }
  }
}
