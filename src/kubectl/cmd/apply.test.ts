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

const deployment = (replicas: number, image = 'nginx:1.27') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers: [{name: nginx, image: '${image}'}]
`;
const heredoc = (yaml: string, flags = '') => `kubectl apply${flags} -f - <<EOF\n${yaml}EOF`;

describe('kubectl apply -f (client-side)', () => {
  it('creates, then configures, then leaves unchanged', async () => {
    expect(await kubectl(cluster, heredoc(deployment(2)))).toMatchObject({ stdout: 'deployment.apps/nginx created\n', stderr: '', exitCode: 0 });
    expect(await kubectl(cluster, heredoc(deployment(3)))).toMatchObject({ stdout: 'deployment.apps/nginx configured\n', stderr: '', exitCode: 0 });
    expect(await kubectl(cluster, heredoc(deployment(3)))).toMatchObject({ stdout: 'deployment.apps/nginx unchanged\n', stderr: '', exitCode: 0 });
    const live = cluster.client.deployments.get('nginx', { namespace: 'default' });
    expect(live.spec?.replicas).toBe(3);
    expect(live.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toContain('"replicas":3');
    expect(live.metadata.managedFields?.map((m) => m.manager)).toEqual(['kubectl-client-side-apply']);
  });

  it('applies a file the page offers by name (a gallery sample), and refuses any other path as kubectl does', async () => {
    const files = { 'samples/nginx-deployment.yaml': deployment(2) };
    expect(await kubectl(cluster, 'kubectl apply -f samples/nginx-deployment.yaml', { files })).toMatchObject({ stdout: 'deployment.apps/nginx created\n', exitCode: 0 });
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).spec?.replicas).toBe(2);
    expect(await kubectl(cluster, 'kubectl apply -f samples/nope.yaml', { files })).toMatchObject({
      stdout: '',
      stderr: 'error: the path "samples/nope.yaml" does not exist\n',
      exitCode: 1,
    });
  });

  it('applies a multi-document heredoc one line per object, in order', async () => {
    const yaml = `apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {mode: fast}
---
${deployment(1)}`;
    const r = await kubectl(cluster, heredoc(yaml));
    expect(r).toMatchObject({ stdout: 'namespace/shop created\nconfigmap/settings created\ndeployment.apps/nginx created\n', stderr: '', exitCode: 0 });
    expect(cluster.client.configMaps.get('settings', { namespace: 'shop' }).data).toEqual({ mode: 'fast' });
  });

  it('applies the editor buffer with -f editor, and refuses other paths as kubectl does for a missing file', async () => {
    expect(await kubectl(cluster, 'kubectl apply -f editor', { editorBuffer: deployment(1) })).toMatchObject({ stdout: 'deployment.apps/nginx created\n', exitCode: 0 });
    expect(await kubectl(cluster, 'kubectl apply -f nginx.yaml')).toMatchObject({ stdout: '', stderr: 'error: the path "nginx.yaml" does not exist\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl apply -f editor')).toMatchObject({ stderr: 'error: the path "editor" does not exist\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl apply')).toMatchObject({ stderr: 'error: must specify one of -f and -k\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl apply deployment')).toMatchObject({
      stderr: "error: Unexpected args: [deployment]\nSee 'kubectl apply -h' for help and examples\n",
      exitCode: 1,
    });
  });

  it('warns when the live object lacks the last-applied annotation, then patches it', async () => {
    await kubectl(cluster, 'kubectl create deployment nginx --image=nginx:1.27');
    const r = await kubectl(cluster, heredoc(deployment(1)));
    expect(r.stdout).toBe('deployment.apps/nginx configured\n');
    expect(r.stderr).toBe(
      'Warning: resource deployments/nginx is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n',
    );
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).metadata.annotations).toHaveProperty(['kubectl.kubernetes.io/last-applied-configuration']);
  });

  it('dry runs: client prints what it would do and sends nothing; server validates without persisting', async () => {
    expect(await kubectl(cluster, heredoc(deployment(2), ' --dry-run=client'))).toMatchObject({ stdout: 'deployment.apps/nginx created (dry run)\n', exitCode: 0 });
    expect(await kubectl(cluster, heredoc(deployment(2), ' --dry-run=server'))).toMatchObject({ stdout: 'deployment.apps/nginx created (server dry run)\n', exitCode: 0 });
    expect(cluster.client.deployments.list({ namespace: 'default' }).items).toHaveLength(0);
    await kubectl(cluster, heredoc(deployment(2)));
    expect(await kubectl(cluster, heredoc(deployment(5), ' --dry-run=client'))).toMatchObject({ stdout: 'deployment.apps/nginx configured (dry run)\n' });
    expect(await kubectl(cluster, heredoc(deployment(5), ' --dry-run=server'))).toMatchObject({ stdout: 'deployment.apps/nginx configured (server dry run)\n' });
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).spec?.replicas).toBe(2);
  });

  it('-o yaml of a client dry run prints the object with its last-applied annotation; -o name prints the name', async () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  a: "1"\n';
    const r = await kubectl(cluster, heredoc(cm, ' --dry-run=client -o yaml'));
    expect(r.stdout).toContain('kubectl.kubernetes.io/last-applied-configuration: |\n');
    expect(r.stdout).toContain('  name: demo\n  namespace: default\n');
    expect((await kubectl(cluster, heredoc(cm, ' -o name'))).stdout).toBe('configmap/demo\n');
  });

  it('reports a kind the server does not serve, still applies the rest, and exits 1', async () => {
    const yaml = `apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: hello
---
${deployment(1)}`;
    expect(await kubectl(cluster, heredoc(yaml))).toMatchObject({
      stdout: 'deployment.apps/nginx created\n',
      stderr:
        'error: resource mapping not found for name: "hello" namespace: "" from "STDIN": no matches for kind "CronJob" in version "batch/v1beta1"\nensure CRDs are installed first\n',
      exitCode: 1,
    });
  });

  it('refuses generateName, and prints an Invalid error as kubectl does', async () => {
    const gen = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: cfg-\n';
    expect(await kubectl(cluster, heredoc(gen))).toMatchObject({ stderr: 'error: from cfg-: cannot use generate name with apply\n', exitCode: 1 });
    const bad = deployment(1).replace('{matchLabels: {app: nginx}}', '{matchLabels: {app: other}}');
    const r = await kubectl(cluster, heredoc(bad));
    expect(r.exitCode).toBe(1);
    // kubectl's checkErr form for Invalid: details.kind and name, then the cause (the value as the server renders it).
    expect(r.stderr).toMatch(/^The Deployment "nginx" is invalid: spec\.template\.metadata\.labels: Invalid value: .*: `selector` does not match template `labels`\n$/);
  });

  it('reports every failing object, each on its own line without the error: prefix', async () => {
    await kubectl(cluster, 'kubectl create namespace locked');
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: a-}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: b-}\n';
    expect(await kubectl(cluster, heredoc(yaml))).toMatchObject({
      stderr: 'from a-: cannot use generate name with apply\nfrom b-: cannot use generate name with apply\n',
      exitCode: 1,
    });
  });
});

describe('kubectl apply --server-side', () => {
  it('applies as the field manager "kubectl" and prints serverside-applied', async () => {
    expect(await kubectl(cluster, heredoc(deployment(2), ' --server-side'))).toMatchObject({ stdout: 'deployment.apps/nginx serverside-applied\n', stderr: '', exitCode: 0 });
    const live = cluster.client.deployments.get('nginx', { namespace: 'default' });
    expect(live.metadata.managedFields?.map((m) => [m.manager, m.operation])).toEqual([['kubectl', 'Apply']]);
  });

  it('fails on a conflict with kubectl\'s explanation, and --force-conflicts takes the field over', async () => {
    await kubectl(cluster, 'kubectl create deployment nginx --image=nginx:1.27');
    const r = await kubectl(cluster, heredoc(deployment(5), ' --server-side'));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`error: Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.replicas
Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts
`);
    expect(await kubectl(cluster, heredoc(deployment(5), ' --server-side --force-conflicts'))).toMatchObject({ stdout: 'deployment.apps/nginx serverside-applied\n', exitCode: 0 });
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).spec?.replicas).toBe(5);
  });

  it('refuses flag combinations kubectl refuses', async () => {
    expect(await kubectl(cluster, heredoc(deployment(1), ' --force-conflicts'))).toMatchObject({ stderr: 'error: --force-conflicts only works with --server-side\n', exitCode: 1 });
    expect(await kubectl(cluster, heredoc(deployment(1), ' --server-side --dry-run=client'))).toMatchObject({
      stderr: "error: --dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)\n",
      exitCode: 1,
    });
  });
});
