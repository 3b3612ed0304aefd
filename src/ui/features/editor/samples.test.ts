// Every sample in the gallery is applied to a real headless cluster and must do what its title promises.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '../../../shared/api/types';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
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
});
