// Scenario: the attach/detach step. The default class's CSI driver (hostpath.csi.kubeplay.io) requires attach: for
// each pod using one of its volumes the attach/detach controller creates a VolumeAttachment csi-<sha256> for the
// pod's node, the driver's external-attacher marks it attached, the node lists the volume in
// status.volumesAttached and the pod gets SuccessfulAttachVolume; only then does the kubelet mount it and start
// the containers. Once the pod is gone and the kubelet no longer reports the volume in use, it is detached.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { VolumeAttachment } from 'kubernetes-types/storage/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, eventsFor, isPodReady, objectsOf } from './harness';

let tc: TestCluster | undefined;
afterEach(async () => {
  await tc?.close();
  tc = undefined;
});

const driver = 'hostpath.csi.kubeplay.io';
const pod = (name: string) => tc!.get('pod', 'default', name) as Pod | undefined;
const pvc = (name: string) => tc!.get('persistentvolumeclaim', 'default', name) as PersistentVolumeClaim | undefined;
const pv = (name: string) => tc!.get('persistentvolume', undefined, name) as PersistentVolume | undefined;
const node = (name: string) => tc!.get('node', undefined, name) as Node;
const attachments = () => tc!.list('volumeattachment') as unknown as VolumeAttachment[];
const reasons = (name: string) => eventsFor(tc!, 'Pod', name).map((e) => `${e.reason}: ${e.message}`);
const vaName = (handle: string, drv: string, nodeName: string) => `csi-${createHash('sha256').update(`${handle}${drv}${nodeName}`).digest('hex')}`;
const at = (name: string, reason: string) => Date.parse(eventsFor(tc!, 'Pod', name).find((e) => e.reason === reason)!.firstTimestamp!);

const claimAndPod = (claim: string, podName: string, extra = '') => `
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${claim}
spec:
  accessModes: ["ReadWriteOnce"]
  resources:
    requests:
      storage: 1Gi${extra}
---
apiVersion: v1
kind: Pod
metadata:
  name: ${podName}
spec:
  containers:
  - name: app
    image: nginx
    volumeMounts:
    - name: data
      mountPath: /data
  volumes:
  - name: data
    persistentVolumeClaim:
      claimName: ${claim}
`;

describe('volume attach/detach', () => {
  it('a StatefulSet with volumeClaimTemplates runs each pod only after its volume is bound and attached to its node', async () => {
    tc = await bootCluster();
    expect(tc.get('csidriver', undefined, driver)).toMatchObject({ spec: { attachRequired: true } });
    tc.apply(readFileSync('/work/shared/manifests/application/web/web.yaml', 'utf8'));
    tc.runUntil(() => ['web-0', 'web-1'].every((n) => isPodReady(pod(n) ?? {})), 10 * 60_000, 'web-0 and web-1 Ready');
    expect(attachments()).toHaveLength(2);
    for (const i of [0, 1]) {
      const p = pod(`web-${i}`)!;
      const nodeName = p.spec!.nodeName!;
      const volume = pvc(`www-web-${i}`)!.spec!.volumeName!;
      const name = vaName(volume, driver, nodeName);
      expect(tc.get('volumeattachment', undefined, name)).toMatchObject({
        metadata: { finalizers: ['external-attacher/hostpath-csi-kubeplay-io'] },
        spec: { attacher: driver, nodeName, source: { persistentVolumeName: volume } },
        status: { attached: true },
      });
      const unique = `kubernetes.io/csi/${driver}^${volume}`;
      expect(node(nodeName).status?.volumesAttached).toContainEqual({ name: unique, devicePath: '' });
      expect(reasons(`web-${i}`)).toContain(`SuccessfulAttachVolume: AttachVolume.Attach succeeded for volume "${volume}"`);
      const attach = eventsFor(tc, 'Pod', `web-${i}`).find((e) => e.reason === 'SuccessfulAttachVolume')!;
      expect(attach.source?.component).toBe('attachdetach-controller');
      // Scheduled, then attached, then the containers start.
      expect(at(`web-${i}`, 'SuccessfulAttachVolume')).toBeGreaterThan(at(`web-${i}`, 'Scheduled'));
      expect(at(`web-${i}`, 'Started')).toBeGreaterThanOrEqual(at(`web-${i}`, 'SuccessfulAttachVolume'));
    }
    // The kubelet reports the mounted volumes in use at its next status update.
    tc.advance(11_000);
    const first = pod('web-0')!.spec!.nodeName!;
    expect(node(first).status?.volumesInUse).toContain(`kubernetes.io/csi/${driver}^${pvc('www-web-0')!.spec!.volumeName}`);
  });

  it('a pod waits in ContainerCreating until its volume is attached', async () => {
    tc = await bootCluster();
    tc.apply(claimAndPod('data', 'db'));
    tc.runUntil(() => !!pod('db')?.spec?.nodeName, 60_000, 'db scheduled');
    tc.runUntil(() => attachments().length === 1, 10_000, 'VolumeAttachment created');
    // Created, not yet attached: the kubelet has not created the sandbox.
    expect(attachments()[0].status?.attached).toBeFalsy();
    expect(pod('db')!.status?.containerStatuses?.[0]?.state?.waiting?.reason ?? 'ContainerCreating').toBe('ContainerCreating');
    expect(reasons('db').some((r) => r.startsWith('Pulling') || r.startsWith('Started'))).toBe(false);
    tc.runUntil(() => isPodReady(pod('db') ?? {}), 60_000, 'db Ready');
  });

  it('deleting the pod detaches its volume once the kubelet stops using it', async () => {
    tc = await bootCluster();
    tc.apply(claimAndPod('data', 'db'));
    tc.runUntil(() => isPodReady(pod('db') ?? {}), 120_000, 'db Ready');
    const nodeName = pod('db')!.spec!.nodeName!;
    const volume = pvc('data')!.spec!.volumeName!;
    const unique = `kubernetes.io/csi/${driver}^${volume}`;
    tc.advance(11_000);
    expect(node(nodeName).status?.volumesInUse).toEqual([unique]);
    tc.delete('pod', 'default', 'db');
    let detachedWhileInUse = false;
    tc.runUntil(
      () => {
        if (attachments().length === 0 && node(nodeName).status?.volumesInUse?.includes(unique)) detachedWhileInUse = true;
        return attachments().length === 0;
      },
      120_000,
      'volume detached',
    );
    expect(detachedWhileInUse).toBe(false);
    expect(pod('db')).toBeUndefined();
    expect(node(nodeName).status?.volumesAttached ?? []).toEqual([]);
    // The claim and its volume stay: the next pod attaches it again.
    expect(pv(volume)?.status?.phase).toBe('Bound');
    tc.apply(objectsOf(claimAndPod('data', 'db')).filter((o) => o.kind === 'Pod'));
    tc.runUntil(() => isPodReady(pod('db') ?? {}), 120_000, 'db Ready again');
    expect(node(pod('db')!.spec!.nodeName!).status?.volumesAttached?.map((v) => v.name)).toEqual([unique]);
  });

  it('a volume whose driver has no attacher leaves the pod ContainerCreating with the real FailedMount message', async () => {
    tc = await bootCluster();
    tc.apply(`
apiVersion: v1
kind: PersistentVolume
metadata:
  name: remote
spec:
  storageClassName: ""
  capacity:
    storage: 1Gi
  accessModes: ["ReadWriteOnce"]
  csi:
    driver: disk.csi.example.com
    volumeHandle: vol-0123
`);
    tc.apply(claimAndPod('remote-claim', 'app', '\n  storageClassName: ""'));
    tc.runUntil(() => pvc('remote-claim')?.status?.phase === 'Bound' && !!pod('app')?.spec?.nodeName, 60_000, 'bound and scheduled');
    tc.advance(130_000);
    expect(attachments()[0]).toMatchObject({ spec: { attacher: 'disk.csi.example.com', source: { persistentVolumeName: 'remote' } } });
    expect(attachments()[0].status?.attached).toBeFalsy();
    expect(pod('app')!.status?.phase).toBe('Pending');
    expect(reasons('app')).toContain(
      'FailedMount: Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data], failed to process volumes=[]: timed out waiting for the condition',
    );
    // A driver that says it needs no attach: the kubelet mounts without waiting.
    tc.apply(`
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata:
  name: disk.csi.example.com
spec:
  attachRequired: false
`);
    tc.runUntil(() => isPodReady(pod('app') ?? {}), 60_000, 'app Ready');
    tc.settle();
    expect(attachments()).toHaveLength(0);
  });

  it('a claim of a Retain class keeps its provisioned volume Released after the claim is deleted', async () => {
    tc = await bootCluster();
    tc.apply(`
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: keep
provisioner: ${driver}
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
`);
    tc.apply(claimAndPod('data', 'db', '\n  storageClassName: keep'));
    tc.runUntil(() => isPodReady(pod('db') ?? {}), 120_000, 'db Ready');
    const volume = pvc('data')!.spec!.volumeName!;
    expect(pv(volume)?.spec?.persistentVolumeReclaimPolicy).toBe('Retain');
    tc.delete('pod', 'default', 'db');
    tc.runUntil(() => pod('db') === undefined && attachments().length === 0, 120_000, 'db gone and detached');
    tc.delete('persistentvolumeclaim', 'default', 'data');
    tc.settle();
    tc.advance(60_000);
    expect(pv(volume)?.status?.phase).toBe('Released');
    expect(pv(volume)?.spec?.claimRef?.name).toBe('data');
  });
});
