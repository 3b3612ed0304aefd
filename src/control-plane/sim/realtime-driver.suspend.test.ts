// A background tab or a sleeping laptop (issue 9 item 6, fault matrix F19): the host's timers stop, then fire
// minutes late. Every component — kubelets, node lifecycle controller, API server — lives in this one process
// on one virtual clock, so such a gap is the whole simulated cluster being paused, not the nodes going silent
// while the control plane watches: on return no node may go NotReady and no pod may be evicted.
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../shared/api/types';
import { RevisionMonitor, bootCluster, objectsOf, rolloutComplete } from '../scenarios/harness';
import type { TestCluster } from '../testing/test-cluster';
import { RealtimeDriver, type RealtimeHost } from './realtime-driver';

/** A host whose real time moves only when the test says so; suspend() is the laptop lid closed. */
class FakeHost implements RealtimeHost {
  real = 0;
  private nextId = 0;
  private readonly tasks = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.real;
  }
  schedule(fn: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.tasks.set(id, { at: this.real + ms, fn });
    return () => this.tasks.delete(id);
  }
  /** Moves real time forward, running host tasks as they come due. */
  run(ms: number): void {
    const end = this.real + ms;
    for (let i = 0; ; i++) {
      if (i > 1_000_000) throw new Error(`host ran away at real ${this.real}: ${JSON.stringify([...this.tasks.values()].map((t) => t.at))}`);
      const [entry] = [...this.tasks.entries()].sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
      if (!entry || entry[1].at > end) break;
      this.tasks.delete(entry[0]);
      this.real = Math.max(this.real, entry[1].at);
      entry[1].fn();
    }
    this.real = end;
  }
  /** Real time jumps and nothing ran meanwhile; the overdue timer then fires late. */
  suspend(ms: number): void {
    this.real += ms;
  }
}

const web = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: nginx, image: 'nginx:1.27'}
`;

/** Records, at every store revision, any node that is not Ready or is tainted and any pod given a deletionTimestamp. */
function watchForStorm(tc: TestCluster): { storm: string[]; stop(): void } {
  const storm: string[] = [];
  const monitor = new RevisionMonitor(tc, '/registry/', (objects: ReadonlyMap<string, KubeObject>, revision) => {
    for (const obj of objects.values()) {
      if (obj.kind === 'Node') {
        const node = obj as Node;
        const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
        if (ready !== 'True' || node.spec?.taints?.length) storm.push(`revision ${revision}: node ${node.metadata?.name} Ready=${ready} taints=${JSON.stringify(node.spec?.taints ?? [])}`);
      } else if (obj.kind === 'Pod' && obj.metadata.deletionTimestamp) {
        storm.push(`revision ${revision}: pod ${obj.metadata.name} deleted (${(obj as Pod).status?.reason ?? ''})`);
      }
    }
  });
  return { storm, stop: () => monitor.stop() };
}

async function runningCluster(speed: number): Promise<{ tc: TestCluster; host: FakeHost; driver: RealtimeDriver }> {
  const tc = await bootCluster();
  tc.apply(objectsOf(web));
  tc.runUntil(() => rolloutComplete(tc.client.deployments.get('web', { namespace: 'default' })), 120_000, 'web available');
  const host = new FakeHost();
  const driver = new RealtimeDriver({ clock: tc.clock, host, speed });
  driver.resume();
  host.run(5_000);
  return { tc, host, driver };
}

function livePodUids(tc: TestCluster): string[] {
  return tc.client.pods
    .list({ namespace: 'default' })
    .items.filter((p) => !p.metadata?.deletionTimestamp)
    .map((p) => p.metadata!.uid!)
    .sort();
}

describe('RealtimeDriver: the host sleeps for 10 minutes', () => {
  for (const speed of [1, 50]) {
    it(`at ×${speed}: the cluster resumes where it was — no node goes NotReady, no pod is evicted`, async () => {
      const { tc, host, driver } = await runningCluster(speed);
      const { storm, stop } = watchForStorm(tc);
      const uids = livePodUids(tc);
      const before = tc.clock.now();
      try {
        host.suspend(10 * 60_000);
        host.run(0); // the overdue tick fires, 10 minutes late
        // One tick counts at most 1 s of real time: ≤ 50 virtual seconds even at ×50, every timer (the kubelets'
        // lease renewals among them) firing in order on the way — never the 10 minutes the host was away.
        expect(tc.clock.now() - before).toBeLessThanOrEqual(1_000 * speed);
        // And 10 virtual minutes of ordinary ticks later, still nothing: the grace period (50 s) and the pods'
        // tolerationSeconds (300 s) never saw a silent node.
        const realMs = (10 * 60_000) / speed;
        host.run(realMs);
        driver.pause();
        expect(tc.clock.now() - before).toBeGreaterThan(realMs * speed * 0.9);
        expect(storm).toEqual([]);
        expect(livePodUids(tc)).toEqual(uids);
      } finally {
        stop();
        driver.dispose();
        await tc.close();
      }
    }, 120_000);
  }

  it('a node that really stops heartbeating still goes Unknown after the grace period while the driver runs', async () => {
    // The cap is not a blanket shield: with the cluster running, a killed kubelet is noticed on virtual time.
    const { tc, host, driver } = await runningCluster(1);
    try {
      const victim = tc.client.nodes.list().items[0].metadata!.name!;
      tc.cluster.nodes.kill(victim);
      host.suspend(10 * 60_000);
      host.run(0);
      const ready = () => tc.client.nodes.get(victim).status?.conditions?.find((c) => c.type === 'Ready')?.status;
      expect(ready()).toBe('True');
      host.run(70_000);
      expect(ready()).toBe('Unknown');
    } finally {
      driver.dispose();
      await tc.close();
    }
  }, 120_000);
});
