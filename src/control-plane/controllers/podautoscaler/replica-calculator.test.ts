import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import type { PodMetricsSample } from '../../metrics/metrics-server';
import { getResourceReplicas } from './replica-calculator';
import { scaleDownLimitWithRules, scaleUpLimitWithRules } from './horizontal';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const now = t0 + 10 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function pod(name: string, opts: { request?: string; ready?: boolean; phase?: string; startedAt?: number } = {}): Pod {
  const started = opts.startedAt ?? t0;
  return {
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'x', resources: opts.request === undefined ? {} : { requests: { cpu: opts.request } } }] },
    status: {
      phase: opts.phase ?? 'Running',
      startTime: iso(started),
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True', lastTransitionTime: iso(started + 5_000) }],
    },
  };
}
const sample = (name: string, cpuMillis: number): PodMetricsSample => ({ namespace: 'default', name, nodeName: 'node-1', timestamp: now, windowMs: 15_000, containers: [{ name: 'c', cpuMillis, memoryBytes: 1 }] });

describe('getResourceReplicas', () => {
  it('ceil(ratio × ready pods), or the current count within the tolerance', () => {
    const pods = [pod('a', { request: '200m' }), pod('b', { request: '200m' })];
    expect(getResourceReplicas(2, 50, 'cpu', pods, [sample('a', 300), sample('b', 200)], now)).toMatchObject({ replicas: 5, utilization: 125, rawUtilization: 250 });
    // 54% of a 50% target: within 10%.
    expect(getResourceReplicas(2, 50, 'cpu', pods, [sample('a', 108), sample('b', 108)], now).replicas).toBe(2);
  });

  it('counts missing pods as idle on a scale-up and as at their request on a scale-down', () => {
    const pods = [pod('a', { request: '100m' }), pod('b', { request: '100m' })];
    // Up: a at 200% → (200 + 0) / 200 = 100% of a 50% target → ratio 2 over 2 pods → 4.
    expect(getResourceReplicas(2, 50, 'cpu', pods, [sample('a', 200)], now).replicas).toBe(4);
    // Down: a at 10% → b counted at 100% → 55% → ratio 1.1, within the tolerance → stays.
    expect(getResourceReplicas(2, 50, 'cpu', pods, [sample('a', 10)], now).replicas).toBe(2);
  });

  it('ignores unready pods on a scale-up (counting them at 0) and refuses a pod without a request', () => {
    const pods = [pod('a', { request: '100m' }), pod('b', { request: '100m', ready: false, startedAt: now - 60_000 })];
    expect(getResourceReplicas(2, 50, 'cpu', pods, [sample('a', 200), sample('b', 200)], now).replicas).toBe(4);
    expect(() => getResourceReplicas(1, 50, 'cpu', [pod('a')], [sample('a', 10)], now)).toThrow('missing request for cpu in container c of Pod a');
    expect(() => getResourceReplicas(1, 50, 'cpu', [pod('a', { request: '1' })], [], now)).toThrow('unable to get metrics for resource cpu: no metrics returned from resource metrics API');
  });
});

describe('behavior rate limits', () => {
  const up = { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
  it('scaleUp default: the larger of +4 pods and +100% per 15 s, counting what was added in the period', () => {
    expect(scaleUpLimitWithRules(1, [], [], up, now)).toBe(5);
    expect(scaleUpLimitWithRules(10, [], [], up, now)).toBe(20);
    // 6 were added 10 s ago: the period started at 4 → max(8, 8).
    expect(scaleUpLimitWithRules(10, [{ replicaChange: 6, timestamp: now - 10_000, outdated: false }], [], up, now)).toBe(8);
    expect(scaleUpLimitWithRules(10, [], [], { ...up, selectPolicy: 'Min' }, now)).toBe(14);
    expect(scaleUpLimitWithRules(10, [], [], { ...up, selectPolicy: 'Disabled' }, now)).toBe(10);
  });
  it('scaleDown: 100% per 15 s by default; a Pods policy removes at most its value', () => {
    expect(scaleDownLimitWithRules(10, [], [], { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] }, now)).toBe(0);
    expect(scaleDownLimitWithRules(10, [], [], { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] }, now)).toBe(9);
  });
});
