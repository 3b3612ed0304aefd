import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { statusViewerFor } from './status-viewer';

const deployment = (generation: number, status: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'nginx', generation, annotations: { 'deployment.kubernetes.io/revision': '2' } }, spec: { replicas: 3 }, status, ...extra }) as unknown as KubeObject;

describe('rollout status viewers', () => {
  const d = statusViewerFor('apps', 'Deployment');

  it("gives kubectl's deployment messages in their order of precedence", () => {
    expect(d(deployment(2, { observedGeneration: 1 }), 0)).toEqual({ message: 'Waiting for deployment spec update to be observed...', done: false });
    expect(d(deployment(2, { observedGeneration: 2, updatedReplicas: 1, replicas: 4 }), 0).message).toBe('Waiting for deployment "nginx" rollout to finish: 1 out of 3 new replicas have been updated...');
    expect(d(deployment(2, { observedGeneration: 2, updatedReplicas: 3, replicas: 4 }), 0).message).toBe('Waiting for deployment "nginx" rollout to finish: 1 old replicas are pending termination...');
    expect(d(deployment(2, { observedGeneration: 2, updatedReplicas: 3, replicas: 3, availableReplicas: 2 }), 0).message).toBe(
      'Waiting for deployment "nginx" rollout to finish: 2 of 3 updated replicas are available...',
    );
    expect(d(deployment(2, { observedGeneration: 2, updatedReplicas: 3, replicas: 3, availableReplicas: 3 }), 2)).toEqual({ message: 'deployment "nginx" successfully rolled out', done: true });
  });

  it('fails on a progress deadline and on another revision', () => {
    const stuck = deployment(2, { observedGeneration: 2, conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] });
    expect(() => d(stuck, 0)).toThrow('deployment "nginx" exceeded its progress deadline');
    expect(() => d(deployment(2, { observedGeneration: 2 }), 1)).toThrow('desired revision (1) is different from the running revision (2)');
  });

  it('daemon sets and stateful sets (partitioned or not)', () => {
    const ds = statusViewerFor('apps', 'DaemonSet');
    const dsObj = (status: Record<string, unknown>) => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', generation: 1 }, spec: { updateStrategy: { type: 'RollingUpdate' } }, status }) as unknown as KubeObject;
    expect(ds(dsObj({ observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 1 }), 0).message).toBe('Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated...');
    expect(ds(dsObj({ observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 2 }), 0).message).toBe(
      'Waiting for daemon set "agent" rollout to finish: 2 of 3 updated pods are available...',
    );
    expect(() => ds({ ...dsObj({}), spec: { updateStrategy: { type: 'OnDelete' } } } as unknown as KubeObject, 0)).toThrow('rollout status is only available for RollingUpdate strategy type');

    const sts = statusViewerFor('apps', 'StatefulSet');
    const stsObj = (rollingUpdate: unknown, status: Record<string, unknown>) =>
      ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', generation: 1 }, spec: { replicas: 3, updateStrategy: { type: 'RollingUpdate', rollingUpdate } }, status }) as unknown as KubeObject;
    expect(sts(stsObj(undefined, { observedGeneration: 0 }), 0).message).toBe('Waiting for statefulset spec update to be observed...');
    expect(sts(stsObj(undefined, { observedGeneration: 1, readyReplicas: 1 }), 0).message).toBe('Waiting for 2 pods to be ready...');
    expect(sts(stsObj({ partition: 1 }, { observedGeneration: 1, readyReplicas: 3, updatedReplicas: 1 }), 0).message).toBe(
      'Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...',
    );
    expect(sts(stsObj(undefined, { observedGeneration: 1, readyReplicas: 3, updatedReplicas: 2, updateRevision: 'web-2', currentRevision: 'web-1' }), 0).message).toBe(
      'waiting for statefulset rolling update to complete 2 pods at revision web-2...',
    );
    expect(sts(stsObj(undefined, { observedGeneration: 1, readyReplicas: 3, currentReplicas: 3, updateRevision: 'web-2', currentRevision: 'web-2' }), 0)).toEqual({
      message: 'statefulset rolling update complete 3 pods at revision web-2...',
      done: true,
    });
    expect(() => statusViewerFor('', 'Pod')).toThrow('no status viewer has been implemented for Pod');
  });
});
