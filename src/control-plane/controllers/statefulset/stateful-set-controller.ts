// kube-controller-manager's StatefulSet controller (pkg/controller/statefulset/stateful_set.go). It watches
// StatefulSets, their pods, PersistentVolumeClaims and ControllerRevisions, and sync(key) does:
//   adopt orphaned ControllerRevisions the selector matches
//   claim pods: adopt matching orphans whose name says they are members ("<set>-<n>"), release non-matching ones
//   DefaultStatefulSetControl.updateStatefulSet: one step towards the spec (stateful-set-control.ts)
//   minReadySeconds > 0 and not all available: look again after minReadySeconds
import type { ControllerRevision, StatefulSet } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { Selector } from '../../../shared/lib/labels';
import { isEverything, labelSelectorAsSelector, selectorMatches } from '../../../shared/lib/labels';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import { DeletedFinalStateUnknown } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { History, type Revision } from '../history/controller-history';
import { BaseController } from '../shared/controller';
import { ControllerRefManager, freshControllerCheck } from '../shared/controller-ref-manager';
import { getControllerOf, isPodReady } from '../shared/controller-utils';
import { PodControl } from '../shared/pod-control';
import { StatefulPodControl } from './stateful-pod-control';
import { DefaultStatefulSetControl, type StatefulSetFeatureGates } from './stateful-set-control';
import { StatefulSetStatusUpdater } from './stateful-set-status-updater';
import {
  type ClaimObj,
  compareStatefulSets,
  controllerKind,
  isMemberOf,
  type PodObj,
  replicasOf,
  type StatefulSetObj,
} from './stateful-set-utils';
import { sameJson } from '../../../shared/lib/same-json';

export const StatefulSetControllerName = 'statefulset-controller';

/** statefulSetResyncPeriod. */
export const StatefulSetResyncPeriodMs = 30_000;

export interface StatefulSetControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
  featureGates?: StatefulSetFeatureGates;
}

export class StatefulSetController {
  readonly controller: BaseController;
  readonly control: DefaultStatefulSetControl;
  private readonly client: Client;
  private readonly setInformer: SharedInformer<StatefulSet>;
  private readonly setLister: Lister<StatefulSetObj>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly podLister: Lister<PodObj>;
  private readonly pvcInformer: SharedInformer<PersistentVolumeClaim>;
  private readonly revInformer: SharedInformer<ControllerRevision>;
  private readonly podControl: PodControl;
  private readonly handlerRegistrations: { remove(): void }[] = [];

  constructor(options: StatefulSetControllerOptions) {
    this.client = options.client;
    this.setInformer = options.informers.statefulSets;
    this.setLister = this.setInformer.lister as unknown as Lister<StatefulSetObj>;
    this.podInformer = options.informers.pods;
    this.podLister = this.podInformer.lister;
    this.pvcInformer = options.informers.persistentVolumeClaims;
    this.revInformer = options.informers.controllerRevisions;
    const recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: StatefulSetControllerName } });
    this.podControl = new PodControl(options.client, recorder);
    this.control = new DefaultStatefulSetControl({
      podControl: new StatefulPodControl(options.client, this.podLister, this.pvcInformer.lister as unknown as Lister<ClaimObj>, recorder),
      statusUpdater: new StatefulSetStatusUpdater(options.client, this.setLister),
      history: new History(options.client, this.revInformer.lister as unknown as Lister<Revision>),
      clock: options.clock,
      trace: options.trace,
      component: StatefulSetControllerName,
      featureGates: options.featureGates,
    });

    const queue = new RateLimitingQueue<string>({ name: 'statefulset', clock: options.clock, trace: options.trace });
    this.handlerRegistrations.push(
      this.podInformer.addEventHandler({
        onAdd: (pod) => this.addPod(pod),
        onUpdate: (oldPod, curPod) => this.updatePod(oldPod, curPod),
        onDelete: (obj) => this.deletePod(obj),
      }),
      // Every set is looked at again every 30 s (statefulSetResyncPeriod): claims and revisions have no handlers.
      this.setInformer.addEventHandler(
        {
          onAdd: (set) => this.enqueueStatefulSet(set),
          onUpdate: (_old, cur) => this.enqueueStatefulSet(cur),
          onDelete: (obj) => this.enqueueStatefulSet(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj),
        },
        { resyncPeriodMs: StatefulSetResyncPeriodMs },
      ),
    );

    this.controller = new BaseController({
      name: StatefulSetControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.sync(key),
      cacheSyncs: [
        () => this.podInformer.hasSynced(),
        () => this.setInformer.hasSynced(),
        () => this.pvcInformer.hasSynced(),
        () => this.revInformer.hasSynced(),
      ],
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
    for (const r of this.handlerRegistrations.splice(0)) r.remove();
  }

  // ---------------------------------------------------------------- event handlers

  private enqueueStatefulSet(set: StatefulSet): void {
    this.queue.add(metaNamespaceKeyFunc(set as StatefulSetObj));
  }

  private enqueueSSAfter(set: StatefulSet, delayMs: number): void {
    this.queue.addAfter(metaNamespaceKeyFunc(set as StatefulSetObj), delayMs);
  }

  /** resolveControllerRef: the StatefulSet a controllerRef names, if it is one and the same object. */
  private resolveControllerRef(namespace: string, ref: { kind: string; name: string; uid: string }): StatefulSetObj | undefined {
    if (ref.kind !== controllerKind.kind) return undefined;
    const set = this.setLister.get(namespace, ref.name);
    if (!set || set.metadata.uid !== ref.uid) return undefined;
    return set;
  }

  /** getStatefulSetsForPod (GetPodStatefulSets): the sets in the pod's namespace whose selector matches it. */
  private getStatefulSetsForPod(pod: Pod): StatefulSetObj[] {
    const ns = pod.metadata?.namespace;
    if (!ns || Object.keys(pod.metadata?.labels ?? {}).length === 0) return [];
    const out: StatefulSetObj[] = [];
    for (const set of this.setLister.listNamespace(ns)) {
      let selector: Selector;
      try {
        selector = labelSelectorAsSelector(set.spec?.selector);
      } catch {
        continue;
      }
      if (isEverything(selector) || !selectorMatches(selector, pod.metadata?.labels)) continue;
      out.push(set);
    }
    return out.sort(compareStatefulSets);
  }

  private addPod(pod: PodObj): void {
    if (pod.metadata.deletionTimestamp) {
      // On a controller-manager restart a pod may show up already being deleted.
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const set = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
      if (set) this.enqueueStatefulSet(set);
      return;
    }
    // An orphan: every matching set gets a look so one can adopt it.
    for (const set of this.getStatefulSetsForPod(pod)) this.enqueueStatefulSet(set);
  }

  private updatePod(oldPod: PodObj, curPod: PodObj): void {
    // Periodic resyncs send updates for every pod: nothing changed.
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return;
    const labelChanged = !sameJson(curPod.metadata.labels ?? {}, oldPod.metadata.labels ?? {});
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = !sameJson(curRef ?? null, oldRef ?? null);
    if (refChanged && oldRef) {
      const set = this.resolveControllerRef(oldPod.metadata.namespace ?? '', oldRef);
      if (set) this.enqueueStatefulSet(set);
    }
    if (curRef) {
      const set = this.resolveControllerRef(curPod.metadata.namespace ?? '', curRef);
      if (!set) return;
      this.enqueueStatefulSet(set);
      // A pod that just became ready becomes available minReadySeconds later: look again then (one second more
      // so the check is not a hair too early).
      const minReadySeconds = set.spec?.minReadySeconds ?? 0;
      if (!isPodReady(oldPod) && isPodReady(curPod) && minReadySeconds > 0) this.enqueueSSAfter(set, (minReadySeconds + 1) * 1000);
      return;
    }
    if (labelChanged || refChanged) for (const set of this.getStatefulSetsForPod(curPod)) this.enqueueStatefulSet(set);
  }

  private deletePod(obj: PodObj | DeletedFinalStateUnknown<PodObj>): void {
    const pod = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    const ref = getControllerOf(pod);
    // No controller should care about orphans being deleted.
    if (!ref) return;
    const set = this.resolveControllerRef(pod.metadata.namespace ?? '', ref);
    if (set) this.enqueueStatefulSet(set);
  }

  // ---------------------------------------------------------------- sync

  /** The key is "namespace/name". */
  sync(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const set = this.setLister.get(namespace, name);
    if (!set) return;
    let selector: Selector;
    try {
      selector = labelSelectorAsSelector(set.spec?.selector);
    } catch {
      // A non-transient error: don't retry.
      return;
    }
    this.adoptOrphanRevisions(set);
    const pods = this.getPodsForStatefulSet(set, selector);
    this.syncStatefulSet(set, pods);
  }

  /** adoptOrphanRevisions: adopts the orphaned revisions the selector matches, after a fresh read of the set. */
  private adoptOrphanRevisions(set: StatefulSetObj): void {
    const revisions = this.control.listRevisions(set);
    const orphans = revisions.filter((r) => getControllerOf(r) === undefined);
    if (orphans.length === 0) return;
    try {
      this.canAdopt(set)();
    } catch (err) {
      throw new Error(`can't adopt ControllerRevisions: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    this.control.adoptOrphanRevisions(set, orphans);
  }

  private canAdopt(set: StatefulSetObj): () => void {
    return freshControllerCheck(set, 'StatefulSet', (ns, n) => this.client.statefulSets.get(n, { namespace: ns }));
  }

  /**
   * getPodsForStatefulSet: the namespace's pods this set manages, adopting matching orphans whose name makes
   * them members and releasing owned pods that no longer match.
   */
  private getPodsForStatefulSet(set: StatefulSetObj, selector: Selector): PodObj[] {
    const pods = this.podLister.listNamespace(set.metadata.namespace ?? '');
    const cm = new ControllerRefManager<PodObj>({
      controller: set,
      selector,
      controllerKind,
      canAdopt: this.canAdopt(set),
      dependentKind: 'Pod',
      patch: (pod, patch) => this.podControl.patchPod(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch),
    });
    // Only claim pods whose name says they belong to this set; release/ignore the others.
    return cm.claim(pods, [(pod) => isMemberOf(set, pod)]);
  }

  private syncStatefulSet(set: StatefulSetObj, pods: PodObj[]): void {
    const status = this.control.updateStatefulSet(set, pods);
    // One more sync to handle clock skew and pods turning available.
    const minReadySeconds = set.spec?.minReadySeconds ?? 0;
    if (minReadySeconds > 0 && status && (status.availableReplicas ?? 0) !== replicasOf(set)) this.enqueueSSAfter(set, minReadySeconds * 1000);
  }
}
