// Multi-Attach: a ReadWriteOnce CSI volume attached to one node cannot attach to a second. The attach/detach
// controller reports the reconciler's Warning FailedAttachVolume once, and the second pod waits in
// ContainerCreating until the first pod is gone and the volume has been detached from its node.
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { VolumeAttachment } from 'kubernetes-types/storage/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { kubectl } from '../../../../kubectl/cli/testing';
import { bootCluster, eventsFor, isPodReady } from '../../../scenarios/harness';
import type { TestCluster } from '../../../testing/test-cluster';
import { isMultiAttachAllowed } from './attach-detach-controller';

let tc: TestCluster | undefined;
afterEach(async () => {
  await tc?.close();
  tc = undefined;
});

const pod = (name: string) => tc!.get('pod', 'default', name) as Pod | undefined;
const attachments = () => tc!.list('volumeattachment') as unknown as VolumeAttachment[];

const claim = (mode: string) => `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: ["${mode}"]
  resources: {requests: {storage: 1Gi}}
`;

const podOn = (name: string, node: string) => `
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  nodeSelector: {kubernetes.io/hostname: ${node}}
  containers:
  - name: app
    image: nginx
    volumeMounts: [{name: data, mountPath: /data}]
  volumes:
  - name: data
    persistentVolumeClaim: {claimName: data}
`;

describe('Multi-Attach', () => {
  it('keeps a second pod on another node ContainerCreating with FailedAttachVolume until the first pod is gone', async () => {
    tc = await bootCluster();
    tc.apply(claim('ReadWriteOnce') + '---' + podOn('first', 'node-1'));
    tc.runUntil(() => isPodReady(pod('first') ?? {}), 5 * 60_000, 'first Ready');
    const volume = (tc.get('persistentvolumeclaim', 'default', 'data') as PersistentVolumeClaim).spec!.volumeName!;
    expect(attachments().map((va) => va.spec?.nodeName)).toEqual(['node-1']);

    tc.apply(podOn('second', 'node-2'));
    tc.advance(60_000);
    expect(pod('second')?.spec?.nodeName).toBe('node-2');
    const warnings = eventsFor(tc, 'Pod', 'second').filter((e) => e.reason === 'FailedAttachVolume');
    expect(warnings.map((e) => [e.type, e.message, e.source?.component])).toEqual([
      ['Warning', `Multi-Attach error for volume "${volume}" Volume is already used by pod(s) first`, 'attachdetach-controller'],
    ]);
    expect(pod('second')?.status?.containerStatuses?.[0].state?.waiting?.reason).toBe('ContainerCreating');
    expect(attachments().map((va) => va.spec?.nodeName)).toEqual(['node-1']);
    const { stdout } = await kubectl(tc.cluster, 'kubectl describe pod second');
    expect(stdout).toContain(`Multi-Attach error for volume "${volume}" Volume is already used by pod(s) first`);

    // The first pod goes: its kubelet unmounts, the volume detaches from node-1 and attaches to node-2.
    tc.client.pods.delete('first', { namespace: 'default' });
    tc.runUntil(() => isPodReady(pod('second') ?? {}), 5 * 60_000, 'second Ready');
    expect(attachments().map((va) => va.spec?.nodeName)).toEqual(['node-2']);
    expect(eventsFor(tc, 'Pod', 'second').map((e) => e.reason)).toContain('SuccessfulAttachVolume');
    // Reported once, not on every resync.
    expect(eventsFor(tc, 'Pod', 'second').filter((e) => e.reason === 'FailedAttachVolume')).toHaveLength(1);
    expect(eventsFor(tc, 'Pod', 'second').find((e) => e.reason === 'FailedAttachVolume')?.count ?? 1).toBe(1);
  }, 60_000);

  it('allows ReadWriteMany and ReadOnlyMany volumes (and PVs without access modes) on several nodes', () => {
    const pv = (accessModes?: string[]) => ({ spec: accessModes ? { accessModes } : {} });
    expect(isMultiAttachAllowed(pv(['ReadWriteOnce']))).toBe(false);
    expect(isMultiAttachAllowed(pv(['ReadWriteOncePod']))).toBe(false);
    expect(isMultiAttachAllowed(pv(['ReadWriteOnce', 'ReadOnlyMany']))).toBe(true);
    expect(isMultiAttachAllowed(pv(['ReadWriteMany']))).toBe(true);
    expect(isMultiAttachAllowed(pv())).toBe(true);
  });
});
