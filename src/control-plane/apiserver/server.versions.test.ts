// autoscaling/v1 HorizontalPodAutoscaler: served beside the autoscaling/v2 storage version, converted both ways.
import { describe, expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import { newTestServer } from './handlers/test-harness';

const v1Hpa: KubeObject = {
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'frontend-scaler', namespace: 'default' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'frontend' }, minReplicas: 3, maxReplicas: 10, targetCPUUtilizationPercentage: 50 },
};

describe('a resource served at two versions', () => {
  it('creates at autoscaling/v1, stores autoscaling/v2, and reads back at either', () => {
    const t = newTestServer({ bootstrap: true });
    const created = t.create(v1Hpa);
    expect(created.apiVersion).toBe('autoscaling/v1');
    expect((created.spec as Record<string, unknown>).targetCPUUtilizationPercentage).toBe(50);

    const asV2 = t.get('autoscaling/v2', 'HorizontalPodAutoscaler', 'default', 'frontend-scaler');
    expect(asV2.apiVersion).toBe('autoscaling/v2');
    expect((asV2.spec as { metrics: unknown[] }).metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ]);
    expect(asV2.metadata.uid).toBe(created.metadata.uid);

    const list = t.list('autoscaling/v1', 'HorizontalPodAutoscaler', 'default');
    expect(list.apiVersion).toBe('autoscaling/v1');
    expect(list.items.map((i) => i.apiVersion)).toEqual(['autoscaling/v1']);
  });

  it('rejects fields the requested version does not have, with the strict-decoding text', () => {
    const t = newTestServer({ bootstrap: true });
    const status = t.failure(() => t.create({ ...v1Hpa, spec: { ...(v1Hpa.spec as object), metrics: [] } }));
    expect(status.message).toBe(
      'HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: strict decoding error: unknown field "spec.metrics"',
    );
  });

  it('patches at v1 and watches at v1', () => {
    const t = newTestServer({ bootstrap: true });
    t.create(v1Hpa);
    const events: WatchEvent[] = [];
    const w = t.watch('autoscaling/v1', 'HorizontalPodAutoscaler', 'default', { resourceVersion: String(t.store.revision) }, events);
    const patched = t.patch('autoscaling/v1', 'HorizontalPodAutoscaler', 'default', 'frontend-scaler', 'application/merge-patch+json', {
      spec: { targetCPUUtilizationPercentage: 70 },
    });
    expect((patched.spec as Record<string, unknown>).targetCPUUtilizationPercentage).toBe(70);
    t.clock.runDeferred();
    expect(events.map((e) => [e.type, e.object.apiVersion, (e.object.spec as Record<string, unknown>).targetCPUUtilizationPercentage])).toEqual([
      ['MODIFIED', 'autoscaling/v1', 70],
    ]);
    w.stop();
  });

  it('lists autoscaling/v1 in discovery beside the preferred autoscaling/v2', () => {
    const t = newTestServer();
    const docs = t.server.discovery();
    const autoscaling = docs.groups.groups.find((g) => g.name === 'autoscaling')!;
    expect(autoscaling.preferredVersion?.groupVersion).toBe('autoscaling/v2');
    expect(autoscaling.versions.map((v) => v.groupVersion).sort()).toEqual(['autoscaling/v1', 'autoscaling/v2']);
  });
});
