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

/**
 * What classify found of one pod, as a small integer (a Map holds it in place; a record per pod cost 56 bytes):
 * its PodClass in the low bits, then whether it is fully labeled and ready. The pod itself is the indexer's
 * current object under the key: every change to it is taken (current) before the facts are read.
 */
type PodFacts = number;
const clsMask = 3;
const FullyLabeled = 4;
const Ready = 8;

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
      for (const [podKey, f] of st.facts) {
        if ((f & clsMask) === PodClass.Included && f & Ready && isPodAvailable(this.indexer.get(podKey)!, minReadySeconds, nowMs)) available++;
      }
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
      const pod = this.indexer.get(podKey);
      // Counted again in place: a Map's set keeps the key it holds (the indexer's string, not this copy).
      if (pod && ownedBy(pod, uid)) this.add(st, podKey, pod, selector);
      else this.remove(st, podKey);
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

  /** Classifies the pod under key, replacing what was counted for it. */
  private add(st: RSState, key: string, pod: Pod, selector: Selector): void {
    const old = st.facts.get(key);
    if (old !== undefined) count(st, old, -1);
    const f = classify(st.rs, pod, selector);
    st.facts.set(key, f);
    count(st, f, 1);
  }

  private remove(st: RSState, key: string): void {
    const f = st.facts.get(key);
    if (f === undefined) return;
    st.facts.delete(key);
    count(st, f, -1);
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

function count(st: RSState, f: PodFacts, sign: 1 | -1): void {
  const cls = f & clsMask;
  if (cls === PodClass.NeedsWrite) st.needsWrite += sign;
  else if (cls === PodClass.Included) {
    st.included += sign;
    if (f & FullyLabeled) st.fullyLabeled += sign;
    if (f & Ready) st.ready += sign;
  }
}

/** One pod as candidatePods → filterActivePods → ControllerRefManager.claimObject sees it. */
function classify(rs: ReplicaSetLike, pod: Pod, selector: Selector): PodFacts {
  if (pod.metadata?.namespace !== (rs.metadata.namespace ?? '') || !isPodActive(pod)) return PodClass.Excluded;
  const deleting = !!rs.metadata.deletionTimestamp;
  const ref = getControllerOf(pod as Typed<Pod>);
  const matches = selectorMatches(selector, pod.metadata?.labels);
  if (ref) {
    if (ref.uid !== rs.metadata.uid) return PodClass.Excluded;
    if (!matches) return deleting ? PodClass.Excluded : PodClass.NeedsWrite;
  } else {
    return !deleting && matches ? PodClass.NeedsWrite : PodClass.Excluded;
  }
  let f: PodFacts = PodClass.Included;
  if (matchesSet(rs.spec?.template?.metadata?.labels ?? {}, pod.metadata?.labels)) f |= FullyLabeled;
  if (isPodReady(pod)) f |= Ready;
  return f;
}
