import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster, create, pod, podYaml } from '../testing';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

function replicaSet(c: Cluster) {
  return create(c, `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: rs}}\n  template:\n    metadata: {labels: {app: rs}}\n    spec: {containers: [{name: c, image: nginx}]}`);
}

describe('kubectl cordon / uncordon', () => {
  it('marks nodes by name or selector, with dry runs', async () => {
    cluster = await commandTestCluster();
    expect(await kubectl(cluster, 'kubectl cordon node-1')).toMatchObject({ exitCode: 0, stdout: 'node/node-1 cordoned\n', stderr: '' });
    expect(cluster.client.nodes.get('node-1').spec?.unschedulable).toBe(true);
    expect(await kubectl(cluster, 'kubectl cordon node/node-1')).toMatchObject({ stdout: 'node/node-1 already cordoned\n' });
    expect(await kubectl(cluster, 'kubectl cordon node-2 --dry-run=client')).toMatchObject({ stdout: 'node/node-2 cordoned (dry run)\n' });
    expect(cluster.client.nodes.get('node-2').spec?.unschedulable).toBeUndefined();
    expect(await kubectl(cluster, 'kubectl uncordon -l kubernetes.io/os=linux')).toMatchObject({
      exitCode: 0,
      stdout: 'node/node-1 uncordoned\nnode/node-2 already uncordoned\nnode/node-3 already uncordoned\n',
    });
  });

  it("prints kubectl's usage and lookup errors", async () => {
    cluster = await commandTestCluster();
    expect(await kubectl(cluster, 'kubectl cordon')).toMatchObject({ exitCode: 1, stderr: "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples\n" });
    expect(await kubectl(cluster, 'kubectl uncordon node-1 -l a=b')).toMatchObject({
      exitCode: 1,
      stderr: "error: cannot specify both a node name and a --selector option\nSee 'kubectl uncordon -h' for help and examples\n",
    });
    expect(await kubectl(cluster, 'kubectl cordon node-9')).toMatchObject({ exitCode: 1, stderr: 'Error from server (NotFound): nodes "node-9" not found\n' });
    expect(await kubectl(cluster, 'kubectl cordon node-1 --dry-run=maybe')).toMatchObject({ exitCode: 1, stderr: 'error: Invalid dry-run value (maybe). Must be "none", "server", or "client".\n' });
  });
});

describe('kubectl drain', () => {
  it('cordons, evicts and waits on virtual time, printing as it goes', async () => {
    cluster = await commandTestCluster();
    const rs = replicaSet(cluster);
    create(cluster, podYaml('a', 'node-1', { owner: rs }));
    create(cluster, podYaml('elsewhere', 'node-2', { owner: rs }));
    cluster.runUntil(() => pod(cluster, 'a')?.status?.phase === 'Running' && pod(cluster, 'elsewhere')?.status?.phase === 'Running', 60_000);
    const printed: string[] = [];
    const r = await kubectl(cluster, 'kubectl drain node-1', { onLine: (_s, text) => printed.push(text) });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'node/node-1 cordoned\nevicting pod default/a\npod/a evicted\nnode/node-1 drained\n', stderr: '' });
    expect(printed).toEqual(['node/node-1 cordoned', 'evicting pod default/a', 'pod/a evicted', 'node/node-1 drained']);
    expect(pod(cluster, 'a')).toBeUndefined();
    expect(pod(cluster, 'elsewhere')?.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('passes --force, --pod-selector and --disable-eviction through, and refuses unmanaged pods without --force', async () => {
    cluster = await commandTestCluster();
    create(cluster, podYaml('bare', 'node-3'));
    create(cluster, podYaml('other', 'node-3'));
    cluster.runUntil(() => pod(cluster, 'bare')?.status?.phase === 'Running' && pod(cluster, 'other')?.status?.phase === 'Running', 60_000);
    const refused = await kubectl(cluster, 'kubectl drain node-3 --pod-selector=app=bare');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toBe(
      [
        'error: unable to drain node "node-3" due to error: cannot delete Pods that declare no controller (use --force to override): default/bare, continuing command...',
        'There are pending nodes to be drained:',
        ' node-3',
        'error: cannot delete Pods that declare no controller (use --force to override): default/bare',
        '',
      ].join('\n'),
    );
    const forced = await kubectl(cluster, 'kubectl drain node-3 --pod-selector=app=bare --force --disable-eviction --grace-period=0');
    expect(forced).toMatchObject({
      exitCode: 0,
      stdout: 'node/node-3 already cordoned\npod/bare deleted\nnode/node-3 drained\n',
      stderr: 'Warning: deleting Pods that declare no controller: default/bare\n',
    });
    expect(pod(cluster, 'other')?.metadata?.deletionTimestamp).toBeUndefined();
    expect(await kubectl(cluster, "kubectl drain node-3 --pod-selector='a in'")).toMatchObject({ exitCode: 1, stderr: 'error: --pod-selector=<pod_selector> must be a valid label selector\n' });
    expect(await kubectl(cluster, 'kubectl drain')).toMatchObject({ exitCode: 1, stderr: "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n" });
  });

  it('--timeout gives up and Ctrl+C stops a drain that waits', async () => {
    cluster = await commandTestCluster();
    const rs = replicaSet(cluster);
    create(cluster, podYaml('stuck', 'node-2', { owner: rs }));
    cluster.runUntil(() => pod(cluster, 'stuck')?.status?.phase === 'Running', 60_000);
    // A dead node's kubelet never finishes the pod's termination.
    cluster.nodes.kill('node-2');
    const timedOut = await kubectl(cluster, 'kubectl drain node-2 --timeout=20s');
    expect(timedOut.exitCode).toBe(1);
    expect(timedOut.stderr).toContain('error when waiting for pod "stuck" in namespace "default" to terminate: context deadline exceeded');
    const stopped = await kubectl(cluster, 'kubectl drain node-2', { maxTimeMs: 30_000 });
    expect(stopped).toMatchObject({ cancelled: true, exitCode: 130 });
  });
});
