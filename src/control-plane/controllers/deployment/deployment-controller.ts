// kube-controller-manager's Deployment controller (pkg/controller/deployment/deployment_controller.go). It
// watches Deployments, ReplicaSets and (for Recreate) pod deletions, and syncDeployment(key) decides, in order:
//   selector selects everything → refuse (SelectingAll)
//   claim ReplicaSets (adopt matching orphans, release non-matching ones)
//   being deleted → status only
//   paused → scale only (proportionally), no rollout
//   spec.replicas changed (a scaling event) → scale only
//   otherwise → one step of the strategy: rolloutRolling (rolling.ts) or rolloutRecreate (recreate.ts)
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import type { Selector } from '../../../shared/lib/labels';
import { isEverything, labelSelectorAsSelector, selectorMatches } from '../../../shared/lib/labels';
import { nullTraceSink, type TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { OwnerUidIndex } from '../../informers/indexer';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import { DeletedFinalStateUnknown } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import { ControllerRefManager, freshControllerCheck } from '../shared/controller-ref-manager';
import { ensureOrphanIndex, getControllerOf, isControlledBy, OrphanNamespaceIndex } from '../shared/controller-utils';
import { DeploymentControllerName, type DeploymentContext } from './context';
import { StrategyType, type DeploymentObj, type ReplicaSetObj } from './deployment-util';
import { rolloutRecreate } from './recreate';
import { rolloutRolling } from './rolling';
import { checkPausedConditions, deploymentKind, isScalingEvent, sync, syncStatusOnly, updateDeploymentStatus } from './sync';
import { sameJson } from '../../../shared/lib/same-json';

export interface DeploymentControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

type PodObj = Typed<Pod>;

export class DeploymentController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly recorder: EventRecorder;
  private readonly dInformer: SharedInformer<Deployment>;
  private readonly dLister: Lister<Typed<Deployment>>;
  private readonly rsInformer: SharedInformer<ReplicaSet>;
  private readonly rsLister: Lister<ReplicaSetObj>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly podLister: Lister<PodObj>;
  private readonly ctx: DeploymentContext;
  private readonly handlerRegistrations: { remove(): void }[] = [];

  constructor(options: DeploymentControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.trace = options.trace ?? nullTraceSink;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: DeploymentControllerName } });
    this.dInformer = options.informers.deployments;
    this.dLister = this.dInformer.lister;
    this.rsInformer = options.informers.replicaSets;
    this.rsLister = this.rsInformer.lister as unknown as Lister<ReplicaSetObj>;
    this.podInformer = options.informers.pods;
    this.podLister = this.podInformer.lister;
    ensureOrphanIndex(this.rsInformer);

    const queue = new RateLimitingQueue<string>({ name: 'deployment', clock: options.clock, trace: options.trace });
    this.handlerRegistrations.push(
      this.dInformer.addEventHandler({
        onAdd: (d) => this.enqueueDeployment(d),
        onUpdate: (_old, cur) => this.enqueueDeployment(cur),
        onDelete: (obj) => this.enqueueDeployment(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj),
      }),
      this.rsInformer.addEventHandler({
        onAdd: (rs) => this.addReplicaSet(rs as ReplicaSetObj),
        onUpdate: (oldRS, curRS) => this.updateReplicaSet(oldRS as ReplicaSetObj, curRS as ReplicaSetObj),
        onDelete: (obj) => this.deleteReplicaSet((obj instanceof DeletedFinalStateUnknown ? obj.obj : obj) as ReplicaSetObj),
      }),
      this.podInformer.addEventHandler({
        onDelete: (obj) => this.deletePod(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj),
      }),
    );

    this.ctx = {
      client: options.client,
      clock: options.clock,
      recorder: this.recorder,
      trace: this.trace,
      rsLister: this.rsLister,
      enqueueAfter: (d, ms) => queue.addAfter(metaNamespaceKeyFunc(d), ms),
      enqueueRateLimited: (d) => queue.addRateLimited(metaNamespaceKeyFunc(d)),
    };

    this.controller = new BaseController({
      name: DeploymentControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.syncDeployment(key),
      cacheSyncs: [() => this.dInformer.hasSynced(), () => this.rsInformer.hasSynced(), () => this.podInformer.hasSynced()],
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

  private enqueueDeployment(d: Deployment): void {
    this.queue.add(metaNamespaceKeyFunc(d as never));
  }

  /** resolveControllerRef: the Deployment a controllerRef names, if it is one and the same object. */
  private resolveControllerRef(namespace: string, ref: { kind: string; name: string; uid: string }): Typed<Deployment> | undefined {
    if (ref.kind !== deploymentKind.kind) return undefined;
    const d = this.dLister.get(namespace, ref.name);
    if (!d || d.metadata.uid !== ref.uid) return undefined;
    return d;
  }

  /** getDeploymentsForReplicaSet: deployments whose (non-empty) selector matches an orphan RS's labels. */
  private getDeploymentsForReplicaSet(rs: ReplicaSetObj): Typed<Deployment>[] {
    if (Object.keys(rs.metadata.labels ?? {}).length === 0) return [];
    const out: Typed<Deployment>[] = [];
    for (const d of this.dLister.listNamespace(rs.metadata.namespace ?? '')) {
      let selector: Selector;
      try {
        selector = labelSelectorAsSelector(d.spec?.selector);
      } catch {
        continue;
      }
      // A deployment with a nil or empty selector matches nothing (and everything is refused by sync).
      if (isEverything(selector) || !selectorMatches(selector, rs.metadata.labels)) continue;
      out.push(d);
    }
    return out;
  }

  private addReplicaSet(rs: ReplicaSetObj): void {
    if (rs.metadata.deletionTimestamp) {
      // On a restart, an RS may show up already pending deletion.
      this.deleteReplicaSet(rs);
      return;
    }
    const ref = getControllerOf(rs as never);
    if (ref) {
      const d = this.resolveControllerRef(rs.metadata.namespace ?? '', ref);
      if (d) this.enqueueDeployment(d);
      return;
    }
    // An orphan: every matching deployment gets a look so one can adopt it.
    for (const d of this.getDeploymentsForReplicaSet(rs)) this.enqueueDeployment(d);
  }

  private updateReplicaSet(oldRS: ReplicaSetObj, curRS: ReplicaSetObj): void {
    // Periodic resyncs send updates for every RS: nothing changed.
    if (curRS.metadata.resourceVersion === oldRS.metadata.resourceVersion) return;
    const curRef = getControllerOf(curRS as never);
    const oldRef = getControllerOf(oldRS as never);
    const refChanged = !sameJson(curRef ?? null, oldRef ?? null);
    if (refChanged && oldRef) {
      const d = this.resolveControllerRef(oldRS.metadata.namespace ?? '', oldRef);
      if (d) this.enqueueDeployment(d);
    }
    if (curRef) {
      const d = this.resolveControllerRef(curRS.metadata.namespace ?? '', curRef);
      if (d) this.enqueueDeployment(d);
      return;
    }
    // An orphan: if labels or the ref changed, a matching deployment may adopt it.
    const labelChanged = !sameJson(curRS.metadata.labels ?? {}, oldRS.metadata.labels ?? {});
    if (labelChanged || refChanged) for (const d of this.getDeploymentsForReplicaSet(curRS)) this.enqueueDeployment(d);
  }

  private deleteReplicaSet(rs: ReplicaSetObj): void {
    const ref = getControllerOf(rs as never);
    // Nobody cares about the deletion of orphans.
    if (!ref) return;
    const d = this.resolveControllerRef(rs.metadata.namespace ?? '', ref);
    if (d) this.enqueueDeployment(d);
  }

  /** A Recreate deployment waits for its old pods to be gone: the last one's deletion wakes it up. */
  private deletePod(pod: PodObj): void {
    const d = this.getDeploymentForPod(pod);
    if (!d || d.spec?.strategy?.type !== StrategyType.Recreate) return;
    const rsList = this.listReplicaSets(d);
    const podMap = this.getPodMapForDeployment(d, rsList);
    let numPods = 0;
    for (const pods of podMap.values()) numPods += pods.length;
    if (numPods === 0) this.enqueueDeployment(d);
  }

  /** getDeploymentForPod: pod → its controlling ReplicaSet → that RS's controlling Deployment. */
  private getDeploymentForPod(pod: PodObj): Typed<Deployment> | undefined {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return undefined;
    const rs = this.rsLister.get(pod.metadata.namespace ?? '', ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    const rsRef = getControllerOf(rs as never);
    if (!rsRef) return undefined;
    return this.resolveControllerRef(rs.metadata.namespace ?? '', rsRef);
  }

  // ---------------------------------------------------------------- listing

  /** ListReplicaSets: the RSs the deployment controls whose labels match its selector (no adoption). */
  private listReplicaSets(d: Typed<Deployment>): ReplicaSetObj[] {
    let selector: Selector;
    try {
      selector = labelSelectorAsSelector(d.spec?.selector);
    } catch {
      return [];
    }
    return this.rsLister
      .byIndex(OwnerUidIndex, d.metadata.uid ?? '')
      .filter((rs) => rs.metadata.namespace === d.metadata.namespace && isControlledBy(rs as never, d) && selectorMatches(selector, rs.metadata.labels));
  }

  /**
   * getReplicaSetsForDeployment: claims the RSs — keeps owned ones that match, adopts matching orphans, releases
   * owned ones that stopped matching. Candidates come from the ownerUid and orphan indexes.
   */
  private getReplicaSetsForDeployment(d: DeploymentObj, selector: Selector): ReplicaSetObj[] {
    const ns = d.metadata.namespace ?? '';
    const owned = this.rsLister.byIndex(OwnerUidIndex, d.metadata.uid ?? '').filter((rs) => rs.metadata.namespace === ns);
    const seen = new Set(owned.map((rs) => rs.metadata.uid));
    const orphans = this.rsLister.byIndex(OrphanNamespaceIndex, ns).filter((rs) => !seen.has(rs.metadata.uid));
    // If any adoptions are attempted, recheck for deletion with an uncached quorum read first.
    const canAdopt = freshControllerCheck(d as never, 'Deployment', (n, name) => this.client.deployments.get(name, { namespace: n }));
    const cm = new ControllerRefManager<ReplicaSetObj & Typed<object>>({
      controller: d as never,
      selector,
      controllerKind: deploymentKind,
      canAdopt,
      dependentKind: 'ReplicaSet',
      patch: (rs, patch) =>
        this.client.replicaSets.patch(rs.metadata.name ?? '', 'application/strategic-merge-patch+json', patch, { namespace: rs.metadata.namespace }),
    });
    return cm.claim([...owned, ...orphans] as (ReplicaSetObj & Typed<object>)[]);
  }

  /** getPodMapForDeployment: the pods of each RS (by RS uid) that match the deployment's selector. */
  private getPodMapForDeployment(d: Deployment, rsList: ReplicaSetObj[]): Map<string, Pod[]> {
    let selector: Selector;
    try {
      selector = labelSelectorAsSelector(d.spec?.selector);
    } catch {
      return new Map();
    }
    const podMap = new Map<string, Pod[]>();
    for (const rs of rsList) {
      const uid = rs.metadata.uid ?? '';
      const pods = this.podLister
        .byIndex(OwnerUidIndex, uid)
        .filter((p) => p.metadata.namespace === rs.metadata.namespace && getControllerOf(p)?.uid === uid && selectorMatches(selector, p.metadata.labels));
      podMap.set(uid, pods);
    }
    return podMap;
  }

  // ---------------------------------------------------------------- sync

  /** The key is "namespace/name". */
  syncDeployment(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.dLister.get(namespace, name);
    // The deployment has been deleted: its ReplicaSets go with the garbage collector.
    if (!cached) return;
    // Never mutate the cache: work on a deep copy. The pod template is only read here, so the copy keeps the
    // cached (frozen) one: its comparable form is then computed once, not on every sync (equalIgnoreHash).
    const d = structuredClone(cached) as DeploymentObj;
    if (d.spec && cached.spec?.template) d.spec.template = cached.spec.template;

    const sel = d.spec?.selector;
    if (!sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)) {
      this.recorder.event(d as never, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        d.status ??= {};
        d.status.observedGeneration = d.metadata.generation;
        updateDeploymentStatus(this.ctx, d);
      }
      return;
    }
    let selector: Selector;
    try {
      selector = labelSelectorAsSelector(sel);
    } catch {
      return;
    }

    // List the ReplicaSets this deployment owns (adopting and releasing as needed).
    const rsList = this.getReplicaSetsForDeployment(d, selector);

    if (d.metadata.deletionTimestamp) {
      syncStatusOnly(this.ctx, d, rsList);
      return;
    }
    // Update the Progressing condition for a pause or resume, so paused time is not taken for lack of progress.
    checkPausedConditions(this.ctx, d);
    if (d.spec?.paused) {
      sync(this.ctx, d, rsList);
      return;
    }
    if (isScalingEvent(this.ctx, d, rsList)) {
      sync(this.ctx, d, rsList);
      return;
    }
    switch (d.spec?.strategy?.type) {
      case StrategyType.Recreate:
        // The pods of each RS: only Recreate looks at them (to wait for old pods to be gone), so only it lists
        // them (a read of the cache, which cannot change during a sync).
        rolloutRecreate(this.ctx, d, rsList, this.getPodMapForDeployment(d, rsList));
        return;
      case StrategyType.RollingUpdate:
        rolloutRolling(this.ctx, d, rsList);
        return;
      default:
        throw new Error(`unexpected deployment strategy type: ${d.spec?.strategy?.type}`);
    }
  }
}
