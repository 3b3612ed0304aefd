// Test support (imported by tests only): a real cluster's trace for the Control plane's mapping tests. Boots a
// headless cluster, lets the page-like client watch pods (so the page's own deliveries are in it), applies the
// gallery's nginx Deployment and the `replica: 3` typo through the page's api/apply, and runs until the pods run.
import type { TraceEvent } from '../../../shared/protocol/trace';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
import { samples } from '../editor/samples';

export const nginxManifest = samples.find((s) => s.id === 'nginx-deployment')!.manifest;
export const typoManifest = nginxManifest.replace('  replicas: 3', '  replica: 3');

export interface RealTrace {
  h: HeadlessCluster;
  /** Every event from boot on, in seq order. */
  events: TraceEvent[];
  close(): Promise<void>;
}

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

export async function realTrace(options: { scale?: number } = {}): Promise<RealTrace> {
  const h = await createHeadlessCluster({ seed: 7 });
  const live: TraceEvent[] = [];
  const unsubscribe = h.cluster.trace.subscribe((e) => live.push(e));
  const boot = h.cluster.trace.recent(0).filter((e) => e.seq < (live[0]?.seq ?? Infinity));
  const stopWatch = h.client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'pods' }, () => {});
  h.cluster.advance(3000);
  const typo = await h.client.call('api/apply', { manifest: typoManifest });
  if (typo.outcomes[0]?.ok !== false) throw new Error('the typo was not refused');
  const applied = await h.client.call('api/apply', { manifest: nginxManifest });
  if (!applied.outcomes[0]?.ok) throw new Error('nginx was not applied');
  if (options.scale !== undefined) {
    await h.client.call('api/apply', { manifest: nginxManifest.replace('replicas: 3', `replicas: ${options.scale}`) });
  }
  h.cluster.runUntil(() => h.cluster.client.pods.list({ namespace: 'default' }).items.filter((p) => (p.status as { phase?: string })?.phase === 'Running').length >= 3, 60_000);
  h.cluster.advance(1000);
  for (let i = 0; i < 5; i++) await tick();
  unsubscribe();
  return {
    h,
    events: [...boot, ...live],
    async close() {
      stopWatch();
      await h.close();
    },
  };
}
