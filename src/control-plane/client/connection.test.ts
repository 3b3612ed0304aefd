import { describe, expect, it } from 'vitest';
import { createCluster } from '../cluster';
import { isStatusError } from '../../shared/api/status';
import type { WatchEvent } from '../../shared/api/types';
import { Client } from './client';
import { ApiServerEndpoint } from './connection';

describe('ApiServerEndpoint and ApiConnection', () => {
  it('refuses requests and ends watches while the API server is stopped, and serves again after start', async () => {
    const cluster = await createCluster({ controllers: false });
    const endpoint = new ApiServerEndpoint(cluster.apiserver, cluster.clock);
    const client = new Client(endpoint.connect('test'));
    const events: WatchEvent[] = [];
    client.configMaps.watch({ namespace: 'default', resourceVersion: String(cluster.store.revision) }, (batch) => events.push(...batch));

    endpoint.stop();
    cluster.runUntilIdle({ maxTimeMs: 1000 });
    expect(events.map((e) => e.type)).toEqual(['ERROR']);
    let refused: unknown;
    try {
      client.configMaps.list({ namespace: 'default' });
    } catch (err) {
      refused = err;
    }
    expect(isStatusError(refused) && refused.status.message).toBe('dial tcp 10.96.0.1:443: connect: connection refused');

    endpoint.start();
    client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'back', namespace: 'default' } });
    cluster.runUntilIdle({ maxTimeMs: 1000 });
    expect(events).toHaveLength(1); // the ended watch stays ended: the informer opens a new one
    await cluster.close();
  });

  it('partitions one connection without affecting the others', async () => {
    const cluster = await createCluster({ controllers: false });
    const endpoint = new ApiServerEndpoint(cluster.apiserver, cluster.clock);
    const kubelet = endpoint.connect('kubelet/node-1');
    const other = new Client(endpoint.connect('scheduler'));
    const kubeletClient = new Client(kubelet);
    const kubeletEvents: WatchEvent[] = [];
    kubeletClient.pods.watch({ resourceVersion: String(cluster.store.revision) }, (b) => kubeletEvents.push(...b));

    kubelet.setReachable(false);
    cluster.runUntilIdle({ maxTimeMs: 1000 });
    expect(kubeletEvents.map((e) => e.type)).toEqual(['ERROR']);
    expect(() => kubeletClient.pods.list({})).toThrow('connection refused');
    expect(other.namespaces.list({}).items.length).toBeGreaterThan(0);

    kubelet.setReachable(true);
    expect(kubeletClient.namespaces.list({}).items.length).toBeGreaterThan(0);
    await cluster.close();
  });
});
