// Scenario: the nginx Deployment of the Kubernetes docs (application/deployment.yaml, with 3 replicas) on a
// default 3-node cluster. Nothing is scripted: the deployment controller creates the ReplicaSet, the replicaset
// controller the pods, kube-scheduler binds them, the kubelets pull and start nginx.
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, condition, eventsFor, isPodReady, podsOf, rolloutComplete } from './harness';

const nginxDeployment = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  selector:
    matchLabels:
      app: nginx
  replicas: 3
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`;

describe('scenario: the nginx Deployment of 3 replicas', () => {
  let tc: TestCluster;
  let created: number;

  beforeEach(async () => {
    tc = await bootCluster();
    tc.apply(nginxDeployment);
    created = tc.clock.now();
    tc.runUntil(() => rolloutComplete(deployment()), 60_000, 'deployment available');
  });
  afterEach(() => tc.close());

  const deployment = () => tc.get('deployment', 'default', 'nginx-deployment') as Deployment | undefined;
  const replicaSets = () => tc.list('replicasets', 'default') as ReplicaSet[];

  it('converges in seconds of virtual time to 3 pods Running and Ready, one per node', () => {
    // Image pull (~2 s for nginx) dominates: a real cluster takes about as long.
    expect(tc.clock.now() - created).toBeLessThan(15_000);
    const pods = podsOf(tc, 'default', 'app=nginx');
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.status?.phase).toBe('Running');
      expect(isPodReady(pod)).toBe(true);
      expect(pod.metadata?.deletionTimestamp).toBeUndefined();
    }
    // The scheduler's spreading (PodTopologySpread's default constraints, least-allocated) puts one on each node.
    expect(pods.map((p) => p.spec?.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it('reports the full pod status a kubelet writes', () => {
    for (const pod of podsOf(tc, 'default', 'app=nginx')) {
      const node = tc.client.nodes.get(pod.spec!.nodeName!);
      const status = pod.status!;
      expect(status.hostIP).toBe(node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address);
      // The pod IP comes from the node's pod CIDR (10.244.<i>.0/24).
      const prefix = node.spec!.podCIDR!.replace(/0\/24$/, '');
      expect(status.podIP?.startsWith(prefix)).toBe(true);
      expect(status.podIPs).toEqual([{ ip: status.podIP }]);
      expect(status.qosClass).toBe('BestEffort');
      expect(status.startTime).toBeDefined();
      expect(status.conditions?.map((c) => `${c.type}=${c.status}`).sort()).toEqual(
        ['ContainersReady=True', 'Initialized=True', 'PodReadyToStartContainers=True', 'PodScheduled=True', 'Ready=True'].sort(),
      );
      const [cs] = status.containerStatuses!;
      // containerd reports the fully qualified reference.
      expect(cs).toMatchObject({ name: 'nginx', image: 'docker.io/library/nginx:1.14.2', ready: true, started: true, restartCount: 0 });
      expect(cs.state?.running?.startedAt).toBeDefined();
      expect(cs.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
      expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    }
  });

  it('has Deployment status 3/3 available with the real conditions', () => {
    const d = deployment()!;
    const [rs] = replicaSets();
    expect(d.metadata?.generation).toBe(1);
    expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(d.status?.unavailableReplicas).toBeUndefined();
    expect(condition(d.status?.conditions, 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    expect(condition(d.status?.conditions, 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${rs.metadata?.name}" has successfully progressed.`,
    });
    expect(d.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(rs.status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
  });

  it('links Pod → ReplicaSet → Deployment through controller references and pod-template-hash', () => {
    const d = deployment()!;
    const rss = replicaSets();
    expect(rss).toHaveLength(1);
    const rs = rss[0];
    const hash = rs.metadata?.labels?.['pod-template-hash'];
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(rs.metadata?.name).toBe(`nginx-deployment-${hash}`);
    expect(rs.spec?.selector).toEqual({ matchLabels: { app: 'nginx', 'pod-template-hash': hash } });
    expect(rs.spec?.replicas).toBe(3);
    expect(rs.metadata?.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx-deployment', uid: d.metadata?.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(rs.metadata?.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      // replicas + maxSurge (25% of 3, rounded up).
      'deployment.kubernetes.io/max-replicas': '4',
    });
    for (const pod of podsOf(tc, 'default', 'app=nginx')) {
      expect(pod.metadata?.name).toMatch(new RegExp(`^nginx-deployment-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(pod.metadata?.generateName).toBe(`nginx-deployment-${hash}-`);
      expect(pod.metadata?.labels).toEqual({ app: 'nginx', 'pod-template-hash': hash });
      expect(pod.metadata?.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata?.name, uid: rs.metadata?.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
  });

  it('records the events kubectl describe shows', () => {
    const [rs] = replicaSets();
    const rsName = rs.metadata!.name!;
    const dEvents = eventsFor(tc, 'Deployment', 'nginx-deployment');
    expect(dEvents.map((e) => [e.type, e.reason, e.message, e.source?.component])).toEqual([
      ['Normal', 'ScalingReplicaSet', `Scaled up replica set ${rsName} from 0 to 3`, 'deployment-controller'],
    ]);
    const pods = podsOf(tc, 'default', 'app=nginx');
    const rsEvents = eventsFor(tc, 'ReplicaSet', rsName);
    expect(rsEvents.map((e) => [e.type, e.reason, e.source?.component])).toEqual(Array(3).fill(['Normal', 'SuccessfulCreate', 'replicaset-controller']));
    expect(rsEvents.map((e) => e.message).sort()).toEqual(pods.map((p) => `Created pod: ${p.metadata?.name}`).sort());

    for (const pod of pods) {
      const name = pod.metadata!.name!;
      const node = pod.spec!.nodeName!;
      const events = eventsFor(tc, 'Pod', name);
      expect(events.map((e) => e.reason)).toEqual(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
      const [scheduled, pulling, pulled, createdEv, started] = events;
      expect(scheduled).toMatchObject({ type: 'Normal', message: `Successfully assigned default/${name} to ${node}` });
      expect(scheduled.source?.component).toBe('default-scheduler');
      for (const e of [pulling, pulled, createdEv, started]) expect(e.source).toEqual({ component: 'kubelet', host: node });
      // kubectl describe's "From" column: the kubelet names the container.
      for (const e of [pulling, pulled, createdEv, started]) expect(e.involvedObject.fieldPath).toBe('spec.containers{nginx}');
      expect(scheduled.involvedObject.fieldPath).toBeUndefined();
      expect(pulling.message).toBe('Pulling image "nginx:1.14.2"');
      expect(pulled.message).toMatch(
        /^Successfully pulled image "nginx:1\.14\.2" in \d+(\.\d+)?m?s \(\d+(\.\d+)?m?s including waiting\)\. Image size: \d+ bytes\.$/,
      );
      expect(createdEv.message).toBe('Created container: nginx');
      expect(started.message).toBe('Started container nginx');
      expect(events.every((e) => e.involvedObject.uid === pod.metadata?.uid)).toBe(true);
    }
  });

  it('scales down with the real events, keeping one pod per node', () => {
    tc.client.deployments.patch('nginx-deployment', 'application/merge-patch+json', { spec: { replicas: 1 } }, { namespace: 'default' });
    tc.runUntil(() => rolloutComplete(deployment()) && podsOf(tc, 'default', 'app=nginx').length === 1, 60_000, 'scaled to 1');
    const [rs] = replicaSets();
    expect(rs.spec?.replicas).toBe(1);
    expect(eventsFor(tc, 'Deployment', 'nginx-deployment').map((e) => e.message)).toContain(`Scaled down replica set ${rs.metadata?.name} from 3 to 1`);
    const deleted = eventsFor(tc, 'ReplicaSet', rs.metadata!.name!).filter((e) => e.reason === 'SuccessfulDelete');
    expect(deleted).toHaveLength(2);
    for (const e of deleted) expect(e.message).toMatch(/^Deleted pod: nginx-deployment-/);
    // The nginx containers got SIGTERM ("Stopping container nginx") and their pods are gone from the API.
    const stopped = deleted.map((e) => e.message!.replace('Deleted pod: ', ''));
    for (const name of stopped) {
      expect(tc.get('pod', 'default', name)).toBeUndefined();
      expect(eventsFor(tc, 'Pod', name).find((e) => e.reason === 'Killing')?.message).toBe('Stopping container nginx');
    }
    const remaining = podsOf(tc, 'default', 'app=nginx') as Pod[];
    expect(remaining[0].status?.phase).toBe('Running');
  });
});
