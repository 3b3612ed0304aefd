import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { hpaV1ToV2, hpaV2ToV1 } from './autoscaling-hpa';

const v1: KubeObject = {
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'frontend-scaler', namespace: 'default' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'frontend' }, minReplicas: 3, maxReplicas: 10, targetCPUUtilizationPercentage: 50 },
};

describe('HorizontalPodAutoscaler autoscaling/v1 ⇄ v2 conversion', () => {
  it('turns the v1 CPU target into a v2 Resource metric', () => {
    const v2 = hpaV1ToV2(v1);
    expect(v2.apiVersion).toBe('autoscaling/v2');
    expect(v2.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'frontend' },
      minReplicas: 3,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    });
    expect(v2.metadata.annotations).toBeUndefined();
  });

  it('round-trips v1 → v2 → v1', () => {
    expect(hpaV2ToV1(hpaV1ToV2(v1))).toEqual(v1);
  });

  it('carries metrics v1 cannot express in an annotation and restores them', () => {
    const v2: KubeObject = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'php', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'php' },
        maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
        ],
      },
      status: { currentReplicas: 2, desiredReplicas: 3, conditions: [{ type: 'AbleToScale', status: 'True' }] },
    };
    const asV1 = hpaV2ToV1(v2);
    expect((asV1.spec as { targetCPUUtilizationPercentage: number }).targetCPUUtilizationPercentage).toBe(50);
    expect(JSON.parse(asV1.metadata.annotations!['autoscaling.alpha.kubernetes.io/metrics'])).toHaveLength(1);
    expect(asV1.status).toEqual({ currentReplicas: 2, desiredReplicas: 3 });
    expect(hpaV1ToV2(asV1)).toEqual(v2);
  });
});
