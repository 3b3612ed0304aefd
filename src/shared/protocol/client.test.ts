// The client against a scripted worker half on an in-memory port pair: queueing until ready, replies, errors,
// version mismatch and ack pacing. End-to-end behaviour over a real cluster is tested in src/worker.
import { describe, expect, it } from 'vitest';
import type { Status } from '../api/status';
import { ProtocolError, createProtocolClient } from './client';
import type { ClientMessage, WatchBatch, WorkerMessage } from './messages';
import { createPortPair } from './port';
import { PROTOCOL_VERSION } from './version';

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

function peer() {
  const [uiPort, workerPort] = createPortPair();
  const received: ClientMessage[] = [];
  workerPort.addEventListener('message', (e) => received.push(e.data as ClientMessage));
  const send = (m: WorkerMessage) => workerPort.postMessage(m);
  return { uiPort, workerPort, received, send };
}

const notFound: Status = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'configmaps "x" not found',
  reason: 'NotFound',
  details: { name: 'x', group: '', kind: 'configmaps' },
  code: 404,
};

describe('createProtocolClient', () => {
  it('queues calls until the worker is ready, then sends them in order', async () => {
    const { uiPort, received, send } = peer();
    const client = createProtocolClient(uiPort);
    const a = client.call('sim/state');
    const b = client.call('cluster/info');
    await tick();
    expect(received).toEqual([]);
    send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    await client.ready;
    await tick();
    expect(received.map((m) => (m.type === 'call' ? m.method : m.type))).toEqual(['sim/state', 'cluster/info']);
    const [first, second] = received as Extract<ClientMessage, { type: 'call' }>[];
    send({ type: 'reply', id: second.id, ok: true, result: { revision: 7 } });
    send({ type: 'reply', id: first.id, ok: true, result: { time: 5, paused: true, speed: 1, realtime: false } });
    await expect(b).resolves.toEqual({ revision: 7 });
    await expect(a).resolves.toEqual({ time: 5, paused: true, speed: 1, realtime: false });
  });

  it('rejects with a ProtocolError carrying the Status', async () => {
    const { uiPort, received, send } = peer();
    const client = createProtocolClient(uiPort);
    send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    const p = client.call('api/request', { verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'x' });
    await tick();
    const call = received[0] as Extract<ClientMessage, { type: 'call' }>;
    expect(call.params).toEqual({ verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'x' });
    send({ type: 'reply', id: call.id, ok: false, status: notFound });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).status).toEqual(notFound);
    expect((err as ProtocolError).code).toBe(404);
    expect((err as ProtocolError).message).toBe('configmaps "x" not found');
  });

  it('fails every queued and later call when the worker speaks another protocol version', async () => {
    const { uiPort, received, send } = peer();
    const client = createProtocolClient(uiPort);
    const queued = client.call('sim/state');
    send({ type: 'ready', protocolVersion: PROTOCOL_VERSION + 1 });
    await expect(queued).rejects.toThrow(/protocol version mismatch/);
    await expect(client.ready).rejects.toThrow(/protocol version mismatch/);
    await expect(client.call('cluster/info')).rejects.toBeInstanceOf(ProtocolError);
    await tick();
    expect(received).toEqual([]);
  });

  it('acknowledges a watch batch only once the scheduled frame runs, and stops acking after unsubscribe', async () => {
    const { uiPort, received, send } = peer();
    const frames: (() => void)[] = [];
    const client = createProtocolClient(uiPort, { scheduleAck: (fn) => frames.push(fn) });
    send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    const batches: WatchBatch[] = [];
    const stop = client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'configmaps' }, (b) => batches.push(b));
    await client.ready;
    await tick();
    const start = received[0] as Extract<ClientMessage, { type: 'watch/start' }>;
    expect(start.type).toBe('watch/start');
    expect(start.request.resource).toBe('configmaps');

    const batch: WatchBatch = { diff: { added: {}, updated: {}, removed: {} }, resourceVersion: '3', relist: true, initial: true };
    send({ type: 'watch/batch', id: start.id, batch });
    await tick();
    expect(batches).toEqual([batch]);
    expect(received.filter((m) => m.type === 'watch/ack')).toEqual([]);
    frames.shift()!();
    await tick();
    expect(received.filter((m) => m.type === 'watch/ack')).toEqual([{ type: 'watch/ack', id: start.id }]);

    send({ type: 'watch/batch', id: start.id, batch: { ...batch, resourceVersion: '4', relist: undefined, initial: undefined } });
    await tick();
    stop();
    frames.shift()!();
    await tick();
    expect(received.filter((m) => m.type === 'watch/ack')).toHaveLength(1);
    expect(received.at(-1)).toEqual({ type: 'watch/stop', id: start.id });
  });

  it("acknowledges one frame's batches of several subscriptions and the trace channel in one message", async () => {
    const { uiPort, received, send } = peer();
    const frames: (() => void)[] = [];
    const client = createProtocolClient(uiPort, { scheduleAck: (fn) => frames.push(fn) });
    send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    const stopA = client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'configmaps' }, () => {});
    client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'pods' }, () => {});
    client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'nodes' }, () => {});
    client.onTrace(() => {});
    await client.ready;
    await tick();
    const [a, b, c] = received.filter((m) => m.type === 'watch/start').map((m) => (m as { id: number }).id);
    const batch = (seq: number): WatchBatch => ({ diff: { added: {}, updated: {}, removed: {} }, resourceVersion: String(seq), seq });
    send({ type: 'watch/batch', id: a, batch: batch(1) });
    send({ type: 'watch/batch', id: b, batch: batch(1) });
    send({ type: 'watch/batch', id: c, batch: batch(1) });
    send({ type: 'trace/batch', batch: { events: [], dropped: 0, droppedByKind: {} } });
    await tick();
    expect(frames).toHaveLength(1); // one callback for the frame, whatever arrived
    stopA(); // unsubscribed before the frame: its batch is not acknowledged
    frames.shift()!();
    await tick();
    const acks = received.filter((m) => m.type === 'watch/ack' || m.type === 'watch/acks' || m.type === 'trace/ack');
    expect(acks).toEqual([{ type: 'watch/acks', acks: [{ id: b, seq: 1 }, { id: c, seq: 1 }], trace: true }]);

    // A frame with a single batch still sends a plain watch/ack.
    send({ type: 'watch/batch', id: b, batch: batch(2) });
    await tick();
    frames.shift()!();
    await tick();
    expect(received.at(-1)).toEqual({ type: 'watch/ack', id: b, seq: 2 });
  });

  it('reports a watch/error to the subscription', async () => {
    const { uiPort, received, send } = peer();
    const client = createProtocolClient(uiPort, { scheduleAck: () => {} });
    send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    const errors: Status[] = [];
    client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'nothings' }, { onBatch: () => {}, onError: (s) => errors.push(s) });
    await client.ready;
    await tick();
    send({ type: 'watch/error', id: (received[0] as { id: number }).id, status: notFound });
    await tick();
    expect(errors).toEqual([notFound]);
  });
});

describe('createPortPair', () => {
  it('delivers asynchronously as plain JSON copies', async () => {
    const [a, b] = createPortPair();
    const got: unknown[] = [];
    b.addEventListener('message', (e) => got.push(e.data));
    const msg = { x: { y: [1, 2] } };
    a.postMessage(msg);
    expect(got).toEqual([]);
    await tick();
    expect(got).toEqual([msg]);
    expect(got[0]).not.toBe(msg);
  });

  it('refuses values that are not plain JSON', () => {
    const [a] = createPortPair();
    expect(() => a.postMessage({ when: new Date(0) })).toThrow(/not plain JSON at \$\.when: Date instance/);
    expect(() => a.postMessage({ m: new Map() })).toThrow(/Map instance/);
    expect(() => a.postMessage({ n: Number.NaN })).toThrow(/not plain JSON/);
    expect(() => a.postMessage({ f: () => 1 })).toThrow(/function/);
  });
});
