// Scenario: storage on a default 3-node cluster. The default class "standard" (simulated hostPath,
// WaitForFirstConsumer, Delete) provisions a volume once the scheduler picked the node of the first pod using a
// claim; static volumes bind by class, access modes and the smallest fitting capacity; deleting a claim
// releases its volume, which the Delete policy removes and the Retain policy keeps Released.
import type { PersistentVolume, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, eventsFor, isPodReady, objectsOf } from './harness';

let tc: TestCluster | undefined;
afterEach(async () => {
  await tc?.close();
  tc = undefined;
});

const claimYaml = (name: string, size: string, extra = '') => `
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
spec:
  accessModes: ["ReadWriteOnce"]
  resources:
    requests:
      storage: ${size}${extra}
`;

const podYaml = (name: string, claim: string) => `
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
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

const staticPv = (name: string, size: string, policy = 'Retain', className = 'manual', modes = '["ReadWriteOnce"]') => `
apiVersion: v1
kind: PersistentVolume
metadata:
  name: ${name}
spec:
  storageClassName: ${className}
  capacity:
    storage: ${size}
  accessModes: ${modes}
  persistentVolumeReclaimPolicy: ${policy}
  hostPath:
    path: /mnt/${name}
`;

const pvc = (name: string) => tc!.get('persistentvolumeclaim', 'default', name) as PersistentVolumeClaim | undefined;
const pv = (name: string) => tc!.get('persistentvolume', undefined, name) as PersistentVolume | undefined;
const pod = (name: string) => tc!.get('pod', 'default', name) as Pod | undefined;
const reasons = (kind: string, name: string) => eventsFor(tc!, kind, name).map((e) => `${e.reason}: ${e.message}`);

describe('storage', () => {
  it('a new cluster has the default StorageClass "standard", and a claim without a class gets it', async () => {
    tc = await bootCluster({ defaultStorageClass: true });
    const sc = tc.get('storageclass', undefined, 'standard') as StorageClass | undefined;
    expect(sc).toMatchObject({
      metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'hostpath.csi.kubeplay.io',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    tc.apply(claimYaml('data', '2Gi'));
    tc.settle();
    expect(pvc('data')?.spec?.storageClassName).toBe('standard');
    // No consumer yet: the claim waits, and nothing is provisioned.
    expect(pvc('data')?.status?.phase).toBe('Pending');
    expect(tc.list('persistentvolume')).toHaveLength(0);
    expect(reasons('PersistentVolumeClaim', 'data')).toContain('WaitForFirstConsumer: waiting for first consumer to be created before binding');
  });

  it('a pod using a WaitForFirstConsumer claim: the node is selected, a volume provisioned and bound, then the pod runs there', async () => {
    tc = await bootCluster({ defaultStorageClass: true });
    tc.apply(claimYaml('data', '2Gi'));
    tc.apply(podYaml('db', 'data'));
    tc.runUntil(() => isPodReady(pod('db') ?? {}), 120_000, 'pod db Ready');
    const claim = pvc('data')!;
    const node = pod('db')!.spec!.nodeName!;
    expect(claim.metadata?.annotations).toMatchObject({
      'volume.kubernetes.io/selected-node': node,
      'volume.kubernetes.io/storage-provisioner': 'hostpath.csi.kubeplay.io',
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    });
    const name = `pvc-${claim.metadata!.uid}`;
    expect(claim.spec?.volumeName).toBe(name);
    expect(claim.status).toMatchObject({ phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'] });
    const volume = pv(name)!;
    expect(volume.metadata?.annotations?.['pv.kubernetes.io/provisioned-by']).toBe('hostpath.csi.kubeplay.io');
    expect(volume.spec).toMatchObject({
      capacity: { storage: '2Gi' },
      storageClassName: 'standard',
      persistentVolumeReclaimPolicy: 'Delete',
      csi: { driver: 'hostpath.csi.kubeplay.io', volumeHandle: name, fsType: 'ext4' },
      claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data', uid: claim.metadata!.uid },
    });
    expect(volume.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions?.[0]?.values).toEqual([node]);
    expect(volume.status?.phase).toBe('Bound');
    expect(reasons('PersistentVolumeClaim', 'data')).toEqual(
      expect.arrayContaining([
        `Provisioning: External provisioner is provisioning volume for claim "default/data"`,
        `ProvisioningSucceeded: Successfully provisioned volume ${name}`,
      ]),
    );
    // The pod was bound to its node only after its claim was: Scheduled comes after ProvisioningSucceeded.
    const events = tc.client.events.list({ namespace: 'default' }).items;
    const at = (reason: string) => events.find((e) => e.reason === reason)!.firstTimestamp!;
    expect(Date.parse(at('Scheduled'))).toBeGreaterThanOrEqual(Date.parse(at('ProvisioningSucceeded')));
  });

  it('a pod whose Immediate claim cannot bind stays Pending, and starts once a volume appears', async () => {
    tc = await bootCluster({ defaultStorageClass: true });
    tc.apply(claimYaml('task-pv-claim', '3Gi', '\n  storageClassName: manual'));
    tc.apply(podYaml('task', 'task-pv-claim'));
    tc.settle();
    expect(pod('task')?.spec?.nodeName).toBeUndefined();
    expect(pod('task')?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message).toContain('pod has unbound immediate PersistentVolumeClaims');
    tc.apply(staticPv('task-pv-volume', '10Gi'));
    tc.runUntil(() => isPodReady(pod('task') ?? {}), 120_000, 'pod task Ready');
    expect(pvc('task-pv-claim')?.spec?.volumeName).toBe('task-pv-volume');
  });

  it('static volumes bind by class, access modes and the smallest capacity that fits; a pre-bound volume goes to its claim', async () => {
    tc = await bootCluster({ defaultStorageClass: true });
    tc.apply([
      ...objectsOf(staticPv('big', '10Gi')),
      ...objectsOf(staticPv('small', '1Gi')),
      ...objectsOf(staticPv('medium', '5Gi')),
      ...objectsOf(staticPv('rwx', '3Gi', 'Retain', 'manual', '["ReadWriteMany"]')),
      ...objectsOf(staticPv('other-class', '3Gi', 'Retain', 'slow')),
    ]);
    tc.settle();
    expect(pv('small')?.status?.phase).toBe('Available');
    tc.apply(claimYaml('c1', '2Gi', '\n  storageClassName: manual'));
    tc.settle();
    expect(pvc('c1')?.spec?.volumeName).toBe('medium');
    expect(pvc('c1')?.status).toMatchObject({ phase: 'Bound', capacity: { storage: '5Gi' } });
    expect(pv('medium')?.status?.phase).toBe('Bound');
    expect(pv('medium')?.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller']).toBe('yes');
    // Pre-bound: the user names the volume in the claim, even though a smaller one would fit.
    tc.apply(claimYaml('c2', '1Gi', '\n  storageClassName: manual\n  volumeName: big'));
    tc.settle();
    expect(pvc('c2')?.spec?.volumeName).toBe('big');
    expect(pvc('c2')?.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller']).toBeUndefined();
    expect(pv('big')?.spec?.claimRef?.name).toBe('c2');
    // Nothing of class "manual" is left with 4Gi: the claim stays Pending.
    tc.apply(claimYaml('c3', '4Gi', '\n  storageClassName: manual'));
    tc.settle();
    expect(pvc('c3')?.status?.phase).toBe('Pending');
    expect(pv('small')?.status?.phase).toBe('Available');
  });

  it('deleting a claim releases its volume: Delete removes a provisioned one, Retain keeps it Released', async () => {
    tc = await bootCluster({ defaultStorageClass: true });
    tc.apply(claimYaml('data', '1Gi'));
    tc.apply(podYaml('db', 'data'));
    tc.runUntil(() => pvc('data')?.status?.phase === 'Bound', 120_000, 'claim data Bound');
    const provisioned = pvc('data')!.spec!.volumeName!;
    tc.apply(staticPv('kept', '1Gi'));
    tc.apply(claimYaml('keep', '1Gi', '\n  storageClassName: manual'));
    tc.runUntil(() => pvc('keep')?.status?.phase === 'Bound', 60_000, 'claim keep Bound');

    tc.delete('pod', 'default', 'db');
    tc.runUntil(() => pod('db') === undefined, 120_000, 'pod db gone');
    tc.delete('persistentvolumeclaim', 'default', 'data');
    tc.delete('persistentvolumeclaim', 'default', 'keep');
    tc.settle();
    expect(pv(provisioned)).toBeUndefined();
    expect(pv('kept')?.status?.phase).toBe('Released');
    expect(pv('kept')?.spec?.claimRef?.name).toBe('keep');
    // A new claim does not take a Released volume.
    tc.apply(claimYaml('keep', '1Gi', '\n  storageClassName: manual'));
    tc.settle();
    expect(pvc('keep')?.status?.phase).toBe('Pending');
  });

  it("the docs' web StatefulSet with volumeClaimTemplates runs web-0 and web-1, each with a Bound claim", async () => {
    tc = await bootCluster({ defaultStorageClass: true });
    tc.apply(readFileSync('/work/shared/manifests/application/web/web.yaml', 'utf8'));
    tc.runUntil(() => ['web-0', 'web-1'].every((n) => isPodReady(pod(n) ?? {})), 10 * 60_000, 'web-0 and web-1 Ready');
    expect(pod('web-2')).toBeUndefined(); // replicas: 2
    for (const i of [0, 1]) {
      const claim = pvc(`www-web-${i}`)!;
      expect(claim.status?.phase).toBe('Bound');
      expect(claim.spec?.storageClassName).toBe('standard');
      expect(claim.metadata?.annotations?.['volume.kubernetes.io/selected-node']).toBe(pod(`web-${i}`)!.spec!.nodeName);
      expect(pv(claim.spec!.volumeName!)?.status?.phase).toBe('Bound');
    }
  });
});
