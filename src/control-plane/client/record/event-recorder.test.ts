import { describe, expect, it } from 'vitest';
import type { Event } from 'kubernetes-types/core/v1';
import { createCluster } from '../../cluster';
import { EventRecorder, EventType } from './event-recorder';

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
