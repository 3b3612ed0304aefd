import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster, create } from '../testing';

let cluster: Cluster;
beforeEach(async () => {
  cluster = await commandTestCluster();
  // jane may read pods in "default", and nothing else.
  create(cluster, `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-reader, namespace: default}
rules:
- {apiGroups: [""], resources: [pods], verbs: [get, list]}
`);
  create(cluster, `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: jane-reads-pods, namespace: default}
subjects:
- {kind: User, name: jane, apiGroup: rbac.authorization.k8s.io}
roleRef: {kind: Role, name: pod-reader, apiGroup: rbac.authorization.k8s.io}
`);
});
afterEach(async () => {
  await cluster.close();
});

const run = (line: string) => kubectl(cluster, line);

describe('kubectl auth can-i', () => {
  it('answers yes for the admin and exits 0', async () => {
    expect(await run('kubectl auth can-i create deployments.apps')).toMatchObject({ stdout: 'yes\n', stderr: '', exitCode: 0 });
    expect(await run("kubectl auth can-i '*' '*'")).toMatchObject({ stdout: 'yes\n', exitCode: 0 });
  });

  it('answers for the impersonated user with --as: yes, or no with exit code 1', async () => {
    expect(await run('kubectl auth can-i get pods --as jane')).toMatchObject({ stdout: 'yes\n', stderr: '', exitCode: 0 });
    expect(await run('kubectl auth can-i list pods/web --as=jane')).toMatchObject({ stdout: 'yes\n', exitCode: 0 });
    expect(await run('kubectl auth can-i delete pods --as jane')).toMatchObject({ stdout: 'no\n', stderr: '', exitCode: 1 });
    expect(await run('kubectl auth can-i get pods --as jane -n kube-system')).toMatchObject({ stdout: 'no\n', exitCode: 1 });
    expect(await run('kubectl auth can-i get pods --as jane -A')).toMatchObject({ stdout: 'no\n', exitCode: 1 });
    expect(await run('kubectl auth can-i delete pods --as jane -q')).toMatchObject({ stdout: '', exitCode: 1 });
    expect(await run('kubectl auth can-i get /healthz --as jane')).toMatchObject({ stdout: 'yes\n', exitCode: 0 });
  });

  it('prints kubectl\'s warnings for cluster-scoped resources, unknown verbs and unknown types', async () => {
    expect(await run('kubectl auth can-i get nodes --as jane')).toMatchObject({
      stdout: 'no\n',
      stderr: "Warning: resource 'nodes' is not namespace scoped\n\n",
      exitCode: 1,
    });
    expect(await run('kubectl auth can-i frobnicate pods')).toMatchObject({ stdout: 'yes\n', stderr: "Warning: verb 'frobnicate' is not a known verb\n\n" });
    expect(await run('kubectl auth can-i get gizmos --as jane')).toMatchObject({ stdout: 'no\n', stderr: "Warning: the server doesn't have a resource type 'gizmos'\n\n" });
  });

  it('--list prints the rules as kubectl\'s table', async () => {
    const r = await run('kubectl auth can-i --list --as jane');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^Resources {3,}Non-Resource URLs {3}Resource Names {3}Verbs$/);
    expect(lines).toContainEqual(expect.stringMatching(/^pods {3,}\[\] {3,}\[\] {3,}\[get list\]$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ +\[\/healthz\] +\[\] +\[get\]$/));
    expect((await run('kubectl auth can-i --list --as jane --no-headers')).stdout.split('\n')[0]).not.toMatch(/^Resources/);
  });

  it('reports kubectl\'s argument errors', async () => {
    expect(await run('kubectl auth can-i get')).toMatchObject({
      stderr: "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.\n",
      exitCode: 1,
    });
    expect(await run('kubectl auth can-i --list pods')).toMatchObject({ stderr: 'error: list option must be specified with no arguments\n', exitCode: 1 });
    expect(await run('kubectl auth can-i get pods --no-headers')).toMatchObject({ stderr: 'error: --no-headers cannot be set without --list specified\n', exitCode: 1 });
  });
});
