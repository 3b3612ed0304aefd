import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import type { KubeConfig } from '../cli/command';
import { kubectl } from '../cli/testing';
import { commandTestCluster } from '../testing';

let cluster: Cluster;
beforeEach(async () => {
  cluster = await commandTestCluster();
});
afterEach(async () => {
  await cluster.close();
});

const twoContexts = (): KubeConfig => ({
  currentContext: 'kubeplay',
  contexts: [
    { name: 'kubeplay', cluster: 'kubeplay', user: 'admin' },
    { name: 'jane@kubeplay', cluster: 'kubeplay', user: 'jane', namespace: 'team-a' },
  ],
});

describe('kubectl config', () => {
  it('get-contexts prints the table kubectl prints (sorted, * for the current one, padded empty NAMESPACE)', async () => {
    const r = await kubectl(cluster, 'kubectl config get-contexts', { kubeconfig: twoContexts() });
    expect(r.stdout).toBe(
      'CURRENT   NAME            CLUSTER    AUTHINFO   NAMESPACE\n          jane@kubeplay   kubeplay   jane       team-a\n*         kubeplay        kubeplay   admin      \n',
    );
    expect((await kubectl(cluster, 'kubectl config get-contexts -o name', { kubeconfig: twoContexts() })).stdout).toBe('jane@kubeplay\nkubeplay\n');
    expect(await kubectl(cluster, 'kubectl config get-contexts nope', { kubeconfig: twoContexts() })).toMatchObject({
      stdout: 'CURRENT   NAME   CLUSTER   AUTHINFO   NAMESPACE\n',
      stderr: 'error: context nope not found\n',
      exitCode: 1,
    });
    expect(await kubectl(cluster, 'kubectl config get-contexts -o yaml')).toMatchObject({
      stderr: 'error: --output yaml is not available in kubectl config get-contexts; resetting to default output format\n',
      exitCode: 1,
    });
  });

  it('set-context --current --namespace changes the namespace later commands use', async () => {
    await kubectl(cluster, 'kubectl create namespace team-b');
    const set = await kubectl(cluster, 'kubectl config set-context --current --namespace=team-b');
    expect(set).toMatchObject({ stdout: 'Context "kubeplay" modified.\n', exitCode: 0 });
    expect(set.kubeconfig.contexts[0]).toEqual({ name: 'kubeplay', cluster: 'kubeplay', user: 'admin', namespace: 'team-b' });
    expect((await kubectl(cluster, 'kubectl create configmap settings --from-literal=a=b', { kubeconfig: set.kubeconfig })).exitCode).toBe(0);
    expect(cluster.client.configMaps.get('settings', { namespace: 'team-b' }).data).toEqual({ a: 'b' });
    const listed = await kubectl(cluster, 'kubectl config get-contexts', { kubeconfig: set.kubeconfig });
    expect(listed.stdout).toBe('CURRENT   NAME       CLUSTER    AUTHINFO   NAMESPACE\n*         kubeplay   kubeplay   admin      team-b\n');
  });

  it('set-context creates contexts; use-context and current-context switch and show them', async () => {
    const created = await kubectl(cluster, 'kubectl config set-context dev --cluster=kubeplay --user=admin --namespace=dev');
    expect(created.stdout).toBe('Context "dev" created.\n');
    const used = await kubectl(cluster, 'kubectl config use-context dev', { kubeconfig: created.kubeconfig });
    expect(used).toMatchObject({ stdout: 'Switched to context "dev".\n', exitCode: 0 });
    expect((await kubectl(cluster, 'kubectl config current-context', { kubeconfig: used.kubeconfig })).stdout).toBe('dev\n');
    expect(await kubectl(cluster, 'kubectl config use-context nope')).toMatchObject({ stderr: 'error: no context exists with the name: "nope"\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl config set-context')).toMatchObject({ stderr: 'error: you must specify a non-empty context name or --current\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl config set-context x --current')).toMatchObject({ stderr: 'error: you cannot specify both a context name and --current\n', exitCode: 1 });
    const noArgs = await kubectl(cluster, 'kubectl config use-context');
    expect(noArgs.stdout).toContain('Usage:\n  kubectl config use-context CONTEXT_NAME [options]\n');
    expect(noArgs).toMatchObject({ stderr: 'error: Unexpected args: []\n', exitCode: 1 });
  });

  it('view prints the kubeconfig with secrets redacted; --minify keeps the current context', async () => {
    const r = await kubectl(cluster, 'kubectl config view --minify', { kubeconfig: twoContexts() });
    expect(r.stdout).toBe(`apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: DATA+OMITTED
    server: https://127.0.0.1:6443
  name: kubeplay
contexts:
- context:
    cluster: kubeplay
    user: admin
  name: kubeplay
current-context: kubeplay
kind: Config
preferences: {}
users:
- name: admin
  user:
    client-certificate-data: DATA+OMITTED
    client-key-data: DATA+OMITTED
`);
    const names = await kubectl(cluster, "kubectl config view -o jsonpath='{.contexts[*].name}'", { kubeconfig: twoContexts() });
    expect(names.stdout).toBe('jane@kubeplay kubeplay\n');
  });
});

describe('kubectl cluster-info', () => {
  it('prints the control plane address and kubectl\'s hint', async () => {
    expect(await kubectl(cluster, 'kubectl cluster-info')).toMatchObject({
      stdout: "Kubernetes control plane is running at https://127.0.0.1:6443\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
      stderr: '',
      exitCode: 0,
    });
  });

  it('lists kube-system services labelled kubernetes.io/cluster-service=true', async () => {
    cluster.client.services.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns', namespace: 'kube-system', labels: { 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' } },
      spec: { ports: [{ name: 'dns', port: 53, protocol: 'UDP' }] },
    });
    expect((await kubectl(cluster, 'kubectl cluster-info')).stdout).toBe(
      "Kubernetes control plane is running at https://127.0.0.1:6443\nCoreDNS is running at https://127.0.0.1:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
    );
  });
});
