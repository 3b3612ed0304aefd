import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { newTestServer, pod } from './handlers/test-harness';

const bind = (podName: string, node: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name: podName, namespace: 'default', annotations: { 'scheduler.example.com/by': 'test' } },
  target: { apiVersion: 'v1', kind: 'Node', name: node },
});

describe('pod binding', () => {
  it('sets nodeName and PodScheduled once, then refuses a second binding', () => {
    const t = newTestServer();
    t.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
    t.create(pod('web'));
    t.clock.advance(2_000);
    const res = t.server.handle({ verb: 'create', group: '', version: 'v1', resource: 'pods', subresource: 'binding', namespace: 'default', name: 'web', body: bind('web', 'node-1') });
    expect(res).toMatchObject({ code: 201, body: { kind: 'Status', status: 'Success' } });
    const bound = t.get('v1', 'Pod', 'default', 'web') as KubeObject & { spec: { nodeName: string }; status: { conditions: object[] } };
    expect(bound.spec.nodeName).toBe('node-1');
    expect(bound.metadata.annotations).toMatchObject({ 'scheduler.example.com/by': 'test' });
    expect(bound.status.conditions).toContainEqual({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:02Z' });

    const again = t.failure(() => t.server.handle({ verb: 'create', group: '', version: 'v1', resource: 'bindings', namespace: 'default', body: bind('web', 'node-2') }));
    expect(again).toMatchObject({ code: 409, message: 'Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "node-1"' });
    const missing = t.failure(() => t.server.handle({ verb: 'create', group: '', version: 'v1', resource: 'bindings', namespace: 'default', body: bind('ghost', 'node-1') }));
    expect(missing).toMatchObject({ code: 404, message: 'pods "ghost" not found' });
  });
});
