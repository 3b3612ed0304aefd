import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  activePodLess,
  computeHash,
  filterActivePods,
  fnv32a,
  isPodAvailable,
  safeEncodeString,
  slowStartBatch,
  sortActivePodsWithRanks,
} from './controller-utils';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function pod(name: string, o: { node?: string; phase?: string; readySince?: number; restarts?: number; created?: number; cost?: string; uid?: string } = {}): Pod {
  const conditions = o.readySince !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: iso(o.readySince) }] : [];
  return {
    metadata: {
      name,
      uid: o.uid ?? name,
      creationTimestamp: iso(o.created ?? T0),
      annotations: o.cost ? { 'controller.kubernetes.io/pod-deletion-cost': o.cost } : undefined,
    },
    spec: { nodeName: o.node, containers: [{ name: 'c' }] },
    status: { phase: o.phase ?? 'Running', conditions, containerStatuses: [{ name: 'c', image: 'x', imageID: '', ready: true, restartCount: o.restarts ?? 0 }] },
  };
}

describe('slowStartBatch', () => {
  it('makes batches of 1, 2, 4, … and stops after a failing batch', () => {
    let calls = 0;
    expect(slowStartBatch(10, 1, () => calls++)).toEqual({ successes: 10 });
    expect(calls).toBe(10);

    // The 2nd call fails: batch 1 (ok), batch 2 (1 ok, 1 failed) → 3 calls, 2 successes, 7 never attempted.
    calls = 0;
    const err = new Error('quota');
    const out = slowStartBatch(10, 1, () => {
      calls++;
      if (calls === 2) throw err;
    });
    expect(calls).toBe(3);
    expect(out).toEqual({ successes: 2, error: err });
  });

  it('does nothing for count 0', () => {
    let calls = 0;
    expect(slowStartBatch(0, 1, () => calls++)).toEqual({ successes: 0 });
    expect(calls).toBe(0);
  });
});

describe('ActivePodsWithRanks', () => {
  const now = T0 + 3600_000;
  it('ranks unassigned < pending < unknown < running, not ready < ready', () => {
    const pods = [
      pod('ready', { node: 'n1', readySince: T0 }),
      pod('running-not-ready', { node: 'n1' }),
      pod('unknown', { node: 'n1', phase: 'Unknown' }),
      pod('pending', { node: 'n1', phase: 'Pending' }),
      pod('unassigned', { phase: 'Pending' }),
    ];
    expect(sortActivePodsWithRanks(pods, [0, 0, 0, 0, 0], now).map((p) => p.metadata!.name)).toEqual([
      'unassigned',
      'pending',
      'unknown',
      'running-not-ready',
      'ready',
    ]);
  });

  it('then lower deletion cost, doubled-up nodes, recently ready, more restarts, newer', () => {
    expect(activePodLess(pod('a', { node: 'n', readySince: T0, cost: '-5' }), 0, pod('b', { node: 'n', readySince: T0 }), 0, now)).toBe(true);
    // Rank = related active pods on the same node: 3 on its node goes before 1.
    expect(activePodLess(pod('a', { node: 'n', readySince: T0 }), 3, pod('b', { node: 'm', readySince: T0 }), 1, now)).toBe(true);
    // Ready 1 minute ago (log2(6e10 ns) = 35) before ready 1 hour ago (log2(3.6e12) = 41).
    expect(activePodLess(pod('a', { node: 'n', readySince: now - 60_000 }), 0, pod('b', { node: 'n', readySince: now - 3600_000 }), 0, now)).toBe(true);
    // Same age bucket: 3 s and 4 s are both 2^31 ns; the tie goes to the smaller uid.
    expect(activePodLess(pod('z', { node: 'n', readySince: now - 4000, uid: 'b' }), 0, pod('y', { node: 'n', readySince: now - 3000, uid: 'a' }), 0, now)).toBe(false);
    // Equal readiness: more restarts first.
    expect(activePodLess(pod('a', { node: 'n', readySince: T0, restarts: 4 }), 0, pod('b', { node: 'n', readySince: T0, restarts: 1 }), 0, now)).toBe(true);
    // Not ready, equal otherwise: newer created first.
    expect(activePodLess(pod('a', { node: 'n', created: now - 10_000 }), 0, pod('b', { node: 'n', created: now - 3600_000 }), 0, now)).toBe(true);
  });

  it('filters terminal and terminating pods out as inactive', () => {
    const terminating: Pod = { ...pod('t'), metadata: { ...pod('t').metadata, deletionTimestamp: iso(T0) } };
    expect(filterActivePods([pod('ok'), pod('done', { phase: 'Succeeded' }), pod('failed', { phase: 'Failed' }), terminating]).map((p) => p.metadata!.name)).toEqual(['ok']);
  });

  it('counts a pod available only minReadySeconds after it became ready', () => {
    const p = pod('a', { readySince: T0 });
    expect(isPodAvailable(p, 0, T0)).toBe(true);
    expect(isPodAvailable(p, 5, T0 + 5000)).toBe(false);
    expect(isPodAvailable(p, 5, T0 + 5001)).toBe(true);
    expect(isPodAvailable(pod('b'), 0, T0)).toBe(false);
  });
});

describe('ComputeHash', () => {
  it('is FNV-1a 32 rendered through SafeEncodeString', () => {
    // FNV-1a 32 test vectors.
    expect(fnv32a(new TextEncoder().encode(''))).toBe(0x811c9dc5);
    expect(fnv32a(new TextEncoder().encode('a'))).toBe(0xe40c292c);
    expect(fnv32a(new TextEncoder().encode('foobar'))).toBe(0xbf9cf968);
    // Each byte of the decimal string maps into "bcdfghjklmnpqrstvwxz2456789": '0' (48) → 48 % 27 = 21 → '4'.
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });

  it('is stable, depends on the template and on the collision count', () => {
    const t = { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] } };
    const same = { spec: { containers: [{ image: 'nginx:1.14.2', name: 'nginx' }] }, metadata: { labels: { app: 'nginx' } } };
    const h = computeHash(t);
    expect(h).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(computeHash(same)).toBe(h);
    expect(computeHash({ ...t, spec: { containers: [{ name: 'nginx', image: 'nginx:1.16.1' }] } })).not.toBe(h);
    expect(computeHash(t, 1)).not.toBe(h);
    expect(computeHash(t, 1)).not.toBe(computeHash(t, 2));
  });
});
