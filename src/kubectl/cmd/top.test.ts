// kubectl top against the simulated metrics-server: kubectl v1.32's columns and cells (every cell padded,
// CPU in m, memory in Mi, percentages of allocatable), and the usage model behind them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectlNodes } from '../cli/nodes';
import { createAll, kubectl, observedCluster } from '../describe/test-cluster';
import { clusterNodes } from '../nodes-adapter';

let cluster: Cluster;
const Mi = 1024 * 1024;

beforeAll(async () => {
  cluster = await observedCluster();
  createAll(cluster, `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: nginx, image: 'nginx:1.27'}]
---
apiVersion: v1
kind: Pod
metadata: {name: memory-demo}
spec:
  containers:
  - name: memory-demo-ctr
    image: polinux/stress
    resources: {requests: {memory: 100Mi}, limits: {memory: 200Mi, cpu: 500m}}
    command: [stress]
    args: [--vm, '1', --vm-bytes, 150M, --vm-hang, '1', --cpu, '2']
`);
  cluster.advance(60_000);
});

function usage() {
  return clusterNodes(cluster).usage!();
}

function podUsage(name: string) {
  const p = usage().pods.find((x) => x.name === name)!;
  return p.containers.reduce((a, c) => ({ cpu: a.cpu + c.cpuMillis, mem: a.mem + c.memoryBytes }), { cpu: 0, mem: 0 });
}

describe('kubectl top', () => {
  it('models usage: an idle server takes a few millicores and its image\'s memory; stress what it allocates, CPU capped by its limit', () => {
    const web = podUsage('web');
    expect(web.cpu).toBeGreaterThanOrEqual(1);
    expect(web.cpu).toBeLessThanOrEqual(3);
    expect(web.mem).toBeGreaterThanOrEqual(5 * Mi);
    expect(web.mem).toBeLessThan(7 * Mi);
    const stress = podUsage('memory-demo');
    expect(stress.cpu).toBe(500);
    expect(stress.mem).toBeGreaterThanOrEqual(151 * Mi);
    expect(stress.mem).toBeLessThan(153 * Mi);
    // Deterministic: the same state reads the same.
    expect(usage()).toEqual(usage());
  });

  it('top pods: NAME CPU(cores) MEMORY(bytes), by name; --sort-by and --containers', async () => {
    const web = podUsage('web');
    const stress = podUsage('memory-demo');
    const mi = (b: number) => `${Math.floor(b / Mi)}Mi`;
    const row = (name: string, cpu: number, mem: number) => `${name.padEnd(14)}${`${cpu}m`.padEnd(13)}${mi(mem).padEnd(16)}`;
    expect(await kubectl(cluster, 'kubectl top pods')).toMatchObject({
      stdout: `${'NAME'.padEnd(14)}${'CPU(cores)'.padEnd(13)}${'MEMORY(bytes)'.padEnd(16)}\n${row('memory-demo', stress.cpu, stress.mem)}\n${row('web', web.cpu, web.mem)}\n`,
      stderr: '',
      exitCode: 0,
    });
    expect((await kubectl(cluster, 'kubectl top pod --sort-by=cpu --no-headers')).stdout.split('\n')[0].startsWith('memory-demo')).toBe(true);
    expect((await kubectl(cluster, 'kubectl top pod web --containers')).stdout).toBe(
      `POD   NAME    CPU(cores)   MEMORY(bytes)   \nweb   nginx   ${`${web.cpu}m`.padEnd(13)}${mi(web.mem).padEnd(16)}\n`,
    );
  });

  it('top nodes: CPU and memory with their share of allocatable', async () => {
    const u = usage();
    const alloc = { cpu: 4000, mem: 8092 * Mi };
    const cells = (n: { name: string; cpuMillis: number; memoryBytes: number }) => [
      n.name,
      `${n.cpuMillis}m`,
      `${Math.trunc((n.cpuMillis / alloc.cpu) * 100)}%`,
      `${Math.floor(n.memoryBytes / Mi)}Mi`,
      `${Math.trunc((n.memoryBytes / alloc.mem) * 100)}%`,
    ];
    const rows = [['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)'], ...[...u.nodes].sort((a, b) => (a.name < b.name ? -1 : 1)).map(cells)];
    const widths = rows[0].map((_, i) => Math.max(6, ...rows.map((r) => r[i].length + 3)));
    const expected = rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('')).join('\n') + '\n';
    expect(await kubectl(cluster, 'kubectl top nodes')).toMatchObject({ stdout: expected, exitCode: 0 });
    // The stress pod's node carries its half core.
    const stressNode = cluster.client.pods.get('memory-demo', { namespace: 'default' }).spec!.nodeName!;
    expect(u.nodes.find((n) => n.name === stressNode)!.cpuMillis).toBeGreaterThan(500);
  });

  it('a node whose kubelet is down has no metrics: <unknown>', async () => {
    const node = cluster.client.pods.get('web', { namespace: 'default' }).spec!.nodeName!;
    cluster.nodes.kill(node);
    const line = (await kubectl(cluster, `kubectl top node`)).stdout.split('\n').find((l) => l.startsWith(node))!;
    expect(line.split(/ +/).slice(0, 5)).toEqual([node, '<unknown>', '<unknown>', '<unknown>', '<unknown>']);
    expect(await kubectl(cluster, `kubectl top node ${node}`)).toMatchObject({ stderr: `Error from server (NotFound): nodemetrics.metrics.k8s.io "${node}" not found\n`, exitCode: 1 });
    cluster.nodes.restart(node);
    cluster.advance(30_000);
  });

  it('new pods have no metrics yet', async () => {
    createAll(cluster, "apiVersion: v1\nkind: Namespace\nmetadata: {name: fresh}\n");
    cluster.advance(2_000);
    createAll(cluster, "apiVersion: v1\nkind: Pod\nmetadata: {name: new, namespace: fresh}\nspec:\n  containers: [{name: c, image: 'nginx:1.27'}]\n");
    cluster.advance(5_000);
    expect(await kubectl(cluster, 'kubectl top pod -n fresh')).toMatchObject({ stderr: 'error: metrics not available yet\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl top pod new -n fresh')).toMatchObject({ stderr: 'Error from server (NotFound): podmetrics.metrics.k8s.io "fresh/new" not found\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl top pod -n kube-public')).toMatchObject({ stderr: 'No resources found in kube-public namespace.\n', exitCode: 0 });
  });

  it('without a metrics-server: Metrics API not available', async () => {
    const nodes = kubectlNodes(cluster.nodes, cluster.clock);
    expect(await kubectl(cluster, 'kubectl top pods', { nodes })).toMatchObject({ stderr: 'error: Metrics API not available\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl top node --sort-by=disk')).toMatchObject({ stderr: 'error: --sort-by accepts only cpu or memory\n', exitCode: 1 });
  });
});
