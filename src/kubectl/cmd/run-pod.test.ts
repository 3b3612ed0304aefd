import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

/** Pods need the namespace's default ServiceAccount (the ServiceAccount admission plugin looks it up). */
async function cluster0(options: Parameters<typeof createCluster>[0]): Promise<Cluster> {
  const c = await createCluster(options);
  if (options?.controllers === false) c.client.serviceAccounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  c.runUntil(() => c.client.serviceAccounts.list({ namespace: 'default' }).items.length > 0, 60_000);
  return c;
}

describe('kubectl run', () => {
  it('creates a pod named after its one container, labelled run=NAME, which then runs', async () => {
    cluster = await cluster0({ seed: 3 });
    expect(await kubectl(cluster, 'kubectl run web --image=nginx:1.27')).toMatchObject({ exitCode: 0, stdout: 'pod/web created\n', stderr: '' });
    const pod = cluster.client.pods.get('web', { namespace: 'default' });
    expect(pod.metadata!.labels).toEqual({ run: 'web' });
    expect(pod.spec!.containers.map((c) => [c.name, c.image])).toEqual([['web', 'nginx:1.27']]);
    expect(pod.spec!.restartPolicy).toBe('Always');
    expect(pod.metadata!.managedFields!.map((m) => m.manager)).toContain('kubectl-run');
    cluster.runUntil(() => cluster.client.pods.get('web', { namespace: 'default' }).status?.phase === 'Running', 120_000);
    expect(cluster.client.pods.get('web', { namespace: 'default' }).status?.phase).toBe('Running');
  });

  it('prints the generated pod with --dry-run=client -o yaml as kubectl does', async () => {
    cluster = await cluster0({ seed: 3, controllers: false, scheduler: false, nodes: 0 });
    const r = await kubectl(cluster, 'kubectl run job1 --image=busybox --restart=Never --port=8080 --env=MODE=test --labels=app=x,tier=y --dry-run=client -o yaml --command -- sh -c "echo hi"');
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(r.stdout).toBe(`apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: null
  labels:
    app: x
    tier: "y"
  name: job1
spec:
  containers:
  - command:
    - sh
    - -c
    - echo hi
    env:
    - name: MODE
      value: test
    image: busybox
    name: job1
    ports:
    - containerPort: 8080
    resources: {}
  dnsPolicy: ClusterFirst
  restartPolicy: Never
status: {}
`);
    expect(cluster.client.pods.list({ namespace: 'default' }).items).toHaveLength(0);
    expect(await kubectl(cluster, 'kubectl run a --image=nginx --dry-run=server')).toMatchObject({ stdout: 'pod/a created (server dry run)\n' });
    expect(cluster.client.pods.list({ namespace: 'default' }).items).toHaveLength(0);
  });

  it('applies --overrides and reports kubectl\'s errors', async () => {
    cluster = await cluster0({ seed: 3, controllers: false, scheduler: false, nodes: 0 });
    await kubectl(cluster, `kubectl run o --image=nginx --overrides='{"spec":{"nodeName":"node-9"}}'`);
    expect(cluster.client.pods.get('o', { namespace: 'default' }).spec!.nodeName).toBe('node-9');
    expect(await kubectl(cluster, 'kubectl run x')).toMatchObject({ exitCode: 1, stderr: 'error: required flag(s) "image" not set\n' });
    expect(await kubectl(cluster, 'kubectl run --image=nginx')).toMatchObject({ exitCode: 1, stderr: "error: NAME is required for run\nSee 'kubectl run -h' for help and examples\n" });
    expect(await kubectl(cluster, 'kubectl run x --image=Nginx')).toMatchObject({ exitCode: 1, stderr: 'error: Invalid image name "Nginx": invalid reference format\n' });
    expect(await kubectl(cluster, 'kubectl run x --image=nginx --restart=Sometimes')).toMatchObject({
      exitCode: 1,
      stderr: "error: invalid restart policy: Sometimes\nSee 'kubectl run -h' for help and examples\n",
    });
    expect(await kubectl(cluster, 'kubectl run x --image=nginx --rm')).toMatchObject({ exitCode: 1, stderr: "error: --rm should only be used for attached containers\nSee 'kubectl run -h' for help and examples\n" });
    expect(await kubectl(cluster, 'kubectl run x --image=nginx --env=1A=b')).toMatchObject({ exitCode: 1, stderr: 'error: invalid env: 1A=b\n' });
    expect(await kubectl(cluster, 'kubectl run o --image=nginx')).toMatchObject({ exitCode: 1, stderr: 'Error from server (AlreadyExists): pods "o" already exists\n' });
  });
});
