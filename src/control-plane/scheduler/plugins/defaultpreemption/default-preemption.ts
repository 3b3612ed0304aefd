// DefaultPreemption (plugins/defaultpreemption + framework/preemption, v1.32): the PostFilter that runs when no
// node fits. It dry-runs, on the nodes whose rejection was Unschedulable (not UnschedulableAndUnresolvable),
// removing every lower-priority pod and putting back as many as still let the pod fit; the nodes where that
// works are candidates. With a candidate it evicts the victims and nominates the node; without one, its message
// says why per node, as the "preemption: …" part of FailedScheduling:
//   "Preemption is not helpful for scheduling"        the node rejected the pod for a reason eviction cannot fix
//   "No preemption victims found for incoming pod"     no lower-priority pod runs there
//   the filter's own reason ("Insufficient cpu")       even evicting all lower-priority pods is not enough
// PodDisruptionBudgets: victims whose budget would be violated are reprieved first, and the node with the fewest
// such violations wins (pickOneNodeForPreemption); a violating victim is still evicted when nothing else fits.
import type { PodCondition } from 'kubernetes-types/core/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import { labelSelectorAsSelector, selectorMatches } from '../../../../shared/lib/labels';
import { isStatusError, StatusReason } from '../../../../shared/api/status';
import { rfc3339 } from '../../../sim/clock';
import type { CycleState } from '../../framework/cycle-state';
import { fitErrorMessage } from '../../framework/fit-error';
import type { Handle } from '../../framework/handle';
import type { NodeToStatus, PostFilterPlugin, PostFilterResult, SharedLister } from '../../framework/interface';
import type { Framework } from '../../framework/runtime';
import { Code, isSuccess, newStatus, type Status } from '../../framework/status';
import type { NodeInfo, PodInfo, PodObject } from '../../framework/types';

export const Name = 'DefaultPreemption';
export const ReasonNotEligiblePreemptNever = 'not eligible due to preemptionPolicy=Never.';
export const ReasonNotEligibleTerminatingPod = 'not eligible due to a terminating pod on the nominated node.';
export const ReasonPreemptionNotHelpful = 'Preemption is not helpful for scheduling';
export const ReasonNoVictims = 'No preemption victims found for incoming pod';
export const DisruptionTarget = 'DisruptionTarget';
export const PodReasonPreemptionByScheduler = 'PreemptionByScheduler';

/** DefaultPreemptionArgs defaults. */
export const MinCandidateNodesPercentage = 10;
export const MinCandidateNodesAbsolute = 100;

export interface Candidate {
  name: string;
  victims: PodInfo[];
  /** How many victims' PodDisruptionBudgets the eviction would violate. */
  numPDBViolations?: number;
}

/**
 * filterPodsWithPDBViolation: walking the pods in order, each spends one disruption of every budget selecting it
 * (unless the API server already recorded it in disruptedPods); a pod that takes a budget below zero violates it.
 */
export function filterPodsWithPDBViolation(pods: readonly PodInfo[], pdbs: readonly PodDisruptionBudget[]): { violating: PodInfo[]; nonViolating: PodInfo[] } {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const pi of pods) {
    const pod = pi.pod;
    let violated = false;
    const labels = pod.metadata.labels ?? {};
    if (Object.keys(labels).length > 0) {
      pdbs.forEach((pdb, i) => {
        if (pdb.metadata?.namespace !== pod.metadata.namespace) return;
        let sel;
        try {
          sel = labelSelectorAsSelector(pdb.spec?.selector);
        } catch {
          return;
        }
        // A nil or empty selector matches nothing here.
        if (sel.nothing || sel.requirements.length === 0 || !selectorMatches(sel, labels)) return;
        if (pdb.status?.disruptedPods?.[pod.metadata.name ?? ''] !== undefined) return;
        allowed[i]--;
        if (allowed[i] < 0) violated = true;
      });
    }
    (violated ? violating : nonViolating).push(pi);
  }
  return { violating, nonViolating };
}

function startTime(p: PodObject): number {
  const t = p.status?.startTime;
  return t ? Date.parse(t) : Number.MAX_SAFE_INTEGER;
}

/** util.MoreImportantPod: higher priority, then the one started earlier. */
export function moreImportantPod(a: PodInfo, b: PodInfo): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  return startTime(a.pod) - startTime(b.pod);
}

function terminatingByPreemption(p: PodObject): boolean {
  if (!p.metadata.deletionTimestamp) return false;
  return (p.status?.conditions ?? []).some((c) => c.type === DisruptionTarget && c.status === 'True' && c.reason === PodReasonPreemptionByScheduler);
}

export class DefaultPreemption {
  readonly name = Name;
  /** The framework whose filters the dry runs use (set once the profile is built). */
  framework?: Framework;

  constructor(private readonly handle: Pick<Handle, 'client' | 'clock' | 'rng' | 'recorder' | 'podLister' | 'schedulerName' | 'podDisruptionBudgetLister'>) {}

  postFilter(state: CycleState, pod: PodInfo, m: NodeToStatus, lister: SharedLister): { result?: PostFilterResult; status?: Status } {
    const { result, status } = this.preempt(state, pod, m, lister);
    const msg = status ? status.reasons.join(', ') : '';
    if (msg) return { result, status: { ...status!, reasons: [`preemption: ${msg}`] } };
    return { result, status };
  }

  /** PodEligibleToPreemptOthers. */
  podEligibleToPreemptOthers(pod: PodObject, nominatedNodeStatus: Status | undefined, lister: SharedLister): { ok: boolean; msg: string } {
    if (pod.spec?.preemptionPolicy === 'Never') return { ok: false, msg: ReasonNotEligiblePreemptNever };
    const nominated = pod.status?.nominatedNodeName;
    if (nominated) {
      if (nominatedNodeStatus?.code === Code.UnschedulableAndUnresolvable) return { ok: true, msg: '' };
      const nodeInfo = lister.getNodeInfo(nominated);
      const priority = pod.spec?.priority ?? 0;
      if (nodeInfo?.pods.some((p) => p.priority < priority && terminatingByPreemption(p.pod))) return { ok: false, msg: ReasonNotEligibleTerminatingPod };
    }
    return { ok: true, msg: '' };
  }

  private preempt(state: CycleState, podInfo: PodInfo, m: NodeToStatus, lister: SharedLister): { result?: PostFilterResult; status?: Status } {
    // The latest version of the pod, from the informer cache.
    const pod = this.handle.podLister.get(podInfo.namespace, podInfo.pod.metadata.name ?? '') ?? podInfo.pod;
    const eligible = this.podEligibleToPreemptOthers(pod, m.get(pod.status?.nominatedNodeName ?? ''), lister);
    if (!eligible.ok) return { status: newStatus(Code.Unschedulable, eligible.msg) };

    const allNodes = lister.nodeInfos();
    if (allNodes.length === 0) return { status: newStatus(Code.Error, 'no nodes available') };
    const potential = allNodes.filter((n) => m.get(n.name)?.code === Code.Unschedulable);
    let candidates: Candidate[] = [];
    const nodeStatuses: NodeToStatus = new Map();
    if (potential.length > 0) {
      const offset = this.handle.rng.int(potential.length);
      const numCandidates = Math.min(potential.length, Math.max(Math.trunc((potential.length * MinCandidateNodesPercentage) / 100), MinCandidateNodesAbsolute));
      candidates = this.dryRunPreemption(state, podInfo, potential, offset, numCandidates, nodeStatuses);
    }
    if (candidates.length === 0) {
      const message = fitErrorMessage(allNodes.length, {
        nodeToStatus: nodeStatuses,
        absentNodesStatus: newStatus(Code.UnschedulableAndUnresolvable, ReasonPreemptionNotHelpful),
        unschedulablePlugins: new Set(),
      });
      // Clear a stale nomination.
      return { result: { nominatedNodeName: '' }, status: newStatus(Code.Unschedulable, message) };
    }
    const best = selectCandidate(candidates);
    this.prepareCandidate(best, podInfo);
    return { result: { nominatedNodeName: best.name } };
  }

  private dryRunPreemption(state: CycleState, pod: PodInfo, potential: readonly NodeInfo[], offset: number, numCandidates: number, statuses: NodeToStatus): Candidate[] {
    const candidates: Candidate[] = [];
    for (let i = 0; i < potential.length; i++) {
      const nodeInfo = potential[(offset + i) % potential.length].clone();
      const { victims, numPDBViolations, status } = this.selectVictimsOnNode(state.clone(), pod, nodeInfo);
      if (isSuccess(status) && victims.length > 0) {
        candidates.push({ name: nodeInfo.name, victims, numPDBViolations: numPDBViolations ?? 0 });
        if (candidates.length >= numCandidates) break;
        continue;
      }
      statuses.set(nodeInfo.name, isSuccess(status) ? newStatus(Code.Error, `expected at least one victim pod on node "${nodeInfo.name}"`) : status!);
    }
    return candidates;
  }

  /** SelectVictimsOnNode: the fewest (least important) lower-priority pods whose removal lets the pod fit. */
  selectVictimsOnNode(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): { victims: PodInfo[]; numPDBViolations?: number; status?: Status } {
    const fw = this.framework!;
    const potentialVictims = nodeInfo.pods.filter((p) => p.priority < pod.priority);
    for (const v of potentialVictims) {
      nodeInfo.removePod(v.key);
      fw.runPreFilterExtensionRemovePod(state, pod, v, nodeInfo);
    }
    if (potentialVictims.length === 0) return { victims: [], status: newStatus(Code.UnschedulableAndUnresolvable, ReasonNoVictims) };
    const s = fw.runFilterPlugins(state, pod, nodeInfo);
    if (!isSuccess(s)) return { victims: [], status: s };
    // Reprieve the PDB-violating victims first, then the others, the most important first in each group.
    const pdbs = this.handle.podDisruptionBudgetLister?.list() ?? [];
    const { violating, nonViolating } = filterPodsWithPDBViolation([...potentialVictims].sort(moreImportantPod), pdbs);
    const victims: PodInfo[] = [];
    const reprieve = (v: PodInfo): boolean => {
      nodeInfo.addPod(v);
      fw.runPreFilterExtensionAddPod(state, pod, v, nodeInfo);
      if (isSuccess(fw.runFilterPlugins(state, pod, nodeInfo))) return true;
      nodeInfo.removePod(v.key);
      fw.runPreFilterExtensionRemovePod(state, pod, v, nodeInfo);
      victims.push(v);
      return false;
    };
    let numPDBViolations = 0;
    for (const v of violating) if (!reprieve(v)) numPDBViolations++;
    for (const v of nonViolating) reprieve(v);
    return { victims, numPDBViolations };
  }

  /** prepareCandidate: mark each victim with DisruptionTarget, delete it, and record Preempted on it. */
  private prepareCandidate(c: Candidate, preemptor: PodInfo): void {
    const { client, clock, recorder, schedulerName } = this.handle;
    for (const v of c.victims) {
      if (v.pod.metadata.deletionTimestamp) continue;
      const condition: PodCondition = {
        type: DisruptionTarget,
        status: 'True',
        reason: PodReasonPreemptionByScheduler,
        message: `${schedulerName}: preempting to accommodate a higher priority pod`,
        lastTransitionTime: rfc3339(clock.now()),
      };
      try {
        const copy = structuredClone(v.pod);
        const conditions = [...(copy.status?.conditions ?? []).filter((x) => x.type !== DisruptionTarget), condition];
        client.pods.updateStatus({ ...copy, status: { ...(copy.status ?? {}), conditions } });
      } catch (err) {
        if (isStatusError(err, StatusReason.NotFound)) continue;
      }
      try {
        client.pods.delete(v.pod.metadata.name ?? '', { namespace: v.namespace });
      } catch (err) {
        if (isStatusError(err, StatusReason.NotFound)) continue;
        throw err;
      }
      recorder.event(v.pod, 'Normal', 'Preempted', `Preempted by pod ${preemptor.uid} on node ${c.name}`);
    }
  }
}

/** pickOneNodeForPreemption: fewest PDB violations, lowest highest-victim priority, lowest priority sum, fewest victims, latest start. */
export function selectCandidate(candidates: Candidate[]): Candidate {
  const sorted = candidates.map((c) => ({ c, victims: [...c.victims].sort(moreImportantPod) }));
  const scoreFuncs: ((x: (typeof sorted)[number]) => number)[] = [
    (x) => -(x.c.numPDBViolations ?? 0),
    (x) => -x.victims[0].priority,
    (x) => -x.victims.reduce((s, v) => s + v.priority + 2147483648, 0),
    (x) => -x.victims.length,
    (x) => Math.min(...x.victims.filter((v) => v.priority === x.victims[0].priority).map((v) => startTime(v.pod))),
  ];
  let pool = sorted;
  for (const f of scoreFuncs) {
    let best = -Infinity;
    let next: typeof sorted = [];
    for (const x of pool) {
      const s = f(x);
      if (s > best) {
        best = s;
        next = [x];
      } else if (s === best) next.push(x);
    }
    pool = next;
    if (pool.length === 1) break;
  }
  return pool[0].c;
}

DefaultPreemption.prototype satisfies PostFilterPlugin;
