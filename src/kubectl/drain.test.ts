import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import { drain, goDuration } from './drain';
import { commandTestCluster, create, pod, podYaml } from './testing';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

const texts = (lines: readonly { stream: string; text: string }[]) => lines.map((l) => `${l.stream === 'stdout' ? '1' : '2'}> ${l.text}`);

function replicaSet(c: Cluster, name = 'rs') {
  return create(c, `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: ${name}}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: c, image: nginx}]}`);
}

function daemonSet(c: Cluster, name = 'ds') {
  return create(c, `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ${name}}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: c, image: nginx}]}`);
}

function running(c: Cluster, ...names: string[]) {
  c.runUntil(() => names.every((n) => pod(c, n)?.status?.phase === 'Running'), 60_000);
}

function finish(c: Cluster, run: ReturnType<typeof drain>, maxMs = 5 * 60_000) {
  c.runUntil(() => run.done, maxMs);
  return run.result!;
}

describe('kubectl drain', () => {
  it('cordons, evicts every pod, waits for each to be gone, and says drained', async () => {
    cluster = await commandTestCluster();
    const rs = replicaSet(cluster);
    create(cluster, podYaml('a', 'node-1', { owner: rs }));
    create(cluster, podYaml('b', 'node-1', { owner: rs }));
    create(cluster, podYaml('elsewhere', 'node-2', { owner: rs }));
    running(cluster, 'a', 'b', 'elsewhere');
    const run = drain(cluster, 'node-1');
    expect(run.done).toBe(false);
    expect(texts(run.lines)).toEqual(['1> node/node-1 cordoned', '1> evicting pod default/a', '1> evicting pod default/b']);
    // The eviction marked them DisruptionTarget and deleted them gracefully; the kubelet finishes the job.
    expect(pod(cluster, 'a')?.status?.conditions?.find((c) => c.type === 'DisruptionTarget')?.reason).toBe('EvictionByEvictionAPI');
    expect(pod(cluster, 'a')?.metadata?.deletionTimestamp).toBeDefined();
    const result = finish(cluster, run);
    expect(result.exitCode).toBe(0);
    expect(texts(result.lines).slice(3).sort()).toEqual(['1> node/node-1 drained', '1> pod/a evicted', '1> pod/b evicted'].sort());
    expect(texts(result.lines).at(-1)).toBe('1> node/node-1 drained');
    expect(pod(cluster, 'a')).toBeUndefined();
    expect(pod(cluster, 'elsewhere')?.metadata?.deletionTimestamp).toBeUndefined();
    await expect(run.finished).resolves.toEqual(result);
  });

  it('an empty node is drained at once', async () => {
    cluster = await commandTestCluster();
    const run = drain(cluster, 'node-3');
    expect(run.result).toEqual({ exitCode: 0, lines: [{ stream: 'stdout', text: 'node/node-3 cordoned' }, { stream: 'stdout', text: 'node/node-3 drained' }] });
  });

  it('refuses DaemonSet pods without --ignore-daemonsets, and never evicts them', async () => {
    cluster = await commandTestCluster();
    const ds = daemonSet(cluster);
    create(cluster, podYaml('ds-1', 'node-1', { owner: ds }));
    running(cluster, 'ds-1');
    const refused = drain(cluster, 'node-1');
    expect(texts(refused.result!.lines)).toEqual([
      '1> node/node-1 cordoned',
      '2> error: unable to drain node "node-1" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/ds-1, continuing command...',
      '2> There are pending nodes to be drained:',
      '2>  node-1',
      '2> error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/ds-1',
    ]);
    expect(refused.result!.exitCode).toBe(1);
    const ignored = drain(cluster, 'node-1', { ignoreDaemonSets: true });
    expect(texts(ignored.result!.lines)).toEqual(['1> node/node-1 already cordoned', '2> Warning: ignoring DaemonSet-managed Pods: default/ds-1', '1> node/node-1 drained']);
    expect(pod(cluster, 'ds-1')?.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('an orphaned DaemonSet pod needs --force', async () => {
    cluster = await commandTestCluster();
    const ds = daemonSet(cluster, 'gone');
    create(cluster, podYaml('orphan', 'node-1', { owner: ds }));
    // No garbage collector runs here: the pod outlives its DaemonSet.
    cluster.client.daemonSets.delete('gone', { namespace: 'default' });
    running(cluster, 'orphan');
    expect(texts(drain(cluster, 'node-1').result!.lines).at(-1)).toBe('2> error: cannot delete daemonsets.apps "gone" not found: default/orphan');
    const forced = finish(cluster, drain(cluster, 'node-1', { force: true }));
    // The filter's warning is overwritten by the later filters' "okay" (kubectl keeps only the last status).
    expect(texts(forced.lines).some((l) => l.startsWith('2> Warning'))).toBe(false);
    expect(texts(forced.lines)).toContain('1> pod/orphan evicted');
  });

  it('pods with emptyDir need --delete-emptydir-data; errors of several kinds are aggregated', async () => {
    cluster = await commandTestCluster();
    const rs = replicaSet(cluster);
    create(cluster, podYaml('scratch', 'node-1', { owner: rs, volumes: '[{name: tmp, emptyDir: {}}]' }));
    create(cluster, podYaml('bare', 'node-1'));
    running(cluster, 'scratch', 'bare');
    const both = drain(cluster, 'node-1');
    expect(texts(both.result!.lines).at(-1)).toBe(
      '2> error: [cannot delete Pods that declare no controller (use --force to override): default/bare, cannot delete Pods with local storage (use --delete-emptydir-data to override): default/scratch]',
    );
    const ok = finish(cluster, drain(cluster, 'node-1', { deleteEmptyDirData: true, force: true }));
    expect(ok.exitCode).toBe(0);
    // Only the last filter's status is kept for a pod: scratch's local-storage warning gives way to the
    // controller filter's "okay" (a TODO in kubectl's own filters.go).
    expect(texts(ok.lines)).toContain('2> Warning: deleting Pods that declare no controller: default/bare');
    expect(texts(ok.lines).filter((l) => l.startsWith('2> Warning'))).toHaveLength(1);
  });

  it('skips mirror pods; finished pods go without --force', async () => {
    cluster = await commandTestCluster();
    create(cluster, podYaml('mirror', 'node-1', { annotations: "{kubernetes.io/config.mirror: 'abc'}" }));
    create(cluster, `apiVersion: v1\nkind: Pod\nmetadata: {name: job-done}\nspec:\n  nodeName: node-1\n  restartPolicy: Never\n  containers:\n  - {name: c, image: 'busybox:1.36', command: ['sh', '-c', 'exit 0']}`);
    cluster.runUntil(() => pod(cluster, 'job-done')?.status?.phase === 'Succeeded', 60_000);
    const result = finish(cluster, drain(cluster, 'node-1'));
    expect(texts(result.lines)).toEqual(['1> node/node-1 cordoned', '1> evicting pod default/job-done', '1> pod/job-done evicted', '1> node/node-1 drained']);
    expect(pod(cluster, 'mirror')).toBeDefined();
  });

  it('--disable-eviction deletes instead, with --grace-period', async () => {
    cluster = await commandTestCluster();
    const rs = replicaSet(cluster);
    create(cluster, podYaml('d', 'node-2', { owner: rs }));
    running(cluster, 'd');
    const run = drain(cluster, 'node-2', { disableEviction: true, gracePeriodSeconds: 7 });
    expect(pod(cluster, 'd')?.metadata?.deletionGracePeriodSeconds).toBe(7);
    expect(pod(cluster, 'd')?.status?.conditions?.some((c) => c.type === 'DisruptionTarget')).toBe(false);
    expect(texts(finish(cluster, run).lines)).toEqual(['1> node/node-2 cordoned', '1> pod/d deleted', '1> node/node-2 drained']);
  });

  it('--pod-selector drains only the matching pods', async () => {
    cluster = await commandTestCluster();
    const rs = replicaSet(cluster);
    create(cluster, podYaml('px', 'node-1', { owner: rs }));
    create(cluster, podYaml('py', 'node-1', { owner: rs }));
    running(cluster, 'px', 'py');
    const result = finish(cluster, drain(cluster, 'node-1', { podSelector: 'app=px' }));
    expect(texts(result.lines)).toEqual(['1> node/node-1 cordoned', '1> evicting pod default/px', '1> pod/px evicted', '1> node/node-1 drained']);
    expect(pod(cluster, 'py')?.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('retries an eviction a PodDisruptionBudget refuses every 5 s, until --timeout', async () => {
    cluster = await commandTestCluster();
    const rs = replicaSet(cluster);
    create(cluster, podYaml('guarded', 'node-1', { owner: rs }));
    create(cluster, `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: all}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: guarded}}`);
    cluster.runUntil(() => pod(cluster, 'guarded')?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false, 60_000);
    const start = cluster.clock.now();
    const run = drain(cluster, 'node-1', { timeoutSeconds: 12 });
    const result = finish(cluster, run);
    const retry = '2> error when evicting pods/"guarded" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod\'s disruption budget.';
    const failure = 'error when evicting pods/"guarded" -n "default": global timeout reached: 12s';
    expect(texts(result.lines)).toEqual([
      '1> node/node-1 cordoned',
      '1> evicting pod default/guarded',
      retry,
      '1> evicting pod default/guarded',
      retry,
      '1> evicting pod default/guarded',
      retry,
      '1> evicting pod default/guarded',
      `2> There are pending pods in node "node-1" when an error occurred: ${failure}`,
      '2> pod/guarded',
      `2> error: unable to drain node "node-1" due to error: ${failure}, continuing command...`,
      '2> There are pending nodes to be drained:',
      '2>  node-1',
      `2> error: ${failure}`,
    ]);
    expect(result.exitCode).toBe(1);
    // Attempts at 0, 5, 10 s; the one at 15 s finds the deadline passed.
    expect(cluster.clock.now() - start).toBe(15_000);
    expect(pod(cluster, 'guarded')?.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('waits for a pod on a dead node until --timeout; cancel() stops a drain', async () => {
    cluster = await commandTestCluster();
    const rs = replicaSet(cluster);
    create(cluster, podYaml('stuck', 'node-3', { owner: rs }));
    running(cluster, 'stuck');
    cluster.nodes.kill('node-3');
    const result = finish(cluster, drain(cluster, 'node-3', { timeoutSeconds: 90 }));
    expect(texts(result.lines).at(-1)).toBe('2> error: error when waiting for pod "stuck" in namespace "default" to terminate: context deadline exceeded');
    const forever = drain(cluster, 'node-3');
    cluster.advance(30_000);
    expect(forever.done).toBe(false);
    forever.cancel();
    expect(forever.result?.exitCode).toBe(130);
    expect(cluster.clock.pending.timers).toBeGreaterThan(0);
  });

  it('prints the API errors: unknown node, API server down', async () => {
    cluster = await commandTestCluster();
    expect(drain(cluster, 'nope').result).toEqual({ exitCode: 1, lines: [{ stream: 'stderr', text: 'Error from server (NotFound): nodes "nope" not found' }] });
    cluster.endpoint.stop();
    expect(texts(drain(cluster, 'node-1').result!.lines)).toEqual(['2> The connection to the server 10.96.0.1:443 was refused - did you specify the right host or port?']);
  });
});

describe('goDuration', () => {
  it('formats like Go', () => {
    expect([goDuration(0), goDuration(30), goDuration(90), goDuration(3600)]).toEqual(['0s', '30s', '1m30s', '1h0m0s']);
  });
});
