// Starts the cluster worker and the protocol client the whole page shares. The worker is the only place the
// cluster lives; the page holds nothing but what watches deliver.
import { createProtocolClient } from '../../shared/protocol/client';
import type { ProtocolClient } from '../../shared/protocol/client';

export interface Connection {
  client: ProtocolClient;
  /** Stops listening to page lifecycle events and terminates the worker. */
  dispose(): void;
}

export function connect(onWorkerError: (message: string) => void): Connection {
  const worker = new Worker(new URL('../../worker/worker.ts', import.meta.url), { type: 'module', name: 'kubeplay-cluster' });
  const client = createProtocolClient(worker);

  worker.addEventListener('error', (event) => {
    onWorkerError(`The cluster worker failed: ${event.message || 'it could not start'}`);
  });

  // Acknowledged writes are durable already; this also saves the latest clock time and anything in flight
  // before the tab may be discarded.
  const flush = () => {
    client.call('cluster/flush').catch(() => {});
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', onVisibility);

  return {
    client,
    dispose() {
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onVisibility);
      client.close();
      worker.terminate();
    },
  };
}
