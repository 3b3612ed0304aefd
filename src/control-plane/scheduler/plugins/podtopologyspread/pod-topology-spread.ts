// PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread): topologySpreadConstraints.
//   Filter (whenUnsatisfiable: DoNotSchedule): matching pods in the node's domain + 1 (if the pod matches
//     itself) − the smallest count over the domains must not exceed maxSkew.
//   Score (ScheduleAnyway, and the system default constraints for pods of Services/RCs/ReplicaSets/StatefulSets:
//     hostname maxSkew 3, zone maxSkew 5): fewer matching pods in the node's domains score higher.
import type { Pod, TopologySpreadConstraint } from 'kubernetes-types/core/v1';
import { isEverything, labelSelectorAsSelector, selectorMatches, type Selector } from '../../../../shared/lib/labels';
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
import { isTerminating, selectorCountKey, type NodeInfo, type NodeObject, type PodInfo, type PodObject } from '../../framework/types';
import { findMatchingUntoleratedTaint, isNoScheduleOrNoExecute } from '../helper/taints';
import { hasRequiredNodeAffinity, requiredNodeAffinityMatches } from '../helper/node-affinity';
import { defaultSelector } from '../helper/spread';

export const Name = 'PodTopologySpread';
export const ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
export const ErrReasonNodeLabelNotMatch = `${ErrReasonConstraintsNotMatch} (missing required label)`;

export const LabelHostname = 'kubernetes.io/hostname';
export const LabelTopologyZone = 'topology.kubernetes.io/zone';

export const DoNotSchedule = 'DoNotSchedule';
export const ScheduleAnyway = 'ScheduleAnyway';

/** The constraints "System" defaulting applies to pods that declare none. */
export const systemDefaultConstraints: readonly { topologyKey: string; maxSkew: number; whenUnsatisfiable: string }[] = [
  { topologyKey: LabelHostname, maxSkew: 3, whenUnsatisfiable: ScheduleAnyway },
  { topologyKey: LabelTopologyZone, maxSkew: 5, whenUnsatisfiable: ScheduleAnyway },
];

const scheduleAnywayDefaults = systemDefaultConstraints.filter((c) => c.whenUnsatisfiable === ScheduleAnyway);
const doNotScheduleDefaults = systemDefaultConstraints.filter((c) => c.whenUnsatisfiable === DoNotSchedule);

/** The default constraints last built for a DefaultSelector object (in a namespace, for an action). */
const defaultConstraintsBySelector = new WeakMap<Selector, { namespace: string; action: string; constraints: Constraint[] }>();

interface Constraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  /** selectorCountKey of (namespace, selector). */
  countKey: number;
  minDomains: number;
  nodeAffinityPolicy: string;
  nodeTaintsPolicy: string;
}

const preFilterStateKey = `PreFilter${Name}`;
const preScoreStateKey = `PreScore${Name}`;

interface PreFilterState {
  constraints: Constraint[];
  /** "key\0value" → matching pods. */
  tpPairToMatchNum: Map<string, number>;
  /** Smallest count per topology key (recomputed when counts change). */
  minMatch: Map<string, number>;
  tpKeyToDomainsNum: Map<string, number>;
}

interface PreScoreState {
  constraints: Constraint[];
  ignoredNodes: Set<string>;
  /** Per constraint: topology value → matching pods (hostname constraints are counted per node in Score). */
  topologyValueToPodCounts: Map<string, number>[];
  topologyNormalizingWeight: number[];
}

function pairKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

function nodeLabelsMatchSpreadConstraints(labels: Record<string, string> | undefined, constraints: Constraint[]): boolean {
  const l = labels ?? {};
  return constraints.every((c) => Object.prototype.hasOwnProperty.call(l, c.topologyKey));
}

/** Constraint.matchNodeInclusionPolicies: nodeAffinityPolicy Honor (default) and nodeTaintsPolicy Ignore (default). */
function matchNodeInclusionPolicies(c: Constraint, pod: Pod, node: NodeObject): boolean {
  if (c.nodeAffinityPolicy === 'Honor' && !requiredNodeAffinityMatches(pod, node)) return false;
  if (c.nodeTaintsPolicy === 'Honor' && findMatchingUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, isNoScheduleOrNoExecute)) return false;
  return true;
}

/** topologyNormalizingWeight: log(size + 2), so constraints over many domains weigh more. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

/** scoreForCount. */
export function scoreForCount(cnt: number, maxSkew: number, tpWeight: number): number {
  return cnt * tpWeight + (maxSkew - 1);
}

export class PodTopologySpread {
  readonly name = Name;
  constructor(private readonly handle?: Pick<Handle, 'serviceLister' | 'replicationControllerLister' | 'replicaSetLister' | 'statefulSetLister'>) {}

  /** filterTopologySpreadConstraints: the pod's constraints with the given action, selectors merged with matchLabelKeys. */
  private podConstraints(pod: Pod, action: string): Constraint[] {
    const out: Constraint[] = [];
    for (const c of (pod.spec?.topologySpreadConstraints ?? []) as TopologySpreadConstraint[]) {
      if (c.whenUnsatisfiable !== action) continue;
      let selector: Selector;
      try {
        selector = labelSelectorAsSelector(c.labelSelector);
      } catch {
        continue;
      }
      const podLabels = pod.metadata?.labels ?? {};
      if ((c.matchLabelKeys ?? []).length && !selector.nothing) {
        const reqs = [...selector.requirements];
        for (const k of c.matchLabelKeys ?? []) if (k in podLabels) reqs.push({ key: k, operator: 'in', values: [podLabels[k]] });
        selector = { requirements: reqs };
      }
      out.push({
        maxSkew: c.maxSkew,
        topologyKey: c.topologyKey,
        selector,
        countKey: selectorCountKey(selector, pod.metadata?.namespace ?? ''),
        minDomains: c.minDomains ?? 1,
        nodeAffinityPolicy: c.nodeAffinityPolicy ?? 'Honor',
        nodeTaintsPolicy: c.nodeTaintsPolicy ?? 'Ignore',
      });
    }
    return out;
  }

  /** buildDefaultConstraints: the system defaults for the action, over DefaultSelector(pod); none when that is empty. */
  private defaultConstraints(pod: Pod, action: string): Constraint[] {
    const defaults = action === ScheduleAnyway ? scheduleAnywayDefaults : action === DoNotSchedule ? doNotScheduleDefaults : [];
    if (defaults.length === 0 || !this.handle) return [];
    const selector = defaultSelector(pod, this.handle);
    if (isEverything(selector)) return [];
    const namespace = pod.metadata?.namespace ?? '';
    // The pods of one controller share their DefaultSelector object: their constraints are built once.
    // (Constraints are never modified; the cycle state only reads them.)
    let memo = defaultConstraintsBySelector.get(selector);
    if (memo && memo.namespace === namespace && memo.action === action) return memo.constraints;
    const countKey = selectorCountKey(selector, namespace);
    const constraints = defaults.map((c) => ({ maxSkew: c.maxSkew, topologyKey: c.topologyKey, selector, countKey, minDomains: 1, nodeAffinityPolicy: 'Honor', nodeTaintsPolicy: 'Ignore' }));
    memo = { namespace, action, constraints };
    defaultConstraintsBySelector.set(selector, memo);
    return constraints;
  }

  private constraintsFor(pod: Pod, action: string): Constraint[] {
    return (pod.spec?.topologySpreadConstraints ?? []).length > 0 ? this.podConstraints(pod, action) : this.defaultConstraints(pod, action);
  }

  // ------------------------------------------------------------------ Filter

  preFilter(state: CycleState, pod: PodInfo, lister: SharedLister): { status?: Status } {
    const constraints = this.constraintsFor(pod.pod, DoNotSchedule);
    if (constraints.length === 0) return { status: newStatus(Code.Skip) };
    const s: PreFilterState = { constraints, tpPairToMatchNum: new Map(), minMatch: new Map(), tpKeyToDomainsNum: new Map() };
    for (const nodeInfo of lister.nodeInfos()) {
      const node = nodeInfo.node;
      if (!node || !nodeLabelsMatchSpreadConstraints(node.metadata.labels, constraints)) continue;
      for (const c of constraints) {
        if (!matchNodeInclusionPolicies(c, pod.pod, node)) continue;
        const k = pairKey(c.topologyKey, node.metadata.labels![c.topologyKey]);
        s.tpPairToMatchNum.set(k, (s.tpPairToMatchNum.get(k) ?? 0) + nodeInfo.countPodsMatchSelector(c.selector, pod.namespace, c.countKey));
      }
    }
    recomputeMin(s);
    state.write(preFilterStateKey, s);
    return {};
  }

  preFilterExtensions(): PreFilterExtensions {
    const update = (state: CycleState, pod: PodInfo, other: PodInfo, nodeInfo: NodeInfo, delta: number): undefined => {
      const prev = state.read<PreFilterState>(preFilterStateKey);
      const node = nodeInfo.node;
      if (!prev || !node || other.namespace !== pod.namespace || isTerminating(other.pod)) return undefined;
      if (!nodeLabelsMatchSpreadConstraints(node.metadata.labels, prev.constraints)) return undefined;
      const s: PreFilterState = { ...prev, tpPairToMatchNum: new Map(prev.tpPairToMatchNum) };
      for (const c of prev.constraints) {
        if (!matchNodeInclusionPolicies(c, pod.pod, node) || !selectorMatches(c.selector, other.pod.metadata.labels)) continue;
        const k = pairKey(c.topologyKey, node.metadata.labels![c.topologyKey]);
        s.tpPairToMatchNum.set(k, (s.tpPairToMatchNum.get(k) ?? 0) + delta);
      }
      recomputeMin(s);
      state.write(preFilterStateKey, s);
      return undefined;
    };
    return {
      addPod: (state, pod, other, nodeInfo) => update(state, pod, other, nodeInfo, 1),
      removePod: (state, pod, other, nodeInfo) => update(state, pod, other, nodeInfo, -1),
    };
  }

  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    const s = state.read<PreFilterState>(preFilterStateKey);
    if (!s || s.constraints.length === 0) return undefined;
    const labels = nodeInfo.labels;
    for (const c of s.constraints) {
      if (!Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) return newStatus(Code.UnschedulableAndUnresolvable, ErrReasonNodeLabelNotMatch);
      // With fewer domains than minDomains, the global minimum counts as 0.
      const domains = s.tpKeyToDomainsNum.get(c.topologyKey) ?? 0;
      const minMatchNum = domains < c.minDomains ? 0 : (s.minMatch.get(c.topologyKey) ?? 0);
      const selfMatchNum = selectorMatches(c.selector, pod.pod.metadata.labels) ? 1 : 0;
      const matchNum = s.tpPairToMatchNum.get(pairKey(c.topologyKey, labels[c.topologyKey])) ?? 0;
      if (matchNum + selfMatchNum - minMatchNum > c.maxSkew) return newStatus(Code.Unschedulable, ErrReasonConstraintsNotMatch);
    }
    return undefined;
  }

  // ------------------------------------------------------------------ Score

  preScore(state: CycleState, pod: PodInfo, filteredNodes: readonly NodeInfo[], lister: SharedLister): Status | undefined {
    const hasOwn = (pod.pod.spec?.topologySpreadConstraints ?? []).length > 0;
    const constraints = this.constraintsFor(pod.pod, ScheduleAnyway);
    if (constraints.length === 0) return newStatus(Code.Skip);
    // System-defaulted constraints do not ignore nodes missing a topology label.
    const requireAllTopologies = hasOwn;
    const s: PreScoreState = {
      constraints,
      ignoredNodes: new Set(),
      topologyValueToPodCounts: constraints.map(() => new Map()),
      topologyNormalizingWeight: [],
    };
    const topoSize = constraints.map(() => 0);
    for (let n = 0; n < filteredNodes.length; n++) {
      const nodeInfo = filteredNodes[n];
      if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(nodeInfo.labels, constraints)) {
        s.ignoredNodes.add(nodeInfo.name);
        continue;
      }
      for (let i = 0; i < constraints.length; i++) {
        const key = constraints[i].topologyKey;
        if (key === LabelHostname) continue;
        const value = nodeInfo.topologyValue(key) ?? '';
        const counts = s.topologyValueToPodCounts[i];
        if (!counts.has(value)) {
          counts.set(value, 0);
          topoSize[i]++;
        }
      }
    }
    s.topologyNormalizingWeight = constraints.map((c, i) =>
      topologyNormalizingWeight(c.topologyKey === LabelHostname ? filteredNodes.length - s.ignoredNodes.size : topoSize[i]),
    );
    // Counts per domain over every node (not only the feasible ones); hostname domains are counted in Score.
    const counted = constraints.map((c, i) => ({ c, i })).filter(({ c }) => c.topologyKey !== LabelHostname);
    if (counted.length > 0) {
      const checkInclusion = counted.some(({ c }) => c.nodeTaintsPolicy === 'Honor' || (c.nodeAffinityPolicy === 'Honor' && hasRequiredNodeAffinity(pod.pod)));
      // Every node counts (no inclusion policy excludes any, no node is skipped for a missing key): the
      // cache's maintained per-domain totals give the same numbers without walking the nodes.
      if (!checkInclusion && (!requireAllTopologies || constraints.length === 1) && lister.topologyPodCounts) {
        for (const { c, i } of counted) {
          const totals = lister.topologyPodCounts(c.selector, pod.namespace, c.countKey, c.topologyKey);
          const counts = s.topologyValueToPodCounts[i];
          for (const value of counts.keys()) counts.set(value, totals.get(value) ?? 0);
        }
        state.write(preScoreStateKey, s);
        return undefined;
      }
      const nodes = lister.nodeInfos();
      for (let n = 0; n < nodes.length; n++) {
        const nodeInfo = nodes[n];
        const node = nodeInfo.node;
        if (!node) continue;
        const labels = node.metadata.labels ?? {};
        if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) continue;
        for (let k = 0; k < counted.length; k++) {
          const { c, i } = counted[k];
          if (checkInclusion && !matchNodeInclusionPolicies(c, pod.pod, node)) continue;
          const counts = s.topologyValueToPodCounts[i];
          const value = labels[c.topologyKey] ?? '';
          const cur = counts.get(value);
          // Domains with no candidate node are not counted.
          if (cur === undefined) continue;
          counts.set(value, cur + nodeInfo.countPodsMatchSelector(c.selector, pod.namespace, c.countKey));
        }
      }
    }
    state.write(preScoreStateKey, s);
    return undefined;
  }

  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number {
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (!s || s.ignoredNodes.has(nodeInfo.name)) return 0;
    const labels = nodeInfo.labels;
    let score = 0;
    for (let i = 0; i < s.constraints.length; i++) {
      const c = s.constraints[i];
      const value = labels[c.topologyKey];
      if (value === undefined) continue;
      const cnt =
        c.topologyKey === LabelHostname ? nodeInfo.countPodsMatchSelector(c.selector, pod.namespace, c.countKey) : (s.topologyValueToPodCounts[i].get(value) ?? 0);
      score += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]);
    }
    return Math.round(score);
  }

  /** score for every node, the cycle's state read once. */
  scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: Float64Array): void {
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (!s) {
      out.fill(0);
      return;
    }
    const { constraints, ignoredNodes, topologyValueToPodCounts, topologyNormalizingWeight } = s;
    const anyIgnored = ignoredNodes.size > 0;
    for (let n = 0; n < nodes.length; n++) {
      const nodeInfo = nodes[n];
      if (anyIgnored && ignoredNodes.has(nodeInfo.name)) {
        out[n] = 0;
        continue;
      }
      let score = 0;
      for (let i = 0; i < constraints.length; i++) {
        const c = constraints[i];
        const value = nodeInfo.topologyValue(c.topologyKey);
        if (value === undefined) continue;
        const cnt = c.topologyKey === LabelHostname ? nodeInfo.countPodsMatchSelector(c.selector, pod.namespace, c.countKey) : (topologyValueToPodCounts[i].get(value) ?? 0);
        score += scoreForCount(cnt, c.maxSkew, topologyNormalizingWeight[i]);
      }
      out[n] = Math.round(score);
    }
  }

  normalizeScore(state: CycleState, pod: PodInfo, scores: NodeScore[]): void {
    const column = Float64Array.from(scores, (ns) => ns.score);
    this.normalizeScoreColumn(state, pod, scores.map((ns) => ns.name), column);
    for (let i = 0; i < scores.length; i++) scores[i].score = column[i];
  }

  normalizeScoreColumn(state: CycleState, _pod: PodInfo, names: readonly string[], scores: Float64Array): void {
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (!s) return;
    let minScore = Number.MAX_SAFE_INTEGER;
    let maxScore = 0;
    const ignoredNodes = s.ignoredNodes;
    const anyIgnored = ignoredNodes.size > 0;
    for (let i = 0; i < scores.length; i++) {
      if (anyIgnored && ignoredNodes.has(names[i])) continue;
      if (scores[i] < minScore) minScore = scores[i];
      if (scores[i] > maxScore) maxScore = scores[i];
    }
    for (let i = 0; i < scores.length; i++) {
      if (anyIgnored && ignoredNodes.has(names[i])) {
        scores[i] = 0;
        continue;
      }
      if (maxScore === 0) {
        scores[i] = MaxNodeScore;
        continue;
      }
      scores[i] = Math.trunc((MaxNodeScore * (maxScore + minScore - scores[i])) / maxScore);
    }
  }

  eventsToRegister(): ClusterEventWithHint[] {
    const podHint = (pod: PodObject, oldObj: unknown, newObj: unknown) => {
      const constraints = this.constraintsFor(pod, DoNotSchedule);
      for (const o of [oldObj, newObj] as (PodObject | undefined)[]) {
        if (!o || o.metadata.namespace !== pod.metadata.namespace) continue;
        if (constraints.some((c) => selectorMatches(c.selector, o.metadata.labels))) return QueueingHint.Queue;
      }
      return QueueingHint.QueueSkip;
    };
    const nodeHint = (pod: PodObject, oldObj: unknown, newObj: unknown) => {
      const constraints = this.constraintsFor(pod, DoNotSchedule);
      const before = oldObj as NodeObject | undefined;
      const after = newObj as NodeObject | undefined;
      const has = (n: NodeObject | undefined) => !!n && nodeLabelsMatchSpreadConstraints(n.metadata.labels, constraints);
      if (!before || !after) return has(before) || has(after) ? QueueingHint.Queue : QueueingHint.QueueSkip;
      const changed = constraints.some((c) => before.metadata.labels?.[c.topologyKey] !== after.metadata.labels?.[c.topologyKey]);
      return changed || JSON.stringify(before.spec?.taints ?? []) !== JSON.stringify(after.spec?.taints ?? []) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    };
    return [
      { event: { resource: EventResource.Pod, actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete }, hint: podHint },
      {
        event: { resource: EventResource.Node, actionType: ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint },
        hint: nodeHint,
      },
    ];
  }
}

function recomputeMin(s: PreFilterState): void {
  s.minMatch = new Map();
  s.tpKeyToDomainsNum = new Map();
  for (const [k, n] of s.tpPairToMatchNum) {
    const key = k.slice(0, k.indexOf('\u0000'));
    s.tpKeyToDomainsNum.set(key, (s.tpKeyToDomainsNum.get(key) ?? 0) + 1);
    const cur = s.minMatch.get(key);
    if (cur === undefined || n < cur) s.minMatch.set(key, n);
  }
}

PodTopologySpread.prototype satisfies PreFilterPlugin & FilterPlugin & PreScorePlugin & ScorePlugin & EnqueueExtensions;
