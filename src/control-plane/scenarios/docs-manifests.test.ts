// Scenario: every workload manifest of the Kubernetes docs corpus (/work/shared/manifests: Deployments,
// ReplicaSets, ReplicationControllers, Pods), applied like `kubectl apply -f <file>` to a fresh cluster of its own,
// converges the way it does on a real cluster — Deployments available and pods Running, or, for the examples that
// are meant to wait or fail (a missing ConfigMap, a nodeSelector no node has, a liveness probe that starts
// failing), exactly that state with the kubelet's and the scheduler's real messages.
//
// Files whose workloads are StatefulSets, DaemonSets, Jobs or CronJobs are not here: those controllers come with
// issue 7 (a file mixing them with the kinds above would need an entry, and the coverage test would say so).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, ReplicationController } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, condition, eventsFor, isPodReady, objectsOf, rolloutComplete } from './harness';

const DIR = '/work/shared/manifests';
const workloadKinds = new Set(['Deployment', 'ReplicaSet', 'ReplicationController', 'Pod']);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : []))
    .sort();
}

/** kubectl apply -f: every object in order, in "default" unless it names a namespace; errors reported per object. */
function applyFile(tc: TestCluster, file: string): string[] {
  const errors: string[] = [];
  for (const obj of objectsOf(readFileSync(join(DIR, file), 'utf8'))) {
    try {
      tc.apply(obj);
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  return errors;
}

const pod = (tc: TestCluster, name: string, namespace = 'default') => tc.get('pod', namespace, name) as Pod | undefined;
const containerState = (p: Pod | undefined, i = 0) => p?.status?.containerStatuses?.[i];
const runningAndReady = (p: Pod | undefined) => p?.status?.phase === 'Running' && isPodReady(p);

/** The Deployment completes its rollout; its pods all run and are Ready. */
function expectDeploymentAvailable(tc: TestCluster, name: string, replicas: number, namespace = 'default'): void {
  const get = () => tc.get('deployment', namespace, name) as Deployment | undefined;
  tc.runUntil(() => rolloutComplete(get()), 120_000, `deployment ${name} available`);
  const d = get()!;
  expect(d.status).toMatchObject({ replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas });
  expect(condition(d.status?.conditions, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
  const selector = Object.entries(d.spec!.selector.matchLabels!)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const pods = tc.client.pods.list({ namespace, labelSelector: selector }).items;
  expect(pods).toHaveLength(replicas);
  for (const p of pods) expect(runningAndReady(p)).toBe(true);
}

/** The pods run and are Ready. */
function expectPodsRunning(tc: TestCluster, names: string[], namespace = 'default'): void {
  tc.runUntil(() => names.every((n) => runningAndReady(pod(tc, n, namespace))), 60_000, `pods ${names.join(', ')} running`);
}

/** The pod is stuck creating: a configMap/secret volume cannot be set up. */
function expectFailedMount(tc: TestCluster, name: string, volume: string, message: string): void {
  tc.advance(30_000);
  const p = pod(tc, name)!;
  expect(p.spec?.nodeName).toBeDefined();
  expect(p.status?.phase).toBe('Pending');
  expect(containerState(p)?.state).toEqual({ waiting: { reason: 'ContainerCreating' } });
  const failed = eventsFor(tc, 'Pod', name).filter((e) => e.reason === 'FailedMount');
  expect(failed.map((e) => [e.type, e.message])).toEqual([['Warning', `MountVolume.SetUp failed for volume "${volume}" : ${message}`]]);
  expect(failed[0].count).toBeGreaterThan(1);
}

type Expectation = (tc: TestCluster, errors: string[]) => void;

const expectations: Record<string, Expectation> = {
  'admin/sched/my-scheduler.yaml': (tc, errors) => {
    // A second kube-scheduler: it runs, but its probes ask port 10251, which kube-scheduler no longer serves
    // (it serves https on 10259), so it is never Ready and its liveness probe restarts it.
    expect(errors).toEqual([]);
    const find = () => tc.client.pods.list({ namespace: 'kube-system', labelSelector: 'component=scheduler' }).items[0];
    tc.runUntil(() => (containerState(find())?.restartCount ?? 0) >= 1, 120_000, 'liveness restart');
    const p = find();
    const ip = p.status?.podIP;
    const messages = eventsFor(tc, 'Pod', p.metadata!.name!, 'kube-system').map((e) => e.message);
    expect(messages).toContain(`Readiness probe failed: Get "http://${ip}:10251/healthz": dial tcp ${ip}:10251: connect: connection refused`);
    expect(messages).toContain(`Liveness probe failed: Get "http://${ip}:10251/healthz": dial tcp ${ip}:10251: connect: connection refused`);
    expect(messages).toContain('Container kube-second-scheduler failed liveness probe, will be restarted');
    const d = tc.get('deployment', 'kube-system', 'my-scheduler') as Deployment;
    expect(condition(d.status?.conditions, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
    expect(p.spec?.serviceAccountName).toBe('my-scheduler');
  },
  'application/deployment-sidecar.yaml': (tc) => {
    expectDeploymentAvailable(tc, 'myapp', 1);
    // The sidecar (an init container with restartPolicy Always) runs beside the app.
    const p = tc.client.pods.list({ namespace: 'default', labelSelector: 'app.kubernetes.io/name=myapp' }).items[0];
    expect(p.status?.initContainerStatuses?.[0]).toMatchObject({ name: 'logshipper', ready: true, started: true });
    expect(p.status?.initContainerStatuses?.[0].state?.running).toBeDefined();
  },
  'application/deployment-update.yaml': (tc) => expectDeploymentAvailable(tc, 'nginx-deployment', 2),
  'application/deployment.yaml': (tc) => expectDeploymentAvailable(tc, 'nginx-deployment', 2),
  'application/guestbook/frontend-deployment.yaml': (tc) => expectDeploymentAvailable(tc, 'frontend', 3),
  'application/guestbook/redis-follower-deployment.yaml': (tc) => expectDeploymentAvailable(tc, 'redis-follower', 2),
  'application/guestbook/redis-leader-deployment.yaml': (tc) => expectDeploymentAvailable(tc, 'redis-leader', 1),
  'application/nginx-app.yaml': (tc, errors) => {
    expect(errors).toEqual([]);
    expect(tc.get('service', 'default', 'my-nginx-svc')).toBeDefined();
    expectDeploymentAvailable(tc, 'my-nginx', 3);
  },
  'application/php-apache.yaml': (tc) => expectDeploymentAvailable(tc, 'php-apache', 1),
  'application/wordpress/mysql-deployment.yaml': (tc, errors) => {
    // The PVC has no storageClassName: it gets the default class "standard", whose volume is provisioned and
    // attached once the pod is scheduled; the container then waits for the Secret mysql-pass it reads.
    expect(errors).toEqual([]);
    tc.advance(30_000);
    const p = tc.client.pods.list({ namespace: 'default', labelSelector: 'app=wordpress,tier=mysql' }).items[0];
    expect(p.spec?.nodeName).toBeDefined();
    expect((tc.get('persistentvolumeclaim', 'default', 'mysql-pv-claim') as PersistentVolumeClaim).status?.phase).toBe('Bound');
    expect(containerState(p)?.state?.waiting).toEqual({ reason: 'CreateContainerConfigError', message: 'secret "mysql-pass" not found' });
  },
  'configmap/configure-pod.yaml': (tc) => expectFailedMount(tc, 'configmap-demo-pod', 'config', 'configmap "game-demo" not found'),
  'controllers/frontend.yaml': (tc) => {
    tc.runUntil(() => (tc.get('replicaset', 'default', 'frontend') as ReplicaSet).status?.availableReplicas === 3, 60_000, 'frontend available');
    const pods = tc.client.pods.list({ namespace: 'default', labelSelector: 'tier=frontend' }).items;
    expect(pods).toHaveLength(3);
    for (const p of pods) expect(runningAndReady(p) && p.metadata?.name?.startsWith('frontend-')).toBe(true);
  },
  'controllers/replication.yaml': (tc) => {
    tc.runUntil(() => (tc.get('replicationcontroller', 'default', 'nginx') as ReplicationController).status?.readyReplicas === 3, 60_000, 'rc ready');
    const pods = tc.client.pods.list({ namespace: 'default', labelSelector: 'app=nginx' }).items;
    expect(pods.map((p) => p.metadata?.ownerReferences?.[0].kind)).toEqual(['ReplicationController', 'ReplicationController', 'ReplicationController']);
    for (const p of pods) expect(runningAndReady(p)).toBe(true);
  },
  'pods/config/redis-pod.yaml': (tc) => expectFailedMount(tc, 'redis', 'config', 'configmap "example-redis-config" not found'),
  'pods/init-containers.yaml': (tc) => {
    expectPodsRunning(tc, ['init-demo']);
    expect(pod(tc, 'init-demo')?.status?.initContainerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  },
  'pods/pod-configmap-volume.yaml': (tc) => expectFailedMount(tc, 'dapi-test-pod', 'config-volume', 'configmap "special-config" not found'),
  'pods/pod-nginx.yaml': (tc) => {
    // nodeSelector disktype=ssd: the docs label a node first; no node has the label here.
    tc.advance(30_000);
    expect(condition(pod(tc, 'nginx')?.status?.conditions, 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    });
    // kubectl label nodes node-1 disktype=ssd, as the docs say.
    tc.client.nodes.patch('node-1', 'application/merge-patch+json', { metadata: { labels: { disktype: 'ssd' } } });
    expectPodsRunning(tc, ['nginx']);
    expect(pod(tc, 'nginx')?.spec?.nodeName).toBe('node-1');
  },
  'pods/pod-rs.yaml': (tc) => expectPodsRunning(tc, ['pod1', 'pod2']),
  'pods/pod-with-toleration.yaml': (tc) => expectPodsRunning(tc, ['nginx']),
  'pods/probe/exec-liveness.yaml': (tc) => {
    // Healthy for 30 s, then `cat /tmp/healthy` fails: after 3 failures (5 s apart) the container is restarted.
    expectPodsRunning(tc, ['liveness-exec']);
    tc.runUntil(() => (containerState(pod(tc, 'liveness-exec'))?.restartCount ?? 0) === 1, 120_000, 'liveness restart');
    const events = eventsFor(tc, 'Pod', 'liveness-exec');
    expect(events.find((e) => e.reason === 'Unhealthy')).toMatchObject({
      type: 'Warning',
      message: "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory",
    });
    expect(events.find((e) => e.reason === 'Killing')?.message).toBe('Container liveness failed liveness probe, will be restarted');
    expect(containerState(pod(tc, 'liveness-exec'))?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
  },
  'pods/qos/qos-pod.yaml': (tc, errors) => {
    // The docs create the namespace first; without it the API server refuses the pod.
    expect(errors).toEqual(['namespaces "qos-example" not found']);
    tc.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'qos-example' } });
    tc.runUntil(() => tc.get('serviceaccount', 'qos-example', 'default') !== undefined, 10_000, 'default ServiceAccount');
    expect(applyFile(tc, 'pods/qos/qos-pod.yaml')).toEqual([]);
    expectPodsRunning(tc, ['qos-demo'], 'qos-example');
    expect(pod(tc, 'qos-demo', 'qos-example')?.status?.qosClass).toBe('Guaranteed');
  },
  'pods/storage/pv-pod.yaml': (tc) => {
    // The PersistentVolumeClaim it mounts does not exist (pv-claim.yaml creates it): kube-scheduler's
    // VolumeBinding pre-filter keeps the pod Pending.
    tc.advance(30_000);
    expect(pod(tc, 'task-pv-pod')?.spec?.nodeName).toBeUndefined();
    expect(condition(pod(tc, 'task-pv-pod')?.status?.conditions, 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: '0/3 nodes are available: persistentvolumeclaim "task-pv-claim" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..',
    });
  },
  'secret/dotfile-secret.yaml': (tc) => {
    // `ls -l /etc/secret-volume` exits 0, and the pod's restartPolicy is Always: it completes and crash-loops.
    tc.runUntil(() => containerState(pod(tc, 'secret-dotfiles-pod'))?.state?.waiting?.reason === 'CrashLoopBackOff', 60_000, 'CrashLoopBackOff');
    const cs = containerState(pod(tc, 'secret-dotfiles-pod'))!;
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(pod(tc, 'secret-dotfiles-pod')?.status?.phase).toBe('Running');
  },
  'service/access/backend-deployment.yaml': (tc) => expectDeploymentAvailable(tc, 'backend', 3),
};

/**
 * Known gaps of the simulation, asserted as failing until they are fixed: kube-scheduler has no VolumeBinding
 * plugin yet, so pods whose PersistentVolumeClaims are missing or unbound get scheduled (and run) instead of
 * staying Pending. When the plugin lands these tests fail: move the files out of this list.
 */

describe.runIf(existsSync(DIR))('scenario: the Kubernetes docs workload manifests', () => {
  const files = existsSync(DIR) ? yamlFiles(DIR).map((f) => relative(DIR, f)) : [];
  const workloadFiles = files.filter((f) => objectsOf(readFileSync(join(DIR, f), 'utf8')).some((o: KubeObject) => workloadKinds.has(o.kind)));

  it('has an expectation for every workload manifest of the corpus', () => {
    expect(workloadFiles.length).toBeGreaterThan(20);
    expect(Object.keys(expectations).sort()).toEqual(workloadFiles);
  });

  let tc: TestCluster | undefined;
  afterEach(async () => {
    await tc?.close();
    tc = undefined;
  });

  for (const file of workloadFiles) {
    const run = async () => {
      tc = await bootCluster();
      const errors = applyFile(tc, file);
      const expectation = expectations[file];
      if (!expectation) throw new Error(`no expectation for ${file}`);
      expectation(tc, errors);
    };
    it(file, run);
  }

  it('controllers/frontend.yaml then pods/pod-rs.yaml: the ReplicaSet acquires the bare pods and deletes the surplus', async () => {
    tc = await bootCluster();
    expect(applyFile(tc, 'controllers/frontend.yaml')).toEqual([]);
    tc.runUntil(() => (tc!.get('replicaset', 'default', 'frontend') as ReplicaSet).status?.readyReplicas === 3, 60_000, 'frontend ready');
    expect(applyFile(tc, 'pods/pod-rs.yaml')).toEqual([]);
    // pod1 and pod2 match tier=frontend: the ReplicaSet adopts them, has 5 for 3 wanted, and deletes two.
    tc.runUntil(() => tc!.client.pods.list({ namespace: 'default', labelSelector: 'tier=frontend' }).items.length === 3, 60_000, 'surplus deleted');
    tc.advance(10_000);
    const names = tc.client.pods.list({ namespace: 'default', labelSelector: 'tier=frontend' }).items.map((p) => p.metadata?.name);
    expect(names).toHaveLength(3);
    // The newcomers are not ready yet: they rank first for deletion.
    expect(names).not.toContain('pod1');
    expect(names).not.toContain('pod2');
  });

  it('pods/pod-rs.yaml then controllers/frontend.yaml: the ReplicaSet adopts the two pods and creates one', async () => {
    tc = await bootCluster();
    expect(applyFile(tc, 'pods/pod-rs.yaml')).toEqual([]);
    expectPodsRunning(tc, ['pod1', 'pod2']);
    expect(applyFile(tc, 'controllers/frontend.yaml')).toEqual([]);
    tc.runUntil(() => (tc!.get('replicaset', 'default', 'frontend') as ReplicaSet).status?.readyReplicas === 3, 60_000, 'frontend ready');
    const rs = tc.get('replicaset', 'default', 'frontend') as ReplicaSet;
    const pods = tc.client.pods.list({ namespace: 'default', labelSelector: 'tier=frontend' }).items;
    expect(pods.map((p) => p.metadata?.name).filter((n) => n === 'pod1' || n === 'pod2')).toHaveLength(2);
    for (const p of pods) {
      expect(p.metadata?.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'frontend', uid: rs.metadata?.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
    expect(eventsFor(tc, 'ReplicaSet', 'frontend').filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(1);
  });

  it('wordpress mysql starts once the Secret it needs exists (its PVC aside)', async () => {
    // The Deployment's env reads the password from Secret mysql-pass: without it, CreateContainerConfigError.
    tc = await bootCluster();
    const objects = objectsOf(readFileSync(join(DIR, 'application/wordpress/mysql-deployment.yaml'), 'utf8'));
    const deployment = objects.find((o) => o.kind === 'Deployment')!;
    // Without its PVC volume (there is no volume provisioner here), the rest exactly as written.
    const spec = (deployment as unknown as Deployment).spec!.template.spec!;
    spec.volumes = [];
    spec.containers[0].volumeMounts = [];
    tc.apply(deployment);
    tc.runUntil(() => {
      const p = tc!.client.pods.list({ namespace: 'default', labelSelector: 'app=wordpress' }).items[0];
      return containerState(p)?.state?.waiting?.reason === 'CreateContainerConfigError';
    }, 60_000, 'CreateContainerConfigError');
    const p = tc.client.pods.list({ namespace: 'default', labelSelector: 'app=wordpress' }).items[0];
    expect(containerState(p)?.state?.waiting?.message).toBe('secret "mysql-pass" not found');
    expect(eventsFor(tc, 'Pod', p.metadata!.name!).find((e) => e.reason === 'Failed')?.message).toBe('Error: secret "mysql-pass" not found');
    // kubectl create secret generic mysql-pass --from-literal=password=YOUR_PASSWORD
    tc.apply({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'mysql-pass', namespace: 'default' }, stringData: { password: 'YOUR_PASSWORD' } });
    expectDeploymentAvailable(tc, 'wordpress-mysql', 1);
  });
});
