// A simulated ingress-nginx controller (kubernetes/ingress-nginx, as minikube's "ingress" addon runs it). It runs
// here beside the controller manager instead of as a pod in ingress-nginx: it serves the Ingresses of its class,
// records "Sync"/"Scheduled for sync" for each new or changed one (its own status write is a change too, hence
// the familiar "(x2 over …)"), and publishes its address in status.loadBalancer.ingress. The traffic simulation
// routes requests to that address with routeIngress (network/ingress/route.ts) over servedIngresses().
//
// Which Ingresses are its own (ingress-nginx's IsValid): the deprecated annotation kubernetes.io/ingress.class
// naming "nginx", or spec.ingressClassName naming an IngressClass whose spec.controller is k8s.io/ingress-nginx.
// Without either it ignores the Ingress (no --watch-ingress-without-class; the DefaultIngressClass admission plugin
// gives new Ingresses the default class instead).
import type { Ingress, IngressClass } from 'kubernetes-types/networking/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { TraceSink } from '../../../shared/protocol/trace';
import { IngressClassAnnotation } from '../../apiserver/admission/default-ingress-class';
import type { Client, Typed } from '../../client/client';
import { EventRecorder, EventType } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import { IngressNginxAddress, IngressNginxClassName, IngressNginxController } from './ingress-class';

export const IngressNginxControllerName = 'ingress-nginx-controller';
/** The event source ingress-nginx records as. */
export const IngressNginxComponent = 'nginx-ingress-controller';

type IngressObj = Typed<Ingress>;

/** Whether ingress-nginx (class "nginx", controller k8s.io/ingress-nginx) serves this Ingress. */
export function isServedByIngressNginx(ing: Ingress, classes: readonly IngressClass[]): boolean {
  const annotation = ing.metadata?.annotations?.[IngressClassAnnotation];
  if (annotation !== undefined) return annotation === IngressNginxClassName;
  const className = ing.spec?.ingressClassName;
  if (!className) return false;
  const cls = classes.find((c) => c.metadata?.name === className);
  return cls?.spec?.controller === IngressNginxController;
}

export interface IngressControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

export class IngressNginx {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly recorder: EventRecorder;
  private readonly ingressInformer: SharedInformer<Ingress>;
  private readonly classInformer: SharedInformer<IngressClass>;
  private readonly ingressLister: Lister<IngressObj>;
  private readonly registrations: { remove(): void }[] = [];
  /** Keys added or changed since their last sync: each gets one "Scheduled for sync" event. */
  private readonly scheduled = new Set<string>();

  constructor(options: IngressControllerOptions) {
    this.client = options.client;
    this.ingressInformer = options.informers.ingresses;
    this.classInformer = options.informers.ingressClasses;
    this.ingressLister = this.ingressInformer.lister as Lister<IngressObj>;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: IngressNginxComponent } });
    const queue = new RateLimitingQueue<string>({ name: 'ingress-nginx', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: IngressNginxControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncIngress(key),
      cacheSyncs: [() => this.ingressInformer.hasSynced(), () => this.classInformer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
    const schedule = (ing: IngressObj): void => {
      if (!this.serves(ing)) return;
      const key = metaNamespaceKeyFunc(ing);
      this.scheduled.add(key);
      queue.add(key);
    };
    const resyncAll = (): void => {
      for (const ing of this.ingressLister.list()) queue.add(metaNamespaceKeyFunc(ing));
    };
    this.registrations.push(
      this.ingressInformer.addEventHandler({
        onAdd: schedule,
        onUpdate: (old, cur) => {
          if (old.metadata?.resourceVersion !== cur.metadata?.resourceVersion) schedule(cur);
        },
      }),
      this.classInformer.addEventHandler({ onAdd: resyncAll, onUpdate: resyncAll, onDelete: resyncAll }),
    );
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations) r.remove();
  }

  /** The Ingresses this controller serves, for the traffic simulation (routeIngress's first argument). */
  servedIngresses(): Ingress[] {
    return this.ingressLister.list().filter((i) => !i.metadata.deletionTimestamp && this.serves(i));
  }

  private serves(ing: Ingress): boolean {
    return isServedByIngressNginx(ing, this.classInformer.lister.list());
  }

  syncIngress(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const ing = this.ingressLister.get(namespace, name);
    if (!ing || ing.metadata.deletionTimestamp || !this.serves(ing)) {
      this.scheduled.delete(key);
      return;
    }
    if (this.scheduled.delete(key)) this.recorder.event(ing, EventType.Normal, 'Sync', 'Scheduled for sync');
    const current = ing.status?.loadBalancer?.ingress ?? [];
    if (current.length === 1 && current[0]?.ip === IngressNginxAddress && !current[0].hostname) return;
    try {
      this.client.ingresses.patch(
        name,
        'application/merge-patch+json',
        { status: { loadBalancer: { ingress: [{ ip: IngressNginxAddress }] } } },
        { namespace, subresource: 'status' },
      );
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return;
      throw err;
    }
  }
}
