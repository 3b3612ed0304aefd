// kube-controller-manager's root-ca-certificate-publisher (pkg/controller/certificates/rootcacertpublisher):
// publishes the cluster's root CA as the ConfigMap kube-root-ca.crt in every namespace, so that every pod's
// kube-api-access projected volume can mount ca.crt. It watches namespaces (added, or updated while Active) and
// that one ConfigMap (updated or deleted: it puts the data and the description back). Like the original it
// syncs from its ConfigMap lister, retries failures forever, and gives up quietly on a namespace that is gone
// or terminating.
import type { ConfigMap, Namespace } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../../shared/api/status';
import type { TraceSink } from '../../../../shared/protocol/trace';
import type { Client, Typed } from '../../../client/client';
import { clusterRootCA } from '../../../config/cluster-ca';
import type { SharedInformerFactory } from '../../../informers/factory';
import { DeletedFinalStateUnknown, type Lister } from '../../../informers/shared-informer';
import type { Clock } from '../../../sim/clock';
import { RateLimitingQueue } from '../../../workqueue/rate-limiting-queue';
import { NamespaceActive, NamespaceTerminatingCause, hasStatusCause } from '../../serviceaccount/serviceaccounts-controller';
import { BaseController } from '../../shared/controller';

export const RootCACertificatePublisherControllerName = 'root-ca-certificate-publisher-controller';

/** The ConfigMap every namespace gets. */
export const RootCACertConfigMapName = 'kube-root-ca.crt';
export const DescriptionAnnotation = 'kubernetes.io/description';
export const Description =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface PublisherOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  /** --root-ca-file's contents. Default: the cluster's CA (config/cluster-ca.ts). */
  rootCA?: string;
}

export class Publisher {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly rootCA: string;
  private readonly cmLister: Lister<Typed<ConfigMap>>;
  private readonly registrations: { remove(): void }[] = [];

  constructor(options: PublisherOptions) {
    this.client = options.client;
    this.rootCA = options.rootCA ?? clusterRootCA;
    const queue = new RateLimitingQueue<string>({ name: 'root_ca_cert_publisher', clock: options.clock, trace: options.trace });
    const cmInformer = options.informers.configMaps;
    const nsInformer = options.informers.namespaces;
    this.cmLister = cmInformer.lister;

    const configMapChanged = (obj: Typed<ConfigMap> | DeletedFinalStateUnknown<Typed<ConfigMap>>): void => {
      const cm = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
      if (cm.metadata.name !== RootCACertConfigMapName || !cm.metadata.namespace) return;
      queue.add(cm.metadata.namespace);
    };
    this.registrations.push(
      cmInformer.addEventHandler({ onUpdate: (_old, cur) => configMapChanged(cur), onDelete: configMapChanged }),
      nsInformer.addEventHandler({
        onAdd: (ns: Typed<Namespace>) => queue.add(ns.metadata.name!),
        onUpdate: (_old, ns: Typed<Namespace>) => {
          if (ns.status?.phase === NamespaceActive) queue.add(ns.metadata.name!);
        },
      }),
    );

    this.controller = new BaseController({
      name: RootCACertificatePublisherControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncNamespace(key),
      maxRetries: Infinity,
      cacheSyncs: [() => cmInformer.hasSynced(), () => nsInformer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations) r.remove();
  }

  /** The key is a namespace name. */
  syncNamespace(namespace: string): void {
    const cm = this.cmLister.get(namespace, RootCACertConfigMapName);
    if (!cm) {
      try {
        this.client.configMaps.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: RootCACertConfigMapName, namespace, annotations: { [DescriptionAnnotation]: Description } },
          data: { 'ca.crt': this.rootCA },
        });
      } catch (err) {
        // Don't retry a create if the namespace doesn't exist or is terminating.
        if (isStatusError(err, StatusReason.NotFound) || hasStatusCause(err, NamespaceTerminatingCause)) return;
        throw err;
      }
      return;
    }
    // Ensure the data and the one annotation describing usage of this ConfigMap match.
    const data = cm.data ?? {};
    const keys = Object.keys(data);
    const sameData = keys.length === 1 && data['ca.crt'] === this.rootCA;
    if (sameData && (cm.metadata.annotations?.[DescriptionAnnotation] ?? '').length > 0) return;
    this.client.configMaps.update({
      ...cm,
      metadata: { ...cm.metadata, annotations: { ...cm.metadata.annotations, [DescriptionAnnotation]: Description } },
      data: { 'ca.crt': this.rootCA },
    });
  }
}
