import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { FaultState } from '../../../shared/protocol/methods';
import type { WatchBatch } from '../../../shared/protocol/messages';
import { createAppStore } from '../../state/store';
import { selectNode, selectNodeNames, selectPodsOnNode, selectUnscheduledPods } from './node-selectors';
import { drainCommand, kubeletState } from './use-node-actions';

const nodeObj = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: `n-${name}` } });
const podObj = (name: string, nodeName?: string, rv = '1'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `p-${name}`, resourceVersion: rv },
  spec: nodeName ? { nodeName, containers: [] } : { containers: [] },
});

function batch(partial: Partial<WatchBatch['diff']>, rv: string, relist = false): WatchBatch {
  const b: WatchBatch = { diff: { added: {}, updated: {}, removed: {}, ...partial }, resourceVersion: rv };
  if (relist) b.relist = true;
  return b;
}

describe('nodes view selectors', () => {
  it('lists node names sorted and finds a node by name', () => {
    const store = createAppStore();
    store.getState().applyBatch('/nodes', batch({ added: { 'node-2': nodeObj('node-2'), 'node-1': nodeObj('node-1') } }, '2', true));
    const names = selectNodeNames(store.getState());
    expect(names).toEqual(['node-1', 'node-2']);
    expect(selectNodeNames(store.getState())).toBe(names);
    expect(selectNode(store.getState(), 'node-2')?.metadata.uid).toBe('n-node-2');
    expect(selectNode(store.getState(), 'node-9')).toBeUndefined();
  });

  it('groups pods by node, keeps untouched pods identical across batches, and trays unscheduled pods', () => {
    const store = createAppStore();
    store.getState().applyBatch(
      '/pods',
      batch({ added: { 'default/b': podObj('b', 'node-1'), 'default/a': podObj('a', 'node-1'), 'default/c': podObj('c', 'node-2'), 'default/d': podObj('d') } }, '5', true),
    );
    const before = selectPodsOnNode(store.getState(), 'node-1');
    expect(before.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect(selectUnscheduledPods(store.getState()).map((p) => p.metadata.name)).toEqual(['d']);
    expect(selectPodsOnNode(store.getState(), 'node-3')).toEqual([]);

    // d gets bound to node-2; node-1's pods are the same objects, so a shallow compare sees no change.
    store.getState().applyBatch('/pods', batch({ updated: { 'default/d': podObj('d', 'node-2', '6') } }, '6'));
    const after = selectPodsOnNode(store.getState(), 'node-1');
    expect(after).not.toBe(before);
    expect(after.length).toBe(before.length);
    after.forEach((p, i) => expect(p).toBe(before[i]));
    expect(selectPodsOnNode(store.getState(), 'node-2').map((p) => p.metadata.name)).toEqual(['c', 'd']);
    expect(selectUnscheduledPods(store.getState())).toEqual([]);
  });
});

describe('kubelet state and drain', () => {
  const faults: FaultState = {
    apiServer: 'serving',
    controllerManager: 'running',
    scheduler: 'running',
    nodes: [
      { name: 'node-1', running: true, reachable: true },
      { name: 'node-2', running: false, reachable: true },
      { name: 'node-3', running: true, reachable: false },
    ],
  };

  it('reads running / stopped / partitioned, none for an unbacked Node', () => {
    expect(kubeletState(faults, 'node-1')).toBe('running');
    expect(kubeletState(faults, 'node-2')).toBe('stopped');
    expect(kubeletState(faults, 'node-3')).toBe('partitioned');
    expect(kubeletState(faults, 'node-4')).toBe('none');
    expect(kubeletState(undefined, 'node-1')).toBeUndefined();
  });

  it('drains with the playground flags', () => {
    expect(drainCommand('node-1')).toEqual({ command: 'drain', node: 'node-1', flags: { ignoreDaemonSets: true, deleteEmptyDirData: true, force: true } });
  });
});
