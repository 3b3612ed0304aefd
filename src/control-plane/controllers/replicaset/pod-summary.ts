// What syncReplicaSet's claim + calculateStatus would find among a ReplicaSet's pods, kept current from the
// pod cache's changes instead of recomputed over every pod on every sync (which made a rollout of P pods cost
// O(P²): one sync per pod event, each visiting all P pods).
//
// Each pod controlled by (or merely owned by) the ReplicaSet is classified once per version of the pod (cached
// objects are frozen: a new object is a new version), exactly as candidatePods → filterActivePods → claim would:
//   included   — active, ours, selector matches: claimed, counted in status
//   needsWrite — claim would adopt it (an owned orphan that matches) or release it (ours, no longer matching)
//   excluded   — anything else (terminal, being deleted, another namespace, controlled by someone else)
// The counts only stand in for the full computation when no pod needs a write and no orphan of the namespace
// would be adopted; the caller takes the full path otherwise (and whenever it must choose pods to delete).
import type { Pod } from 'kubernetes-types/core/v1';
import type { Selector } from '../../../shared/lib/labels';
import { matchesSet, selectorMatches } from '../../../shared/lib/labels';
import type { Typed } from '../../client/client';
import type { IndexChangeTracker, Indexer } from '../../informers/indexer';
import { OwnerUidIndex } from '../../informers/indexer';
import { getControllerOf, isPodActive, isPodAvailable, isPodReady, OrphanNamespaceIndex } from '../shared/controller-utils';
import type { ReplicaSetLike } from './replica-set-kind';

const PodClass = { Excluded: 0, Included: 1, NeedsWrite: 2 } as const;
type PodClass = (typeof PodClass)[keyof typeof PodClass];

interface PodFacts {
  pod: Pod;
  cls: PodClass;
  fullyLabeled: boolean;
  ready: boolean;
}

interface RSState {
  uid: string;
  /** The ReplicaSet object the facts were classified against, and what of it the classification reads. */
  rs: ReplicaSetLike;
  shape: string;
  facts: Map<string, PodFacts>;
  included: number;
  needsWrite: number;
  fullyLabeled: number;
  ready: number;
}

export interface PodCounts {
  /** Claimed active pods: status.replicas. */
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
}

/** The parts of a ReplicaSet that decide how its pods are classified. */
function shapeOf(rs: ReplicaSetLike): string {
  return JSON.stringify([rs.metadata.namespace ?? '', rs.spec?.selector ?? null, rs.spec?.template?.metadata?.labels ?? null, !!rs.metadata.deletionTimestamp]);
}

function ownedBy(pod: Pod, uid: string): boolean {
  const refs = pod.metadata?.ownerReferences;
  if (!refs) return false;
  for (let i = 0; i < refs.length; i++) if (refs[i].uid === uid) return true;
  return false;
}

export class ReplicaSetPodSummaries {
  private readonly states = new Map<string, RSState>();
  private readonly tracker: IndexChangeTracker;

  constructor(private readonly indexer: Indexer<Typed<Pod>>) {
    this.tracker = indexer.trackChanges(OwnerUidIndex);
  }

  /** Stops tracking (the controller shut down). */
  close(): void {
    this.indexer.untrack(this.tracker);
    this.states.clear();
  }

  /** The ReplicaSet under key is gone: drop what was kept for it. */
  forget(key: string): void {
    const st = this.states.get(key);
    if (!st) return;
    this.tracker.unwatch(st.uid);
    this.states.delete(key);
  }

  /**
   * The claimed pods' counts, or undefined when the sync must take the full path: a claim would adopt or release
   * a pod (writes, in the full path's order).
   */
  summarize(key: string, rs: ReplicaSetLike, selector: Selector, nowMs: number): PodCounts | undefined {
    const st = this.current(key, rs, selector);
    if (st.needsWrite > 0 || this.adoptableOrphan(rs, selector)) return undefined;
    const minReadySeconds = rs.spec?.minReadySeconds ?? 0;
    let available = st.ready;
    if (minReadySeconds > 0) {
      available = 0;
      for (const f of st.facts.values()) if (f.cls === PodClass.Included && f.ready && isPodAvailable(f.pod, minReadySeconds, nowMs)) available++;
    }
    return { replicas: st.included, fullyLabeledReplicas: st.fullyLabeled, readyReplicas: st.ready, availableReplicas: available };
  }

  /** The state for the ReplicaSet, brought up to date with the pods changed since the last sync. */
  private current(key: string, rs: ReplicaSetLike, selector: Selector): RSState {
    const uid = rs.metadata.uid ?? '';
    let st = this.states.get(key);
    if (st && st.uid !== uid) {
      this.forget(key);
      st = undefined;
    }
    if (st && st.rs !== rs) {
      const shape = shapeOf(rs);
      st.rs = rs;
      if (shape !== st.shape) {
        st.shape = shape;
        this.rebuild(st, selector);
        return st;
      }
    }
    if (!st) {
      st = { uid, rs, shape: shapeOf(rs), facts: new Map(), included: 0, needsWrite: 0, fullyLabeled: 0, ready: 0 };
      this.states.set(key, st);
      this.rebuild(st, selector);
      return st;
    }
    for (const podKey of this.tracker.take(uid)) {
      this.remove(st, podKey);
      const pod = this.indexer.get(podKey);
      if (pod && ownedBy(pod, uid)) this.add(st, podKey, pod, selector);
    }
    return st;
  }

  private rebuild(st: RSState, selector: Selector): void {
    this.tracker.watch(st.uid);
    this.tracker.take(st.uid);
    st.facts.clear();
    st.included = st.needsWrite = st.fullyLabeled = st.ready = 0;
    for (const key of this.indexer.indexKeys(OwnerUidIndex, st.uid)) this.add(st, key, this.indexer.get(key)!, selector);
  }

  private add(st: RSState, key: string, pod: Pod, selector: Selector): void {
    const f = classify(st.rs, pod, selector);
    st.facts.set(key, f);
    if (f.cls === PodClass.NeedsWrite) st.needsWrite++;
    else if (f.cls === PodClass.Included) {
      st.included++;
      if (f.fullyLabeled) st.fullyLabeled++;
      if (f.ready) st.ready++;
    }
  }

  private remove(st: RSState, key: string): void {
    const f = st.facts.get(key);
    if (!f) return;
    st.facts.delete(key);
    if (f.cls === PodClass.NeedsWrite) st.needsWrite--;
    else if (f.cls === PodClass.Included) {
      st.included--;
      if (f.fullyLabeled) st.fullyLabeled--;
      if (f.ready) st.ready--;
    }
  }

  /** Would claim adopt one of the namespace's orphans (pods with no controller)? Usually there are none. */
  private adoptableOrphan(rs: ReplicaSetLike, selector: Selector): boolean {
    if (rs.metadata.deletionTimestamp) return false;
    for (const key of this.indexer.indexKeys(OrphanNamespaceIndex, rs.metadata.namespace ?? '')) {
      const pod = this.indexer.get(key)!;
      if (isPodActive(pod) && selectorMatches(selector, pod.metadata?.labels)) return true;
    }
    return false;
  }
}

/** One pod as candidatePods → filterActivePods → ControllerRefManager.claimObject sees it. */
function classify(rs: ReplicaSetLike, pod: Pod, selector: Selector): PodFacts {
  const facts: PodFacts = { pod, cls: PodClass.Excluded, fullyLabeled: false, ready: false };
  if (pod.metadata?.namespace !== (rs.metadata.namespace ?? '') || !isPodActive(pod)) return facts;
  const deleting = !!rs.metadata.deletionTimestamp;
  const ref = getControllerOf(pod as Typed<Pod>);
  const matches = selectorMatches(selector, pod.metadata?.labels);
  if (ref) {
    if (ref.uid !== rs.metadata.uid) return facts;
    if (matches) facts.cls = PodClass.Included;
    else if (!deleting) facts.cls = PodClass.NeedsWrite;
  } else if (!deleting && matches) {
    facts.cls = PodClass.NeedsWrite;
  }
  if (facts.cls === PodClass.Included) {
    facts.fullyLabeled = matchesSet(rs.spec?.template?.metadata?.labels ?? {}, pod.metadata?.labels);
    facts.ready = isPodReady(pod);
  }
  return facts;
}
