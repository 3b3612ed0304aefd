import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

/** A bare API server (no controllers): set only changes the objects. */
async function apiOnly(): Promise<Cluster> {
  const c = await createCluster({ seed: 5, controllers: false, scheduler: false, nodes: 0 });
  await kubectl(c, 'kubectl apply -f -', {
    stdin: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      initContainers: [{name: init, image: 'busybox:1.36'}]
      containers:
      - {name: nginx, image: 'nginx:1.14.2', env: [{name: MODE, value: prod}, {name: FROM_CM, valueFrom: {configMapKeyRef: {name: settings, key: level}}}]}
      - {name: sidecar, image: 'busybox:1.36'}
`,
  });
  return c;
}

function spec(c: Cluster) {
  return c.client.deployments.get('web', { namespace: 'default' }).spec!.template.spec!;
}

describe('kubectl set image', () => {
  it('updates the named containers and says so once per object', async () => {
    cluster = await apiOnly();
    expect(await kubectl(cluster, 'kubectl set image deployment/web nginx=nginx:1.16.1 init=busybox:1.37')).toMatchObject({
      exitCode: 0,
      stdout: 'deployment.apps/web image updated\n',
      stderr: '',
    });
    expect(spec(cluster).containers.map((c) => c.image)).toEqual(['nginx:1.16.1', 'busybox:1.36']);
    expect(spec(cluster).initContainers!.map((c) => c.image)).toEqual(['busybox:1.37']);
    const managers = cluster.client.deployments.get('web', { namespace: 'default' }).metadata!.managedFields!.map((m) => m.manager);
    expect(managers).toContain('kubectl-set');
    // Nothing to change: nothing printed.
    expect(await kubectl(cluster, 'kubectl set image deployment/web nginx=nginx:1.16.1')).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(await kubectl(cluster, 'kubectl set image deploy web *=alpine:3')).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/web image updated\n' });
    expect(spec(cluster).containers.map((c) => c.image)).toEqual(['alpine:3', 'alpine:3']);
  });

  it("reports kubectl's errors", async () => {
    cluster = await apiOnly();
    expect(await kubectl(cluster, 'kubectl set image deployment/web nginx=nginx:2 x=y')).toMatchObject({
      exitCode: 1,
      stdout: 'deployment.apps/web image updated\n',
      stderr: 'error: unable to find container named "x"\n',
    });
    expect(await kubectl(cluster, 'kubectl set image deployment/web x=y')).toMatchObject({ exitCode: 1, stdout: '', stderr: 'error: unable to find container named "x"\n' });
    expect(await kubectl(cluster, 'kubectl set image deployment/nope x=y')).toMatchObject({ exitCode: 1, stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n' });
    expect(await kubectl(cluster, 'kubectl set image deployment/web a=b c')).toMatchObject({ exitCode: 1, stderr: 'error: all resources must be specified before image changes: c\n' });
    expect(await kubectl(cluster, 'kubectl set image deployment/web')).toMatchObject({ exitCode: 1, stderr: 'error: at least one image update is required\n' });
    expect(await kubectl(cluster, 'kubectl set image nginx=x')).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/^error: You must provide one or more resources by argument or filename\.\n/) });
    await kubectl(cluster, 'kubectl create configmap settings --from-literal=level=info');
    expect(await kubectl(cluster, 'kubectl set image configmap/settings a=b')).toMatchObject({
      exitCode: 1,
      stderr: 'error: configmaps/settings the object is not a pod or does not have a pod template: *v1.ConfigMap\n',
    });
  });

  it('--record writes the change-cause; dry runs change nothing', async () => {
    cluster = await apiOnly();
    const recorded = await kubectl(cluster, 'kubectl set image deployment/web nginx=nginx:1.16.1 --record');
    expect(recorded.stderr).toBe('Flag --record has been deprecated, --record will be removed in the future\n');
    expect(cluster.client.deployments.get('web', { namespace: 'default' }).metadata!.annotations!['kubernetes.io/change-cause']).toBe(
      'kubectl set image deployment/web nginx=nginx:1.16.1 --record=true',
    );
    expect(await kubectl(cluster, 'kubectl set image deployment/web nginx=nginx:9 --dry-run=server')).toMatchObject({ stdout: 'deployment.apps/web image updated (server dry run)\n' });
    const client = await kubectl(cluster, 'kubectl set image deployment/web nginx=nginx:9 --dry-run=client -o jsonpath={.spec.template.spec.containers[0].image}');
    expect(client.stdout).toBe('nginx:9\n');
    expect(spec(cluster).containers[0].image).toBe('nginx:1.16.1');
  });
});

describe('kubectl set env', () => {
  it('sets, replaces and removes variables, in every container or those -c matches', async () => {
    cluster = await apiOnly();
    expect(await kubectl(cluster, 'kubectl set env deployment/web LEVEL=debug MODE=dev')).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/web env updated\n' });
    expect(spec(cluster).containers[0].env).toEqual([
      { name: 'MODE', value: 'dev' },
      { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'settings', key: 'level' } } },
      { name: 'LEVEL', value: 'debug' },
    ]);
    const added = [
      { name: 'LEVEL', value: 'debug' },
      { name: 'MODE', value: 'dev' },
    ];
    expect(spec(cluster).containers[1].env).toEqual(added);
    expect(spec(cluster).initContainers![0].env).toEqual(added);
    expect(await kubectl(cluster, 'kubectl set env deployment/web -c side* LEVEL-')).toMatchObject({ stdout: 'deployment.apps/web env updated\n' });
    expect(spec(cluster).containers[1].env).toEqual([{ name: 'MODE', value: 'dev' }]);
    expect(spec(cluster).containers[0].env).toHaveLength(3);
    expect(await kubectl(cluster, 'kubectl set env deployment/web -c nope A=1')).toMatchObject({ exitCode: 0, stdout: '', stderr: 'Warning: Deployment/web does not have any containers matching "nope"\n' });
  });

  it('--list prints the environment, --resolve the referenced values', async () => {
    cluster = await apiOnly();
    expect((await kubectl(cluster, 'kubectl set env deployment/web --list -c nginx')).stdout).toBe('# Deployment web, container nginx\nMODE=prod\n# FROM_CM from configmap settings, key level\n');
    const unresolved = await kubectl(cluster, 'kubectl set env deployment/web --list --resolve -c nginx');
    expect(unresolved.stderr).toBe('error retrieving reference for FROM_CM: configmaps "settings" not found\n');
    await kubectl(cluster, 'kubectl create configmap settings --from-literal=level=verbose');
    expect((await kubectl(cluster, 'kubectl set env deployment/web --list --resolve -c nginx')).stdout).toBe('# Deployment web, container nginx\nMODE=prod\nFROM_CM=verbose\n');
  });

  it('imports keys of a ConfigMap or Secret with --from, --keys and --prefix', async () => {
    cluster = await apiOnly();
    await kubectl(cluster, 'kubectl create configmap app --from-literal=db-host=db --from-literal=port=5432');
    const r = await kubectl(cluster, 'kubectl set env deployment/web -c sidecar --from=configmap/app --prefix=APP_');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/web env updated\n', stderr: 'Warning: key db-host transferred to DB_HOST\nWarning: key port transferred to PORT\n' });
    expect(spec(cluster).containers[1].env).toEqual([
      { name: 'APP_DB_HOST', valueFrom: { configMapKeyRef: { name: 'app', key: 'db-host' } } },
      { name: 'APP_PORT', valueFrom: { configMapKeyRef: { name: 'app', key: 'port' } } },
    ]);
    await kubectl(cluster, 'kubectl create secret generic creds --from-literal=PASSWORD=s3cret --from-literal=USER=me');
    await kubectl(cluster, 'kubectl set env deployment/web -c init --from=secret/creds --keys=USER');
    expect(spec(cluster).initContainers![0].env).toEqual([{ name: 'USER', valueFrom: { secretKeyRef: { name: 'creds', key: 'USER' } } }]);
  });

  it("reports kubectl's errors", async () => {
    cluster = await apiOnly();
    expect(await kubectl(cluster, 'kubectl set env deployment/web 1A=x')).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/^error: "1A" is not a valid key name: a valid environment variable name must consist of/) });
    expect(await kubectl(cluster, 'kubectl set env deployment/web A=1 A-')).toMatchObject({ exitCode: 1, stderr: 'error: can not both modify and remove the same environment variable in the same command\n' });
    expect(await kubectl(cluster, 'kubectl set env deployment/web A=1 pods')).toMatchObject({ exitCode: 1, stderr: 'error: all resources must be specified before environment changes: deployment/web A=1 pods\n' });
    expect(await kubectl(cluster, 'kubectl set env A=1')).toMatchObject({ exitCode: 1, stderr: 'error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n' });
    expect(await kubectl(cluster, 'kubectl set env deployment/web --list -o yaml')).toMatchObject({ exitCode: 1, stderr: 'error: --list and --output may not be specified together\n' });
    expect(await kubectl(cluster, 'kubectl set env deployment/web MODE=x --overwrite=false')).toMatchObject({ exitCode: 1, stderr: "error: deployments/web 'MODE' already has a value (prod), and --overwrite is false\n" });
    expect(await kubectl(cluster, 'kubectl set env deployment/web --from=deployment/web')).toMatchObject({ exitCode: 1, stderr: 'error: unsupported resource specified in --from\n' });
  });
});
