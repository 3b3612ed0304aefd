import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { HeadlessCluster } from '../../worker/headless';
import { createHeadlessCluster } from '../../worker/headless';
import { objectBadge, objectStatus, StatusTone } from './object-status';

const obj = (kind: string, rest: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind, metadata: { name: 'x', ...metadata }, ...rest }) as KubeObject;

const deleting = { deletionTimestamp: '2026-01-01T00:00:00Z' };

describe('objectBadge for workloads', () => {
  it('shows ready/desired replicas for Deployments, ReplicaSets and StatefulSets', () => {
    expect(objectBadge(obj('Deployment', { spec: { replicas: 3 }, status: { readyReplicas: 2 } }))).toEqual({ text: '2/3', tone: StatusTone.Progress });
    expect(objectBadge(obj('Deployment', { spec: { replicas: 3 }, status: { readyReplicas: 3 } }))).toEqual({ text: '3/3', tone: StatusTone.Ok });
    expect(objectBadge(obj('ReplicaSet', { spec: {} }))).toEqual({ text: '0/1', tone: StatusTone.Progress });
    expect(objectBadge(obj('ReplicaSet', { spec: { replicas: 0 } }))).toEqual({ text: '0/0', tone: StatusTone.Neutral });
    expect(objectBadge(obj('StatefulSet', { spec: { replicas: 2 }, status: { readyReplicas: 1 } })).text).toBe('1/2');
  });

  it('shows numberReady/desiredNumberScheduled for a DaemonSet', () => {
    expect(objectBadge(obj('DaemonSet', { status: { numberReady: 2, desiredNumberScheduled: 3 } }))).toEqual({ text: '2/3', tone: StatusTone.Progress });
    expect(objectBadge(obj('DaemonSet', { status: { numberReady: 3, desiredNumberScheduled: 3 } })).tone).toBe(StatusTone.Ok);
  });

  it("shows a Job's status and completions as kubectl get jobs does", () => {
    expect(objectStatus(obj('Job', { spec: { completions: 3 }, status: { succeeded: 1 } }))).toBe('Running 1/3');
    expect(objectStatus(obj('Job', { spec: { parallelism: 2 }, status: {} }))).toBe('Running 0/1 of 2');
    expect(objectStatus(obj('Job', { spec: { parallelism: 1 }, status: {} }))).toBe('Running 0/1');
    expect(objectBadge(obj('Job', { spec: { completions: 1 }, status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } }))).toEqual({
      text: 'Complete 1/1',
      tone: StatusTone.Done,
    });
    expect(objectBadge(obj('Job', { spec: { completions: 1 }, status: { conditions: [{ type: 'Failed', status: 'True' }] } })).tone).toBe(StatusTone.Error);
    expect(objectStatus(obj('Job', { spec: { completions: 1 }, status: { conditions: [{ type: 'Suspended', status: 'True' }] } }))).toBe('Suspended 0/1');
    // A finished Job stays Complete while it is deleted, as in kubectl; a running one reads Terminating.
    expect(objectStatus(obj('Job', { spec: { completions: 1 }, status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } }, deleting))).toBe('Complete 1/1');
    expect(objectStatus(obj('Job', { spec: { completions: 1 }, status: {} }, deleting))).toBe('Terminating');
  });

  it("shows a CronJob's active count, suspension and, given the time, its last schedule", () => {
    const now = Date.parse('2026-01-01T00:10:00Z');
    expect(objectBadge(obj('CronJob', { spec: {}, status: { active: [{ name: 'a' }] } }))).toEqual({ text: '1 active', tone: StatusTone.Progress });
    expect(objectBadge(obj('CronJob', { spec: {}, status: { lastScheduleTime: '2026-01-01T00:08:00Z' } }), now)).toEqual({
      text: '0 active',
      tone: StatusTone.Ok,
      detail: 'last 2m ago',
    });
    expect(objectBadge(obj('CronJob', { spec: { suspend: true }, status: {} }), now)).toEqual({ text: 'Suspended', tone: StatusTone.Neutral, detail: 'never scheduled' });
  });

  it('reads Terminating for any kind once it is being deleted', () => {
    expect(objectBadge(obj('Deployment', { spec: { replicas: 1 } }, deleting))).toEqual({ text: 'Terminating', tone: StatusTone.Terminating });
    expect(objectStatus(obj('ConfigMap', {}, deleting))).toBe('Terminating');
    expect(objectStatus(obj('ConfigMap'))).toBe('');
  });
});

describe('objectBadge for pods (printPod)', () => {
  it('puts a container reason over the phase and Terminating over both, but not for finished pods', () => {
    expect(objectBadge(obj('Pod', { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }))).toEqual({ text: 'Running', tone: StatusTone.Ok });
    expect(objectBadge(obj('Pod', { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } }))).toEqual({ text: 'Running', tone: StatusTone.Progress });
    expect(objectBadge(obj('Pod', { status: { phase: 'Running', containerStatuses: [{ state: { waiting: { reason: 'CrashLoopBackOff' } } }] } }))).toEqual({
      text: 'CrashLoopBackOff',
      tone: StatusTone.Error,
    });
    expect(objectStatus(obj('Pod', {}))).toBe('Pending');
    expect(objectBadge(obj('Pod', { status: { phase: 'Running' } }, deleting))).toEqual({ text: 'Terminating', tone: StatusTone.Terminating });
    expect(objectBadge(obj('Pod', { status: { phase: 'Succeeded', containerStatuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }] } }, deleting))).toEqual({
      text: 'Completed',
      tone: StatusTone.Done,
    });
    expect(objectStatus(obj('Pod', { status: { phase: 'Running', reason: 'NodeLost' } }, deleting))).toBe('Unknown');
    expect(objectStatus(obj('Pod', { status: { phase: 'Failed', containerStatuses: [{ state: { terminated: { exitCode: 2 } } }] } }))).toBe('ExitCode:2');
    expect(objectStatus(obj('Pod', { status: { phase: 'Failed', reason: 'Evicted' } }))).toBe('Evicted');
  });

  it('shows init progress and init failures', () => {
    const spec = { initContainers: [{ name: 'a' }, { name: 'b' }] };
    const running = { state: { running: {} } };
    const done = { name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    expect(objectStatus(obj('Pod', { spec, status: { phase: 'Pending', initContainerStatuses: [done, { name: 'b', ...running }] } }))).toBe('Init:1/2');
    expect(objectBadge(obj('Pod', { spec, status: { phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { waiting: { reason: 'CrashLoopBackOff' } } }] } }))).toEqual({
      text: 'Init:CrashLoopBackOff',
      tone: StatusTone.Error,
    });
  });

  let h: HeadlessCluster | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('reads the states the simulated kubelet really produces: Running, Pending, ImagePullBackOff, CrashLoopBackOff, Completed', async () => {
    h = await createHeadlessCluster({ seed: 7 });
    const { cluster } = h;
    cluster.runUntil(() => cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1, 10_000);
    const pod = (name: string, container: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
      cluster.client.pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { ...spec, containers: [{ name: 'app', ...container }] } });
    pod('web', { image: 'nginx:1.14.2' });
    pod('too-big', { image: 'nginx:1.14.2', resources: { requests: { cpu: '100' } } });
    pod('no-such-image', { image: 'nginx:1.999' });
    pod('crasher', { image: 'busybox:1.36', command: ['sh', '-c', 'sleep 5; exit 1'] });
    pod('once', { image: 'busybox:1.36', command: ['sh', '-c', 'echo hi'] }, { restartPolicy: 'Never' });

    const status = (name: string) => objectStatus(cluster.client.pods.get(name, { namespace: 'default' }) as KubeObject);
    const seen = new Map<string, Set<string>>();
    const note = () => {
      for (const name of ['web', 'too-big', 'no-such-image', 'crasher', 'once']) {
        if (!seen.has(name)) seen.set(name, new Set());
        seen.get(name)!.add(status(name));
      }
    };
    cluster.runUntil(() => {
      note();
      return status('crasher') === 'CrashLoopBackOff' && status('no-such-image') === 'ImagePullBackOff' && status('once') === 'Completed';
    }, 300_000);
    expect(status('web')).toBe('Running');
    expect(objectBadge(cluster.client.pods.get('web', { namespace: 'default' }) as KubeObject).tone).toBe(StatusTone.Ok);
    expect(status('too-big')).toBe('Pending');
    expect(status('no-such-image')).toBe('ImagePullBackOff');
    expect(status('crasher')).toBe('CrashLoopBackOff');
    expect(status('once')).toBe('Completed');
    // On the way there the pods went through kubectl's intermediate texts.
    expect(seen.get('web')).toContain('ContainerCreating');
    expect(seen.get('no-such-image')).toContain('ErrImagePull');
  });
});

describe('objectBadge for nodes, claims and services', () => {
  it('shows node readiness and cordoning', () => {
    expect(objectBadge(obj('Node', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }))).toEqual({ text: 'Ready', tone: StatusTone.Ok });
    expect(objectStatus(obj('Node', { spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }))).toBe('NotReady,SchedulingDisabled');
    expect(objectStatus(obj('Node', { status: {} }))).toBe('Unknown');
  });

  it('shows the phase of claims and volumes and the type of a Service', () => {
    expect(objectBadge(obj('PersistentVolumeClaim', { status: { phase: 'Bound' } }))).toEqual({ text: 'Bound', tone: StatusTone.Ok });
    expect(objectBadge(obj('PersistentVolumeClaim', { status: {} }))).toEqual({ text: 'Pending', tone: StatusTone.Progress });
    expect(objectStatus(obj('PersistentVolume', { status: { phase: 'Available' } }))).toBe('Available');
    expect(objectStatus(obj('Service', { spec: { type: 'NodePort' } }))).toBe('NodePort');
    expect(objectStatus(obj('Service', { spec: {} }))).toBe('ClusterIP');
  });
});

describe('objectBadge for the workload controllers, as they really run', () => {
  let h: HeadlessCluster | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('reads a StatefulSet, a DaemonSet, a Job and a CronJob (with its last schedule) as kubectl would', async () => {
    h = await createHeadlessCluster({ seed: 2 });
    const { cluster } = h;
    cluster.runUntil(() => cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1, 10_000);
    const labels = (app: string) => ({ selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx:1.14.2' }] } } });
    const once = { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'true'] }] } } };
    const meta = (name: string) => ({ name, namespace: 'default' });
    cluster.client.statefulSets.create({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: meta('db'), spec: { replicas: 2, serviceName: 'db', ...labels('db') } });
    cluster.client.daemonSets.create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta('agent'), spec: labels('agent') });
    cluster.client.jobs.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: meta('work'), spec: { completions: 3, parallelism: 1, ...once } });
    cluster.client.cronJobs.create({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: meta('tick'), spec: { schedule: '*/1 * * * *', jobTemplate: { spec: once } } });
    const badge = (o: unknown) => objectBadge(o as KubeObject, cluster.clock.now());

    expect(badge(cluster.client.jobs.get('work', { namespace: 'default' }))).toEqual({ text: 'Running 0/3', tone: StatusTone.Progress });
    cluster.runUntil(() => (cluster.client.cronJobs.get('tick', { namespace: 'default' }).status?.active?.length ?? 0) > 0, 120_000);
    expect(badge(cluster.client.cronJobs.get('tick', { namespace: 'default' }))).toMatchObject({ text: '1 active', tone: StatusTone.Progress, detail: expect.stringMatching(/^last \d+s ago$/) });
    cluster.runUntil(
      () =>
        objectStatus(cluster.client.statefulSets.get('db', { namespace: 'default' }) as KubeObject) === '2/2' &&
        objectStatus(cluster.client.jobs.get('work', { namespace: 'default' }) as KubeObject) === 'Complete 3/3' &&
        objectStatus(cluster.client.daemonSets.get('agent', { namespace: 'default' }) as KubeObject) === '3/3',
      300_000,
    );
    expect(badge(cluster.client.statefulSets.get('db', { namespace: 'default' }))).toEqual({ text: '2/2', tone: StatusTone.Ok });
    expect(badge(cluster.client.daemonSets.get('agent', { namespace: 'default' }))).toEqual({ text: '3/3', tone: StatusTone.Ok });
    expect(badge(cluster.client.jobs.get('work', { namespace: 'default' }))).toEqual({ text: 'Complete 3/3', tone: StatusTone.Done });
    const jobOfCron = cluster.client.jobs.list({ namespace: 'default' }).items.find((j) => j.metadata.ownerReferences?.[0]?.kind === 'CronJob')!;
    expect(objectStatus(jobOfCron as KubeObject)).toMatch(/^(Running 0\/1|Complete 1\/1)$/);
  });
});
