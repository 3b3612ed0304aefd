import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster, create, podYaml } from '../testing';

let cluster: Cluster;
afterEach(async () => {
  await cluster.close();
});

describe('kubectl scale', () => {
  beforeEach(async () => {
    cluster = await commandTestCluster();
    await kubectl(cluster, 'kubectl create deployment nginx --image=nginx:1.27');
    await kubectl(cluster, 'kubectl create deployment redis --image=redis');
  });
  const replicas = (name: string) => cluster.client.deployments.get(name, { namespace: 'default' }).spec?.replicas;

  it('scales one or several objects through the scale subresource', async () => {
    expect(await kubectl(cluster, 'kubectl scale deployment nginx --replicas=3')).toMatchObject({ stdout: 'deployment.apps/nginx scaled\n', stderr: '', exitCode: 0 });
    expect(replicas('nginx')).toBe(3);
    expect((await kubectl(cluster, 'kubectl scale --replicas=0 deploy/nginx deploy/redis')).stdout).toBe('deployment.apps/nginx scaled\ndeployment.apps/redis scaled\n');
    expect([replicas('nginx'), replicas('redis')]).toEqual([0, 0]);
    expect((await kubectl(cluster, 'kubectl scale deployments --all --replicas=2 -o name')).stdout).toBe('deployment.apps/nginx\ndeployment.apps/redis\n');
  });

  it('checks --current-replicas and --resource-version first', async () => {
    expect(await kubectl(cluster, 'kubectl scale deployment nginx --replicas=4 --current-replicas=2')).toMatchObject({ stderr: 'error: Expected replicas to be 2, was 1\n', exitCode: 1 });
    expect((await kubectl(cluster, 'kubectl scale deployment nginx --replicas=4 --current-replicas=1')).stdout).toBe('deployment.apps/nginx scaled\n');
    expect(replicas('nginx')).toBe(4);
    expect(await kubectl(cluster, 'kubectl scale deployment nginx --replicas=4 --resource-version=1')).toMatchObject({ stderr: expect.stringMatching(/^error: Expected resource version to be 1, was \d+\n$/), exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl scale deployments --all --replicas=1 --resource-version=1')).toMatchObject({ stderr: 'error: cannot use --resource-version with multiple resources\n' });
  });

  it('a client dry run changes nothing; missing objects are reported after the others', async () => {
    expect((await kubectl(cluster, 'kubectl scale deployment nginx --replicas=5 --dry-run=client')).stdout).toBe('deployment.apps/nginx scaled (dry run)\n');
    expect(replicas('nginx')).toBe(1);
    expect(await kubectl(cluster, 'kubectl scale deployment/nginx deployment/nope --replicas=2')).toMatchObject({
      stdout: 'deployment.apps/nginx scaled\n',
      stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n',
      exitCode: 1,
    });
    expect(await kubectl(cluster, 'kubectl scale deployment nginx')).toMatchObject({ stderr: 'error: required flag(s) "replicas" not set\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl scale deployment nginx --replicas=-1')).toMatchObject({
      stderr: 'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n',
    });
  });

  it('refuses kinds without a scale subresource', async () => {
    create(cluster, podYaml('web', 'node-1'));
    expect(await kubectl(cluster, 'kubectl scale pod web --replicas=2')).toMatchObject({ stderr: 'Error from server (NotFound): the server could not find the requested resource\n', exitCode: 1 });
  });
});

describe('kubectl scale --timeout', () => {
  it('waits on the virtual clock until the Deployment reports the new size', async () => {
    cluster = await createCluster({ seed: 7 });
    await kubectl(cluster, 'kubectl create deployment web --image=nginx:1.27');
    cluster.runUntil(() => cluster.client.deployments.get('web', { namespace: 'default' }).status?.replicas === 1, 60_000);
    const start = cluster.clock.now();
    const r = await kubectl(cluster, 'kubectl scale deployment web --replicas=3 --timeout=2m');
    expect(r).toMatchObject({ stdout: 'deployment.apps/web scaled\n', exitCode: 0 });
    expect(cluster.clock.now()).toBeGreaterThan(start);
    expect(cluster.client.deployments.get('web', { namespace: 'default' }).status?.replicas).toBe(3);
  });
});

describe('kubectl autoscale', () => {
  beforeEach(async () => {
    cluster = await commandTestCluster();
    await kubectl(cluster, 'kubectl create deployment nginx --image=nginx:1.27');
  });

  it('creates a HorizontalPodAutoscaler through autoscaling/v1, stored as v2', async () => {
    expect(await kubectl(cluster, 'kubectl autoscale deployment nginx --min=2 --max=5 --cpu-percent=80')).toMatchObject({
      stdout: 'horizontalpodautoscaler.autoscaling/nginx autoscaled\n',
      stderr: '',
      exitCode: 0,
    });
    const hpa = cluster.client.resource({ group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' }).get('nginx', { namespace: 'default' });
    expect(hpa.spec).toMatchObject({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
  });

  it('prints the autoscaling/v1 object kubectl builds for a client dry run', async () => {
    const r = await kubectl(cluster, 'kubectl autoscale deploy/nginx --max=3 --name=web-hpa --dry-run=client -o yaml');
    expect(r.stdout).toBe(`apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  creationTimestamp: null
  name: web-hpa
spec:
  maxReplicas: 3
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: nginx
status:
  currentReplicas: 0
  desiredReplicas: 0
`);
    expect((await kubectl(cluster, 'kubectl autoscale deploy/nginx --max=3 --dry-run=client')).stdout).toBe('horizontalpodautoscaler.autoscaling/nginx created (dry run)\n');
  });

  it('reports kubectl\'s errors', async () => {
    create(cluster, podYaml('web', 'node-1'));
    const cases: [string, string][] = [
      ['kubectl autoscale deployment nginx', 'error: required flag(s) "max" not set\n'],
      ['kubectl autoscale deployment nginx --max=0', 'error: --max=MAXPODS is required and must be at least 1, max: 0\n'],
      ['kubectl autoscale deployment nginx --max=2 --min=3', 'error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: 2, min: 3\n'],
      ['kubectl autoscale pod web --max=3', 'error: cannot autoscale a Pod: could not find scale subresource for /v1, Resource=pods in discovery information\n'],
    ];
    for (const [line, stderr] of cases) expect(await kubectl(cluster, line), line).toMatchObject({ stdout: '', stderr, exitCode: 1 });
  });
});
