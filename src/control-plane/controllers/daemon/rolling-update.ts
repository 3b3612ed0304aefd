// The RollingUpdate strategy of a DaemonSet (pkg/controller/daemon/update.go rollingUpdate), as a pure plan:
// which old pods to delete and on which nodes to create new ones this sync. The manage loop does the rest
// (creating a pod on a node left without one, pruning extras).
//
//   maxSurge = 0: delete old pods, at most maxUnavailable nodes without an available pod at a time; an old pod
//                 that is not available anyway is replaced at once. manage() then creates the new pod.
//     3 nodes, maxUnavailable 1: delete old on node-a → new on node-a Ready → delete old on node-b → …
//   maxSurge > 0: create the new pod beside the old one (up to maxSurge nodes at a time), and delete the old pod
//                 once the new one is available, so each node keeps an available pod throughout.
import type { DaemonSet } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { isPodAvailable } from '../shared/controller-utils';
import { getTemplateGeneration, isPodUpdated, surgeCount, unavailableCount } from './daemonset-util';
import { nodeShouldRunDaemonPod } from './node-should-run';

/**
 * findUpdatedPodsOnNode: the node's new and old pod (ignoring pods being deleted); ok is false when there are
 * several of either, which the manage loop prunes first.
 */
export function findUpdatedPodsOnNode(ds: DaemonSet, podsOnNode: readonly Pod[], hash: string): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  const { generation } = getTemplateGeneration(ds);
  for (const pod of podsOnNode) {
    if (pod.metadata?.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { newPod, oldPod, ok: true };
}

export interface DesiredNodeCounts {
  maxSurge: number;
  maxUnavailable: number;
  desiredNumberScheduled: number;
}

/**
 * updatedDesiredNodeCounts: maxSurge and maxUnavailable scaled to the number of nodes that should run the pod,
 * and an (empty) entry in nodeToDaemonPods for every such node without pods. A configuration allowing neither
 * surge nor unavailability falls back to maxUnavailable 1. Throws "invalid value for MaxUnavailable: …".
 */
export function updatedDesiredNodeCounts(ds: DaemonSet, nodeList: readonly Node[], nodeToDaemonPods: Map<string, Pod[]>): DesiredNodeCounts {
  let desiredNumberScheduled = 0;
  for (const node of nodeList) {
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
    desiredNumberScheduled++;
    const name = node.metadata?.name ?? '';
    if (!nodeToDaemonPods.has(name)) nodeToDaemonPods.set(name, []);
  }
  let maxUnavailable: number;
  try {
    maxUnavailable = unavailableCount(ds, desiredNumberScheduled);
  } catch (err) {
    throw new Error(`invalid value for MaxUnavailable: ${(err as Error).message}`, { cause: err });
  }
  let maxSurge: number;
  try {
    maxSurge = surgeCount(ds, desiredNumberScheduled);
  } catch (err) {
    throw new Error(`invalid value for MaxSurge: ${(err as Error).message}`, { cause: err });
  }
  // An impossible configuration (the API server returned 0 for both): accept unavailability.
  if (desiredNumberScheduled > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desiredNumberScheduled };
}

export interface RollingUpdatePlan {
  podsToDelete: string[];
  nodesToCreate: string[];
  maxSurge: number;
  maxUnavailable: number;
}

/**
 * rollingUpdate's decision. Nodes are visited in name order (Kubernetes walks a Go map, in random order; a
 * fixed order keeps the simulation reproducible).
 */
export function planRollingUpdate(
  ds: DaemonSet,
  nodeList: readonly Node[],
  nodeToDaemonPods: Map<string, Pod[]>,
  hash: string,
  now: number,
): RollingUpdatePlan {
  const { maxSurge, maxUnavailable, desiredNumberScheduled } = updatedDesiredNodeCounts(ds, nodeList, nodeToDaemonPods);
  const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
  const available = (pod: Pod) => isPodAvailable(pod, minReadySeconds, now);
  const nodesByName = new Map(nodeList.map((n) => [n.metadata?.name ?? '', n]));
  const entries = [...nodeToDaemonPods.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  if (maxSurge === 0) {
    // Delete just enough old pods to stay within maxUnavailable; manage() creates their replacements.
    let numUnavailable = 0;
    const allowedReplacementPods: string[] = [];
    const candidatePodsToDelete: string[] = [];
    for (const [, pods] of entries) {
      const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, hash);
      if (!ok) {
        // Let the manage loop clean up this node, and treat it as unavailable.
        numUnavailable++;
        continue;
      }
      if ((!oldPod && !newPod) || (oldPod && newPod)) {
        // The manage loop creates or deletes the appropriate pod: unavailable meanwhile.
        numUnavailable++;
      } else if (newPod) {
        // Up to date: an unavailable new pod counts against maxUnavailable.
        if (!available(newPod)) numUnavailable++;
      } else if (oldPod) {
        if (!available(oldPod)) {
          // The old pod isn't available anyway: replace it now.
          allowedReplacementPods.push(oldPod.metadata?.name ?? '');
          numUnavailable++;
        } else if (numUnavailable < maxUnavailable) {
          candidatePodsToDelete.push(oldPod.metadata?.name ?? '');
        }
      }
    }
    const remainingUnavailable = Math.min(Math.max(maxUnavailable - numUnavailable, 0), candidatePodsToDelete.length);
    return {
      podsToDelete: [...allowedReplacementPods, ...candidatePodsToDelete.slice(0, remainingUnavailable)],
      nodesToCreate: [],
      maxSurge,
      maxUnavailable,
    };
  }

  // Surging: a new pod beside each old one (an unavailable old pod at once, others up to maxSurge at a time);
  // the old pod goes once the new one is available.
  const oldPodsToDelete: string[] = [];
  const shouldNotRunPodsToDelete: string[] = [];
  const candidateNewNodes: string[] = [];
  const allowedNewNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  const shouldRunOn = (nodeName: string): boolean => {
    const node = nodesByName.get(nodeName);
    if (!node) throw new Error(`couldn't get node for nodeName "${nodeName}": node "${nodeName}" not found`);
    return nodeShouldRunDaemonPod(node, ds).shouldRun;
  };
  for (const [nodeName, pods] of entries) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, hash);
    if (!ok) {
      // Let the manage loop clean up this node, and treat it as a surge node.
      numSurge++;
      continue;
    }
    // Count availability on every node, even those being sunset by scheduling constraints.
    if (oldPod) {
      if (available(oldPod)) numAvailable++;
    } else if (newPod && available(newPod)) {
      numAvailable++;
    }
    if (!oldPod) continue; // nothing to do here: manage() handles it
    if (!newPod) {
      if (!available(oldPod)) {
        if (!shouldRunOn(nodeName)) {
          oldPodsToDelete.push(oldPod.metadata?.name ?? '');
          continue;
        }
        // The old pod isn't available: its replacement may start at once.
        allowedNewNodes.push(nodeName);
      } else {
        if (!shouldRunOn(nodeName)) {
          shouldNotRunPodsToDelete.push(oldPod.metadata?.name ?? '');
          continue;
        }
        if (numSurge >= maxSurge) continue;
        candidateNewNodes.push(nodeName);
      }
      continue;
    }
    // Already surged onto this node.
    if (!available(newPod)) {
      numSurge++;
      continue;
    }
    // The new pod is available: the old one goes.
    oldPodsToDelete.push(oldPod.metadata?.name ?? '');
  }
  // With maxSurge the owner expects full availability: a pod on a node that no longer qualifies goes only
  // while more pods are available than wanted.
  const deletable = Math.min(numAvailable - desiredNumberScheduled, shouldNotRunPodsToDelete.length);
  if (deletable > 0) oldPodsToDelete.push(...shouldNotRunPodsToDelete.slice(0, deletable));
  const remainingSurge = Math.min(Math.max(maxSurge - numSurge, 0), candidateNewNodes.length);
  return {
    podsToDelete: oldPodsToDelete,
    nodesToCreate: [...allowedNewNodes, ...candidateNewNodes.slice(0, remainingSurge)],
    maxSurge,
    maxUnavailable,
  };
}
