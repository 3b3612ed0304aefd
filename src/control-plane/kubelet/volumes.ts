// The volume manager's part that decides whether a pod's volumes can be set up (WaitForAttachAndMount): a
// configMap or secret volume needs its object — and the keys its items name — unless it is optional. Until every
// volume is set up the kubelet creates no sandbox: the pod stays ContainerCreating with FailedMount events, as on
// a real node. A hostPath volume's type is checked against the node's files (Directory and File must exist;
// DirectoryOrCreate and FileOrCreate create them). downwardAPI and emptyDir volumes always set up, and so do
// projected ones, with the files of the sources that exist: a real kubelet would wait for a missing non-optional
// configMap or secret source (in a full cluster the root CA publisher provides the kube-root-ca.crt that every
// kube-api-access volume projects; clusters started with only some controllers have none).
import type { Pod, Volume } from 'kubernetes-types/core/v1';
import { checkHostPathType, type HostFilesystem } from './volume-contents';

/**
 * What the kubelet's object cache answers: the data keys, undefined when the object does not exist, or an
 * error when the API server cannot be asked.
 */
export type VolumeSourceLookup = (kind: 'configmap' | 'secret', namespace: string, name: string) => readonly string[] | undefined | { error: string };

export interface VolumeSetUpFailure {
  volume: string;
  /** The SetUp error, as in `MountVolume.SetUp failed for volume "<volume>" : <message>`. */
  message: string;
}

/** The volumes of the pod whose SetUp fails now, in spec order. */
export function volumeSetUpFailures(pod: Pod, lookup: VolumeSourceLookup, host?: HostFilesystem): VolumeSetUpFailure[] {
  const namespace = pod.metadata?.namespace ?? '';
  const failures: VolumeSetUpFailure[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    const message = volume.hostPath ? (host ? checkHostPathType(host, volume.hostPath.path, volume.hostPath.type) : undefined) : setUpError(volume, namespace, lookup);
    if (message) failures.push({ volume: volume.name, message });
  }
  return failures;
}

function setUpError(volume: Volume, namespace: string, lookup: VolumeSourceLookup): string | undefined {
  const source = volume.configMap ?? volume.secret;
  if (!source) return undefined;
  const kind = volume.configMap ? 'configmap' : 'secret';
  const name = volume.configMap ? volume.configMap.name : volume.secret!.secretName;
  const keys = lookup(kind, namespace, name ?? '');
  if (keys && 'error' in keys) return keys.error;
  if (!keys) return source.optional ? undefined : `${kind} ${JSON.stringify(name ?? '')} not found`;
  if (source.optional) return undefined;
  // MakePayload: every key an item names must exist.
  for (const item of source.items ?? []) {
    if (keys.includes(item.key)) continue;
    return kind === 'configmap' ? `configmap references non-existent config key: ${item.key}` : `references non-existent secret key: ${item.key}`;
  }
  return undefined;
}

/** The volume operation executor's exponential back-off: 500 ms doubling to 2m2s. */
export function nextMountRetryMs(previousMs: number): number {
  return previousMs <= 0 ? 500 : Math.min(previousMs * 2, 122_000);
}
