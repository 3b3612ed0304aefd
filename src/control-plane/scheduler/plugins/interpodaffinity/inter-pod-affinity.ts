// InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity): required pod (anti-)affinity as a filter,
// preferred terms as a score.
//   Filter: every required affinity term needs a matching pod in the node's topology domain (or, for the first
//   pod of a group matching its own terms, none anywhere); no matching pod may be in the domain of a required
//   anti-affinity term; and no existing pod's required anti-affinity may reject the incoming pod.
//   Score: preferred terms of the pod (+weight/−weight per matching pod in the domain), existing pods'
//   preferred terms towards it and their required affinity terms (hardPodAffinityWeight 1), min-max normalised.
import type { CycleState } from '../../framework/cycle-state';
import type { Handle } from '../../framework/handle';
import {
  ActionType,
  EventResource,
  MaxNodeScore,
  QueueingHint,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  type FilterPlugin,
  type NodeScore,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type PreScorePlugin,
  type ScorePlugin,
  type SharedLister,
} from '../../framework/interface';
import { Code, newStatus, type Status } from '../../framework/status';
import {
  affinityTermMatches,
  newPodInfo,
  type AffinityTerm,
  type NodeInfo,
  type PodInfo,
  type PodObject,
  type WeightedAffinityTerm,
} from '../../framework/types';
import { nothing, selectorMatches, type Labels } from '../../../../shared/lib/labels';

export const Name = 'InterPodAffinity';
export const ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules";
export const ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
export const ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";

/** InterPodAffinityArgs.HardPodAffinityWeight default. */
export const HardPodAffinityWeight = 1;

const preFilterStateKey = `PreFilter${Name}`;
const preScoreStateKey = `PreScore${Name}`;

type Counts = Map<string, number>;

interface PreFilterState {
  pod: PodInfo;
  requiredAffinityTerms: AffinityTerm[];
  requiredAntiAffinityTerms: AffinityTerm[];
  namespaceLabels: Labels;
  existingAntiAffinityCounts: Counts;
  affinityCounts: Counts;
  antiAffinityCounts: Counts;
}

function pair(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

function bump(m: Counts, k: string, by: number): void {
  const n = (m.get(k) ?? 0) + by;
  if (n === 0) m.delete(k);
  else m.set(k, n);
}

function podMatchesAllAffinityTerms(terms: AffinityTerm[], pod: PodObject): boolean {
  if (terms.length === 0) return false;
  // The incoming pod's terms have their namespaceSelector folded into namespaces: no labels needed.
  return terms.every((t) => affinityTermMatches(t, pod, undefined));
}

export class InterPodAffinity {
  readonly name = Name;
  constructor(private readonly handle?: Pick<Handle, 'namespaceLister'>) {}

  private namespaceLabels(namespace: string): Labels {
    return this.handle?.namespaceLister?.get(undefined, namespace)?.metadata.labels ?? {};
  }

  /** mergeAffinityTermNamespacesIfNotEmpty: a namespaceSelector becomes the namespaces it selects now. */
  private mergeNamespaces<T extends AffinityTerm>(term: T): T {
    if (term.namespaceSelector.nothing) return term;
    const namespaces = new Set(term.namespaces);
    for (const ns of this.handle?.namespaceLister?.list() ?? []) {
      if (selectorMatches(term.namespaceSelector, ns.metadata.labels)) namespaces.add(ns.metadata.name ?? '');
    }
    return { ...term, namespaces, namespaceSelector: nothing() };
  }

  // ------------------------------------------------------------------ Filter

  preFilter(state: CycleState, pod: PodInfo, lister: SharedLister): { status?: Status } {
    const s: PreFilterState = {
      pod,
      requiredAffinityTerms: pod.requiredAffinityTerms.map((t) => this.mergeNamespaces(t)),
      requiredAntiAffinityTerms: pod.requiredAntiAffinityTerms.map((t) => this.mergeNamespaces(t)),
      namespaceLabels: this.namespaceLabels(pod.namespace),
      existingAntiAffinityCounts: new Map(),
      affinityCounts: new Map(),
      antiAffinityCounts: new Map(),
    };
    for (const nodeInfo of lister.havePodsWithRequiredAntiAffinityList()) {
      for (const existing of nodeInfo.podsWithRequiredAntiAffinity) this.countExistingAntiAffinity(s, existing, nodeInfo, 1);
    }
    if (s.requiredAffinityTerms.length || s.requiredAntiAffinityTerms.length) {
      for (const nodeInfo of lister.nodeInfos()) {
        for (const existing of nodeInfo.pods) this.countIncoming(s, existing, nodeInfo, 1);
      }
    }
    if (s.existingAntiAffinityCounts.size === 0 && s.requiredAffinityTerms.length === 0 && s.requiredAntiAffinityTerms.length === 0) {
      return { status: newStatus(Code.Skip) };
    }
    state.write(preFilterStateKey, s);
    return {};
  }

  private countExistingAntiAffinity(s: PreFilterState, existing: PodInfo, nodeInfo: NodeInfo, delta: number): void {
    const labels = nodeInfo.node?.metadata.labels ?? {};
    for (const term of existing.requiredAntiAffinityTerms) {
      if (!(term.topologyKey in labels)) continue;
      if (affinityTermMatches(term, s.pod.pod, s.namespaceLabels)) bump(s.existingAntiAffinityCounts, pair(term.topologyKey, labels[term.topologyKey]), delta);
    }
  }

  private countIncoming(s: PreFilterState, existing: PodInfo, nodeInfo: NodeInfo, delta: number): void {
    const labels = nodeInfo.node?.metadata.labels ?? {};
    if (podMatchesAllAffinityTerms(s.requiredAffinityTerms, existing.pod)) {
      for (const t of s.requiredAffinityTerms) if (t.topologyKey in labels) bump(s.affinityCounts, pair(t.topologyKey, labels[t.topologyKey]), delta);
    }
    for (const t of s.requiredAntiAffinityTerms) {
      if (t.topologyKey in labels && affinityTermMatches(t, existing.pod, undefined)) bump(s.antiAffinityCounts, pair(t.topologyKey, labels[t.topologyKey]), delta);
    }
  }

  preFilterExtensions(): PreFilterExtensions {
    const update = (state: CycleState, other: PodInfo, nodeInfo: NodeInfo, delta: number): undefined => {
      const prev = state.read<PreFilterState>(preFilterStateKey);
      if (!prev) return undefined;
      const s: PreFilterState = {
        ...prev,
        existingAntiAffinityCounts: new Map(prev.existingAntiAffinityCounts),
        affinityCounts: new Map(prev.affinityCounts),
        antiAffinityCounts: new Map(prev.antiAffinityCounts),
      };
      this.countExistingAntiAffinity(s, other, nodeInfo, delta);
      this.countIncoming(s, other, nodeInfo, delta);
      state.write(preFilterStateKey, s);
      return undefined;
    };
    return {
      addPod: (state, _pod, other, nodeInfo) => update(state, other, nodeInfo, 1),
      removePod: (state, _pod, other, nodeInfo) => update(state, other, nodeInfo, -1),
    };
  }

  filter(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    const s = state.read<PreFilterState>(preFilterStateKey);
    if (!s) return undefined;
    const labels = nodeInfo.node?.metadata.labels ?? {};
    if (!satisfyPodAffinity(s, labels)) return newStatus(Code.UnschedulableAndUnresolvable, ErrReasonAffinityRulesNotMatch);
    if (!satisfyPodAntiAffinity(s, labels)) return newStatus(Code.Unschedulable, ErrReasonAntiAffinityRulesNotMatch);
    if (!satisfyExistingPodsAntiAffinity(s, labels)) return newStatus(Code.Unschedulable, ErrReasonExistingAntiAffinityRulesNotMatch);
    return undefined;
  }

  // ------------------------------------------------------------------ Score

  preScore(state: CycleState, pod: PodInfo, _nodes: readonly NodeInfo[], lister: SharedLister): Status | undefined {
    const preferredAffinity = pod.preferredAffinityTerms.map((t) => this.mergeNamespaces(t));
    const preferredAnti = pod.preferredAntiAffinityTerms.map((t) => this.mergeNamespaces(t));
    const hasConstraints = preferredAffinity.length > 0 || preferredAnti.length > 0;
    // The usual case: no preferred terms, and no pod anywhere with affinity terms: nothing can score.
    if (!hasConstraints && lister.havePodsWithAffinityList().length === 0) return newStatus(Code.Skip);
    const namespaceLabels = this.namespaceLabels(pod.namespace);
    // topologyKey → value → score
    const topologyScore = new Map<string, Map<string, number>>();
    const add = (key: string, value: string, by: number) => {
      let m = topologyScore.get(key);
      if (!m) topologyScore.set(key, (m = new Map()));
      m.set(value, (m.get(value) ?? 0) + by);
    };
    const processTerm = (term: AffinityTerm, weight: number, target: PodObject, nsLabels: Labels, nodeLabels: Record<string, string>, multiplier: number) => {
      if (!affinityTermMatches(term, target, nsLabels)) return;
      if (term.topologyKey in nodeLabels) add(term.topologyKey, nodeLabels[term.topologyKey], weight * multiplier);
    };
    const processTerms = (terms: WeightedAffinityTerm[], target: PodObject, nsLabels: Labels, nodeLabels: Record<string, string>, multiplier: number) => {
      for (const t of terms) processTerm(t, t.weight, target, nsLabels, nodeLabels, multiplier);
    };
    // Unless the pod has preferred terms, only nodes hosting pods with affinity matter.
    const nodes = hasConstraints ? lister.nodeInfos() : lister.havePodsWithAffinityList();
    for (const nodeInfo of nodes) {
      const nodeLabels = nodeInfo.node?.metadata.labels ?? {};
      if (Object.keys(nodeLabels).length === 0) continue;
      for (const existing of hasConstraints ? nodeInfo.pods : nodeInfo.podsWithAffinity) {
        processTerms(preferredAffinity, existing.pod, undefined, nodeLabels, 1);
        processTerms(preferredAnti, existing.pod, undefined, nodeLabels, -1);
        for (const t of existing.requiredAffinityTerms) processTerm(t, HardPodAffinityWeight, pod.pod, namespaceLabels, nodeLabels, 1);
        processTerms(existing.preferredAffinityTerms, pod.pod, namespaceLabels, nodeLabels, 1);
        processTerms(existing.preferredAntiAffinityTerms, pod.pod, namespaceLabels, nodeLabels, -1);
      }
    }
    if (topologyScore.size === 0) return newStatus(Code.Skip);
    state.write(preScoreStateKey, topologyScore);
    return undefined;
  }

  score(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): number {
    const topologyScore = state.read<Map<string, Map<string, number>>>(preScoreStateKey);
    if (!topologyScore) return 0;
    const labels = nodeInfo.node?.metadata.labels ?? {};
    let score = 0;
    for (const [key, values] of topologyScore) {
      if (key in labels) score += values.get(labels[key]) ?? 0;
    }
    return score;
  }

  normalizeScore(state: CycleState, _pod: PodInfo, scores: NodeScore[]): void {
    if (!state.read(preScoreStateKey)) return;
    let min = Number.MAX_SAFE_INTEGER;
    let max = Number.MIN_SAFE_INTEGER;
    for (const s of scores) {
      if (s.score > max) max = s.score;
      if (s.score < min) min = s.score;
    }
    const diff = max - min;
    for (const s of scores) s.score = diff > 0 ? Math.trunc(MaxNodeScore * ((s.score - min) / diff)) : 0;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: EventResource.Pod, actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete },
        hint: (pod, oldObj, newObj) => {
          const pi = newPodInfo(pod);
          const terms = [...pi.requiredAffinityTerms, ...pi.requiredAntiAffinityTerms];
          for (const o of [oldObj, newObj] as (PodObject | undefined)[]) {
            if (!o) continue;
            if (terms.some((t) => affinityTermMatches(t, o, undefined))) return QueueingHint.Queue;
            // A deleted pod whose anti-affinity rejected this one.
            if (!newObj && newPodInfo(o).requiredAntiAffinityTerms.some((t) => affinityTermMatches(t, pod, this.namespaceLabels(pod.metadata.namespace ?? '')))) {
              return QueueingHint.Queue;
            }
          }
          return QueueingHint.QueueSkip;
        },
      },
      { event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.UpdateNodeLabel } },
    ];
  }
}

function satisfyPodAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
  let podsExist = true;
  for (const t of s.requiredAffinityTerms) {
    if (!(t.topologyKey in labels)) return false;
    if ((s.affinityCounts.get(pair(t.topologyKey, labels[t.topologyKey])) ?? 0) <= 0) podsExist = false;
  }
  if (!podsExist) {
    // The first pod of a group with affinity to itself: no pod matches anywhere, but the pod matches its own terms.
    return s.affinityCounts.size === 0 && podMatchesAllAffinityTerms(s.requiredAffinityTerms, s.pod.pod);
  }
  return true;
}

function satisfyPodAntiAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
  for (const t of s.requiredAntiAffinityTerms) {
    if (!(t.topologyKey in labels)) continue;
    if ((s.antiAffinityCounts.get(pair(t.topologyKey, labels[t.topologyKey])) ?? 0) > 0) return false;
  }
  return true;
}

function satisfyExistingPodsAntiAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
  if (s.existingAntiAffinityCounts.size === 0) return true;
  for (const [k, v] of Object.entries(labels)) {
    if ((s.existingAntiAffinityCounts.get(pair(k, v)) ?? 0) > 0) return false;
  }
  return true;
}

InterPodAffinity.prototype satisfies PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin & EnqueueExtensions;
