import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster, create, pod, podYaml } from '../testing';

let cluster: Cluster;
beforeEach(async () => {
  cluster = await commandTestCluster();
  create(cluster, podYaml('web', 'node-1'));
  create(cluster, podYaml('db', 'node-2'));
});
afterEach(async () => {
  await cluster.close();
});

const run = (line: string) => kubectl(cluster, line);

describe('kubectl label', () => {
  it('adds, refuses to overwrite without --overwrite, overwrites, removes', async () => {
    expect(await run('kubectl label pod web tier=frontend')).toMatchObject({ stdout: 'pod/web labeled\n', stderr: '', exitCode: 0 });
    expect(pod(cluster, 'web')?.metadata?.labels).toEqual({ app: 'web', tier: 'frontend' });
    expect(await run('kubectl label pod web app=nginx')).toMatchObject({ stdout: '', stderr: "error: 'app' already has a value (web), and --overwrite is false\n", exitCode: 1 });
    expect(await run('kubectl label pod web app=nginx tier=x')).toMatchObject({
      stderr: "'app' already has a value (web), and --overwrite is false\n'tier' already has a value (frontend), and --overwrite is false\n",
      exitCode: 1,
    });
    expect(await run('kubectl label pod web app=nginx --overwrite')).toMatchObject({ stdout: 'pod/web labeled\n', exitCode: 0 });
    expect(await run('kubectl label pod web tier-')).toMatchObject({ stdout: 'pod/web unlabeled\n', exitCode: 0 });
    expect(await run('kubectl label pod web tier-')).toMatchObject({ stdout: 'label "tier" not found.\npod/web not labeled\n', exitCode: 0 });
    expect(pod(cluster, 'web')?.metadata?.labels).toEqual({ app: 'nginx' });
    const managers = pod(cluster, 'web')?.metadata?.managedFields?.map((m) => m.manager);
    expect(managers).toContain('kubectl-label');
  });

  it('labels every object with --all or -l, and lists labels', async () => {
    expect((await run('kubectl label pods --all env=dev')).stdout).toBe('pod/db labeled\npod/web labeled\n');
    expect((await run('kubectl label pods -l app=db role=primary')).stdout).toBe('pod/db labeled\n');
    expect((await run('kubectl label pod db --list')).stdout).toBe('app=db\nenv=dev\nrole=primary\n');
    expect((await run('kubectl label pods --all --list')).stdout).toBe('Listing labels for Pod./db:\n app=db\n env=dev\n role=primary\nListing labels for Pod./web:\n app=web\n env=dev\n');
  });

  it('dry runs change nothing; --resource-version is a precondition', async () => {
    expect((await run('kubectl label pod web x=y --dry-run=client')).stdout).toBe('pod/web labeled (dry run)\n');
    expect((await run('kubectl label pod web x=y --dry-run=server')).stdout).toBe('pod/web labeled (server dry run)\n');
    expect(pod(cluster, 'web')?.metadata?.labels).toEqual({ app: 'web' });
    const r = await run('kubectl label pod web x=y --resource-version=1');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'Error from server (Conflict): Operation cannot be fulfilled on pods "web": the object has been modified; please apply your changes to the latest version and try again\n',
    );
    expect(await run('kubectl label pods --all x=y --resource-version=1')).toMatchObject({ stderr: 'error: --resource-version may only be used with a single resource\n' });
  });

  it('reports kubectl\'s argument errors', async () => {
    const cases: [string, string][] = [
      ['kubectl label pod web', 'error: at least one label update is required\n'],
      ['kubectl label x=y', 'error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n'],
      ['kubectl label pod x=y web', 'error: all resources must be specified before label changes: web\n'],
      ['kubectl label pod web a=b=c', 'error: invalid label spec: a=b=c\n'],
      ['kubectl label pod web a=b a-', 'error: can not both modify and remove a label in the same command\n'],
      ['kubectl label pod nope a=b', 'Error from server (NotFound): pods "nope" not found\n'],
      ['kubectl label pods --all -l a=b c=d', 'error: cannot set --all and --selector at the same time\n'],
    ];
    for (const [line, stderr] of cases) expect(await run(line), line).toMatchObject({ stdout: '', stderr, exitCode: 1 });
  });
});

describe('kubectl annotate', () => {
  it('adds values containing "=", refuses overwrites, overwrites and removes', async () => {
    expect(await run("kubectl annotate pod web description='a=b c' owner=ops")).toMatchObject({ stdout: 'pod/web annotated\n', exitCode: 0 });
    expect(pod(cluster, 'web')?.metadata?.annotations).toEqual({ description: 'a=b c', owner: 'ops' });
    expect(await run('kubectl annotate pod web owner=dev')).toMatchObject({
      stderr: "error: --overwrite is false but found the following declared annotation(s): 'owner' already has a value (ops)\n",
      exitCode: 1,
    });
    expect((await run('kubectl annotate pod web owner=dev --overwrite')).stdout).toBe('pod/web annotated\n');
    expect((await run('kubectl annotate pod web owner-')).stdout).toBe('pod/web annotated\n');
    expect(pod(cluster, 'web')?.metadata?.annotations).toEqual({ description: 'a=b c' });
    expect((await run('kubectl annotate pod web --list')).stdout).toBe('description=a=b c\n');
    expect((await run('kubectl annotate pods --all note=x -o name')).stdout).toBe('pod/db\npod/web\n');
  });

  it('reports kubectl\'s argument errors', async () => {
    expect(await run('kubectl annotate pod web')).toMatchObject({ stderr: 'error: at least one annotation update is required\n', exitCode: 1 });
    expect(await run('kubectl annotate pod web a=1 a-')).toMatchObject({
      stderr: 'error: can not both modify and remove the following annotation(s) in the same command: a\n',
      exitCode: 1,
    });
    expect(await run('kubectl annotate pod web --list -o yaml')).toMatchObject({ stderr: 'error: --list and --output may not be specified together\n', exitCode: 1 });
  });
});
