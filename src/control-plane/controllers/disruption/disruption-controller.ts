// kube-controller-manager's disruption controller (pkg/controller/disruption): computes every
// PodDisruptionBudget's status, which the eviction subresource spends (pods/eviction refuses while
// status.observedGeneration < metadata.generation).
//
//   pods = the PDB's namespace's pods its selector matches (in policy/v1 an empty selector matches all)
//   maxUnavailable, or minAvailable as a percentage → expectedPods = Σ scale of the pods' controllers
//     (Deployment via its ReplicaSet, ReplicaSet, ReplicationController, StatefulSet), each counted once;
//     a pod without a controllerRef is "unmanaged" (an UnmanagedPods warning); a controller that has no
//     scale fails the sync: DisruptionAllowed False, reason SyncFailed, "found no controllers for pod …"
//   minAvailable integer → desiredHealthy = minAvailable, expectedPods = number of pods
//   currentHealthy = ready pods, not being deleted nor evicted within the last 2 minutes (disruptedPods)
//   disruptionsAllowed = max(0, currentHealthy - desiredHealthy), 0 when expectedPods ≤ 0
//
// e.g. a Deployment of 3 ready replicas with minAvailable 2 → desiredHealthy 2, currentHealthy 3,
// disruptionsAllowed 1, condition DisruptionAllowed True (SufficientPods). An eviction spends it; the evicted
// pod sits in disruptedPods until it is deleted, or for 2 minutes (then a NotDeleted warning on the pod).
import type { Pod } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import type { Condition } from 'kubernetes-types/meta/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import { getScaledValueFromIntOrPercent, type IntOrString } from '../../../shared/lib/intstr';
import { labelSelectorAsSelector, selectorMatches, selectorToString, type Selector } from '../../../shared/lib/labels';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder, EventType } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import { DeletedFinalStateUnknown } from '../../informers/shared-informer';
import { rfc3339, type Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import { getControllerOf, isPodReady, parseTime } from '../shared/controller-utils';

export const DisruptionControllerName = 'disruption-controller';

/** The disruption controller's events come from the controller manager's shared recorder source. */
export const DisruptionEventSource = 'controllermanager';

/** DeletionTimeout: an evicted pod not deleted after this long counts as healthy again. */
export const DeletionTimeoutMs = 2 * 60_000;

export const DisruptionAllowedCondition = 'DisruptionAllowed';
export const DisruptionReason = {
  SufficientPods: 'SufficientPods',
  InsufficientPods: 'InsufficientPods',
  SyncFailed: 'SyncFailed',
} as const;

type PdbObj = Typed<PodDisruptionBudget>;
type PodObj = Typed<Pod>;

interface Scaled {
  metadata: { uid?: string; name?: string; ownerReferences?: { controller?: boolean; kind: string; name: string; uid: string }[] };
  spec?: { replicas?: number };
}

export interface DisruptionControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  trace?: TraceSink;
}

/** pdbhelper.UpdateDisruptionAllowedCondition / meta.SetStatusCondition: sets the condition, keeping its transition time. */
export function setDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, cond: Omit<Condition, 'lastTransitionTime'>, now: string): void {
  const conditions = [...(status.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === cond.type);
  if (i < 0) {
    conditions.push({ ...cond, lastTransitionTime: now });
  } else {
    const old = conditions[i];
    conditions[i] = { ...cond, lastTransitionTime: old.status === cond.status ? old.lastTransitionTime : now };
  }
  status.conditions = conditions;
}

/** The DisruptionAllowed condition the allowed count implies (message empty, as pdbhelper leaves it). */
export function disruptionAllowedCondition(status: PodDisruptionBudgetStatus): Omit<Condition, 'lastTransitionTime'> {
  const allowed = status.disruptionsAllowed > 0;
  return {
    type: DisruptionAllowedCondition,
    status: allowed ? 'True' : 'False',
    reason: allowed ? DisruptionReason.SufficientPods : DisruptionReason.InsufficientPods,
    message: '',
    observedGeneration: status.observedGeneration ?? 0,
  };
}

/** ConditionsAreUpToDate: the DisruptionAllowed condition exists, is for this generation and matches the count. */
function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const cond = (pdb.status?.conditions ?? []).find((c) => c.type === DisruptionAllowedCondition);
  if (!cond || cond.observedGeneration !== (pdb.metadata?.generation ?? 0)) return false;
  const allowed = (pdb.status?.disruptionsAllowed ?? 0) > 0;
  return allowed ? cond.status === 'True' && cond.reason === DisruptionReason.SufficientPods : cond.status === 'False' && cond.reason === DisruptionReason.InsufficientPods;
}

export class DisruptionController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly informers: SharedInformerFactory;
  private readonly recorder: EventRecorder;
  private readonly registrations: { remove(): void }[] = [];

  constructor(options: DisruptionControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.informers = options.informers;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: DisruptionEventSource } });
    const inf = options.informers;
    const queue = new RateLimitingQueue<string>({ name: 'disruption', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: DisruptionControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.sync(key),
      cacheSyncs: [inf.pods, inf.podDisruptionBudgets, inf.replicaSets, inf.deployments, inf.replicationControllers, inf.statefulSets].map(
        (i) => () => i.hasSynced(),
      ),
      trace: options.trace,
      client: options.client,
    });
    const enqueuePdb = (pdb: PdbObj | DeletedFinalStateUnknown<PdbObj>): void => {
      queue.add(pdb instanceof DeletedFinalStateUnknown ? pdb.key : metaNamespaceKeyFunc(pdb));
    };
    const enqueueForPod = (pod: PodObj | DeletedFinalStateUnknown<PodObj>): void => {
      const p = pod instanceof DeletedFinalStateUnknown ? pod.obj : pod;
      if (!p) return;
      const pdb = this.getPdbForPod(p);
      if (pdb) queue.add(metaNamespaceKeyFunc(pdb));
    };
    this.registrations.push(
      inf.podDisruptionBudgets.addEventHandler({ onAdd: enqueuePdb, onUpdate: (_o, cur) => enqueuePdb(cur), onDelete: enqueuePdb }),
      inf.pods.addEventHandler({ onAdd: enqueueForPod, onUpdate: (_o, cur) => enqueueForPod(cur), onDelete: enqueueForPod }),
    );
    // Listers only: the controllers' scale is read at sync time.
    for (const i of [inf.replicaSets, inf.deployments, inf.replicationControllers, inf.statefulSets]) this.registrations.push(i.addEventHandler({}));
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations) r.remove();
  }

  /** getPdbForPod: the first PDB selecting the pod; more than one is a warning on the pod. */
  private getPdbForPod(pod: PodObj): PdbObj | undefined {
    const ns = pod.metadata.namespace ?? '';
    const pdbs = this.informers.podDisruptionBudgets.lister.listNamespace(ns).filter((pdb) => {
      const sel = selectorOf(pdb);
      return sel !== undefined && selectorMatches(sel, pod.metadata.labels);
    });
    if (pdbs.length === 0) return undefined;
    if (pdbs.length > 1) {
      this.recorder.event(
        pod,
        EventType.Warning,
        'MultiplePodDisruptionBudgets',
        `Pod "${ns}"/"${pod.metadata.name}" matches multiple PodDisruptionBudgets.  Chose "${pdbs[0].metadata.name}" arbitrarily.`,
      );
    }
    return pdbs[0];
  }

  sync(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pdb = this.informers.podDisruptionBudgets.lister.get(namespace, name);
    if (!pdb) return;
    try {
      this.trySync(pdb);
    } catch (err) {
      if (isStatusError(err, StatusReason.Conflict)) throw err;
      this.failSafe(pdb, err instanceof Error ? err.message : String(err));
    }
  }

  private trySync(pdb: PdbObj): void {
    const sel = labelSelectorAsSelector(pdb.spec?.selector);
    const pods = this.informers.pods.lister.listNamespace(pdb.metadata.namespace ?? '', sel);
    if (pods.length === 0) this.recorder.event(pdb, EventType.Normal, 'NoPods', 'No matching pods found');
    let counts: ExpectedCount;
    try {
      counts = this.getExpectedPodCount(pdb, pods);
    } catch (err) {
      this.recorder.event(pdb, EventType.Warning, 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${errText(err)}`);
      throw err;
    }
    if (counts.unmanagedPods.length > 0) {
      this.recorder.event(
        pdb,
        EventType.Warning,
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget (selector: ${selectorToString(sel)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    const now = this.clock.now();
    const { disruptedPods, recheckAt } = this.buildDisruptedPodMap(pods, pdb, now);
    const currentHealthy = countHealthyPods(pods, disruptedPods, now);
    this.updatePdbStatus(pdb, currentHealthy, counts.desiredHealthy, counts.expectedCount, disruptedPods);
    if (recheckAt !== undefined) this.queue.addAfter(metaNamespaceKeyFunc(pdb), recheckAt - now);
  }

  /** getExpectedPodCount. */
  private getExpectedPodCount(pdb: PdbObj, pods: PodObj[]): ExpectedCount {
    const spec = pdb.spec ?? {};
    const maxUnavailable = spec.maxUnavailable as IntOrString | undefined | null;
    const minAvailable = spec.minAvailable as IntOrString | undefined | null;
    if (maxUnavailable !== undefined && maxUnavailable !== null) {
      const { expectedCount, unmanagedPods } = this.getExpectedScale(pods);
      const unavailable = getScaledValueFromIntOrPercent(maxUnavailable, expectedCount, true);
      return { expectedCount, desiredHealthy: Math.max(0, expectedCount - unavailable), unmanagedPods };
    }
    if (typeof minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
    if (typeof minAvailable === 'string') {
      const { expectedCount, unmanagedPods } = this.getExpectedScale(pods);
      return { expectedCount, desiredHealthy: getScaledValueFromIntOrPercent(minAvailable, expectedCount, true), unmanagedPods };
    }
    return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
  }

  /** getExpectedScale: the sum of the scales of the pods' controllers, each once. */
  private getExpectedScale(pods: PodObj[]): { expectedCount: number; unmanagedPods: string[] } {
    const scales = new Map<string, number>();
    const unmanagedPods: string[] = [];
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      if (!ref) {
        unmanagedPods.push(pod.metadata.name ?? '');
        continue;
      }
      if (scales.has(ref.uid)) continue;
      const found = this.findControllerScale(ref, pod.metadata.namespace ?? '');
      if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name)}`);
      scales.set(found.uid, found.scale);
    }
    let expectedCount = 0;
    for (const s of scales.values()) expectedCount += s;
    return { expectedCount, unmanagedPods };
  }

  /** The finders: ReplicaSet (unless a Deployment owns it), Deployment through its ReplicaSet, RC, StatefulSet. */
  private findControllerScale(ref: { kind: string; name: string; uid: string; apiVersion: string }, namespace: string): { uid: string; scale: number } | undefined {
    const inf = this.informers;
    const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
    const matches = (o: Scaled | undefined): o is Scaled => o !== undefined && o.metadata.uid === ref.uid;
    const scaleOf = (o: Scaled): number => o.spec?.replicas ?? 1;
    if (ref.kind === 'ReplicaSet' && group === 'apps') {
      const rs = inf.replicaSets.lister.get(namespace, ref.name) as Scaled | undefined;
      if (!matches(rs)) return undefined;
      const dRef = (rs.metadata.ownerReferences ?? []).find((o) => o.controller);
      if (!dRef || dRef.kind !== 'Deployment') return { uid: ref.uid, scale: scaleOf(rs) };
      const d = inf.deployments.lister.get(namespace, dRef.name) as Scaled | undefined;
      if (!d || d.metadata.uid !== dRef.uid) return undefined;
      return { uid: dRef.uid, scale: scaleOf(d) };
    }
    if (ref.kind === 'ReplicationController' && group === '') {
      const rc = inf.replicationControllers.lister.get(namespace, ref.name) as Scaled | undefined;
      return matches(rc) ? { uid: ref.uid, scale: scaleOf(rc) } : undefined;
    }
    if (ref.kind === 'StatefulSet' && group === 'apps') {
      const ss = inf.statefulSets.lister.get(namespace, ref.name) as Scaled | undefined;
      return matches(ss) ? { uid: ref.uid, scale: scaleOf(ss) } : undefined;
    }
    if (ref.kind === 'Deployment' && group === 'apps') {
      const d = inf.deployments.lister.get(namespace, ref.name) as Scaled | undefined;
      return matches(d) ? { uid: ref.uid, scale: scaleOf(d) } : undefined;
    }
    // Other kinds (Job, DaemonSet, …) have no scale subresource.
    return undefined;
  }

  /** buildDisruptedPodMap: evictions still expected to turn into deletions; the earliest expiry is the recheck. */
  private buildDisruptedPodMap(pods: PodObj[], pdb: PdbObj, now: number): { disruptedPods: Record<string, string>; recheckAt?: number } {
    const previous = pdb.status?.disruptedPods ?? {};
    const disruptedPods: Record<string, string> = {};
    let recheckAt: number | undefined;
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      const at = previous[pod.metadata.name ?? ''];
      if (at === undefined) continue;
      const expected = (parseTime(at) ?? 0) + DeletionTimeoutMs;
      // Go's Before(now) keeps the entry at the exact expiry and rechecks after 0 ns; on virtual time that
      // would requeue without end, so the boundary counts as expired.
      if (expected <= now) {
        // The real text names the namespace twice.
        const ns = pdb.metadata.namespace ?? '';
        this.recorder.event(pod, EventType.Warning, 'NotDeleted', `Pod was expected by PDB ${ns}/${ns} to be deleted but it wasn't`);
      } else {
        if (recheckAt === undefined || expected < recheckAt) recheckAt = expected;
        disruptedPods[pod.metadata.name ?? ''] = at;
      }
    }
    return { disruptedPods, recheckAt };
  }

  private updatePdbStatus(pdb: PdbObj, currentHealthy: number, desiredHealthy: number, expectedPods: number, disruptedPods: Record<string, string>): void {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    if (expectedPods <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const s = pdb.status;
    const generation = pdb.metadata.generation ?? 0;
    if (
      s &&
      s.currentHealthy === currentHealthy &&
      s.desiredHealthy === desiredHealthy &&
      s.expectedPods === expectedPods &&
      s.disruptionsAllowed === disruptionsAllowed &&
      sameDisruptedPods(s.disruptedPods ?? {}, disruptedPods) &&
      s.observedGeneration === generation &&
      conditionsAreUpToDate(pdb)
    ) {
      return;
    }
    const status: PodDisruptionBudgetStatus = {
      currentHealthy,
      desiredHealthy,
      expectedPods,
      disruptionsAllowed,
      observedGeneration: generation,
      conditions: s?.conditions ?? [],
    };
    if (Object.keys(disruptedPods).length > 0) status.disruptedPods = disruptedPods;
    setDisruptionAllowedCondition(status, disruptionAllowedCondition(status), rfc3339(this.clock.now()));
    this.client.podDisruptionBudgets.updateStatus({ ...structuredClone(pdb), status } as PdbObj, { namespace: pdb.metadata.namespace });
  }

  /** failSafe: no disruption allowed, DisruptionAllowed False with reason SyncFailed and the error. */
  private failSafe(pdb: PdbObj, message: string): void {
    const status: PodDisruptionBudgetStatus = { ...structuredClone(pdb.status ?? { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0 }), disruptionsAllowed: 0 };
    setDisruptionAllowedCondition(
      status,
      { type: DisruptionAllowedCondition, status: 'False', reason: DisruptionReason.SyncFailed, message, observedGeneration: status.observedGeneration ?? 0 },
      rfc3339(this.clock.now()),
    );
    this.client.podDisruptionBudgets.updateStatus({ ...structuredClone(pdb), status } as PdbObj, { namespace: pdb.metadata.namespace });
  }
}

interface ExpectedCount {
  expectedCount: number;
  desiredHealthy: number;
  unmanagedPods: string[];
}

/** countHealthyPods: ready, not being deleted, not recently evicted. */
export function countHealthyPods(pods: Pod[], disruptedPods: Record<string, string>, now: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = disruptedPods[pod.metadata?.name ?? ''];
    if (at !== undefined && (parseTime(at) ?? 0) + DeletionTimeoutMs > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

function selectorOf(pdb: PodDisruptionBudget): Selector | undefined {
  try {
    return labelSelectorAsSelector(pdb.spec?.selector);
  } catch {
    return undefined;
  }
}

function sameDisruptedPods(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

