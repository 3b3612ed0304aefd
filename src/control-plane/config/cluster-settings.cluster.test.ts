// The settings on a whole cluster: each change reaches the running component that owns the flag (the node
// lifecycle controller, the DefaultTolerationSeconds admission plugin, the kubelets, the simulated registry)
// without restarting it, and the settings survive a reload. Everything is asserted against virtual time.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { StatusError } from '../../shared/api/status';
import { createCluster } from '../cluster';
import { ClusterFaults } from '../faults/cluster-faults';
import { bootCluster, isPodReady, objectsOf, rolloutComplete } from '../scenarios/harness';
import { IndexedDbPersistence } from '../store/persistence/indexeddb-persistence';
import { MemoryPersistence } from '../store/persistence/memory-persistence';
import type { Persistence } from '../store/persistence/types';
import type { TestCluster } from '../testing/test-cluster';
import { defaultClusterSettings } from './cluster-settings';

const unreachable = 'node.kubernetes.io/unreachable';

const web = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: nginx, image: 'nginx:1.27'}
`;

const pod = (name: string, image = 'nginx:1.27'): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'app', image }] },
});

function webPods(tc: TestCluster): Pod[] {
  return tc.client.pods.list({ namespace: 'default', labelSelector: 'app=web' }).items;
}

function ready(n: Node): string | undefined {
  return n.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

function heartbeat(n: Node): string | undefined {
  return n.status?.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime;
}

function noExecute(n: Node, key: string): Taint | undefined {
  return n.spec?.taints?.find((t) => t.key === key && t.effect === 'NoExecute');
}

function tolerationSeconds(p: Pod, key: string): number | undefined {
  return p.spec?.tolerations?.find((t) => t.key === key && t.effect === 'NoExecute')?.tolerationSeconds;
}

describe('demo timings on a running cluster', () => {
  it('grace 10 s and toleration 30 s: a killed node goes Unknown ~10 s later, its pods are evicted 30 s after the taint and replaced', async () => {
    const tc = await bootCluster();
    const controllersBefore = tc.cluster.controllers();
    // The demo preset, applied to the running cluster (no component restarts).
    tc.cluster.settings.configure({ nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30, nodeStatusUpdateFrequencySeconds: 5 });
    expect(tc.cluster.controllers()).toBe(controllersBefore);

    tc.apply(objectsOf(web));
    tc.runUntil(() => webPods(tc).filter(isPodReady).length === 3 && rolloutComplete(tc.client.deployments.get('web', { namespace: 'default' })), 120_000, 'web ready');
    // Pods created after the change got the new tolerationSeconds.
    for (const p of webPods(tc)) expect(tolerationSeconds(p, unreachable)).toBe(30);

    // With the shorter grace period healthy nodes do not flap: status heartbeats every 5 s keep them Ready.
    const others = () => tc.client.nodes.list().items.filter((n) => n.metadata!.name !== victim);
    const victim = webPods(tc)[0].spec!.nodeName!;
    const onVictim = webPods(tc).filter((p) => p.spec?.nodeName === victim);
    tc.advance(60_000);
    expect(tc.client.nodes.list().items.every((n) => ready(n) === 'True')).toBe(true);

    const killedAt = tc.clock.now();
    new ClusterFaults(tc.cluster).killNode(victim);
    tc.advance(4_900);
    expect(ready(tc.client.nodes.get(victim))).toBe('True');
    tc.runUntil(() => ready(tc.client.nodes.get(victim)) === 'Unknown', 60_000, 'Ready=Unknown');
    const unknownAfter = tc.clock.now() - killedAt;
    // Last heartbeat ≤ 5 s before the kill, seen at a monitor pass (every 5 s), + the 10 s grace period.
    expect(unknownAfter).toBeGreaterThanOrEqual(5_000);
    expect(unknownAfter).toBeLessThanOrEqual(16_000);

    tc.runUntil(() => noExecute(tc.client.nodes.get(victim), unreachable) !== undefined, 30_000, 'unreachable:NoExecute');
    const taintedAt = Date.parse(noExecute(tc.client.nodes.get(victim), unreachable)!.timeAdded!);
    tc.clock.advanceTo(taintedAt + 29_000);
    for (const p of onVictim) expect(tc.client.pods.get(p.metadata!.name!, { namespace: 'default' }).metadata?.deletionTimestamp).toBeUndefined();
    tc.runUntil(() => onVictim.every((p) => !!tc.client.pods.get(p.metadata!.name!, { namespace: 'default' }).metadata?.deletionTimestamp), 10_000, 'eviction');
    const evictedAfter = tc.clock.now() - taintedAt;
    expect(evictedAfter).toBeGreaterThanOrEqual(30_000);
    expect(evictedAfter).toBeLessThan(32_000);

    tc.runUntil(() => webPods(tc).filter((p) => !p.metadata?.deletionTimestamp && isPodReady(p)).length === 3, 60_000, 'replacements Ready');
    const live = webPods(tc).filter((p) => !p.metadata?.deletionTimestamp);
    expect(live.every((p) => p.spec?.nodeName !== victim)).toBe(true);
    // A whole minute of virtual time from the kill to three Ready pods again, instead of six.
    expect(tc.clock.now() - killedAt).toBeLessThan(60_000);
    expect(others().every((n) => ready(n) === 'True')).toBe(true);
    await tc.close();
  });

  it('a shorter grace period reaches the running node lifecycle controller at its next monitor pass', async () => {
    const tc = await bootCluster();
    const victim = tc.client.nodes.list().items[0].metadata!.name!;
    const killedAt = tc.clock.now();
    new ClusterFaults(tc.cluster).killNode(victim);
    // At the default 40 s the node is still Ready 20 s later …
    tc.advance(20_000);
    expect(ready(tc.client.nodes.get(victim))).toBe('True');
    // … and with 10 s it is Unknown at the next pass (every 5 s), long before 40 s.
    tc.cluster.settings.configure({ nodeMonitorGracePeriodSeconds: 10 });
    tc.runUntil(() => ready(tc.client.nodes.get(victim)) === 'Unknown', 30_000, 'Ready=Unknown');
    expect(tc.clock.now() - killedAt).toBeLessThanOrEqual(25_000);
    await tc.close();
  });

  it('the toleration setting applies to pods created afterwards only', async () => {
    const tc = await bootCluster();
    tc.client.pods.create(pod('before'));
    tc.cluster.settings.configure({ defaultTolerationSeconds: 30 });
    tc.client.pods.create(pod('after'));
    const get = (name: string) => tc.client.pods.get(name, { namespace: 'default' });
    expect(tolerationSeconds(get('before'), unreachable)).toBe(300);
    expect(tolerationSeconds(get('before'), 'node.kubernetes.io/not-ready')).toBe(300);
    expect(tolerationSeconds(get('after'), unreachable)).toBe(30);
    expect(tolerationSeconds(get('after'), 'node.kubernetes.io/not-ready')).toBe(30);
    await tc.close();
  });

  it('the kubelets post their status at the new frequency from the next tick', async () => {
    const tc = await bootCluster({ nodes: 1 });
    tc.advance(60_000);
    // At the default the status is posted on change only (the Lease is the heartbeat): no new heartbeat.
    const settled = heartbeat(tc.client.nodes.get('node-1'));
    tc.advance(60_000);
    expect(heartbeat(tc.client.nodes.get('node-1'))).toBe(settled);

    tc.cluster.settings.configure({ nodeStatusUpdateFrequencySeconds: 5 });
    const changedAt = tc.clock.now();
    const beats: number[] = [];
    let last = heartbeat(tc.client.nodes.get('node-1'));
    tc.runUntil(() => {
      const hb = heartbeat(tc.client.nodes.get('node-1'));
      if (hb !== last) {
        beats.push(Date.parse(hb!) - changedAt);
        last = hb;
      }
      return beats.length === 3;
    }, 30_000);
    expect(beats).toHaveLength(3);
    expect(beats[0]).toBeLessThanOrEqual(5_000);
    expect(beats[1] - beats[0]).toBe(5_000);
    expect(beats[2] - beats[1]).toBe(5_000);

    // Back to the default: the posts stop again.
    tc.cluster.settings.configure({ nodeStatusUpdateFrequencySeconds: 10 });
    tc.advance(1_000);
    const quiet = heartbeat(tc.client.nodes.get('node-1'));
    tc.advance(60_000);
    expect(heartbeat(tc.client.nodes.get('node-1'))).toBe(quiet);
    await tc.close();
  });

  it('a set pull time is how long every pull takes; 0 goes back to the time by image size', async () => {
    const tc = await bootCluster({ nodes: 1 });
    const pulled = (name: string) =>
      tc.client.events.list({ namespace: 'default' }).items.find((e) => e.involvedObject.name === name && e.reason === 'Pulled')?.message;
    tc.cluster.settings.configure({ imagePullSeconds: 7 });
    tc.client.pods.create(pod('slow', 'redis:7.2'));
    tc.runUntil(() => pulled('slow') !== undefined, 60_000, 'Pulled');
    expect(pulled('slow')).toMatch(/^Successfully pulled image "redis:7\.2" in 7s \(7s including waiting\)\./);

    tc.cluster.settings.configure({ imagePullSeconds: 0 });
    tc.client.pods.create(pod('sized', 'httpd:2.4'));
    tc.runUntil(() => pulled('sized') !== undefined, 60_000, 'Pulled');
    const took = /in ([\d.]+)(m?s) \(/.exec(pulled('sized')!)!;
    const ms = Number(took[1]) * (took[2] === 's' ? 1000 : 1);
    expect(ms).not.toBe(7_000);
    expect(ms).toBeGreaterThan(300);
    await tc.close();
  });
});

describe('cluster settings and persistence', () => {
  async function survivesReload(open: () => Persistence): Promise<void> {
    const first = open();
    const a = await createCluster({ persistence: first, nodes: 1 });
    a.runUntilIdle();
    a.settings.configure({ nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30, imagePullSeconds: 1, nodeStatusUpdateFrequencySeconds: 5 });
    // The change alone (no object written) is made durable by a flush.
    await a.flush();
    const b = await createCluster({ persistence: open(), nodes: 1, settings: { defaultTolerationSeconds: 120 } /* the saved ones win */ });
    expect(b.settings.get()).toEqual({ nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30, imagePullSeconds: 1, nodeStatusUpdateFrequencySeconds: 5 });
    // … and the restored components use them.
    const created = b.client.pods.create(pod('p'));
    expect(tolerationSeconds(created, unreachable)).toBe(30);
    await b.close();
    await a.close();
  }

  it('survives a reload from MemoryPersistence', async () => {
    const persistence = new MemoryPersistence();
    await survivesReload(() => persistence);
  });

  it('survives a reload from IndexedDbPersistence (fake-indexeddb)', async () => {
    const indexedDB = new IDBFactory();
    const opened: IndexedDbPersistence[] = [];
    await survivesReload(() => {
      const p = new IndexedDbPersistence({ indexedDB, dbName: 'settings-test' });
      opened.push(p);
      return p;
    });
    for (const p of opened) p.close();
  });

  it('a cluster saved before settings existed starts with the requested settings, else the defaults', async () => {
    const persistence = new MemoryPersistence();
    const a = await createCluster({ persistence, nodes: 0 });
    a.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } });
    await a.close();
    // Rewrite the meta as an older version saved it: no settings.
    const { settings: _dropped, ...old } = (await persistence.load())!.meta!;
    persistence.setMeta(old as typeof old & { clockTime: number; rngState: number; seed: number });
    await persistence.flush();
    expect((await persistence.load())!.meta!.settings).toBeUndefined();

    const b = await createCluster({ persistence, nodes: 0 });
    expect(b.settings.get()).toEqual(defaultClusterSettings);
    expect(b.client.configMaps.get('c', { namespace: 'default' })).toBeDefined();
    await b.close();
    persistence.setMeta(old as typeof old & { clockTime: number; rngState: number; seed: number });
    await persistence.flush();
    const c = await createCluster({ persistence, nodes: 0, controllerManager: { nodeMonitorGracePeriodMs: 20_000 } });
    expect(c.settings.get().nodeMonitorGracePeriodSeconds).toBe(20);
    await c.close();
  });
});

describe('createCluster settings options', () => {
  it('takes initial settings, maps the controller manager grace-period flag, and refuses wrong values', async () => {
    const a = await createCluster({ nodes: 0, controllerManager: { nodeMonitorGracePeriodMs: 15_000 }, settings: { imagePullSeconds: 2 } });
    expect(a.settings.get()).toEqual({ ...defaultClusterSettings, nodeMonitorGracePeriodSeconds: 15, imagePullSeconds: 2 });
    await a.close();
    const b = await createCluster({ nodes: 0, controllerManager: { nodeMonitorGracePeriodMs: 15_000 }, settings: { nodeMonitorGracePeriodSeconds: 25 } });
    expect(b.settings.nodeMonitorGracePeriodMs).toBe(25_000);
    await b.close();
    const refused = await createCluster({ nodes: 0, settings: { defaultTolerationSeconds: -1 } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StatusError);
    expect((refused as StatusError).message).toBe('invalid cluster settings: defaultTolerationSeconds: Invalid value: -1: must be between 0 and 86400, inclusive');
  });
});
