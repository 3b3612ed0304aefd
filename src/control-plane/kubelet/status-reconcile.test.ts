// The status manager's reconciliation: the kubelet owns the pod conditions it reports, so when someone else
// changes them on the API server (the node lifecycle controller marks every pod of an unreachable node
// NotReady), the kubelet — once it hears of it — writes its own view back.
import { describe, expect, it } from 'vitest';
import type { Pod } from 'kubernetes-types/core/v1';
import { kubeletTestBed } from './testing';

const nginxPod = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  containers:\n  - {name: web, image: 'nginx:1.27'}`;
const ready = (p: Pod | undefined) => p?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

/** What nodelifecycle's MarkPodsNotReady writes. */
function markNotReady(pod: Pod): Pod {
  const copy = structuredClone(pod);
  for (const c of copy.status!.conditions!) if (c.type === 'Ready') c.status = 'False';
  return copy;
}

describe('pod status reconciliation', () => {
  it('writes Ready back when another component marked the running pod NotReady', async () => {
    const tb = await kubeletTestBed();
    const { client } = tb.cluster;
    tb.run(nginxPod('a'));
    tb.cluster.runUntil(() => ready(tb.pod('a')) === 'True', 30_000);
    client.pods.updateStatus(markNotReady(tb.pod('a')!) as never);
    expect(ready(tb.pod('a'))).toBe('False');
    tb.cluster.runUntil(() => ready(tb.pod('a')) === 'True', 30_000);
    expect(ready(tb.pod('a'))).toBe('True');
    // Settled: no further writes once the API server agrees.
    const rv = tb.pod('a')!.metadata!.resourceVersion;
    tb.cluster.advance(60_000);
    expect(tb.pod('a')!.metadata!.resourceVersion).toBe(rv);
    await tb.close();
  });

  it('a partitioned kubelet restores the condition after the network heals', async () => {
    const tb = await kubeletTestBed();
    const { client } = tb.cluster;
    tb.run(nginxPod('b'));
    tb.cluster.runUntil(() => ready(tb.pod('b')) === 'True', 30_000);
    tb.nodes.partition('node-1', true);
    client.pods.updateStatus(markNotReady(tb.pod('b')!) as never);
    tb.cluster.advance(30_000);
    expect(ready(tb.pod('b'))).toBe('False');
    tb.nodes.partition('node-1', false);
    tb.cluster.runUntil(() => ready(tb.pod('b')) === 'True', 30_000);
    expect(ready(tb.pod('b'))).toBe('True');
    await tb.close();
  });
});
