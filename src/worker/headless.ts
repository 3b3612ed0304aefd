// A whole cluster in Node, spoken to through the very protocol client the page uses.
import type { Cluster, ClusterOptions } from '../control-plane/cluster';
import { createCluster } from '../control-plane/cluster';
import { IndexedDbPersistence } from '../control-plane/store/persistence/indexeddb-persistence';
import type { ProtocolClient } from '../shared/protocol/client';
import { createProtocolClient } from '../shared/protocol/client';
import type { PortPairOptions } from '../shared/protocol/port';
import { createPortPair } from '../shared/protocol/port';
import type { ProtocolServer } from './serve';
import { serveProtocol } from './serve';

export interface HeadlessClusterOptions extends ClusterOptions {
  /**
   * 'deferred' (default): after every API request, run the work it deferred (watch deliveries, queue
   * processing) without moving time, so the client sees its writes without driving the clock.
   * 'manual': nothing runs until the caller drives cluster.clock / cluster.advance().
   */
  settle?: 'deferred' | 'manual';
  /** How messages cross the in-process channel; default 'json' (proves only plain JSON crosses). */
  copy?: PortPairOptions['copy'];
  /** Ack scheduling of the client (default: a macrotask, as Node has no animation frames). */
  scheduleAck?: (fn: () => void) => void;
}

export interface HeadlessCluster {
  cluster: Cluster;
  client: ProtocolClient;
  server: ProtocolServer<Cluster>;
  /** Stops serving, closes the client and the cluster (flushing its persistence). */
  close(): Promise<void>;
}

/**
 * Creates a cluster in-process and connects the page's protocol client to it over an in-memory channel.
 * Time is virtual: it moves only when you advance it.
 *
 * @example
 * const { cluster, client, close } = await createHeadlessCluster({ seed: 1 });
 * await client.call('api/request', {
 *   verb: 'create', group: '', version: 'v1', resource: 'configmaps', namespace: 'default',
 *   body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo' }, data: { a: '1' } },
 * });
 * const stop = client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'configmaps' }, (batch) => {
 *   console.log(Object.keys(batch.diff.added)); // ['default/demo'] (the initial list), then deltas
 * });
 * cluster.advance(60_000); // one simulated minute
 * stop();
 * await close();
 *
 * @example
 * // Persistence across "reloads", in Node:
 * import 'fake-indexeddb/auto'; // IDB globals for idb
 * import { IDBFactory } from 'fake-indexeddb';
 * const indexedDB = new IDBFactory();
 * const first = await createHeadlessCluster({ persistence: new IndexedDbPersistence({ indexedDB }) });
 * // … write through first.client (acknowledged writes are durable) …
 * await first.close();
 * const second = await createHeadlessCluster({ persistence: new IndexedDbPersistence({ indexedDB }) });
 */
export async function createHeadlessCluster(options: HeadlessClusterOptions = {}): Promise<HeadlessCluster> {
  const { settle = 'deferred', copy, scheduleAck, ...clusterOptions } = options;
  const cluster = await createCluster(clusterOptions);
  const [uiPort, workerPort] = createPortPair({ copy });
  const server = serveProtocol(cluster, workerPort, {
    persistenceKind: !cluster.persistence ? 'none' : cluster.persistence instanceof IndexedDbPersistence ? 'indexeddb' : 'memory',
    afterRequest: settle === 'deferred' ? (c) => c.clock.runDeferred() : undefined,
  });
  const client = createProtocolClient(uiPort, { scheduleAck });
  await client.ready;
  return {
    cluster,
    client,
    server,
    async close() {
      server.close();
      client.close();
      uiPort.close();
      await cluster.close();
    },
  };
}
