// Every sample in the gallery is applied to a real headless cluster and must do what its title promises.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '../../../shared/api/types';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
import type { Ingress } from 'kubernetes-types/networking/v1';
import { kubectl } from '../../../kubectl/cli/testing';
import { samples } from './samples';

let h: HeadlessCluster | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface PodLike extends KubeObject {
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: { ready?: boolean; state?: { waiting?: { reason?: string } } }[];
  };
}

async function start(id: string): Promise<HeadlessCluster> {
  const sample = samples.find((s) => s.id === id);
  if (!sample) throw new Error(`no sample ${id}`);
  h = await createHeadlessCluster({ seed: 11 });
  // Let the controllers start (the serviceaccount controller creates each namespace's default ServiceAccount).
  h.cluster.runUntilIdle({ maxTimeMs: 5_000 });
  const { outcomes } = await h.client.call('api/apply', { manifest: sample.manifest });
  expect(outcomes.map((o) => (o.ok ? o.action : o.status.message))).toEqual(outcomes.map(() => 'created'));
  return h;
}

function list(resource: string, group = '', namespace?: string): PodLike[] {
  const res = h!.cluster.apiserver.handle({ verb: 'list', group, version: 'v1', resource, namespace });
  return (res.body as KubeList).items as PodLike[];
}

const pods = (namespace = 'default') => list('pods', '', namespace);
const running = (p: PodLike) => p.status?.phase === 'Running' && p.status.containerStatuses?.every((c) => c.ready);
const waitingReason = (p: PodLike) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason;

describe('the samples gallery', () => {
  it('has unique ids and titles and every manifest is accepted by the API server', async () => {
    expect(new Set(samples.map((s) => s.id)).size).toBe(samples.length);
    expect(new Set(samples.map((s) => s.title)).size).toBe(samples.length);
    for (const s of samples) {
      const c = await createHeadlessCluster({ seed: 1, nodes: 0, scheduler: false, controllers: ['serviceaccount-controller'] });
      try {
        c.cluster.runUntilIdle({ maxTimeMs: 5_000 });
        const { outcomes } = await c.client.call('api/apply', { manifest: s.manifest });
        expect(outcomes.length, s.id).toBeGreaterThan(0);
        for (const o of outcomes) expect(o.ok ? 'ok' : o.status.message, s.id).toBe('ok');
      } finally {
        await c.close();
      }
    }
  });

  it('nginx Deployment: 3 Running pods', async () => {
    const { cluster } = await start('nginx-deployment');
    expect(cluster.runUntil(() => pods().filter(running).length === 3, 120_000)).toBe(true);
  });

  it('StatefulSet: web-0, web-1, web-2 Running, one after another', async () => {
    const { cluster } = await start('statefulset');
    expect(cluster.runUntil(() => pods().filter(running).length === 3, 300_000)).toBe(true);
    expect(pods().map((p) => p.metadata.name).sort()).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it('DaemonSet: one Running pod on every node', async () => {
    const { cluster } = await start('daemonset');
    expect(cluster.runUntil(() => pods('kube-system').filter((p) => p.metadata.name?.startsWith('log-agent-') && running(p)).length === 3, 120_000)).toBe(true);
    expect(new Set(pods('kube-system').map((p) => p.spec?.nodeName)).size).toBe(3);
  });

  it('Job: completes 5 times, never more than 2 pods at once', async () => {
    const { cluster } = await start('job');
    let maxActive = 0;
    const done = cluster.runUntil(() => {
      maxActive = Math.max(maxActive, pods().filter((p) => p.status?.phase === 'Running' || p.status?.phase === 'Pending').length);
      const job = list('jobs', 'batch', 'default')[0] as KubeObject & { status?: { succeeded?: number; conditions?: { type: string; status: string }[] } };
      return !!job?.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True');
    }, 600_000);
    expect(done).toBe(true);
    expect(pods().filter((p) => p.status?.phase === 'Succeeded')).toHaveLength(5);
    expect(maxActive).toBeLessThanOrEqual(2);
  });

  it('CronJob: a Job every simulated minute', async () => {
    const { cluster } = await start('cronjob');
    cluster.advance(3 * 60_000 + 30_000);
    cluster.runUntilIdle({ maxTimeMs: 1 });
    const jobs = list('jobs', 'batch', 'default').map((j) => j.metadata.name);
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    for (const name of jobs) expect(name).toMatch(/^hello-\d+$/);
  });

  it('unschedulable pod: Pending with the scheduler saying why', async () => {
    const { cluster } = await start('unschedulable-pod');
    cluster.advance(10_000);
    const [pod] = pods();
    expect(pod.status?.phase).toBe('Pending');
    const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    expect(scheduled?.reason).toBe('Unschedulable');
    expect(scheduled?.message).toContain('Insufficient cpu');
  });

  it('crash-looping pod: CrashLoopBackOff', async () => {
    const { cluster } = await start('crash-loop-pod');
    expect(cluster.runUntil(() => waitingReason(pods()[0]) === 'CrashLoopBackOff', 120_000)).toBe(true);
  });

  it('image that does not exist: ImagePullBackOff', async () => {
    const { cluster } = await start('missing-image-pod');
    expect(cluster.runUntil(() => waitingReason(pods()[0]) === 'ImagePullBackOff', 120_000)).toBe(true);
  });

  it('Ingress: ingress-nginx publishes its address, routes / to web and /docs to docs, both backed by Running pods', async () => {
    const { cluster, client } = await start('ingress');
    expect(cluster.runUntil(() => pods().filter(running).length === 3, 120_000)).toBe(true);
    const hello = () => list('ingresses', 'networking.k8s.io', 'default').find((i) => i.metadata.name === 'hello') as unknown as Ingress;
    expect(cluster.runUntil(() => hello()?.status?.loadBalancer?.ingress?.[0]?.ip === '192.168.49.2', 10_000)).toBe(true);
    // Traffic from outside the cluster to the ingress address, routed by host and path once both backends are ready.
    const readyEndpoints = () => list('endpointslices', 'discovery.k8s.io', 'default').filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] !== 'kubernetes').flatMap((s) => (s as unknown as { endpoints?: { conditions?: { ready?: boolean } }[] }).endpoints ?? []).filter((e) => e.conditions?.ready);
    expect(cluster.runUntil(() => readyEndpoints().length === 3, 60_000)).toBe(true);
    cluster.runUntilIdle({ maxTimeMs: 1_000 });
    const get = (path: string, host: string) => client.call('net/request', { from: { outside: true }, url: `http://192.168.49.2${path}`, host });
    expect((await get('/', 'hello.example')).body).toContain('Welcome to nginx!');
    // httpd has no /docs page: its own 404 proves the request reached the docs pods.
    const docs = await get('/docs/intro', 'hello.example');
    expect(docs).toMatchObject({ status: 404, headers: { Server: expect.stringContaining('Apache/2.4') } });
    expect(docs.hops.map((hop) => hop.object?.name)).toContain('docs');
    expect((await get('/', 'other.example')).status).toBe(404);
  });

  it('HorizontalPodAutoscaler: php-apache measured at ~1% idle, scaled up when its load rises', async () => {
    const { cluster, client } = await start('hpa');
    type Hpa = PodLike & { status?: { currentReplicas?: number; currentMetrics?: { resource?: { current?: { averageUtilization?: number } } }[] } };
    const hpa = () => cluster.apiserver.handle({ verb: 'get', group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', namespace: 'default', name: 'php-apache' }).body as Hpa;
    const utilization = () => hpa()?.status?.currentMetrics?.[0]?.resource?.current?.averageUtilization;
    expect(cluster.runUntil(() => pods().filter(running).length === 1 && utilization() !== undefined, 120_000)).toBe(true);
    expect(utilization()).toBeLessThan(5);
    await client.call('sim/load', { namespace: 'default', kind: 'Deployment', name: 'php-apache', cpuMillicores: 1000 });
    expect(cluster.runUntil(() => pods().filter(running).length >= 4, 120_000)).toBe(true);
    expect(hpa().status?.currentReplicas).toBeGreaterThanOrEqual(1);
  });

  it('PersistentVolumeClaim and a Pod writing to it: the claim is provisioned, bound and attached, the pod Running', async () => {
    const { cluster } = await start('pvc-pod');
    expect(cluster.runUntil(() => pods().filter(running).length === 1, 120_000)).toBe(true);
    const claim = list('persistentvolumeclaims', '', 'default')[0] as PodLike & { spec?: { volumeName?: string; storageClassName?: string } };
    expect(claim.status?.phase).toBe('Bound');
    expect(claim.spec?.storageClassName).toBe('standard');
    const attachments = list('volumeattachments', 'storage.k8s.io') as unknown as { spec?: { nodeName?: string; source?: { persistentVolumeName?: string } }; status?: { attached?: boolean } }[];
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({ spec: { nodeName: pods()[0].spec?.nodeName, source: { persistentVolumeName: claim.spec?.volumeName } }, status: { attached: true } });
  });

  it('ConfigMap and Secret as env and files: the container sees them through exec; a missing ConfigMap is a CreateContainerConfigError', async () => {
    const { cluster } = await start('config-env-files');
    expect(cluster.runUntil(() => pods().filter(running).length === 1, 120_000)).toBe(true);
    const exec = async (line: string) => {
      const out = await kubectl(cluster, `kubectl exec config-demo -- ${line}`);
      expect(out.stderr).toBe('');
      return out.stdout;
    };
    const env = await exec('env');
    expect(env).toMatch(/^SPECIAL_LEVEL=very$/m);
    expect(env).toMatch(/^SPECIAL_TYPE=charm$/m);
    expect(env).toMatch(/^SECRET_USERNAME=my-app$/m);
    expect(await exec('ls /etc/config')).toBe('SPECIAL_LEVEL\nSPECIAL_TYPE\n');
    // The file holds the value without a newline; the console ends its last line.
    expect(await exec('cat /etc/config/SPECIAL_TYPE')).toBe('charm\n');
    expect(await exec('cat /etc/secret-volume/password')).toBe('39528$vdg7Jb\n');
    // Without its ConfigMap a new pod taking env from it cannot start its container, as on a real kubelet. (A
    // configMap volume of a missing ConfigMap is a FailedMount in ContainerCreating instead.)
    await h!.client.call('api/request', { verb: 'delete', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'special-config' });
    const manifest = 'apiVersion: v1\nkind: Pod\nmetadata: {name: config-demo-2}\nspec:\n  containers:\n  - {name: app, image: busybox:1.36, command: [sleep, "3600"], envFrom: [{configMapRef: {name: special-config}}]}\n';
    await h!.client.call('api/apply', { manifest });
    const second = () => pods().find((p) => p.metadata.name === 'config-demo-2');
    expect(cluster.runUntil(() => !!second() && waitingReason(second()!) === 'CreateContainerConfigError', 60_000)).toBe(true);
    const message = (second()!.status?.containerStatuses?.[0]?.state?.waiting as { message?: string } | undefined)?.message;
    expect(message).toBe('configmap "special-config" not found');
  });

  it('PodDisruptionBudget + drain: one disruption allowed; drain waits for replacements on the node holding two pods', async () => {
    const { cluster } = await start('pdb-drain');
    type Pdb = KubeObject & { status?: { expectedPods?: number; currentHealthy?: number; desiredHealthy?: number; disruptionsAllowed?: number; conditions?: { type: string; status: string; reason?: string }[] } };
    const pdb = () => cluster.apiserver.handle({ verb: 'get', group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', namespace: 'default', name: 'web-pdb' }).body as Pdb;
    expect(cluster.runUntil(() => pods().filter(running).length === 4 && pdb().status?.currentHealthy === 4, 120_000)).toBe(true);
    expect(pdb().status).toMatchObject({ expectedPods: 4, currentHealthy: 4, desiredHealthy: 3, disruptionsAllowed: 1 });
    expect(pdb().status?.conditions?.find((c) => c.type === 'DisruptionAllowed')).toMatchObject({ status: 'True', reason: 'SufficientPods' });
    // Four pods on three nodes: one node holds two, and draining it must evict them one at a time.
    const perNode = new Map<string, number>();
    for (const p of pods()) perNode.set(p.spec!.nodeName!, (perNode.get(p.spec!.nodeName!) ?? 0) + 1);
    const [node] = [...perNode].filter(([, n]) => n === 2).map(([name]) => name).sort();
    expect(node).toBeDefined();
    const drained = await kubectl(cluster, `kubectl drain ${node} --ignore-daemonsets --delete-emptydir-data`);
    expect(drained.exitCode).toBe(0);
    expect(drained.stderr).toMatch(/^error when evicting pods\/"web-[a-z0-9]+-[a-z0-9]+" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\.$/m);
    expect(drained.stdout.trimEnd().split('\n').at(-1)).toBe(`node/${node} drained`);
    expect(cluster.runUntil(() => pods().filter(running).length === 4 && pdb().status?.disruptionsAllowed === 1, 60_000)).toBe(true);
    expect(pods().some((p) => p.spec?.nodeName === node)).toBe(false);
  });

  it('Service traffic + NetworkPolicy: the client pod reaches nginx behind the Service, outside traffic is dropped', async () => {
    const { cluster, client } = await start('service-traffic-networkpolicy');
    expect(cluster.runUntil(() => pods().filter(running).length === 3, 120_000)).toBe(true);
    const slices = () => list('endpointslices', 'discovery.k8s.io', 'default').filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === 'web');
    const readyEndpoints = () => slices().flatMap((s) => (s as unknown as { endpoints?: { conditions?: { ready?: boolean } }[] }).endpoints ?? []).filter((e) => e.conditions?.ready);
    expect(cluster.runUntil(() => readyEndpoints().length === 2, 60_000)).toBe(true);
    cluster.runUntilIdle({ maxTimeMs: 1_000 });
    const send = () => client.call('net/request', { from: { pod: { namespace: 'default', name: 'client' } }, url: 'http://web' });
    const allowed = await send();
    expect(allowed.body).toContain('Welcome to nginx!');
    // The policy admits only role=client: relabel the client and the same request is dropped at the policy.
    await client.call('api/request', { verb: 'patch', group: '', version: 'v1', resource: 'pods', namespace: 'default', name: 'client', patchType: 'application/merge-patch+json', body: { metadata: { labels: { role: 'other' } } } });
    cluster.runUntilIdle({ maxTimeMs: 5_000 });
    const dropped = await send();
    expect(dropped.ok).toBe(false);
    expect(dropped.hops.find((hop) => hop.kind === 'networkpolicy')).toMatchObject({ ok: false });
  });
});
