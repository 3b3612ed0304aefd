import { describe, expect, it } from 'vitest';
import type { Event } from 'kubernetes-types/core/v1';
import { createCluster } from '../../cluster';
import { EventRecorder, EventType, isNameOf, nanosecondsHex } from './event-recorder';
import { maxLruCacheEntries } from './spam-filter';

describe('EventRecorder', () => {
  it('creates an Event about the object and folds repeats into count and lastTimestamp', async () => {
    const cluster = await createCluster({ controllers: false, nodes: 0, scheduler: false });
    const cm = cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo', namespace: 'default' } });
    const recorder = new EventRecorder({ client: cluster.client, clock: cluster.clock, source: { component: 'test-controller' } });

    recorder.event(cm, EventType.Warning, 'Broken', 'it broke');
    cluster.advance(30_000);
    recorder.event(cm, EventType.Warning, 'Broken', 'it broke');
    recorder.event(cm, EventType.Normal, 'Fixed', 'it works');

    const events = cluster.client.events.list({ namespace: 'default' }).items as Event[];
    expect(events).toHaveLength(2);
    const broken = events.find((e) => e.reason === 'Broken')!;
    expect(broken.count).toBe(2);
    expect(broken.type).toBe('Warning');
    expect(broken.involvedObject).toMatchObject({ kind: 'ConfigMap', name: 'demo', namespace: 'default', uid: cm.metadata.uid });
    expect(broken.source).toEqual({ component: 'test-controller' });
    expect(Date.parse(broken.lastTimestamp!) - Date.parse(broken.firstTimestamp!)).toBe(30_000);
    expect(broken.metadata!.name!.startsWith('demo.')).toBe(true);
    await cluster.close();
  });

  it('gives two components writing about one object in the same virtual millisecond two Events', async () => {
    const cluster = await createCluster({ controllers: false, nodes: 0, scheduler: false });
    const cm = cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo', namespace: 'default' } });
    const provisioner = new EventRecorder({ client: cluster.client, clock: cluster.clock, source: { component: 'provisioner' } });
    const binder = new EventRecorder({ client: cluster.client, clock: cluster.clock, source: { component: 'persistentvolume-controller' } });
    provisioner.event(cm, EventType.Normal, 'Provisioning', 'started');
    binder.event(cm, EventType.Normal, 'ExternalProvisioning', 'waiting');
    const events = cluster.client.events.list({ namespace: 'default' }).items as Event[];
    expect(events.map((e) => e.reason).sort()).toEqual(['ExternalProvisioning', 'Provisioning']);
    expect(new Set(events.map((e) => e.metadata?.name)).size).toBe(2);
    await cluster.close();
  });

  it('starts a new Event once the aggregation window has passed', async () => {
    const cluster = await createCluster({ controllers: false, nodes: 0, scheduler: false });
    const cm = cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo', namespace: 'default' } });
    const recorder = new EventRecorder({ client: cluster.client, clock: cluster.clock, source: { component: 'kubelet', host: 'node-1' } });
    recorder.event(cm, EventType.Normal, 'Pulled', 'done');
    cluster.advance(11 * 60_000);
    recorder.event(cm, EventType.Normal, 'Pulled', 'done');
    const events = cluster.client.events.list({ namespace: 'default' }).items as Event[];
    expect(events.map((e) => e.count)).toEqual([1, 1]);
    expect(events[0].source).toEqual({ component: 'kubelet', host: 'node-1' });
    await cluster.close();
  });
});

describe('EventRecorder names', () => {
  it('keeps distinct events about one object in the same millisecond', async () => {
    const cluster = await createCluster({ controllers: false, nodes: 0, scheduler: false });
    const cm = cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo', namespace: 'default' } });
    const recorder = new EventRecorder({ client: cluster.client, clock: cluster.clock, source: { component: 'replicaset-controller' } });
    for (let i = 0; i < 5; i++) recorder.event(cm, EventType.Normal, 'SuccessfulCreate', `Created pod: web-${i}`);
    expect(cluster.client.events.list({ namespace: 'default' }).items).toHaveLength(5);
    await cluster.close();
  });
});

describe('nanosecondsHex', () => {
  it('is ms × 10⁶ + seq in hex, as BigInt arithmetic gives it', () => {
    const samples = [0, 1, 999, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 1_700_000_000_000, 1_795_000_000_123, 2 ** 45 + 12345, Number.MAX_SAFE_INTEGER];
    for (const ms of samples) {
      for (const seq of [0, 1, 4095, 999_999]) {
        expect(nanosecondsHex(ms, seq)).toBe((BigInt(ms) * 1_000_000n + BigInt(seq)).toString(16));
      }
    }
  });
});

describe('EventRecorder cache (client-go eventLogger: an LRU of maxLruCacheEntries)', () => {
  async function setup() {
    const cluster = await createCluster({ controllers: false, nodes: 0, scheduler: false });
    const cm = cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo', namespace: 'default' } });
    const recorder = new EventRecorder({ client: cluster.client, clock: cluster.clock, source: { component: 'test-controller' } });
    const eventsWith = (message: string) => (cluster.client.events.list({ namespace: 'default' }).items as Event[]).filter((e) => e.message === message);
    return { cluster, cm, recorder, eventsWith };
  }

  it('folds every repeat while fewer than 4,096 distinct events are remembered', async () => {
    const { cluster, cm, recorder, eventsWith } = await setup();
    // The spam filter keys on source + object only: one object per event keeps it out of the way.
    const objs = Array.from({ length: maxLruCacheEntries }, (_, i) => ({ ...cm, metadata: { ...cm.metadata, name: `cm-${i}`, uid: `uid-${i}` } }));
    for (const o of objs) recorder.event(o, EventType.Normal, 'Seen', `seen ${o.metadata.name}`);
    expect(recorder.cachedEvents).toBe(maxLruCacheEntries);
    for (const o of objs) recorder.event(o, EventType.Normal, 'Seen', `seen ${o.metadata.name}`);
    expect(eventsWith('seen cm-0').map((e) => e.count)).toEqual([2]);
    expect(eventsWith(`seen cm-${maxLruCacheEntries - 1}`).map((e) => e.count)).toEqual([2]);
    expect(cluster.client.events.list({ namespace: 'default' }).items).toHaveLength(maxLruCacheEntries);
    await cluster.close();
  });

  it('forgets the least recently used event beyond 4,096, whose repeat then creates a new Event', async () => {
    const { cluster, cm, recorder, eventsWith } = await setup();
    const obj = (i: number) => ({ ...cm, metadata: { ...cm.metadata, name: `cm-${i}`, uid: `uid-${i}` } });
    for (let i = 0; i < maxLruCacheEntries; i++) recorder.event(obj(i), EventType.Normal, 'Seen', `seen cm-${i}`);
    // A repeat is a use: cm-0 becomes the most recently used, so cm-1 is the least.
    recorder.event(obj(0), EventType.Normal, 'Seen', 'seen cm-0');
    recorder.event(obj(maxLruCacheEntries), EventType.Normal, 'Seen', `seen cm-${maxLruCacheEntries}`);
    expect(recorder.cachedEvents).toBe(maxLruCacheEntries);
    recorder.event(obj(0), EventType.Normal, 'Seen', 'seen cm-0');
    expect(eventsWith('seen cm-0').map((e) => e.count)).toEqual([3]);
    recorder.event(obj(1), EventType.Normal, 'Seen', 'seen cm-1'); // evicted: a second Event
    expect(eventsWith('seen cm-1').map((e) => e.count)).toEqual([1, 1]);
    recorder.event(obj(3), EventType.Normal, 'Seen', 'seen cm-3'); // cm-2 went for cm-1: cm-3 is still there
    expect(eventsWith('seen cm-3').map((e) => e.count)).toEqual([2]);
    recorder.event(obj(2), EventType.Normal, 'Seen', 'seen cm-2');
    expect(eventsWith('seen cm-2').map((e) => e.count)).toEqual([1, 1]);
    await cluster.close();
  });

  it('drops events past the aggregation window from the cache', async () => {
    const { cluster, cm, recorder } = await setup();
    recorder.event(cm, EventType.Normal, 'A', 'a');
    cluster.advance(5 * 60_000);
    recorder.event(cm, EventType.Normal, 'B', 'b');
    expect(recorder.cachedEvents).toBe(2);
    cluster.advance(6 * 60_000);
    recorder.event(cm, EventType.Normal, 'C', 'c'); // A is 11 minutes old, B 6
    expect(recorder.cachedEvents).toBe(2);
    await cluster.close();
  });
});

describe('isNameOf', () => {
  it('reads the object name as the Event name before its last dot', () => {
    expect(isNameOf('web-1.17f2a3b4c5d6e7f8', 'web-1')).toBe(true);
    expect(isNameOf('node-1.example.com.17f2a3b4c5d6e7f8', 'node-1.example.com')).toBe(true);
    expect(isNameOf('node-1.example.com.17f2a3b4c5d6e7f8', 'node-1')).toBe(false);
    expect(isNameOf('web-10.17f2a3b4c5d6e7f8', 'web-1')).toBe(false);
    expect(isNameOf('web-1', 'web-1')).toBe(false);
    expect(isNameOf('.17f2a3', '')).toBe(true);
  });
});
