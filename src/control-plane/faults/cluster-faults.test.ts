import { afterEach, describe, expect, it } from 'vitest';
import { StatusReason, isStatusError } from '../../shared/api/status';
import { TraceKind } from '../../shared/protocol/trace';
import { createCluster, type Cluster } from '../cluster';
import { ClusterFaults } from './cluster-faults';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

function faultEvents(c: Cluster) {
  return c.trace.recent().filter((e) => e.kind === TraceKind.Custom && e.component === 'faults').map((e) => e.data);
}

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe('ClusterFaults', () => {
  it('acts on the machines and components, traces every fault and reports what is in effect', async () => {
    cluster = await createCluster({ seed: 2 });
    const faults = new ClusterFaults(cluster);
    cluster.runUntil(() => cluster.nodes.list().every((k) => k.isRegistered), 10_000);
    expect(faults.state()).toEqual({
      apiServer: 'serving',
      controllerManager: 'running',
      scheduler: 'running',
      nodes: ['node-1', 'node-2', 'node-3'].map((name) => ({ name, running: true, reachable: true })),
    });

    faults.killNode('node-1');
    faults.partitionNode('node-2', true);
    faults.stopApiServer();
    expect(faults.state()).toMatchObject({
      apiServer: 'stopped',
      nodes: [
        { name: 'node-1', running: false, reachable: true },
        { name: 'node-2', running: true, reachable: false },
        { name: 'node-3', running: true, reachable: true },
      ],
    });
    expect(cluster.endpoint.isServing).toBe(false);
    faults.startApiServer();
    faults.partitionNode('node-2', false);
    faults.restartNode('node-1');
    expect(cluster.nodes.get('node-1')!.isRunning).toBe(true);
    expect(faultEvents(cluster)).toEqual([
      { event: 'fault', fault: 'kill-node', node: 'node-1' },
      { event: 'fault', fault: 'partition-node', node: 'node-2', on: true },
      { event: 'fault', fault: 'stop-apiserver' },
      { event: 'fault', fault: 'start-apiserver' },
      { event: 'fault', fault: 'partition-node', node: 'node-2', on: false },
      { event: 'fault', fault: 'restart-node', node: 'node-1' },
    ]);
  });

  it('crash-restarts the controller manager and the scheduler', async () => {
    cluster = await createCluster({ seed: 2 });
    const faults = new ClusterFaults(cluster);
    const controllersBefore = cluster.controllers();
    faults.restartControllerManager();
    expect(cluster.controllerManager.isRunning).toBe(true);
    // A new process: new controller instances over fresh informers.
    expect(cluster.controllers().map((c) => c.name)).toEqual(controllersBefore.map((c) => c.name));
    expect(cluster.controllers()[0]).not.toBe(controllersBefore[0]);
    faults.restartScheduler();
    expect(cluster.scheduler!.isRunning).toBe(true);
    expect(faultEvents(cluster).map((d) => d.fault)).toEqual(['restart-controller-manager', 'restart-scheduler']);
  });

  it('adds nodes with the next name, index and zone, or as specified; removes them', async () => {
    cluster = await createCluster({ seed: 2 });
    const faults = new ClusterFaults(cluster);
    expect(faults.addNode()).toBe('node-4');
    expect(faults.addNode({ name: 'gpu-1', cpu: '8', memory: '32Gi', labels: { accelerator: 'nvidia' }, taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] })).toBe('gpu-1');
    cluster.runUntil(() => cluster.client.nodes.list().items.length === 5, 10_000);
    const n4 = cluster.client.nodes.get('node-4');
    expect(n4.metadata.labels?.['topology.kubernetes.io/zone']).toBe('zone-a');
    expect(n4.spec?.podCIDR).toBe('10.244.4.0/24');
    const gpu = cluster.client.nodes.get('gpu-1');
    expect(gpu.status?.capacity).toMatchObject({ cpu: '8', memory: '32Gi' });
    expect(gpu.metadata.labels?.accelerator).toBe('nvidia');
    expect(gpu.spec?.taints).toEqual([{ key: 'gpu', value: 'true', effect: 'NoSchedule' }]);
    expect(gpu.spec?.podCIDR).toBe('10.244.5.0/24');

    faults.removeNode('node-2');
    expect(cluster.nodes.names()).toEqual(['node-1', 'node-3', 'node-4', 'gpu-1']);
    expect(cluster.client.nodes.list().items.map((n) => n.metadata.name).sort()).toEqual(['gpu-1', 'node-1', 'node-3', 'node-4']);
    // The freed name is not reused while later ones exist: the next node follows the highest index.
    expect(faults.addNode()).toBe('node-6');
    expect(faultEvents(cluster).map((d) => [d.fault, d.node])).toEqual([
      ['add-node', 'node-4'],
      ['add-node', 'gpu-1'],
      ['remove-node', 'node-2'],
      ['add-node', 'node-6'],
    ]);
  });

  it('inject() takes the protocol union and answers with the state; errors are API statuses', async () => {
    cluster = await createCluster({ seed: 2, scheduler: false });
    const faults = new ClusterFaults(cluster);
    expect(faults.inject({ kind: 'kill-node', node: 'node-3' }).state.nodes[2]).toEqual({ name: 'node-3', running: false, reachable: true });
    expect(faults.inject({ kind: 'add-node' })).toMatchObject({ node: 'node-4' });
    expect(faults.inject({ kind: 'stop-apiserver' }).state.apiServer).toBe('stopped');
    expect(faults.inject({ kind: 'start-apiserver' }).state.scheduler).toBe('absent');

    const missing = errorOf(() => faults.inject({ kind: 'restart-node', node: 'node-9' }));
    expect(isStatusError(missing, StatusReason.NotFound) && missing.message).toBe('nodes "node-9" not found');
    const dup = errorOf(() => faults.addNode({ name: 'node-1' }));
    expect(isStatusError(dup, StatusReason.AlreadyExists) && dup.message).toBe('nodes "node-1" already exists');
    const noScheduler = errorOf(() => faults.inject({ kind: 'restart-scheduler' }));
    expect(isStatusError(noScheduler, StatusReason.ServiceUnavailable)).toBe(true);
    const unknown = errorOf(() => faults.inject({ kind: 'meteor' } as never));
    expect(isStatusError(unknown, StatusReason.BadRequest) && unknown.message).toBe('unknown fault "meteor"');
  });
});
