// The frame byte budget of watch batches: a backlog larger than the budget reaches the page over several frames,
// each batch within the budget, squashed per object, and the page's mirror ends equal to the store.
import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import { createCluster } from '../control-plane/cluster';
import type { KubeList, KubeObject } from '../shared/api/types';
import type { ProtocolClient } from '../shared/protocol/client';
import { createProtocolClient } from '../shared/protocol/client';
import { applyDiff } from '../shared/protocol/diff';
import type { TraceBatch, WatchBatch } from '../shared/protocol/messages';
import { createPortPair } from '../shared/protocol/port';
import { serveProtocol } from './serve';

const tick = () => new Promise<void>((r) => setTimeout(r, 0));
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await tick();
}

const configmaps = { group: '', version: 'v1', resource: 'configmaps' } as const;
const secrets = { group: '', version: 'v1', resource: 'secrets' } as const;
/** ~2 KB of data, so a few dozen objects exceed a small budget. */
const payload = (tag: string) => ({ blob: `${tag}:`.padEnd(2_000, 'x') });

interface Mirror {
  objects: Map<string, KubeObject>;
  batches: WatchBatch[];
}

interface Harness {
  cluster: Cluster;
  client: ProtocolClient;
  /** Bytes (JSON) of the watch and trace batches that arrived since the last frame. */
  frameBytes(): number;
  /** Runs the page's pending acks (one animation frame), then lets the worker answer. */
  frame(): Promise<number>;
  watch(resource: typeof configmaps | typeof secrets): Mirror;
  request(verb: string, resource: typeof configmaps | typeof secrets, name: string, body?: unknown): Promise<KubeObject>;
  list(resource: typeof configmaps | typeof secrets): Promise<Map<string, KubeObject>>;
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function harness(frameBytes: number, syncFrameBytes?: number, onSynced?: () => void): Promise<Harness> {
  const cluster = await createCluster({ seed: 3 });
  const [uiPort, workerPort] = createPortPair();
  let bytes = 0;
  uiPort.addEventListener('message', (e) => {
    const msg = e.data as { type: string };
    if (msg.type === 'watch/batch' || msg.type === 'trace/batch') bytes += JSON.stringify(msg).length;
  });
  const server = serveProtocol(cluster, workerPort, { afterRequest: (c) => c.clock.runDeferred(), frameBytes, syncFrameBytes, onSynced });
  const acks: (() => void)[] = [];
  const client = createProtocolClient(uiPort, { scheduleAck: (fn) => acks.push(fn) });
  await client.ready;
  open.push(async () => {
    server.close();
    client.close();
    await cluster.close();
  });
  const h: Harness = {
    cluster,
    client,
    frameBytes: () => bytes,
    async frame() {
      bytes = 0;
      for (const ack of acks.splice(0)) ack();
      await settle();
      return bytes;
    },
    watch(resource) {
      const mirror: Mirror = { objects: new Map(), batches: [] };
      client.watch({ verb: 'watch', ...resource, namespace: 'default' }, (batch) => {
        mirror.batches.push(batch);
        mirror.objects = applyDiff(batch.relist ? new Map() : mirror.objects, batch.diff);
      });
      return mirror;
    },
    async request(verb, resource, name, body) {
      const res = await client.call('api/request', { verb, ...resource, namespace: 'default', name, body } as never);
      return res.body as KubeObject;
    },
    async list(resource) {
      const res = await client.call('api/request', { verb: 'list', ...resource, namespace: 'default' });
      return new Map((res.body as KubeList).items.map((o) => [`default/${o.metadata.name}`, o]));
    },
  };
  return h;
}

const create = (h: Harness, resource: typeof configmaps, name: string, tag = name) =>
  h.request('create', resource, '', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: payload(tag) });

/** Frames until nothing more arrives; returns the bytes of each frame. */
async function drain(h: Harness, maxFrames = 200): Promise<number[]> {
  const sizes: number[] = [];
  for (let i = 0; i < maxFrames; i++) {
    const n = await h.frame();
    if (n === 0) return sizes;
    sizes.push(n);
  }
  throw new Error('the backlog never drained');
}

function versions(objects: Map<string, KubeObject>): Record<string, string> {
  return Object.fromEntries([...objects].map(([k, o]) => [k, `${o.metadata.uid}@${o.metadata.resourceVersion}`]));
}

describe('frame byte budget', () => {
  it('spreads a backlog over frames, each within the budget, until the mirror equals the store', async () => {
    const budget = 20_000;
    const h = await harness(budget);
    const mirror = h.watch(configmaps);
    await settle();
    expect(mirror.batches).toHaveLength(1); // the initial list, in flight until the next frame
    for (let i = 0; i < 60; i++) await create(h, configmaps, `cm-${i}`);
    const sizes = await drain(h);
    // 60 × ~2 KB cannot go in one 20 KB frame: at least 6 frames, none over the budget (plus the envelope).
    expect(sizes.length).toBeGreaterThanOrEqual(6);
    for (const n of sizes) expect(n).toBeLessThanOrEqual(budget + 200);
    expect(versions(mirror.objects)).toEqual(versions(await h.list(configmaps)));
    expect(mirror.batches.slice(1).every((b) => !b.relist)).toBe(true);
  });

  it('shares one budget between subscriptions, and both catch up', async () => {
    const budget = 15_000;
    const h = await harness(budget);
    const cms = h.watch(configmaps);
    const secs = h.watch(secrets);
    await settle();
    for (let i = 0; i < 20; i++) {
      await create(h, configmaps, `cm-${i}`);
      await h.request('create', secrets, '', { apiVersion: 'v1', kind: 'Secret', metadata: { name: `s-${i}` }, stringData: payload(`s-${i}`) });
    }
    const sizes = await drain(h);
    for (const n of sizes) expect(n).toBeLessThanOrEqual(budget + 400);
    expect(versions(cms.objects)).toEqual(versions(await h.list(configmaps)));
    expect(versions(secs.objects)).toEqual(versions(await h.list(secrets)));
  });

  it('sends a small backlog whole before a large one takes the rest of the frame', async () => {
    const h = await harness(12_000);
    const cms = h.watch(configmaps);
    const secs = h.watch(secrets);
    await settle();
    await h.frame();
    await settle();
    for (let i = 0; i < 30; i++) await create(h, configmaps, `cm-${i}`);
    await h.request('create', secrets, '', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'small' }, stringData: { k: 'v' } });
    const before = cms.batches.length;
    await h.frame();
    // The first frame after the flood carries the one Secret and part of the ConfigMaps.
    expect(secs.objects.has('default/small')).toBe(true);
    expect(cms.batches.length).toBe(before + 1);
    expect(cms.objects.size).toBeLessThan(30);
    await drain(h);
    expect(cms.objects.size).toBe(30);
  });

  it('squashes an undelivered object to its latest version: the backlog never holds two versions of one object', async () => {
    const h = await harness(10_000);
    const mirror = h.watch(configmaps);
    await settle();
    for (let i = 0; i < 20; i++) await create(h, configmaps, `cm-${i}`);
    // Each object rewritten five times while the backlog waits: still one entry per object.
    for (let round = 1; round <= 5; round++) {
      for (let i = 0; i < 20; i++) {
        const cur = await h.request('get', configmaps, `cm-${i}`);
        await h.request('update', configmaps, `cm-${i}`, { ...cur, data: payload(`cm-${i} v${round}`) });
      }
    }
    await drain(h);
    const delivered = mirror.batches.slice(1).flatMap((b) => [...Object.keys(b.diff.added), ...Object.keys(b.diff.updated)]);
    expect(delivered.length).toBe(20); // created-then-updated arrives once, as an add with the last value
    expect(new Set(delivered).size).toBe(20);
    for (const obj of mirror.objects.values()) expect((obj as unknown as { data: { blob: string } }).data.blob.startsWith(`${obj.metadata.name} v5:`)).toBe(true);
    expect(versions(mirror.objects)).toEqual(versions(await h.list(configmaps)));
  });

  it('keeps deletes, and a delete then re-create of one name ends with the new object', async () => {
    const h = await harness(10_000);
    const mirror = h.watch(configmaps);
    await settle();
    await h.frame();
    const first = await create(h, configmaps, 'again', 'first');
    await create(h, configmaps, 'doomed');
    await h.frame(); // both delivered
    expect(mirror.objects.get('default/again')?.metadata.uid).toBe(first.metadata.uid);
    expect(mirror.objects.has('default/doomed')).toBe(true);
    // A backlog ahead of them, then: delete + re-create "again", delete "doomed", create-then-delete "ghost".
    for (let i = 0; i < 20; i++) await create(h, configmaps, `filler-${i}`);
    await h.request('delete', configmaps, 'again');
    const second = await create(h, configmaps, 'again', 'second');
    await h.request('delete', configmaps, 'doomed');
    await create(h, configmaps, 'ghost');
    await h.request('delete', configmaps, 'ghost');
    await drain(h);
    expect(second.metadata.uid).not.toBe(first.metadata.uid);
    expect(mirror.objects.get('default/again')?.metadata.uid).toBe(second.metadata.uid);
    expect(mirror.objects.has('default/doomed')).toBe(false);
    expect(mirror.batches.some((b) => 'default/doomed' in b.diff.removed)).toBe(true);
    expect(mirror.batches.some((b) => 'default/ghost' in b.diff.added || 'default/ghost' in b.diff.updated)).toBe(false);
    expect(versions(mirror.objects)).toEqual(versions(await h.list(configmaps)));
  });

  it('splits a large initial list: the first part replaces, the rest are deltas', async () => {
    const budget = 12_000;
    const h = await harness(budget);
    for (let i = 0; i < 30; i++) await create(h, configmaps, `cm-${i}`);
    const mirror = h.watch(configmaps);
    await settle();
    const sizes = [h.frameBytes(), ...(await drain(h))];
    for (const n of sizes) expect(n).toBeLessThanOrEqual(budget + 200);
    expect(mirror.batches.length).toBeGreaterThan(3);
    expect(mirror.batches[0]).toMatchObject({ relist: true, initial: true });
    expect(mirror.batches.slice(1).every((b) => b.relist === undefined && b.initial === undefined)).toBe(true);
    expect(versions(mirror.objects)).toEqual(versions(await h.list(configmaps)));
  });

  it('delivers a list in parts of the sync budget, and the changes after it within the frame budget', async () => {
    const h = await harness(12_000, 40_000);
    for (let i = 0; i < 60; i++) await create(h, configmaps, `cm-${i}`);
    const mirror = h.watch(configmaps);
    await settle();
    const listSizes = [h.frameBytes(), ...(await drain(h))];
    // ~120 KB of list: at least 3 parts of at most 40 KB, far fewer than 12 KB frames would take.
    expect(listSizes.length).toBeGreaterThanOrEqual(3);
    expect(listSizes.length).toBeLessThan(8);
    for (const n of listSizes) expect(n).toBeLessThanOrEqual(40_000 + 200);
    expect(listSizes.some((n) => n > 12_000 + 200)).toBe(true);
    expect(mirror.batches[0]).toMatchObject({ relist: true, initial: true });
    expect(versions(mirror.objects)).toEqual(versions(await h.list(configmaps)));

    // Synced: a burst of changes goes at the frame budget again.
    for (let i = 60; i < 90; i++) await create(h, configmaps, `cm-${i}`);
    const deltaSizes = await drain(h);
    expect(deltaSizes.length).toBeGreaterThanOrEqual(5);
    for (const n of deltaSizes) expect(n).toBeLessThanOrEqual(12_000 + 200);
    expect(versions(mirror.objects)).toEqual(versions(await h.list(configmaps)));
  });

  it('says when the page has every list it watches: once the last part of the last list is acknowledged', async () => {
    let synced = 0;
    const h = await harness(12_000, 40_000, () => synced++);
    for (let i = 0; i < 60; i++) await create(h, configmaps, `cm-${i}`);
    const cms = h.watch(configmaps);
    h.watch(secrets);
    await settle();
    const listed = () => cms.objects.size === 60;
    while (!listed()) {
      expect(synced).toBe(0);
      await h.frame();
    }
    expect(synced).toBe(0); // the last part arrived, not yet acknowledged
    await h.frame();
    expect(synced).toBe(1);
  });

  it('does not hold a small list behind a large one that took the sync budget', async () => {
    const h = await harness(12_000, 40_000);
    for (let i = 0; i < 60; i++) await create(h, configmaps, `cm-${i}`);
    // Larger than what a 40 KB part of ~2 KB ConfigMaps leaves, far below the frame budget.
    await h.request('create', secrets, '', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'small' }, stringData: { a: 'x'.repeat(2_500), b: 'y'.repeat(2_500) } });
    const cms = h.watch(configmaps);
    await settle();
    const secs = h.watch(secrets);
    await settle();
    // No frame yet: the ConfigMaps' first part is in flight, and the Secret list came beside it.
    expect(cms.batches).toHaveLength(1);
    expect(secs.objects.has('default/small')).toBe(true);
    expect(h.frameBytes()).toBeLessThanOrEqual(40_000 + 12_000 + 400);
    await drain(h);
    expect(versions(cms.objects)).toEqual(versions(await h.list(configmaps)));
  });

  it('still delivers an object larger than the whole budget, alone', async () => {
    const h = await harness(1_000);
    const mirror = h.watch(configmaps);
    await settle();
    await create(h, configmaps, 'big-a');
    await create(h, configmaps, 'big-b');
    const sizes = await drain(h);
    expect(sizes.length).toBeGreaterThanOrEqual(2); // one per frame
    expect(mirror.batches.slice(1).every((b) => Object.keys(b.diff.added).length <= 1)).toBe(true);
    expect([...mirror.objects.keys()].sort()).toEqual(['default/big-a', 'default/big-b']);
  });

  it('keeps trace batches within their share of the budget, in order, without losing buffered events', async () => {
    const budget = 6_000;
    const h = await harness(budget);
    const traces: TraceBatch[] = [];
    h.client.onTrace((b) => traces.push(b));
    await settle();
    for (let i = 0; i < 5; i++) await create(h, configmaps, `t-${i}`);
    await drain(h);
    expect(traces.length).toBeGreaterThan(1);
    for (const b of traces) expect(JSON.stringify(b).length).toBeLessThanOrEqual(budget * 0.3 + 200);
    const seqs = traces.flatMap((b) => b.events.map((e) => e.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});
