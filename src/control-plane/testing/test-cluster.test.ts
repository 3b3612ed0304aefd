import { describe, expect, it } from 'vitest';
import { TestCluster } from './test-cluster';

describe('TestCluster', () => {
  it('applies YAML (creating, then updating), reads by kubectl names and runs until a condition holds', async () => {
    const tc = await TestCluster.create();
    const [ns, cm] = tc.apply(`
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: team-a
data:
  mode: fast
`);
    expect(ns.kind).toBe('Namespace');
    expect(cm.metadata.uid).toBeDefined();
    tc.runUntil(() => tc.get('sa', 'team-a', 'default') !== undefined, 60_000, 'the default service account');

    const [updated] = tc.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-a' }, data: { mode: 'slow' } });
    expect(updated.metadata.uid).toBe(cm.metadata.uid);
    expect(tc.get('configmap', 'team-a', 'settings')?.data).toEqual({ mode: 'slow' });
    expect(tc.get('cm', 'team-a', 'missing')).toBeUndefined();
    expect(tc.get('namespaces', undefined, 'team-a')?.metadata.name).toBe('team-a');
    // The root CA publisher's kube-root-ca.crt is in every namespace, as in a real cluster.
    expect(tc.list('configmaps', 'team-a').map((o) => o.metadata.name)).toEqual(['kube-root-ca.crt', 'settings']);

    tc.delete('configmap', 'team-a', 'settings');
    expect(tc.get('configmap', 'team-a', 'settings')).toBeUndefined();
    await tc.close();
  });

  it('puts namespaced objects without a namespace into the default one, and reports API errors', async () => {
    const tc = await TestCluster.create();
    tc.apply('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}');
    expect(tc.get('configmaps', 'default', 'c')).toBeDefined();
    expect(() => tc.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'nowhere' } })).toThrow(
      'namespaces "nowhere" not found',
    );
    expect(() => tc.apply({ apiVersion: 'batch/v1beta1', kind: 'CronJob', metadata: { name: 'old' } })).toThrow(
      'no matches for kind "CronJob" in version "batch/v1beta1"',
    );
    expect(() => tc.get('gizmos', 'default', 'x')).toThrow(`the server doesn't have a resource type "gizmos"`);
    await tc.close();
  });

  it('fails runUntil with a message when the condition never holds', async () => {
    const tc = await TestCluster.create({ controllers: false });
    expect(() => tc.runUntil(() => false, 1000, 'a miracle')).toThrow('timed out after 1000 ms of virtual time waiting for a miracle');
    await tc.close();
  });
});
