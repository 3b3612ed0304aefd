// kube-controller-manager's serviceaccount controller (pkg/controller/serviceaccount/serviceaccounts_controller.go):
// makes sure every active namespace has the `default` ServiceAccount. It watches namespaces (added or updated →
// sync that namespace) and service accounts (deleted → sync its namespace, so a deleted `default` comes back).
// Like the original it retries failures forever, and skips namespaces that are not Active (being deleted).
import type { Namespace, ServiceAccount } from 'kubernetes-types/core/v1';
import { StatusError, isStatusError, StatusReason } from '../../../shared/api/status';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import type { SharedInformerFactory } from '../../informers/factory';
import type { Lister } from '../../informers/shared-informer';
import { DeletedFinalStateUnknown } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';

export const ServiceAccountControllerName = 'serviceaccount-controller';

/** The StatusCause type the NamespaceLifecycle admission plugin sets when refusing a create in a terminating namespace. */
export const NamespaceTerminatingCause = 'NamespaceTerminating';

export const NamespaceActive = 'Active';

export interface ServiceAccountsControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  /** Names of the accounts to ensure in every namespace. Default ["default"]. */
  serviceAccounts?: string[];
}

export class ServiceAccountsController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly serviceAccountsToEnsure: string[];
  private readonly nsLister: Lister<Typed<Namespace>>;
  private readonly saLister: Lister<Typed<ServiceAccount>>;

  constructor(options: ServiceAccountsControllerOptions) {
    this.client = options.client;
    this.serviceAccountsToEnsure = options.serviceAccounts ?? ['default'];
    const queue = new RateLimitingQueue<string>({ name: 'serviceaccount', clock: options.clock, trace: options.trace });
    const saInformer = options.informers.serviceAccounts;
    const nsInformer = options.informers.namespaces;
    this.saLister = saInformer.lister;
    this.nsLister = nsInformer.lister;

    saInformer.addEventHandler({
      onDelete: (obj) => {
        const sa = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        if (sa.metadata.namespace) queue.add(sa.metadata.namespace);
      },
    });
    nsInformer.addEventHandler({
      onAdd: (ns) => queue.add(ns.metadata.name!),
      onUpdate: (_old, ns) => queue.add(ns.metadata.name!),
    });

    this.controller = new BaseController({
      name: ServiceAccountControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncNamespace(key),
      maxRetries: Infinity,
      cacheSyncs: [() => saInformer.hasSynced(), () => nsInformer.hasSynced()],
      trace: options.trace,
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

  /** The key is a namespace name. */
  syncNamespace(key: string): void {
    const ns = this.nsLister.get(undefined, key);
    if (!ns) return;
    // If the namespace is not active, we shouldn't try to create anything.
    if (ns.status?.phase !== NamespaceActive) return;

    const failures: unknown[] = [];
    for (const name of this.serviceAccountsToEnsure) {
      if (this.saLister.get(key, name)) continue;
      try {
        this.client.serviceAccounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: key } });
      } catch (err) {
        if (isStatusError(err, StatusReason.AlreadyExists)) continue;
        // We can safely ignore terminating namespace errors.
        if (hasStatusCause(err, NamespaceTerminatingCause)) continue;
        failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new Error(`[${failures.map((e) => (e instanceof Error ? e.message : String(e))).join(', ')}]`);
  }
}

/** apierrors.HasStatusCause. */
export function hasStatusCause(err: unknown, causeType: string): boolean {
  return err instanceof StatusError && (err.status.details?.causes ?? []).some((c) => c.reason === causeType);
}
