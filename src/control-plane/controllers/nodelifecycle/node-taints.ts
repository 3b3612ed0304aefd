// Writing taints to a Node the way kube-controller-manager does (pkg/controller/controller_utils.go
// AddOrUpdateTaintOnNode / RemoveTaintOffNode / PatchNodeTaints, pkg/controller/util/node SwapNodeControllerTaint):
// read the node, change spec.taints, and send a strategic merge patch carrying the read resourceVersion, so a
// concurrent change of the node is a 409 and the read-modify-write is retried (RetryOnConflict, 5 steps).
import type { Node, Taint } from 'kubernetes-types/core/v1';
import { StatusReason, isStatusError } from '../../../shared/api/status';
import { PatchType } from '../../../shared/api/request';
import type { Client, Typed } from '../../client/client';
import { rfc3339, type Clock } from '../../sim/clock';
import { addOrUpdateTaint, removeTaint, taintExists } from './taints';

/** UpdateTaintBackoff: Steps 5. The retries run at once: the read is fresh from the API server each time. */
const updateTaintRetries = 5;

function retryOnConflict(fn: () => void): void {
  for (let attempt = 1; ; attempt++) {
    try {
      fn();
      return;
    } catch (err) {
      if (attempt >= updateTaintRetries || !isStatusError(err, StatusReason.Conflict)) throw err;
    }
  }
}

/**
 * PatchNodeTaints: spec.taints is an atomic list, so the patch carries the whole new list (null when empty, so
 * the field goes away) and the resourceVersion the change was computed from.
 */
export function patchNodeTaints(client: Client, oldNode: Typed<Node>, taints: Taint[]): Typed<Node> {
  const patch = {
    metadata: { resourceVersion: oldNode.metadata.resourceVersion },
    spec: { taints: taints.length > 0 ? taints : null },
  };
  return client.nodes.patch(oldNode.metadata.name!, PatchType.StrategicMergePatch, patch);
}

/** AddOrUpdateTaintOnNode: adds the taints (replacing ones with the same key and effect). Throws on failure. */
export function addOrUpdateTaintOnNode(client: Client, nodeName: string, taints: readonly Taint[]): void {
  if (taints.length === 0) return;
  retryOnConflict(() => {
    const oldNode = client.nodes.get(nodeName);
    let current = oldNode.spec?.taints ?? [];
    let updated = false;
    for (const taint of taints) {
      const r = addOrUpdateTaint(current, taint);
      updated ||= r.updated;
      current = r.taints;
    }
    if (updated) patchNodeTaints(client, oldNode, current);
  });
}

/**
 * RemoveTaintOffNode: removes the taints (by key and effect). When the caller's copy of the node has none of
 * them, no request is made at all.
 */
export function removeTaintOffNode(client: Client, nodeName: string, node: Node | undefined, taints: readonly Taint[]): void {
  if (taints.length === 0) return;
  if (node && !taints.some((t) => taintExists(node.spec?.taints, t))) return;
  retryOnConflict(() => {
    const oldNode = client.nodes.get(nodeName);
    let current = oldNode.spec?.taints ?? [];
    let updated = false;
    for (const taint of taints) {
      const r = removeTaint(current, taint);
      updated ||= r.updated;
      current = r.taints;
    }
    if (updated) patchNodeTaints(client, oldNode, current);
  });
}

/**
 * SwapNodeControllerTaint: adds taintsToAdd (stamped with timeAdded = now) then removes taintsToRemove.
 * Returns false when either write failed, as the original does (the caller retries on its next pass).
 */
export function swapNodeControllerTaint(
  client: Client,
  clock: Clock,
  taintsToAdd: readonly Taint[],
  taintsToRemove: readonly Taint[],
  node: Typed<Node>,
): boolean {
  const now = rfc3339(clock.now());
  const stamped = taintsToAdd.map((t) => ({ ...t, timeAdded: now }));
  try {
    addOrUpdateTaintOnNode(client, node.metadata.name!, stamped);
  } catch {
    return false;
  }
  try {
    removeTaintOffNode(client, node.metadata.name!, node, taintsToRemove);
  } catch {
    return false;
  }
  return true;
}
