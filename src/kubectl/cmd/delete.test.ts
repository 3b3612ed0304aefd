import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster, create, pod } from '../testing';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

/** A pod whose process ignores SIGTERM: it runs for its whole grace period once deleted. */
const sleeper = (name: string, grace?: number) => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {app: sleeper}}
spec:
  nodeName: node-1${grace === undefined ? '' : `\n  terminationGracePeriodSeconds: ${grace}`}
  containers:
  - {name: s, image: busybox, command: ['sleep', '3600']}
`;

async function runningSleeper(name: string, grace?: number): Promise<void> {
  create(cluster, sleeper(name, grace));
  cluster.runUntil(() => pod(cluster, name)?.status?.phase === 'Running', 60_000);
  expect(pod(cluster, name)?.status?.phase).toBe('Running');
}

describe('kubectl delete waits on virtual time', () => {
  it('waits out a pod\'s 30 s grace period before returning', async () => {
    cluster = await commandTestCluster();
    await runningSleeper('sleeper');
    const start = cluster.clock.now();
    const r = await kubectl(cluster, 'kubectl delete pod sleeper');
    expect(r).toMatchObject({ stdout: 'pod "sleeper" deleted\n', stderr: '', exitCode: 0 });
    const waited = cluster.clock.now() - start;
    expect(waited).toBeGreaterThanOrEqual(30_000);
    expect(waited).toBeLessThan(31_000);
    expect(pod(cluster, 'sleeper')).toBeUndefined();
  });

  it('--now gives a grace period of 1 s; --wait=false returns while the pod terminates', async () => {
    cluster = await commandTestCluster();
    await runningSleeper('a');
    await runningSleeper('b');
    let start = cluster.clock.now();
    expect((await kubectl(cluster, 'kubectl delete pod a --now')).stdout).toBe('pod "a" deleted\n');
    expect(cluster.clock.now() - start).toBeGreaterThanOrEqual(1000);
    expect(cluster.clock.now() - start).toBeLessThan(3000);
    start = cluster.clock.now();
    expect((await kubectl(cluster, 'kubectl delete pod b --wait=false')).stdout).toBe('pod "b" deleted\n');
    expect(cluster.clock.now()).toBe(start);
    expect(pod(cluster, 'b')?.metadata?.deletionTimestamp).toBeTruthy();
  });

  it('--force --grace-period=0 warns and removes the pod at once', async () => {
    cluster = await commandTestCluster();
    await runningSleeper('stuck');
    const r = await kubectl(cluster, 'kubectl delete pod stuck --force --grace-period=0');
    expect(r).toMatchObject({
      stdout: 'pod "stuck" force deleted\n',
      stderr:
        'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
      exitCode: 0,
    });
    expect(pod(cluster, 'stuck')).toBeUndefined();
  });

  it('--timeout ends the wait with kubectl\'s timeout error', async () => {
    cluster = await commandTestCluster();
    await runningSleeper('slow');
    const r = await kubectl(cluster, 'kubectl delete pod slow --timeout=5s');
    expect(r).toMatchObject({ stdout: 'pod "slow" deleted\n', stderr: 'error: timed out waiting for the condition on pods/slow\n', exitCode: 1 });
  });
});

describe('kubectl delete selects like kubectl', () => {
  it('by name, TYPE/NAME, -l, --all and -f; NotFound unless ignored', async () => {
    cluster = await commandTestCluster();
    for (const n of ['a', 'b', 'c', 'd']) create(cluster, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${n}, labels: {tier: ${n === 'd' ? 'db' : 'web'}}}\n`);
    expect((await kubectl(cluster, 'kubectl delete configmap a configmap/b')).stderr).toBe(
      "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'\n",
    );
    expect((await kubectl(cluster, 'kubectl delete cm/a configmaps/b')).stdout).toBe('configmap "a" deleted\nconfigmap "b" deleted\n');
    expect(await kubectl(cluster, 'kubectl delete cm -l tier=db -o name')).toMatchObject({ stdout: 'configmap/d\n', exitCode: 0 });
    expect(await kubectl(cluster, 'kubectl delete cm x')).toMatchObject({ stderr: 'Error from server (NotFound): configmaps "x" not found\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl delete cm x --ignore-not-found')).toMatchObject({ stdout: 'No resources found\n', stderr: '', exitCode: 0 });
    expect(await kubectl(cluster, 'kubectl delete cm --all')).toMatchObject({ stdout: 'configmap "c" deleted\n', exitCode: 0 });
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: game-demo}\n';
    expect(await kubectl(cluster, `kubectl delete -f - <<EOF\n${yaml}EOF`)).toMatchObject({
      stderr: 'Error from server (NotFound): error when deleting "STDIN": configmaps "game-demo" not found\n',
      exitCode: 1,
    });
    create(cluster, yaml);
    expect((await kubectl(cluster, `kubectl delete -f - <<EOF\n${yaml}EOF`)).stdout).toBe('configmap "game-demo" deleted\n');
  });

  it('-A --all deletes in every namespace; dry runs delete nothing', async () => {
    cluster = await commandTestCluster();
    await kubectl(cluster, 'kubectl create namespace team-a');
    await kubectl(cluster, 'kubectl create configmap one --from-literal=a=b');
    await kubectl(cluster, 'kubectl create configmap two -n team-a --from-literal=a=b');
    expect((await kubectl(cluster, 'kubectl delete cm one --dry-run=client')).stdout).toBe('configmap "one" deleted (dry run)\n');
    expect((await kubectl(cluster, 'kubectl delete cm one --dry-run=server')).stdout).toBe('configmap "one" deleted (server dry run)\n');
    expect(cluster.client.configMaps.get('one', { namespace: 'default' })).toBeDefined();
    const r = await kubectl(cluster, 'kubectl delete cm -A --all -l a!=z');
    expect(r.stderr).toBe("error: setting 'all' parameter but found a non empty selector. \n");
    await kubectl(cluster, 'kubectl delete cm -A --field-selector metadata.name!=kube-root-ca.crt');
    expect(cluster.client.configMaps.list().items.map((c) => c.metadata.name)).not.toContain('two');
    expect(cluster.client.configMaps.list().items.map((c) => c.metadata.name)).not.toContain('one');
  });

  it('reports kubectl\'s argument errors', async () => {
    cluster = await commandTestCluster();
    const cases: [string, string][] = [
      ['kubectl delete', "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n"],
      ['kubectl delete pods', 'error: resource(s) were provided, but no name was specified\n'],
      ['kubectl delete foo x', 'error: the server doesn\'t have a resource type "foo"\n'],
      ['kubectl delete pod x --now --grace-period=3', 'error: --now and --grace-period cannot be specified together\n'],
      ['kubectl delete pod x --force --grace-period=5', 'error: --force and --grace-period greater than 0 cannot be specified together\n'],
      ['kubectl delete pod x --cascade=bad', 'error: invalid cascade value (bad). Must be "background", "foreground", or "orphan"\n'],
      ['kubectl delete pod x -o yaml', "error: unexpected -o output mode: yaml. We only support '-o name'\n"],
      ['kubectl delete pod x -A', 'error: a resource cannot be retrieved by name across all namespaces\n'],
    ];
    for (const [line, stderr] of cases) expect(await kubectl(cluster, line), line).toMatchObject({ stdout: '', stderr, exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl delete pod x --cascade=false')).toMatchObject({
      stderr: 'warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\nError from server (NotFound): pods "x" not found\n',
    });
    expect(await kubectl(cluster, 'kubectl delete ns kube-public -n default --dry-run=client')).toMatchObject({
      stdout: 'namespace "kube-public" deleted (dry run)\n',
      stderr: 'Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n',
    });
  });
});

describe('kubectl delete --cascade', () => {
  async function deploymentCluster(): Promise<Cluster> {
    const c = await createCluster({ seed: 5 });
    await kubectl(c, 'kubectl create deployment web --image=nginx:1.27 --replicas=2');
    c.runUntil(() => c.client.pods.list({ namespace: 'default' }).items.filter((p) => p.status?.phase === 'Running').length === 2, 120_000);
    expect(c.client.replicaSets.list({ namespace: 'default' }).items).toHaveLength(1);
    return c;
  }
  const rsCount = () => cluster.client.replicaSets.list({ namespace: 'default' }).items.length;
  const podCount = () => cluster.client.pods.list({ namespace: 'default' }).items.length;

  it('background (the default) returns once the deployment is gone; the collector then removes RS and pods', async () => {
    cluster = await deploymentCluster();
    expect((await kubectl(cluster, 'kubectl delete deployment web')).stdout).toBe('deployment.apps "web" deleted\n');
    expect(cluster.client.deployments.list({ namespace: 'default' }).items).toHaveLength(0);
    cluster.runUntil(() => rsCount() === 0 && podCount() === 0, 120_000);
    expect([rsCount(), podCount()]).toEqual([0, 0]);
  });

  it('foreground waits until the dependents are gone too', async () => {
    cluster = await deploymentCluster();
    expect((await kubectl(cluster, 'kubectl delete deploy/web --cascade=foreground')).stdout).toBe('deployment.apps "web" deleted\n');
    expect(cluster.client.deployments.list({ namespace: 'default' }).items).toHaveLength(0);
    expect(rsCount()).toBe(0);
    expect(cluster.client.pods.list({ namespace: 'default' }).items.every((p) => p.metadata?.deletionTimestamp)).toBe(true);
  });

  it('orphan leaves the ReplicaSet and its pods, no longer owned', async () => {
    cluster = await deploymentCluster();
    expect((await kubectl(cluster, 'kubectl delete deployment web --cascade=orphan')).stdout).toBe('deployment.apps "web" deleted\n');
    cluster.runUntilIdle({ maxTimeMs: 30_000 });
    const rs = cluster.client.replicaSets.list({ namespace: 'default' }).items;
    expect(rs).toHaveLength(1);
    expect(rs[0].metadata.ownerReferences ?? []).toEqual([]);
    expect(podCount()).toBe(2);
  });
});
