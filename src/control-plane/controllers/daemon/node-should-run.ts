// Which nodes a DaemonSet wants (daemon_controller.go NodeShouldRunDaemonPod and predicates): the controller
// simulates its pod — the template with the node's name and the automatic tolerations — against the node:
//
//   template.spec.nodeName set and not this node      → neither run nor keep running
//   nodeSelector / required node affinity don't match → neither
//   an untolerated NoSchedule or NoExecute taint      → don't start one; keep a running one only if no
//                                                       untolerated taint is NoExecute
//   otherwise                                         → run
//
// Resources are not checked: the scheduler decides whether the pod fits (it stays Pending if not).
import type { DaemonSet } from 'kubernetes-types/apps/v1';
import type { Node, NodeCondition, Pod, Taint } from 'kubernetes-types/core/v1';
import { requiredNodeAffinityMatches } from '../../scheduler/plugins/helper/node-affinity';
import { findMatchingUntoleratedTaint } from '../../scheduler/plugins/helper/taints';
import { canonicalJson, parseTime } from '../shared/controller-utils';
import { TaintEffect } from '../nodelifecycle/taints';
import { addOrUpdateDaemonPodTolerations } from './daemonset-util';

/** NewPod: the pod the DaemonSet would run on the node (template, namespace, nodeName, daemon tolerations). */
export function newPod(ds: DaemonSet, nodeName: string): Pod {
  const template = ds.spec?.template ?? {};
  const pod: Pod = {
    metadata: { ...structuredClone(template.metadata ?? {}), namespace: ds.metadata?.namespace },
    spec: { ...structuredClone(template.spec ?? { containers: [] }), nodeName },
  };
  addOrUpdateDaemonPodTolerations(pod.spec!);
  return pod;
}

export interface PredicatesResult {
  fitsNodeName: boolean;
  fitsNodeAffinity: boolean;
  fitsTaints: boolean;
}

/** predicates: whether the pod may run on the node by name, nodeSelector/affinity and NoSchedule/NoExecute taints. */
export function predicates(pod: Pod, node: Node, taints: readonly Taint[] | undefined): PredicatesResult {
  const nodeName = node.metadata?.name ?? '';
  const fitsNodeName = !pod.spec?.nodeName || pod.spec.nodeName === nodeName;
  const fitsNodeAffinity = requiredNodeAffinityMatches(pod, node);
  const untolerated = findMatchingUntoleratedTaint(taints, pod.spec?.tolerations, (t) => t.effect === TaintEffect.NoExecute || t.effect === TaintEffect.NoSchedule);
  return { fitsNodeName, fitsNodeAffinity, fitsTaints: untolerated === undefined };
}

export interface ShouldRun {
  /** A daemon pod should be started on the node if there is none. */
  shouldRun: boolean;
  /** A daemon pod already on the node may stay. */
  shouldContinueRunning: boolean;
}

/** NodeShouldRunDaemonPod. */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): ShouldRun {
  const nodeName = node.metadata?.name ?? '';
  const pod = newPod(ds, nodeName);
  // If the daemon set specifies a node name, check that it matches with node.Name.
  const wanted = ds.spec?.template?.spec?.nodeName;
  if (wanted && wanted !== nodeName) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints;
  const { fitsNodeName, fitsNodeAffinity, fitsTaints } = predicates(pod, node, taints);
  if (!fitsNodeName || !fitsNodeAffinity) return { shouldRun: false, shouldContinueRunning: false };
  if (!fitsTaints) {
    // Scheduled daemon pods should continue running if they tolerate NoExecute taints.
    const untoleratedNoExecute = findMatchingUntoleratedTaint(taints, pod.spec?.tolerations, (t) => t.effect === TaintEffect.NoExecute);
    return { shouldRun: false, shouldContinueRunning: untoleratedNoExecute === undefined };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

/** nodeInSameCondition: the same set of condition types is True on both. */
export function nodeInSameCondition(old: readonly NodeCondition[] | undefined, cur: readonly NodeCondition[] | undefined): boolean {
  const oldTrue = new Set((old ?? []).filter((c) => c.status === 'True').map((c) => c.type));
  const curTrue = new Set((cur ?? []).filter((c) => c.status === 'True').map((c) => c.type));
  if (oldTrue.size !== curTrue.size) return false;
  for (const t of curTrue) if (!oldTrue.has(t)) return false;
  return true;
}

/**
 * shouldIgnoreNodeUpdate: a heartbeat (only resourceVersion and condition timestamps changed) cannot change
 * which DaemonSets want the node, so it is not worth looking at every DaemonSet.
 */
export function shouldIgnoreNodeUpdate(oldNode: Node, curNode: Node): boolean {
  if (!nodeInSameCondition(oldNode.status?.conditions, curNode.status?.conditions)) return false;
  const strip = (n: Node) => ({
    ...n,
    metadata: { ...n.metadata, resourceVersion: undefined, managedFields: undefined },
    status: { ...n.status, conditions: undefined },
  });
  return canonicalJson(strip(oldNode)) === canonicalJson(strip(curNode));
}

/** podByCreationTimestampAndPhase.Less as a comparator: scheduled pods first, then oldest, then by name. */
export function compareByCreationTimestampAndPhase(a: Pod, b: Pod): number {
  const aBound = !!a.spec?.nodeName;
  const bBound = !!b.spec?.nodeName;
  if (aBound !== bBound) return aBound ? -1 : 1;
  const ta = parseTime(a.metadata?.creationTimestamp) ?? 0;
  const tb = parseTime(b.metadata?.creationTimestamp) ?? 0;
  if (ta !== tb) return ta - tb;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/**
 * getUnscheduledPodsWithoutNode: pods aimed (by affinity) at nodes that no longer exist and never bound. Pod GC
 * only collects pods bound to missing nodes, so the DaemonSet controller deletes these itself.
 */
export function getUnscheduledPodsWithoutNode(nodes: readonly Node[], nodeToDaemonPods: ReadonlyMap<string, readonly Pod[]>): string[] {
  const running = new Set(nodes.map((n) => n.metadata?.name ?? ''));
  const out: string[] = [];
  for (const [nodeName, pods] of nodeToDaemonPods) {
    if (running.has(nodeName)) continue;
    for (const pod of pods) if (!pod.spec?.nodeName) out.push(pod.metadata?.name ?? '');
  }
  return out;
}
