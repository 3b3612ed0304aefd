// The protocol over a real cluster: round trips, watch batching and pacing, relist after 410, durable acks,
// the trace channel, reset, and the real-time driver behind sim/control.
import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import { createCluster } from '../control-plane/cluster';
import { RealtimeDriver } from '../control-plane/sim/realtime-driver';
import { APIServer } from '../control-plane/apiserver/server';
import { createRng } from '../control-plane/sim/rng';
import { VirtualClock } from '../control-plane/sim/virtual-clock';
import { MvccStore } from '../control-plane/store/mvcc-store';
import { MemoryPersistence } from '../control-plane/store/persistence/memory-persistence';
import type { ClusterMeta } from '../control-plane/store/persistence/types';
import type { RevisionBatch } from '../control-plane/store/types';
import { TraceBus } from '../control-plane/trace/trace-bus';
import { ResourceRegistry } from '../shared/api/resources';
import { newServiceUnavailable } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';
import type { ProtocolClient } from '../shared/protocol/client';
import { ProtocolError, createProtocolClient } from '../shared/protocol/client';
import type { TraceBatch, WatchBatch } from '../shared/protocol/messages';
import { createPortPair } from '../shared/protocol/port';
import type { ProtocolServer, ServeOptions } from './serve';
import { serveProtocol, serveUnavailable } from './serve';

const tick = () => new Promise<void>((r) => setTimeout(r, 0));
async function until(predicate: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (predicate()) return;
    await tick();
  }
  throw new Error(`timed out waiting for ${what}`);
}

const configmaps = { group: '', version: 'v1', resource: 'configmaps' } as const;
const cm = (name: string, data: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

interface Harness {
  cluster: Cluster;
  client: ProtocolClient;
  server: ProtocolServer<Cluster>;
  /** Acks wait here until the test runs a "frame". */
  frames: (() => void)[];
  runFrame(): void;
  create(name: string, data?: Record<string, string>): Promise<KubeObject>;
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function harness(cluster?: Cluster, serveOptions: ServeOptions<Cluster> = {}): Promise<Harness> {
  const c = cluster ?? (await createCluster({ seed: 7 }));
  const [uiPort, workerPort] = createPortPair();
  const server = serveProtocol(c, workerPort, { afterRequest: (current) => current.clock.runDeferred(), ...serveOptions });
  const frames: (() => void)[] = [];
  const client = createProtocolClient(uiPort, { scheduleAck: (fn) => frames.push(fn) });
  await client.ready;
  open.push(async () => {
    server.close();
    client.close();
    await c.close();
  });
  return {
    cluster: c,
    client,
    server,
    frames,
    runFrame: () => {
      for (const f of frames.splice(0)) f();
    },
    async create(name, data = {}) {
      const res = await client.call('api/request', { verb: 'create', ...configmaps, namespace: 'default', body: cm(name, data) });
      return res.body as KubeObject;
    },
  };
}

describe('calls', () => {
  it('round-trips API requests and rejects with the Status of a refusal', async () => {
    const h = await harness();
    const created = await h.create('demo', { a: '1' });
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    const got = await h.client.call('api/request', { verb: 'get', ...configmaps, namespace: 'default', name: 'demo' });
    expect(got.code).toBe(200);
    expect((got.body as KubeObject).metadata.resourceVersion).toBe(created.metadata.resourceVersion);

    const err = await h.client.call('api/request', { verb: 'get', ...configmaps, namespace: 'default', name: 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).status).toMatchObject({ code: 404, reason: 'NotFound', message: 'configmaps "nope" not found' });

    const dup = await h.create('demo').catch((e: unknown) => e);
    expect((dup as ProtocolError).status).toMatchObject({ code: 409, reason: 'AlreadyExists', message: 'configmaps "demo" already exists' });
  });

  it('serves discovery, cluster info and the headless sim state', async () => {
    const h = await harness();
    const { resources } = await h.client.call('api/discovery');
    expect(resources.find((r) => r.resource === 'deployments')).toMatchObject({ group: 'apps', version: 'v1', kind: 'Deployment', namespaced: true });
    const info = await h.client.call('cluster/info');
    expect(info).toMatchObject({ protocolVersion: 3, revision: h.cluster.store.revision, persistence: 'none', user: { username: 'kubernetes-admin' } });
    expect(await h.client.call('sim/state')).toEqual({ time: h.cluster.clock.now(), paused: true, speed: 1, realtime: false });
    await expect(h.client.call('sim/control', { action: 'resume' })).rejects.toMatchObject({ status: { code: 400 } });
    await expect(h.client.call('cluster/reset')).rejects.toMatchObject({ status: { code: 503 } });
  });
});

describe('api/apply', () => {
  it('creates, configures and leaves unchanged, document by document, like kubectl apply', async () => {
    const h = await harness();
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  mode: blue\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n';
    const first = await h.client.call('api/apply', { manifest });
    expect(first.outcomes.map((o) => (o.ok ? `${o.object.kind}/${o.object.metadata.name} ${o.action}` : o.status.message))).toEqual([
      'ConfigMap/app created',
      'Namespace/team-a created',
    ]);
    const firstCm = first.outcomes[0].ok ? first.outcomes[0].object : undefined;
    expect(firstCm?.metadata.namespace).toBe('default');

    const again = await h.client.call('api/apply', { manifest });
    expect(again.outcomes.map((o) => o.ok && o.action)).toEqual(['unchanged', 'unchanged']);

    const changed = await h.client.call('api/apply', { manifest: manifest.replace('blue', 'green') });
    expect(changed.outcomes.map((o) => o.ok && o.action)).toEqual(['configured', 'unchanged']);
    const live = await h.client.call('api/request', { verb: 'get', ...configmaps, namespace: 'default', name: 'app' });
    expect((live.body as KubeObject).data).toEqual({ mode: 'green' });
    expect((live.body as KubeObject).metadata.uid).toBe(firstCm?.metadata.uid);
  });

  it('reports unknown kinds and YAML errors per document and still applies the rest', async () => {
    const h = await harness();
    const manifest = 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: old\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n---\nkey: [unclosed\n';
    const { outcomes } = await h.client.call('api/apply', { manifest });
    expect(outcomes).toHaveLength(3);
    expect(outcomes[0]).toMatchObject({ ok: false, document: 1, status: { code: 404, message: 'no matches for kind "CronJob" in version "batch/v1beta1"' } });
    expect(outcomes[1]).toMatchObject({ ok: true, action: 'created' });
    expect(outcomes[2]).toMatchObject({ ok: false, document: 3, status: { code: 400 } });
    expect((outcomes[2] as { line?: number }).line).toBeGreaterThanOrEqual(11);
  });
});

describe('watch subscriptions', () => {
  it('starts with the full list, then sends squashed deltas only after each ack', async () => {
    const h = await harness();
    await h.create('keep', { v: '0' });
    await h.create('gone');
    const batches: WatchBatch[] = [];
    h.client.watch({ verb: 'watch', ...configmaps, namespace: 'default' }, (b) => batches.push(b));
    await until(() => batches.length === 1, 'the initial list');
    expect(batches[0].relist).toBe(true);
    expect(batches[0].initial).toBe(true);
    expect(Object.keys(batches[0].diff.added).sort()).toEqual(['default/gone', 'default/keep']);
    expect(batches[0].diff.added['default/keep']).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { v: '0' } });

    // While the initial batch is unacknowledged, changes accumulate in the worker.
    const a = await h.create('a', { v: '1' });
    await h.client.call('api/request', { verb: 'update', ...configmaps, namespace: 'default', name: 'a', body: { ...a, data: { v: '2' } } });
    const b = await h.create('b');
    await h.client.call('api/request', { verb: 'delete', ...configmaps, namespace: 'default', name: 'b' });
    await h.client.call('api/request', { verb: 'delete', ...configmaps, namespace: 'default', name: 'gone' });
    const keep = (await h.client.call('api/request', { verb: 'get', ...configmaps, namespace: 'default', name: 'keep' })).body as KubeObject;
    await h.client.call('api/request', { verb: 'update', ...configmaps, namespace: 'default', name: 'keep', body: { ...keep, data: { v: '9' } } });
    await tick();
    await tick();
    expect(batches).toHaveLength(1);
    expect(b.metadata.name).toBe('b');

    h.runFrame();
    await until(() => batches.length === 2, 'the delta batch');
    const delta = batches[1];
    expect(delta.relist).toBeUndefined();
    expect(Object.keys(delta.diff.added)).toEqual(['default/a']); // a was created then updated: one add, last value
    expect(delta.diff.added['default/a'].data).toEqual({ v: '2' });
    expect(Object.keys(delta.diff.removed)).toEqual(['default/gone']); // b was added then removed: nothing
    expect(Object.keys(delta.diff.updated)).toEqual(['default/keep']);
    expect(delta.diff.updated['default/keep'].data).toEqual({ v: '9' });
    expect(delta.resourceVersion).toBe(String(h.cluster.store.revision));

    // Nothing more to say: an ack with nothing pending sends nothing.
    h.runFrame();
    await tick();
    await tick();
    expect(batches).toHaveLength(2);
  });

  it('relists after the watch ends with 410 Expired, replacing what the subscriber had', async () => {
    // A bare API server over a store that terminates any watcher with more than 5 undelivered events (the slow
    // consumer case): nothing drives the clock while 10 writes land, so the subscription's watch is ended.
    const clock = new VirtualClock();
    const trace = new TraceBus({ clock });
    const store = new MvccStore({ clock, maxPendingWatchEvents: 5 });
    const registry = new ResourceRegistry();
    const apiserver = new APIServer({ clock, store, registry, trace, rng: createRng(1) });
    apiserver.bootstrap();
    const cluster = { clock, store, apiserver, registry, trace, flush: () => Promise.resolve() };
    const [uiPort, workerPort] = createPortPair();
    const server = serveProtocol(cluster, workerPort);
    const frames: (() => void)[] = [];
    const client = createProtocolClient(uiPort, { scheduleAck: (fn) => frames.push(fn) });
    open.push(async () => {
      server.close();
      client.close();
    });
    const create = (name: string) => client.call('api/request', { verb: 'create', ...configmaps, namespace: 'default', body: cm(name) });

    await create('before');
    const batches: WatchBatch[] = [];
    client.watch({ verb: 'watch', ...configmaps, namespace: 'default' }, (b) => batches.push(b));
    await until(() => batches.length === 1, 'the initial list');
    expect(Object.keys(batches[0].diff.added)).toEqual(['default/before']);
    for (const f of frames.splice(0)) f();

    for (let i = 0; i < 10; i++) await create(`c${i}`);
    await client.call('api/request', { verb: 'delete', ...configmaps, namespace: 'default', name: 'before' });
    clock.runDeferred(); // the store tells the watch it is over (410); the server relists
    await until(() => batches.length === 2, 'the batch after the 410');
    const relisted = batches[1];
    expect(relisted.relist).toBe(true);
    expect(relisted.initial).toBeUndefined();
    expect(Object.keys(relisted.diff.added).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `default/c${i}`).sort());
    expect(relisted.resourceVersion).toBe(String(store.revision));

    // The new watch carries on from the relist.
    for (const f of frames.splice(0)) f();
    await create('after');
    clock.runDeferred();
    await until(() => batches.length === 3, 'a delta after the relist');
    expect(batches[2].relist).toBeUndefined();
    expect(Object.keys(batches[2].diff.added)).toEqual(['default/after']);
  });

  it('ends a subscription whose list is refused with a watch/error', async () => {
    const h = await harness();
    const errors: string[] = [];
    h.client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'nothings' }, { onBatch: () => {}, onError: (s) => errors.push(`${s.code} ${s.message}`) });
    await until(() => errors.length === 1, 'the watch error');
    expect(errors[0]).toMatch(/^404 /);
    expect(h.server.subscriptionCount).toBe(0);
  });

  it('stops delivering after unsubscribe', async () => {
    const h = await harness();
    const batches: WatchBatch[] = [];
    const stop = h.client.watch({ verb: 'watch', ...configmaps }, (b) => batches.push(b));
    await until(() => batches.length === 1, 'the initial list');
    expect(h.server.subscriptionCount).toBe(1);
    stop();
    await until(() => h.server.subscriptionCount === 0, 'the stop to arrive');
    h.runFrame();
    await h.create('late');
    await tick();
    await tick();
    expect(batches).toHaveLength(1);
  });
});

/** A MemoryPersistence whose writes can be held back, like a slow disk. */
class GatedPersistence extends MemoryPersistence {
  private gate: Promise<void> = Promise.resolve();
  private release: () => void = () => {};
  holdWrites(): void {
    this.gate = new Promise((r) => (this.release = r));
  }
  releaseWrites(): void {
    this.release();
  }
  protected override async write(batches: RevisionBatch[], meta: ClusterMeta | undefined): Promise<void> {
    await this.gate;
    return super.write(batches, meta);
  }
}

describe('durable acknowledgement', () => {
  it('replies to a write only once its revision is durable', async () => {
    const persistence = new GatedPersistence();
    const h = await harness(await createCluster({ seed: 5, persistence }));
    await persistence.flush();
    persistence.holdWrites();
    let replied = false;
    const reply = h.client
      .call('api/request', { verb: 'create', ...configmaps, namespace: 'default', body: cm('durable') })
      .then((r) => {
        replied = true;
        return r;
      });
    await until(() => h.cluster.store.revision > persistence.durableRevision, 'the commit');
    for (let i = 0; i < 5; i++) await tick();
    expect(replied).toBe(false);
    persistence.releaseWrites();
    const res = await reply;
    expect(replied).toBe(true);
    expect(persistence.durableRevision).toBeGreaterThanOrEqual(Number((res.body as KubeObject).metadata.resourceVersion));
    // Reads are not held back.
    await expect(h.client.call('api/request', { verb: 'get', ...configmaps, namespace: 'default', name: 'durable' })).resolves.toMatchObject({ code: 200 });
  });

  it('reports a write that could not be persisted as an internal error', async () => {
    const persistence = new MemoryPersistence();
    const h = await harness(await createCluster({ seed: 5, persistence }));
    await persistence.flush();
    persistence.failNextWrite(new Error('disk full'));
    const err = await h.create('doomed').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).status).toMatchObject({ code: 500, reason: 'InternalError' });
    expect((err as ProtocolError).message).toContain('disk full');
  });

  it('acknowledged writes survive a restart on the same persistence', async () => {
    const persistence = new MemoryPersistence();
    const h = await harness(await createCluster({ seed: 5, persistence }));
    const created = await h.create('kept', { k: 'v' });
    // A crash: whatever was not yet written is lost, but the acknowledged write was durable already.
    persistence.discardPending();
    const restored = await createCluster({ persistence });
    open.push(() => restored.close());
    const kv = restored.apiserver.handle({ verb: 'get', ...configmaps, namespace: 'default', name: 'kept' }).body as KubeObject;
    expect(kv.metadata.uid).toBe(created.metadata.uid);
    expect(kv.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });
});

describe('trace channel', () => {
  it('batches trace events per ack, capped, with a per-kind count of what was dropped', async () => {
    const h = await harness(undefined, { traceCap: 5 });
    const batches: TraceBatch[] = [];
    h.client.onTrace((b) => batches.push(b));
    await tick();
    for (let i = 0; i < 4; i++) await h.create(`t${i}`);
    await until(() => batches.length === 1, 'a trace batch');
    const [first] = batches;
    expect(first.events).toHaveLength(5);
    expect(first.dropped).toBeGreaterThan(0);
    expect(Object.values(first.droppedByKind).reduce((a, b) => a + (b ?? 0), 0)).toBe(first.dropped);
    const seqs = first.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(first.events[0]).toMatchObject({ kind: expect.any(String), component: expect.any(String), time: h.cluster.clock.now() });
    // The next batch waits for the ack.
    await h.create('more');
    await tick();
    expect(batches).toHaveLength(1);
    h.runFrame();
    await until(() => batches.length === 2, 'the next trace batch');
    expect(batches[1].events[0].seq).toBeGreaterThan(seqs.at(-1)!);
  });
});

describe('cluster/reset', () => {
  it('boots a fresh cluster and relists every open watch against it', async () => {
    const clusters: Cluster[] = [];
    const first = await createCluster({ seed: 11 });
    clusters.push(first);
    const h = await harness(first, {
      reset: async (current) => {
        await current.cluster.close();
        const next = await createCluster({ seed: 12 });
        clusters.push(next);
        open.push(() => next.close());
        return { cluster: next };
      },
    });
    await h.create('old');
    const batches: WatchBatch[] = [];
    h.client.watch({ verb: 'watch', ...configmaps, namespace: 'default' }, (b) => batches.push(b));
    await until(() => batches.length === 1, 'the initial list');
    expect(Object.keys(batches[0].diff.added)).toContain('default/old');
    h.runFrame();

    await h.client.call('cluster/reset');
    expect(h.server.cluster).toBe(clusters[1]);
    await until(() => batches.length === 2, 'the relist');
    expect(batches[1].relist).toBe(true);
    expect(Object.keys(batches[1].diff.added)).not.toContain('default/old');
    h.runFrame();
    // Requests go to the new cluster.
    await expect(h.client.call('api/request', { verb: 'get', ...configmaps, namespace: 'default', name: 'old' })).rejects.toMatchObject({ status: { code: 404 } });
    await h.create('new');
    await until(() => batches.length === 3, 'the delta from the new cluster');
    expect(Object.keys(batches[2].diff.added)).toEqual(['default/new']);
  });
});

describe('sim/control over the real-time driver', () => {
  it('pauses, resumes, changes speed and steps', async () => {
    const cluster = await createCluster({ seed: 2 });
    let realNow = 0;
    const scheduled: { fn: () => void; at: number }[] = [];
    const driver = new RealtimeDriver({
      clock: cluster.clock,
      host: {
        now: () => realNow,
        schedule(fn, ms) {
          const entry = { fn, at: realNow + ms };
          scheduled.push(entry);
          return () => scheduled.splice(scheduled.indexOf(entry), 1);
        },
      },
    });
    const h = await harness(cluster, { driver });
    const start = cluster.clock.now();
    expect(await h.client.call('sim/state')).toEqual({ time: start, paused: true, speed: 1, realtime: true });

    expect(await h.client.call('sim/control', { action: 'speed', speed: 10 })).toMatchObject({ speed: 10, paused: true });
    expect(await h.client.call('sim/control', { action: 'resume' })).toMatchObject({ paused: false, speed: 10 });
    realNow += 200; // 200 ms of real time at ×10 is 2 s of virtual time
    const paused = await h.client.call('sim/control', { action: 'pause' });
    expect(paused).toMatchObject({ paused: true, time: start + 2000 });
    await expect(h.client.call('sim/control', { action: 'speed' })).rejects.toMatchObject({ status: { code: 400 } });
    driver.dispose();
  });
});

describe('serveUnavailable', () => {
  it('lets the page know the cluster could not start instead of leaving it waiting', async () => {
    const [uiPort, workerPort] = createPortPair();
    const status = newServiceUnavailable('the cluster could not start: IndexedDB exploded').status;
    const server = serveUnavailable(workerPort, status);
    const client = createProtocolClient(uiPort, { scheduleAck: () => {} });
    open.push(async () => {
      server.close();
      client.close();
    });
    await client.ready;
    await expect(client.call('cluster/info')).rejects.toMatchObject({ status: { code: 503, message: 'the cluster could not start: IndexedDB exploded' } });
    const errors: number[] = [];
    client.watch({ verb: 'watch', ...configmaps }, { onBatch: () => {}, onError: (s) => errors.push(s.code) });
    await until(() => errors.length === 1, 'the watch error');
    expect(errors).toEqual([503]);
  });
});
