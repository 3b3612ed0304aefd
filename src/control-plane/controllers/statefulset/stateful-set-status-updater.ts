// pkg/controller/statefulset/stateful_set_status_updater.go: writes a StatefulSet's status through the status
// subresource, retrying conflicts (retry.DefaultRetry: 5 steps) with the cached copy of the set.
import type { StatefulSetStatus } from 'kubernetes-types/apps/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { Client } from '../../client/client';
import type { Lister } from '../../informers/shared-informer';
import type { StatefulSetObj } from './stateful-set-utils';

/**
 * The status as the API serializes it: the omitempty counters (readyReplicas, currentReplicas, updatedReplicas)
 * and empty revisions dropped; replicas, availableReplicas and collisionCount always written.
 */
export function serializeStatus(status: StatefulSetStatus): StatefulSetStatus {
  const out: StatefulSetStatus = { replicas: status.replicas ?? 0 };
  if (status.observedGeneration) out.observedGeneration = status.observedGeneration;
  if (status.readyReplicas) out.readyReplicas = status.readyReplicas;
  if (status.currentReplicas) out.currentReplicas = status.currentReplicas;
  if (status.updatedReplicas) out.updatedReplicas = status.updatedReplicas;
  if (status.currentRevision) out.currentRevision = status.currentRevision;
  if (status.updateRevision) out.updateRevision = status.updateRevision;
  if (status.collisionCount !== undefined && status.collisionCount !== null) out.collisionCount = status.collisionCount;
  if (status.conditions?.length) out.conditions = status.conditions;
  out.availableReplicas = status.availableReplicas ?? 0;
  return out;
}

export class StatefulSetStatusUpdater {
  constructor(
    private readonly client: Client,
    private readonly setLister: Lister<StatefulSetObj>,
  ) {}

  /** UpdateStatefulSetStatus: set.status = status, retried on conflicts. */
  updateStatefulSetStatus(set: StatefulSetObj, status: StatefulSetStatus): void {
    let current = structuredClone(set);
    let lastErr: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      current.status = serializeStatus(status);
      try {
        this.client.statefulSets.updateStatus(current, { namespace: current.metadata.namespace });
        return;
      } catch (err) {
        lastErr = err;
        const cached = this.setLister.get(current.metadata.namespace, current.metadata.name ?? '');
        if (cached) current = structuredClone(cached);
        if (!isStatusError(err, StatusReason.Conflict)) break;
      }
    }
    throw lastErr;
  }
}
