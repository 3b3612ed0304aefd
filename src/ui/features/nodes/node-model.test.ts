import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import {
  abnormalConditions,
  formatCpu,
  formatMemory,
  isCordoned,
  nodeAllocatable,
  nodeReadiness,
  nodeTaints,
  nodeVolumes,
  nodeZone,
  podChipState,
  podRequests,
  requestedOnNode,
} from './node-model';

function node(status: Record<string, unknown> = {}, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels }, spec, status };
}

function pod(fields: { phase?: string; ready?: boolean; waiting?: string; deleting?: boolean; containers?: unknown[]; initContainers?: unknown[]; overhead?: Record<string, string> } = {}): KubeObject {
  const status: Record<string, unknown> = {};
  if (fields.phase) status.phase = fields.phase;
  if (fields.ready !== undefined) status.conditions = [{ type: 'Ready', status: fields.ready ? 'True' : 'False' }];
  if (fields.waiting) status.containerStatuses = [{ name: 'app', ready: false, state: { waiting: { reason: fields.waiting } } }];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', ...(fields.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { nodeName: 'node-1', containers: fields.containers ?? [], initContainers: fields.initContainers, overhead: fields.overhead },
    status,
  };
}

const req = (cpu?: string, memory?: string, extra: Record<string, unknown> = {}) => ({
  name: 'c',
  resources: { requests: { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) } },
  ...extra,
});

describe('node readiness and facts', () => {
  it('reads the Ready condition, Unknown when missing or Unknown', () => {
    expect(nodeReadiness(node({ conditions: [{ type: 'Ready', status: 'True' }] }))).toBe('Ready');
    expect(nodeReadiness(node({ conditions: [{ type: 'Ready', status: 'False' }] }))).toBe('NotReady');
    expect(nodeReadiness(node({ conditions: [{ type: 'Ready', status: 'Unknown' }] }))).toBe('Unknown');
    expect(nodeReadiness(node({ conditions: [{ type: 'MemoryPressure', status: 'False' }] }))).toBe('Unknown');
    expect(nodeReadiness(node())).toBe('Unknown');
  });

  it('lists only conditions away from their healthy status', () => {
    const n = node({
      conditions: [
        { type: 'MemoryPressure', status: 'False' },
        { type: 'DiskPressure', status: 'True' },
        { type: 'PIDPressure', status: 'Unknown' },
        { type: 'Ready', status: 'True' },
      ],
    });
    expect(abnormalConditions(n).map((c) => c.type)).toEqual(['DiskPressure', 'PIDPressure']);
    expect(abnormalConditions(node({ conditions: [{ type: 'Ready', status: 'Unknown' }] })).map((c) => c.type)).toEqual(['Ready']);
  });

  it('reads cordon, zone and taints in kubectl form', () => {
    const n = node(
      {},
      { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }, { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      { 'topology.kubernetes.io/zone': 'zone-a' },
    );
    expect(isCordoned(n)).toBe(true);
    expect(isCordoned(node())).toBe(false);
    expect(nodeZone(n)).toBe('zone-a');
    expect(nodeZone(node())).toBeUndefined();
    expect(nodeTaints(n)).toEqual(['node.kubernetes.io/unreachable:NoExecute', 'dedicated=gpu:NoSchedule']);
  });

  it('shows each volume with its attach/detach step, by its PV name', () => {
    const csi = (pv: string) => `kubernetes.io/csi/hostpath.csi.kubeplay.io^${pv}`;
    const n = node({ volumesAttached: [{ name: csi('pvc-b'), devicePath: '' }, { name: csi('pvc-a'), devicePath: '' }], volumesInUse: [csi('pvc-a'), csi('pvc-c')] });
    expect(nodeVolumes(n)).toEqual([
      { name: 'pvc-a', state: 'attached, in use' },
      { name: 'pvc-b', state: 'attached' },
      { name: 'pvc-c', state: 'in use, not attached' },
    ]);
    expect(nodeVolumes(node())).toEqual([]);
  });
});

describe('podChipState', () => {
  it('follows phase and readiness', () => {
    expect(podChipState(pod())).toBe('Pending');
    expect(podChipState(pod({ phase: 'Pending' }))).toBe('Pending');
    expect(podChipState(pod({ phase: 'Running', ready: true }))).toBe('Running');
    expect(podChipState(pod({ phase: 'Running', ready: false }))).toBe('NotReady');
    expect(podChipState(pod({ phase: 'Running' }))).toBe('NotReady');
    expect(podChipState(pod({ phase: 'Succeeded' }))).toBe('Succeeded');
    expect(podChipState(pod({ phase: 'Failed' }))).toBe('Failed');
  });

  it('shows waiting reasons and lets Terminating win', () => {
    expect(podChipState(pod({ phase: 'Running', ready: false, waiting: 'CrashLoopBackOff' }))).toBe('CrashLoopBackOff');
    expect(podChipState(pod({ phase: 'Pending', waiting: 'ErrImagePull' }))).toBe('ImagePullBackOff');
    expect(podChipState(pod({ phase: 'Pending', waiting: 'ImagePullBackOff' }))).toBe('ImagePullBackOff');
    expect(podChipState(pod({ phase: 'Pending', waiting: 'ContainerCreating' }))).toBe('Pending');
    expect(podChipState(pod({ phase: 'Running', ready: true, deleting: true }))).toBe('Terminating');
    expect(podChipState(pod({ phase: 'Running', waiting: 'CrashLoopBackOff', deleting: true }))).toBe('Terminating');
  });
});

describe('requests vs allocatable', () => {
  it('sums container requests, taking the larger of app containers and each init container', () => {
    expect(podRequests(pod({ containers: [req('100m', '64Mi'), req('250m', '128Mi')] }))).toEqual({ cpuMillis: 350, memoryBytes: 192 * 1024 ** 2 });
    expect(podRequests(pod({ containers: [req('100m')], initContainers: [req('1', '1Gi')] }))).toEqual({ cpuMillis: 1000, memoryBytes: 1024 ** 3 });
    expect(podRequests(pod({ containers: [req()] }))).toEqual({ cpuMillis: 0, memoryBytes: 0 });
  });

  it('adds sidecar init containers to the app containers and the pod overhead on top', () => {
    const p = pod({
      containers: [req('200m', '100M')],
      initContainers: [req('50m', '10M', { restartPolicy: 'Always' }), req('300m', '20M')],
      overhead: { cpu: '10m', memory: '1M' },
    });
    // app + sidecar = 250m / 110M; plain init after the sidecar = 350m / 30M; larger of each, plus overhead.
    expect(podRequests(p)).toEqual({ cpuMillis: 360, memoryBytes: 111_000_000 });
  });

  it('skips terminal pods and counts the rest toward pods', () => {
    const pods = [
      pod({ phase: 'Running', containers: [req('500m', '1Gi')] }),
      pod({ phase: 'Pending', containers: [req('1500m', '512Mi')] }),
      pod({ phase: 'Succeeded', containers: [req('2', '2Gi')] }),
      pod({ phase: 'Failed', containers: [req('2', '2Gi')] }),
    ];
    expect(requestedOnNode(pods)).toEqual({ cpuMillis: 2000, memoryBytes: 1.5 * 1024 ** 3, pods: 2 });
    expect(requestedOnNode([])).toEqual({ cpuMillis: 0, memoryBytes: 0, pods: 0 });
  });

  it('reads allocatable quantities', () => {
    expect(nodeAllocatable(node({ allocatable: { cpu: '4', memory: '8Gi', pods: '110' } }))).toEqual({ cpuMillis: 4000, memoryBytes: 8 * 1024 ** 3, pods: 110 });
    expect(nodeAllocatable(node({ allocatable: { cpu: '3500m', memory: '7990Mi', pods: '110' } })).cpuMillis).toBe(3500);
    expect(nodeAllocatable(node())).toEqual({ cpuMillis: 0, memoryBytes: 0, pods: 0 });
  });

  it('formats cpu and memory', () => {
    expect(formatCpu(2000)).toBe('2');
    expect(formatCpu(1500)).toBe('1500m');
    expect(formatCpu(0)).toBe('0');
    expect(formatMemory(8 * 1024 ** 3)).toBe('8Gi');
    expect(formatMemory(128 * 1024 ** 2)).toBe('128Mi');
    expect(formatMemory(1.5 * 1024 ** 3)).toBe('1.5Gi');
    expect(formatMemory(100)).toBe('100');
  });
});
