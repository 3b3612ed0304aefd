import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { objectStatus } from './object-status';

const obj = (kind: string, rest: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind, metadata: { name: 'x', ...metadata }, ...rest }) as KubeObject;

describe('objectStatus', () => {
  it('shows ready/desired replicas for workloads, defaulting desired to 1 and ready to 0', () => {
    expect(objectStatus(obj('Deployment', { spec: { replicas: 3 }, status: { readyReplicas: 2 } }))).toBe('2/3');
    expect(objectStatus(obj('ReplicaSet', { spec: {} }))).toBe('0/1');
  });

  it('shows a pod container reason over its phase, and Terminating once deleting', () => {
    expect(objectStatus(obj('Pod', { status: { phase: 'Running' } }))).toBe('Running');
    expect(objectStatus(obj('Pod', { status: { phase: 'Running', containerStatuses: [{ state: { waiting: { reason: 'CrashLoopBackOff' } } }] } }))).toBe('CrashLoopBackOff');
    expect(objectStatus(obj('Pod', {}))).toBe('Pending');
    expect(objectStatus(obj('Pod', { status: { phase: 'Running' } }, { deletionTimestamp: '2026-01-01T00:00:00Z' }))).toBe('Terminating');
  });

  it('shows node readiness and cordoning', () => {
    expect(objectStatus(obj('Node', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }))).toBe('Ready');
    expect(objectStatus(obj('Node', { spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }))).toBe('NotReady,SchedulingDisabled');
    expect(objectStatus(obj('ConfigMap'))).toBe('');
  });
});
