import { describe, expect, it } from 'vitest';
import { StatusError } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { LivePlaygroundLimits } from '../../config/live-playground-limits';
import { MiB, type PlaygroundLimits } from '../../config/playground-limits';
import type { StoreUsageReader } from '../../config/store-usage';
import { AdmissionOperation } from '../types';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';
import { PlaygroundLimitsAdmission } from './playground-limits';

const deployments = { group: 'apps', resource: 'deployments' };
const replicasets = { group: 'apps', resource: 'replicasets' };
const statefulsets = { group: 'apps', resource: 'statefulsets' };
const rcs = { group: '', resource: 'replicationcontrollers' };
const jobs = { group: 'batch', resource: 'jobs' };
const cronjobs = { group: 'batch', resource: 'cronjobs' };
const hpas = { group: 'autoscaling', resource: 'horizontalpodautoscalers' };
const configmaps = { group: '', resource: 'configmaps' };
const events = { group: '', resource: 'events' };
const eventsV1 = { group: 'events.k8s.io', resource: 'events' };
const pods = { group: '', resource: 'pods' };

/** A usage the test sets by hand (the store-backed one is tested in config/store-usage.test.ts). */
class FixedUsage implements StoreUsageReader {
  constructor(
    public objectCount = 0,
    public bytes = 0,
  ) {}
  objects(): number {
    return this.objectCount;
  }
  storedBytes(): number {
    return this.bytes;
  }
  storedBytesEstimate(): number {
    return this.bytes;
  }
}

function setup(limits: Partial<PlaygroundLimits> = {}, usage = new FixedUsage()) {
  const source = new LivePlaygroundLimits(limits, usage);
  const plugin = new PlaygroundLimitsAdmission(source);
  return { source, plugin, usage };
}

function workload(kind: string, apiVersion: string, name: string, spec: Record<string, unknown>, rv?: string): KubeObject {
  return { apiVersion, kind, metadata: { namespace: 'default', name, ...(rv ? { resourceVersion: rv } : {}) }, spec };
}
const deploy = (replicas: number | undefined, rv?: string) =>
  workload('Deployment', 'apps/v1', 'web', replicas === undefined ? {} : { replicas }, rv);
const configMap = (name: string, data: Record<string, string> = {}, rv?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', name, ...(rv ? { resourceVersion: rv } : {}) },
  data,
});
const event = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { namespace: 'default', name },
  involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
  reason: 'Started',
});

function thrown(fn: () => void): StatusError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('expected a StatusError');
}

describe('PlaygroundLimits admission: replicas per workload', () => {
  const ctx = () => fakeAdmissionContext(new FakeReader()).ctx;

  it('admits a workload at the limit and refuses one over it with a quota-style 403 naming the limit', () => {
    const { plugin } = setup({ maxReplicasPerWorkload: 5000 });
    expect(() => plugin.validate(admissionAttrs(deployments, deploy(5000)), ctx())).not.toThrow();
    const err = thrown(() => plugin.validate(admissionAttrs(deployments, deploy(100_000)), ctx()));
    expect(err.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'deployments.apps "web" is forbidden: exceeded playground limit: replicas per workload, requested: spec.replicas=100000, limited: 5000',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
    });
  });

  it('covers ReplicaSets, StatefulSets and ReplicationControllers', () => {
    const { plugin } = setup({ maxReplicasPerWorkload: 10 });
    for (const [gr, kind, apiVersion, resource] of [
      [replicasets, 'ReplicaSet', 'apps/v1', 'replicasets.apps'],
      [statefulsets, 'StatefulSet', 'apps/v1', 'statefulsets.apps'],
      [rcs, 'ReplicationController', 'v1', 'replicationcontrollers'],
    ] as const) {
      expect(() => plugin.validate(admissionAttrs(gr, workload(kind, apiVersion, 'w', { replicas: 10 })), ctx())).not.toThrow();
      expect(() => plugin.validate(admissionAttrs(gr, workload(kind, apiVersion, 'w', { replicas: 11 })), ctx())).toThrow(
        `${resource} "w" is forbidden: exceeded playground limit: replicas per workload, requested: spec.replicas=11, limited: 10`,
      );
    }
  });

  it('caps a Job’s parallelism and completions, and a CronJob’s job template', () => {
    const { plugin } = setup({ maxReplicasPerWorkload: 10 });
    const job = (spec: Record<string, unknown>) => workload('Job', 'batch/v1', 'pi', spec);
    expect(() => plugin.validate(admissionAttrs(jobs, job({ parallelism: 10, completions: 10 })), ctx())).not.toThrow();
    expect(() => plugin.validate(admissionAttrs(jobs, job({ parallelism: 11 })), ctx())).toThrow(
      'jobs.batch "pi" is forbidden: exceeded playground limit: replicas per workload, requested: spec.parallelism=11, limited: 10',
    );
    expect(() => plugin.validate(admissionAttrs(jobs, job({ parallelism: 2, completions: 5000 })), ctx())).toThrow(
      'jobs.batch "pi" is forbidden: exceeded playground limit: replicas per workload, requested: spec.completions=5000, limited: 10',
    );
    const cron = (jobSpec: Record<string, unknown>) => workload('CronJob', 'batch/v1', 'tick', { schedule: '* * * * *', jobTemplate: { spec: jobSpec } });
    expect(() => plugin.validate(admissionAttrs(cronjobs, cron({ completions: 10 })), ctx())).not.toThrow();
    expect(() => plugin.validate(admissionAttrs(cronjobs, cron({ parallelism: 50 })), ctx())).toThrow(
      'cronjobs.batch "tick" is forbidden: exceeded playground limit: replicas per workload, requested: spec.jobTemplate.spec.parallelism=50, limited: 10',
    );
  });

  it('caps an HPA’s maxReplicas', () => {
    const { plugin } = setup({ maxReplicasPerWorkload: 10 });
    const hpa = (maxReplicas: number) => workload('HorizontalPodAutoscaler', 'autoscaling/v2', 'web', { maxReplicas, scaleTargetRef: { kind: 'Deployment', name: 'web' } });
    expect(() => plugin.validate(admissionAttrs(hpas, hpa(10)), ctx())).not.toThrow();
    expect(() => plugin.validate(admissionAttrs(hpas, hpa(11)), ctx())).toThrow(
      'horizontalpodautoscalers.autoscaling "web" is forbidden: exceeded playground limit: replicas per workload, requested: spec.maxReplicas=11, limited: 10',
    );
  });

  it('refuses an update or a scale that grows past the limit, and allows one that keeps or lowers a value already over it', () => {
    const { plugin, source } = setup({ maxReplicasPerWorkload: 100 });
    const old = deploy(80, '7');
    expect(() => plugin.validate(admissionAttrs(deployments, deploy(101, '7'), { oldObject: old }), ctx())).toThrow(
      'deployments.apps "web" is forbidden: exceeded playground limit: replicas per workload, requested: spec.replicas=101, limited: 100',
    );
    expect(() => plugin.validate(admissionAttrs(deployments, deploy(101, '7'), { oldObject: old, subresource: 'scale' }), ctx())).toThrow(
      'requested: spec.replicas=101',
    );
    // The cap was lowered under an existing Deployment: status updates and scaling down still pass.
    source.configure({ maxReplicasPerWorkload: 10 });
    const big = deploy(80, '8');
    expect(() => plugin.validate(admissionAttrs(deployments, deploy(80, '8'), { oldObject: big, subresource: 'status' }), ctx())).not.toThrow();
    expect(() => plugin.validate(admissionAttrs(deployments, deploy(40, '8'), { oldObject: big }), ctx())).not.toThrow();
    expect(() => plugin.validate(admissionAttrs(deployments, deploy(81, '8'), { oldObject: big }), ctx())).toThrow('requested: spec.replicas=81, limited: 10');
  });

  it('counts an absent spec.replicas as the default 1, and an update that creates as a create', () => {
    const { plugin } = setup({ maxReplicasPerWorkload: 1 });
    expect(() => plugin.validate(admissionAttrs(deployments, deploy(undefined)), ctx())).not.toThrow();
    // PUT of an object that does not exist: the old object has no resourceVersion.
    const noOld = deploy(undefined);
    expect(() => plugin.validate(admissionAttrs(deployments, deploy(5), { oldObject: { ...noOld, spec: { replicas: 9 } } }), ctx())).toThrow(
      'requested: spec.replicas=5, limited: 1',
    );
  });

  it('never handles deletes', () => {
    const { plugin } = setup({ maxReplicasPerWorkload: 1, maxObjects: 1 }, new FixedUsage(5, 0));
    expect(plugin.handles(AdmissionOperation.Delete)).toBe(false);
    expect(plugin.handles(AdmissionOperation.Create)).toBe(true);
    expect(plugin.handles(AdmissionOperation.Update)).toBe(true);
  });
});

describe('PlaygroundLimits admission: objects', () => {
  const ctx = () => fakeAdmissionContext(new FakeReader()).ctx;

  it('admits the create that reaches the limit and refuses the next with used and limited', () => {
    const usage = new FixedUsage(9);
    const { plugin } = setup({ maxObjects: 10 }, usage);
    expect(() => plugin.validate(admissionAttrs(configmaps, configMap('a')), ctx())).not.toThrow();
    usage.objectCount = 10;
    const err = thrown(() => plugin.validate(admissionAttrs(configmaps, configMap('b')), ctx()));
    expect(err.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "b" is forbidden: exceeded playground limit: objects, requested: 1, used: 10, limited: 10',
    });
  });

  it('allows updates and subresource creates (bindings, evictions) at the limit', () => {
    const usage = new FixedUsage(10);
    const { plugin } = setup({ maxObjects: 10 }, usage);
    const old = configMap('a', {}, '3');
    expect(() => plugin.validate(admissionAttrs(configmaps, configMap('a', { k: 'v' }, '3'), { oldObject: old }), ctx())).not.toThrow();
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', name: 'web' } };
    expect(() => plugin.validate(admissionAttrs(pods, pod, { subresource: 'binding' }), ctx())).not.toThrow();
    expect(() => plugin.validate(admissionAttrs(pods, pod), ctx())).toThrow('pods "web" is forbidden: exceeded playground limit: objects');
  });

  it('names a generated object by its generateName', () => {
    const { plugin } = setup({ maxObjects: 1 }, new FixedUsage(1));
    const gen: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', generateName: 'web-7d4b9-' } };
    expect(() => plugin.validate(admissionAttrs(pods, gen), ctx())).toThrow('pods "web-7d4b9-" is forbidden: exceeded playground limit: objects, requested: 1, used: 1, limited: 1');
  });

  it('is not enforced without a usage source (a bare API server)', () => {
    const plugin = new PlaygroundLimitsAdmission(new LivePlaygroundLimits({ maxObjects: 1, maxStoredBytes: 1 }));
    expect(() => plugin.validate(admissionAttrs(configmaps, configMap('a')), ctx())).not.toThrow();
  });
});

describe('PlaygroundLimits admission: stored bytes', () => {
  const ctx = () => fakeAdmissionContext(new FakeReader()).ctx;

  it('refuses a create or a growing update that would pass the limit, exactly near it', () => {
    const max = 32 * MiB;
    const usage = new FixedUsage(1, max - 1000);
    const { plugin } = setup({ maxStoredBytes: max }, usage);
    expect(() => plugin.validate(admissionAttrs(configmaps, configMap('small', { k: 'v' })), ctx())).not.toThrow();
    const big = configMap('big', { k: 'x'.repeat(2000) });
    const err = thrown(() => plugin.validate(admissionAttrs(configmaps, big), ctx()));
    expect(err.status.code).toBe(403);
    expect(err.status.message).toMatch(
      /^configmaps "big" is forbidden: exceeded playground limit: stored bytes, requested: \d+, used: 33553432, limited: 33554432 \(32Mi\)$/,
    );
    // Growing an existing object by 2,000 bytes is refused; shrinking it or keeping its size is not.
    const old = configMap('big', { k: 'x'.repeat(10) }, '4');
    expect(() => plugin.validate(admissionAttrs(configmaps, { ...big, metadata: { ...big.metadata, resourceVersion: '4' } }, { oldObject: old }), ctx())).toThrow(
      'exceeded playground limit: stored bytes, requested: 1990,',
    );
    const huge = configMap('big', { k: 'x'.repeat(5000) }, '5');
    usage.bytes = max + 10_000; // already over (the cap was lowered)
    expect(() => plugin.validate(admissionAttrs(configmaps, configMap('big', { k: 'x'.repeat(10) }, '5'), { oldObject: huge }), ctx())).not.toThrow();
    expect(() => plugin.validate(admissionAttrs(configmaps, { ...huge }, { oldObject: huge }), ctx())).not.toThrow();
  });

  it('does not size objects while far below the limit', () => {
    const usage = new FixedUsage(1, 0);
    let exact = 0;
    usage.storedBytes = () => {
      exact++;
      return 0;
    };
    const { plugin } = setup({}, usage);
    plugin.validate(admissionAttrs(configmaps, configMap('a', { k: 'x'.repeat(100_000) })), ctx());
    expect(exact).toBe(0);
  });
});

describe('PlaygroundLimits admission: events per minute', () => {
  it('admits up to the limit in a minute, then answers 429 until the minute has passed', () => {
    const { plugin, source } = setup({ maxEventsPerMinute: 3 });
    const t0 = Date.UTC(2026, 0, 1);
    const at = (ms: number) => fakeAdmissionContext(new FakeReader(), t0 + ms).ctx;
    plugin.validate(admissionAttrs(events, event('e1')), at(0));
    plugin.validate(admissionAttrs(eventsV1, { ...event('e2'), apiVersion: 'events.k8s.io/v1' }), at(10_000));
    plugin.validate(admissionAttrs(events, event('e3')), at(20_000));
    const err = thrown(() => plugin.validate(admissionAttrs(events, event('e4')), at(30_000)));
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Too many requests: exceeded playground limit: events per minute, used: 3, limited: 3',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
    expect(source.events.count(t0 + 30_000)).toBe(3);
    // e1 left the window at 60 s: one more fits.
    plugin.validate(admissionAttrs(events, event('e5')), at(60_000));
    expect(() => plugin.validate(admissionAttrs(events, event('e6')), at(60_500))).toThrow('used: 3, limited: 3');
  });

  it('lets updates of events (aggregated counts) through and does not count dry runs', () => {
    const { plugin, source } = setup({ maxEventsPerMinute: 1 });
    const { ctx } = fakeAdmissionContext(new FakeReader());
    plugin.validate(admissionAttrs(events, event('e1'), { dryRun: true }), ctx);
    expect(source.events.count(ctx.clock.now())).toBe(0);
    plugin.validate(admissionAttrs(events, event('e1')), ctx);
    const stored = { ...event('e1'), metadata: { ...event('e1').metadata, resourceVersion: '2' } };
    expect(() => plugin.validate(admissionAttrs(events, { ...stored, count: 2 }, { oldObject: stored }), ctx)).not.toThrow();
    expect(() => plugin.validate(admissionAttrs(events, event('e2')), ctx)).toThrow('Too many requests');
  });
});
