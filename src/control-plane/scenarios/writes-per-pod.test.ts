// The work one pod of a Deployment costs the API server, as a real cluster spends it: the ReplicaSet controller's
// create, the scheduler's binding and its Scheduled event, the kubelet's two status writes (ContainerCreating,
// then Running and Ready) and its Pulled, Created and Started events. The engine benchmarks' figures rest on
// this count (8 revisions per pod), so a change that adds a write per pod shows here, not only as a slower figure.
// Reads: the kubelet's ConfigMaps come from its watches (object-cache.ts), not from a GET per pod.
import { describe, expect, it } from 'vitest';
import type { Deployment } from 'kubernetes-types/apps/v1';
import { TraceKind } from '../../shared/protocol/trace';
import { bootCluster, rolloutComplete } from './harness';

const replicas = 60;

const deployment: Deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'pause', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'pause' } },
    template: { metadata: { labels: { app: 'pause' } }, spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10' }] } },
  },
};

/** "node" for any kubelet's user, the user name for everyone else. */
function who(user: unknown): string {
  return typeof user === 'string' && user.startsWith('system:node:') ? 'kubelet' : String(user);
}

describe('the API writes a rollout costs per pod', () => {
  it('are the writes a real cluster makes, and no more', async () => {
    const tc = await bootCluster();
    const writes = new Map<string, number>();
    let kubeletGets = 0;
    const off = tc.trace.subscribe((e) => {
      if (e.kind !== TraceKind.ApiRequest) return;
      const d = e.data as { verb: string; resource: string; user?: string };
      if (d.verb === 'get' && who(d.user) === 'kubelet') kubeletGets++;
      if (d.verb === 'get' || d.verb === 'list' || d.verb === 'watch') return;
      const key = `${who(d.user)} ${d.verb} ${d.resource}`;
      writes.set(key, (writes.get(key) ?? 0) + 1);
    });
    const rev0 = tc.cluster.store.revision;
    tc.apply(deployment as never);
    tc.runUntil(() => rolloutComplete(tc.get('deployment', 'default', 'pause') as Deployment | undefined), 10 * 60_000, 'the rollout');
    off();

    expect(writes.get('system:kube-controller-manager create pods')).toBe(replicas);
    expect(writes.get('system:kube-scheduler create pods/binding')).toBe(replicas);
    expect(writes.get('system:kube-scheduler create events')).toBe(replicas);
    expect(writes.get('kubelet update pods/status')).toBe(2 * replicas);
    expect(writes.get('kubelet create events')).toBe(3 * replicas);
    // No other kind of write grows with the number of pods.
    const perPodKinds = [...writes].filter(([, n]) => n >= replicas / 2).map(([k]) => k).sort();
    expect(perPodKinds).toEqual([
      'kubelet create events',
      'kubelet update pods/status',
      'system:kube-controller-manager create pods',
      'system:kube-scheduler create events',
      'system:kube-scheduler create pods/binding',
    ]);
    // The kubelets read kube-root-ca.crt (every pod's kube-api-access volume) from their watches, not per pod.
    expect(kubeletGets).toBe(0);
    // Besides those: the Deployment, its ReplicaSet, their status writes and the controllers' own events (the
    // ReplicaSet's "Created pod" events stop at the recorder's spam filter burst of 25).
    const perPod = 8 * replicas;
    const revisions = tc.cluster.store.revision - rev0;
    expect(revisions).toBeGreaterThanOrEqual(perPod);
    expect(revisions - perPod).toBeLessThan(45);
    await tc.cluster.close();
  });
});
