// The volume manager's wait for attachment (WaitForAttachAndMount, for volumes the attach/detach controller
// attaches): a pod's PVC volumes must be bound (the desired-state populator resolves claim → volume) and, when
// their CSI driver requires attach, listed in the node's status.volumesAttached before anything is mounted.
// Until then the pod stays ContainerCreating; a claim that cannot be resolved fails the wait at once, and
// volumes still unattached after podAttachAndMountTimeout (2m3s) give the real FailedMount message. The node
// reports the attachable volumes its pods use in status.volumesInUse, which tells the controller when it may
// detach.
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { CSIDriver } from 'kubernetes-types/storage/v1';
import { attachableVolumes, type VolumeLookup } from '../controllers/volume/attachdetach/attach-util';

/** podAttachAndMountTimeout. */
export const podAttachAndMountTimeoutMs = 123_000;
/** How often the wait re-checks (podAttachAndMountRetryInterval is 300 ms; a second is plenty here). */
export const attachPollMs = 1000;
/** The pod worker's back-off after a failed sync before it waits again. */
export const syncRetryMs = 10_000;

/** What the kubelet's API client answers (undefined: not found; { error }: the request failed). */
export interface AttachStateReader {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined | { error: string };
  volume(name: string): PersistentVolume | undefined | { error: string };
  csiDriver(name: string): CSIDriver | undefined;
  node(): Node | undefined;
}

export type AttachWaitResult = { ready: true } | { ready: false; retryAt: number; failedMount?: string };

const isError = (x: unknown): x is { error: string } => typeof x === 'object' && x !== null && 'error' in x;

/** The desired-state populator's error for one PVC volume, or undefined when it resolves to a volume. */
export function claimProcessingError(pod: Pod, claimName: string, reader: AttachStateReader): string | undefined {
  const namespace = pod.metadata?.namespace ?? '';
  const prefix = `error processing PVC ${namespace}/${claimName}: `;
  const claim = reader.claim(namespace, claimName);
  if (isError(claim)) return `${prefix}failed to fetch PVC from API server: ${claim.error}`;
  if (!claim) return `${prefix}failed to fetch PVC from API server: persistentvolumeclaims ${JSON.stringify(claimName)} not found`;
  if (claim.metadata?.deletionTimestamp) return `${prefix}can't start pod because PVC ${namespace}/${claimName} is being deleted`;
  if (claim.status?.phase !== 'Bound' || !claim.spec?.volumeName) return `${prefix}PVC is not bound`;
  const pv = reader.volume(claim.spec.volumeName);
  if (isError(pv)) return `${prefix}failed to fetch PV ${JSON.stringify(claim.spec.volumeName)} from API server: ${pv.error}`;
  if (!pv) return `${prefix}failed to fetch PV ${JSON.stringify(claim.spec.volumeName)} from API server: persistentvolumes ${JSON.stringify(claim.spec.volumeName)} not found`;
  return undefined;
}

/** The unique names of the attachable volumes the pod uses (what the node reports in volumesInUse). */
export function podVolumesInUse(pod: Pod, reader: AttachStateReader): string[] {
  return attachableVolumes(pod, lookupOf(reader)).map((v) => v.uniqueName);
}

function lookupOf(reader: AttachStateReader): VolumeLookup {
  return {
    claim: (ns, name) => {
      const c = reader.claim(ns, name);
      return isError(c) ? undefined : c;
    },
    volume: (name) => {
      const v = reader.volume(name);
      return isError(v) ? undefined : v;
    },
    csiDriver: (name) => reader.csiDriver(name),
  };
}

/** Per pod: since when its current wait runs. */
export class AttachWaiter {
  private readonly since = new Map<string, number>();

  forget(uid: string): void {
    this.since.delete(uid);
  }

  wait(pod: Pod, now: number, reader: AttachStateReader): AttachWaitResult {
    const uid = pod.metadata?.uid ?? '';
    const claimVolumes = (pod.spec?.volumes ?? []).filter((v) => v.persistentVolumeClaim?.claimName);
    if (claimVolumes.length === 0) return { ready: true };
    const since = this.since.get(uid) ?? now;
    this.since.set(uid, since);
    const failed: string[] = [];
    const errors: string[] = [];
    for (const v of claimVolumes) {
      const err = claimProcessingError(pod, v.persistentVolumeClaim!.claimName, reader);
      if (err) {
        failed.push(v.name);
        errors.push(err);
      }
    }
    const attached = new Set((reader.node()?.status?.volumesAttached ?? []).map((a) => a.name));
    const unattached = attachableVolumes(pod, lookupOf(reader))
      .filter((v) => !attached.has(v.uniqueName))
      .map((v) => v.podVolume);
    if (failed.length === 0 && unattached.length === 0) {
      this.since.delete(uid);
      return { ready: true };
    }
    const unmounted = [...new Set([...failed, ...unattached])].sort();
    const detail = `unmounted volumes=[${unmounted.join(' ')}], unattached volumes=[${[...unattached].sort().join(' ')}], failed to process volumes=[${failed.join(' ')}]`;
    // The populator's errors end the wait at once; the sync is retried after the worker's back-off.
    if (errors.length > 0) {
      this.since.set(uid, now + syncRetryMs);
      return { ready: false, retryAt: now + syncRetryMs, failedMount: `Unable to attach or mount volumes: ${detail}: ${errors.join('; ')}` };
    }
    if (now >= since + podAttachAndMountTimeoutMs) {
      this.since.set(uid, now + syncRetryMs);
      return { ready: false, retryAt: now + syncRetryMs, failedMount: `Unable to attach or mount volumes: ${detail}: timed out waiting for the condition` };
    }
    return { ready: false, retryAt: Math.min(now + attachPollMs, since + podAttachAndMountTimeoutMs) };
  }
}
