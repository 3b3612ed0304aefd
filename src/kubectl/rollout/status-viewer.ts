// polymorphichelpers.StatusViewer (k8s.io/kubectl v0.32.4 pkg/polymorphichelpers/rollout_status.go): the
// message `kubectl rollout status` prints for one observed state of a Deployment, DaemonSet or StatefulSet,
// and whether the rollout is done. Texts are kubectl's, word for word.
import type { DaemonSet, Deployment, StatefulSet } from 'kubernetes-types/apps/v1';
import type { KubeObject } from '../../shared/api/types';

export interface RolloutStatus {
  message: string;
  done: boolean;
}

/** Status(obj, revision): a message and done, or throws kubectl's error (which ends the watch). */
export type StatusViewer = (obj: KubeObject, revision: number) => RolloutStatus;

export function statusViewerFor(group: string, kind: string): StatusViewer {
  if ((group === 'apps' || group === 'extensions') && kind === 'Deployment') return deploymentStatus;
  if ((group === 'apps' || group === 'extensions') && kind === 'DaemonSet') return daemonSetStatus;
  if (group === 'apps' && kind === 'StatefulSet') return statefulSetStatus;
  throw new Error(`no status viewer has been implemented for ${group ? `${kind}.${group}` : kind}`);
}

const revisionAnnotation = 'deployment.kubernetes.io/revision';
const timedOutReason = 'ProgressDeadlineExceeded';

/** deploymentutil.Revision: the revision annotation, 0 when absent. */
export function deploymentRevision(obj: { metadata?: { annotations?: Record<string, string> } }): number {
  const v = obj.metadata?.annotations?.[revisionAnnotation];
  if (v === undefined) return 0;
  const n = Number(v);
  if (!/^[+-]?\d+$/.test(v) || !Number.isSafeInteger(n)) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return n;
}

function deploymentStatus(obj: KubeObject, revision: number): RolloutStatus {
  const d = obj as Deployment & KubeObject;
  const name = d.metadata.name ?? '';
  if (revision > 0) {
    let running: number;
    try {
      running = deploymentRevision(d);
    } catch (err) {
      throw new Error(`cannot get the revision of deployment ${JSON.stringify(name)}: ${(err as Error).message}`);
    }
    if (revision !== running) throw new Error(`desired revision (${revision}) is different from the running revision (${running})`);
  }
  const status = d.status ?? {};
  if ((d.metadata.generation ?? 0) <= (status.observedGeneration ?? 0)) {
    const progressing = status.conditions?.find((c) => c.type === 'Progressing');
    if (progressing?.reason === timedOutReason) throw new Error(`deployment ${JSON.stringify(name)} exceeded its progress deadline`);
    const updated = status.updatedReplicas ?? 0;
    const replicas = d.spec?.replicas;
    if (replicas !== undefined && updated < replicas) {
      return { message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${updated} out of ${replicas} new replicas have been updated...`, done: false };
    }
    if ((status.replicas ?? 0) > updated) {
      return { message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${(status.replicas ?? 0) - updated} old replicas are pending termination...`, done: false };
    }
    if ((status.availableReplicas ?? 0) < updated) {
      return { message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${status.availableReplicas ?? 0} of ${updated} updated replicas are available...`, done: false };
    }
    return { message: `deployment ${JSON.stringify(name)} successfully rolled out`, done: true };
  }
  return { message: 'Waiting for deployment spec update to be observed...', done: false };
}

function daemonSetStatus(obj: KubeObject): RolloutStatus {
  // The revision is ignored: kubectl's DaemonSet viewer has no notion of it.
  const ds = obj as DaemonSet & KubeObject;
  const name = ds.metadata.name ?? '';
  if (ds.spec?.updateStrategy?.type !== 'RollingUpdate') throw new Error('rollout status is only available for RollingUpdate strategy type');
  const status = ds.status ?? { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 };
  if ((ds.metadata.generation ?? 0) <= (status.observedGeneration ?? 0)) {
    const updated = status.updatedNumberScheduled ?? 0;
    const desired = status.desiredNumberScheduled ?? 0;
    if (updated < desired) return { message: `Waiting for daemon set ${JSON.stringify(name)} rollout to finish: ${updated} out of ${desired} new pods have been updated...`, done: false };
    const available = status.numberAvailable ?? 0;
    if (available < desired) return { message: `Waiting for daemon set ${JSON.stringify(name)} rollout to finish: ${available} of ${desired} updated pods are available...`, done: false };
    return { message: `daemon set ${JSON.stringify(name)} successfully rolled out`, done: true };
  }
  return { message: 'Waiting for daemon set spec update to be observed...', done: false };
}

function statefulSetStatus(obj: KubeObject): RolloutStatus {
  const sts = obj as StatefulSet & KubeObject;
  const strategy = sts.spec?.updateStrategy;
  if (strategy?.type !== 'RollingUpdate') throw new Error('rollout status is only available for RollingUpdate strategy type');
  const status = sts.status ?? { replicas: 0 };
  if (!status.observedGeneration || (sts.metadata.generation ?? 0) > status.observedGeneration) {
    return { message: 'Waiting for statefulset spec update to be observed...', done: false };
  }
  const replicas = sts.spec?.replicas;
  const ready = status.readyReplicas ?? 0;
  if (replicas !== undefined && ready < replicas) return { message: `Waiting for ${replicas - ready} pods to be ready...`, done: false };
  const updated = status.updatedReplicas ?? 0;
  if (strategy.rollingUpdate) {
    const partition = strategy.rollingUpdate.partition;
    if (replicas !== undefined && partition !== undefined && updated < replicas - partition) {
      return { message: `Waiting for partitioned roll out to finish: ${updated} out of ${replicas - partition} new pods have been updated...`, done: false };
    }
    return { message: `partitioned roll out complete: ${updated} new pods have been updated...`, done: true };
  }
  if (status.updateRevision !== status.currentRevision) {
    return { message: `waiting for statefulset rolling update to complete ${updated} pods at revision ${status.updateRevision ?? ''}...`, done: false };
  }
  return { message: `statefulset rolling update complete ${status.currentReplicas ?? 0} pods at revision ${status.currentRevision ?? ''}...`, done: true };
}
