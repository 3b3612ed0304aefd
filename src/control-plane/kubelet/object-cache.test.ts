import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { TraceKind, type TraceEvent } from '../../shared/protocol/trace';
import { referencedObjects } from './object-cache';
import { kubeletTestBed, type KubeletTestBed } from './testing';

const node = 'system:node:node-1';

function podUsing(name: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'app', image: 'nginx', envFrom: [{ configMapRef: { name: 'app-config' } }] }] },
  } as Pod;
}

/** The kubelet's requests for configmaps, "verb name" (name from a fieldSelector for list and watch). */
function configMapRequests(events: TraceEvent[]): string[] {
  return events
    .filter((e) => e.kind === TraceKind.ApiRequest && e.data.user === node && e.data.resource === 'configmaps')
    .map((e) => `${String(e.data.verb)}`);
}

describe('the kubelet reads ConfigMaps and Secrets from watches of what its pods reference', () => {
  let bed: KubeletTestBed;
  afterEach(() => bed.close());

  it('lists and watches each referenced ConfigMap once for all its pods, with no GET per pod, and stops when the last pod goes', async () => {
    bed = await kubeletTestBed();
    const client = bed.cluster.client;
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'default' }, data: { MODE: 'blue' } }, { namespace: 'default' });
    const seen: TraceEvent[] = [];
    const off = bed.cluster.trace.subscribe((e) => seen.push(e));
    for (const name of ['a', 'b', 'c']) bed.run(podUsing(name) as never);
    bed.cluster.advance(10_000);
    for (const name of ['a', 'b', 'c']) expect(bed.pod(name)?.status?.phase).toBe('Running');
    // app-config and kube-root-ca.crt (every pod's kube-api-access volume projects it): one list and one watch each.
    expect(configMapRequests(seen).sort()).toEqual(['list', 'list', 'watch', 'watch']);

    // A change reaches the cache through the watch.
    client.configMaps.update({ ...client.configMaps.get('app-config', { namespace: 'default' }), data: { MODE: 'green' } }, { namespace: 'default' });
    bed.cluster.advance(100);
    expect(bed.nodes.get('node-1')!.objectData('configmap', 'default', 'app-config')?.data).toEqual({ MODE: 'green' });

    // With the pods gone, nothing watches app-config on the node any more: a change is delivered to no kubelet.
    for (const name of ['a', 'b', 'c']) client.pods.delete(name, { namespace: 'default', gracePeriodSeconds: 0 });
    bed.cluster.advance(10_000);
    seen.length = 0;
    client.configMaps.update({ ...client.configMaps.get('app-config', { namespace: 'default' }), data: { MODE: 'red' } }, { namespace: 'default' });
    bed.cluster.advance(100);
    off();
    expect(seen.filter((e) => e.kind === TraceKind.WatchDelivery && e.data.user === node && e.data.resource === 'configmaps')).toEqual([]);
    expect(configMapRequests(seen)).toEqual([]);
  });

  it('keeps serving what it has while the node is cut off from the API server', async () => {
    bed = await kubeletTestBed();
    const client = bed.cluster.client;
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'default' }, data: { MODE: 'blue' } }, { namespace: 'default' });
    bed.run(podUsing('a') as never);
    bed.cluster.advance(10_000);
    bed.nodes.partition('node-1', true);
    bed.cluster.advance(1_000);
    expect(bed.nodes.get('node-1')!.objectData('configmap', 'default', 'app-config')?.data).toEqual({ MODE: 'blue' });
    // A ConfigMap no pod of the node references is read from the API server, which it cannot reach.
    expect(bed.nodes.get('node-1')!.objectData('configmap', 'default', 'other')).toBeUndefined();
  });
});

describe('referencedObjects', () => {
  it('names what VisitPodConfigmapNames and VisitPodSecretNames visit', () => {
    const refs = [
      ...referencedObjects({
        imagePullSecrets: [{ name: 'registry' }],
        initContainers: [{ name: 'init', env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 'token', key: 't' } } }] }],
        containers: [
          { name: 'c', envFrom: [{ configMapRef: { name: 'env-cm' } }, { secretRef: { name: 'env-secret' } }], env: [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'key-cm', key: 'k' } } }] },
        ],
        ephemeralContainers: [{ name: 'debug', envFrom: [{ configMapRef: { name: 'debug-cm' } }] }],
        volumes: [
          { name: 'v1', configMap: { name: 'vol-cm' } },
          { name: 'v2', secret: { secretName: 'vol-secret' } },
          { name: 'v3', projected: { sources: [{ configMap: { name: 'proj-cm' } }, { secret: { name: 'proj-secret' } }, { serviceAccountToken: { path: 'token' } }] } },
          { name: 'v4', emptyDir: {} },
        ],
      }),
    ];
    expect(refs).toEqual([
      ['secret', 'registry'],
      ['secret', 'token'],
      ['configmap', 'env-cm'],
      ['secret', 'env-secret'],
      ['configmap', 'key-cm'],
      ['configmap', 'debug-cm'],
      ['configmap', 'vol-cm'],
      ['secret', 'vol-secret'],
      ['configmap', 'proj-cm'],
      ['secret', 'proj-secret'],
    ]);
  });
});
