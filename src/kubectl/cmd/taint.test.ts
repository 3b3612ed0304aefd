import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster } from '../testing';

let cluster: Cluster;
beforeEach(async () => {
  cluster = await commandTestCluster();
});
afterEach(async () => {
  await cluster.close();
});

const run = (line: string) => kubectl(cluster, line);
const taints = (node: string) => (cluster.client.nodes.get(node).spec?.taints ?? []).map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`);

describe('kubectl taint', () => {
  it('adds, refuses a second taint with the same key and effect, overwrites, and removes', async () => {
    expect(await run('kubectl taint nodes node-1 dedicated=special:NoSchedule')).toMatchObject({ stdout: 'node/node-1 tainted\n', stderr: '', exitCode: 0 });
    expect(taints('node-1')).toEqual(['dedicated=special:NoSchedule']);
    expect(await run('kubectl taint node node-1 dedicated=other:NoSchedule')).toMatchObject({
      stderr: 'error: node node-1 already has dedicated taint(s) with same effect(s) and --overwrite is false\n',
      exitCode: 1,
    });
    expect((await run('kubectl taint node node-1 dedicated=other:NoSchedule --overwrite')).stdout).toBe('node/node-1 modified\n');
    expect(taints('node-1')).toEqual(['dedicated=other:NoSchedule']);
    expect((await run('kubectl taint node node-1 gpu=true:NoExecute')).stdout).toBe('node/node-1 tainted\n');
    expect((await run('kubectl taint no node-1 dedicated:NoSchedule-')).stdout).toBe('node/node-1 untainted\n');
    expect((await run('kubectl taint nodes node-1 gpu-')).stdout).toBe('node/node-1 untainted\n');
    expect(taints('node-1')).toEqual([]);
    expect(await run('kubectl taint nodes node-1 gpu-')).toMatchObject({ stderr: 'error: taint "gpu" not found\n', exitCode: 1 });
  });

  it('taints every node with --all and the selected ones with -l', async () => {
    expect((await run('kubectl taint nodes --all maintenance=soon:PreferNoSchedule')).stdout).toBe('node/node-1 tainted\nnode/node-2 tainted\nnode/node-3 tainted\n');
    expect((await run('kubectl taint nodes -l kubernetes.io/hostname=node-2 maintenance:PreferNoSchedule-')).stdout).toBe('node/node-2 untainted\n');
    expect(taints('node-2')).toEqual([]);
    expect(taints('node-3')).toEqual(['maintenance=soon:PreferNoSchedule']);
  });

  it('a client dry run prints the operation and changes nothing', async () => {
    expect((await run('kubectl taint nodes node-1 a=b:NoSchedule --dry-run=client')).stdout).toBe('node/node-1 tainted\n');
    expect(taints('node-1')).toEqual([]);
  });

  it('reports kubectl\'s errors', async () => {
    const cases: [string, string][] = [
      ['kubectl taint nodes node-1 foo=bar:Bad', "error: invalid taint effect: Bad, unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n"],
      // Without ":EFFECT" the whole "foo=bar" is the key, which is not a qualified name.
      [
        'kubectl taint nodes node-1 foo=bar',
        "error: invalid taint spec: foo=bar, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\nSee 'kubectl taint -h' for help and examples\n",
      ],
      ['kubectl taint nodes node-1 foo:NoSchedule foo:NoSchedule', "error: duplicated taints with the same key and effect: {foo  NoSchedule <nil>}\nSee 'kubectl taint -h' for help and examples\n"],
      ['kubectl taint pods web a=b:NoSchedule', 'error: invalid resource type pods, only node types are supported\n'],
      ['kubectl taint nodes node-1', 'error: at least one taint update is required\n'],
      ['kubectl taint a=b:NoSchedule', 'error: one or more resources must be specified as <resource> <name>\n'],
      ['kubectl taint nodes a=b:NoSchedule', "error: at least one resource name must be specified since 'all' parameter is not set\n"],
      ['kubectl taint nodes node-1 a=b:NoSchedule a:NoSchedule-', 'error: can not both modify and remove the following taint(s) in the same command: a=NoSchedule\n'],
      ['kubectl taint nodes node-9 a=b:NoSchedule', 'Error from server (NotFound): nodes "node-9" not found\n'],
    ];
    for (const [line, stderr] of cases) expect(await run(line), line).toMatchObject({ stdout: '', stderr, exitCode: 1 });
  });
});
