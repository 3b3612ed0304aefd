import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster, create, podYaml } from '../testing';

let cluster: Cluster;
beforeEach(async () => {
  cluster = await commandTestCluster();
});
afterEach(async () => {
  await cluster.close();
});

const run = (line: string) => kubectl(cluster, line);

describe('kubectl expose', () => {
  it('exposes a deployment with its selector and container port', async () => {
    await run('kubectl create deployment nginx --image=nginx:1.27 --port=80');
    expect(await run('kubectl expose deployment nginx')).toMatchObject({ stdout: 'service/nginx exposed\n', stderr: '', exitCode: 0 });
    const svc = cluster.client.services.get('nginx', { namespace: 'default' });
    expect(svc.spec?.selector).toEqual({ app: 'nginx' });
    expect(svc.metadata.labels).toEqual({ app: 'nginx' });
    expect(svc.spec?.ports).toMatchObject([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(svc.spec?.type).toBe('ClusterIP');
    expect(svc.metadata.managedFields?.[0]?.manager).toBe('kubectl-expose');
  });

  it('builds the Service kubectl builds for --port, --target-port, --name and --type', async () => {
    await run('kubectl create deployment nginx --image=nginx:1.27');
    const r = await run('kubectl expose deploy/nginx --port=8080 --target-port=80 --name=web --type=NodePort --dry-run=client -o yaml');
    expect(r.stdout).toBe(`apiVersion: v1
kind: Service
metadata:
  creationTimestamp: null
  labels:
    app: nginx
  name: web
spec:
  ports:
  - port: 8080
    protocol: TCP
    targetPort: 80
  selector:
    app: nginx
  type: NodePort
status:
  loadBalancer: {}
`);
    // A client-side dry run creates nothing: only the API server's own default/kubernetes Service is there.
    expect(cluster.client.services.list({ namespace: 'default' }).items.map((s) => s.metadata.name)).toEqual(['kubernetes']);
  });

  it('exposes a pod by its labels, naming several ports port-1, port-2', async () => {
    create(cluster, podYaml('web', 'node-1').replace("image: 'nginx:1.27'}", "image: 'nginx:1.27', ports: [{containerPort: 80}, {containerPort: 443}]}"));
    expect((await run('kubectl expose pod web')).stdout).toBe('service/web exposed\n');
    expect(cluster.client.services.get('web', { namespace: 'default' }).spec?.ports).toMatchObject([
      { name: 'port-1', port: 80, targetPort: 80 },
      { name: 'port-2', port: 443, targetPort: 443 },
    ]);
  });

  it('reports what cannot be exposed', async () => {
    create(cluster, podYaml('bare', 'node-1'));
    await run('kubectl create configmap c --from-literal=a=b');
    expect(await run('kubectl expose pod bare')).toMatchObject({ stderr: "error: couldn't find port via --port flag or introspection\n", exitCode: 1 });
    expect(await run('kubectl expose configmap c --port=80')).toMatchObject({ stderr: 'error: cannot expose a ConfigMap\n', exitCode: 1 });
    expect(await run('kubectl expose deployment nope --port=80')).toMatchObject({ stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n', exitCode: 1 });
  });
});
