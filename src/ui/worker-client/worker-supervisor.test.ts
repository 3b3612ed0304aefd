// The supervisor notices a dead worker (error event, no heartbeat answer, no start), fails what the dead worker
// never answered, starts a new one and replays the page's watch subscriptions and trace channel on it, so the
// page relists instead of waiting forever; it gives up after too many restarts in a short time.
import { describe, expect, it } from 'vitest';
import { createProtocolClient } from '../../shared/protocol/client';
import { ProtocolError } from '../../shared/protocol/client';
import type { ClientMessage, WorkerMessage } from '../../shared/protocol/messages';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import type { WorkerHealthState, WorkerLike } from './worker-supervisor';
import { WorkerPhase, WorkerSupervisor } from './worker-supervisor';

type Listener = (event: { data?: unknown; message?: string }) => void;

class FakeWorker implements WorkerLike {
  readonly received: ClientMessage[] = [];
  readonly listeners = { message: new Set<Listener>(), error: new Set<Listener>() };
  terminated = false;
  postMessage(message: unknown): void {
    if (!this.terminated) this.received.push(message as ClientMessage);
  }
  addEventListener(type: 'message' | 'error', l: Listener): void {
    this.listeners[type].add(l);
  }
  removeEventListener(type: 'message' | 'error', l: Listener): void {
    this.listeners[type].delete(l);
  }
  terminate(): void {
    this.terminated = true;
  }
  send(msg: WorkerMessage): void {
    for (const l of [...this.listeners.message]) l({ data: msg });
  }
  ready(): void {
    this.send({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
  }
  fail(message: string): void {
    for (const l of [...this.listeners.error]) l({ message });
  }
  answerHeartbeats(result: unknown = {}): void {
    for (const m of this.received) if (m.type === 'call' && m.id >= 2_000_000_000) this.send({ type: 'reply', id: m.id, ok: true, result });
  }
}

function setup(options: { maxRestarts?: number } = {}) {
  const workers: FakeWorker[] = [];
  let now = 0;
  let tick: (() => void) | undefined;
  const states: WorkerHealthState[] = [];
  const supervisor = new WorkerSupervisor({
    createWorker: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w;
    },
    onHealth: (s) => states.push(s),
    timers: { now: () => now, setInterval: (fn) => (tick = fn), clearInterval: () => (tick = undefined) },
    heartbeatMs: 1000,
    timeoutMs: 5000,
    bootTimeoutMs: 20_000,
    maxRestarts: options.maxRestarts ?? 3,
    restartWindowMs: 60_000,
  });
  const client = createProtocolClient(supervisor, { scheduleAck: (fn) => fn() });
  const advance = (ms: number) => {
    for (let t = 0; t < ms; t += 1000) {
      now += 1000;
      tick?.();
    }
  };
  return { supervisor, client, workers, states, advance, last: () => workers[workers.length - 1] };
}

const watchReq = { verb: 'watch' as const, group: '', version: 'v1', resource: 'configmaps' };

describe('WorkerSupervisor', () => {
  it('restarts a worker that stops answering, fails its unanswered calls with a 503 and replays watches and trace on the new one', async () => {
    const { client, workers, states, advance, last } = setup();
    const batches: unknown[] = [];
    client.watch(watchReq, (b) => batches.push(b));
    client.onTrace(() => {});
    workers[0].ready();
    await client.ready;
    expect(workers[0].received.map((m) => m.type)).toEqual(['watch/start', 'trace/start']);
    const call = client.call('cluster/info');

    advance(1000); // heartbeat sent
    workers[0].answerHeartbeats();
    advance(2000);
    expect(workers).toHaveLength(1);
    workers[0].terminated = true; // terminate(): no event, no more answers
    advance(8000);
    expect(workers).toHaveLength(2);
    expect(states.at(-1)?.phase).toBe(WorkerPhase.Restarting);
    await expect(call).rejects.toBeInstanceOf(ProtocolError);
    await expect(call).rejects.toMatchObject({ status: { code: 503, message: expect.stringContaining('The cluster stopped unexpectedly; restarting from the saved state') } });

    // Until the new worker is ready, nothing is sent to it; then the subscriptions start again, once each.
    const later = client.call('cluster/info');
    expect(last().received).toEqual([]);
    last().ready();
    const types = last().received.map((m) => m.type);
    expect(types).toEqual(['watch/start', 'trace/start', 'call']);
    const replayed = last().received[0] as ClientMessage & { type: 'watch/start' };
    expect(replayed.request).toEqual(watchReq);
    expect(states.at(-1)).toMatchObject({ phase: WorkerPhase.Running, restarts: 1, reason: 'it stopped answering' });

    // The new worker's first batch (a relist) reaches the old subscription's handler.
    last().send({ type: 'watch/batch', id: replayed.id, batch: { diff: { added: {}, modified: {}, deleted: [] } as never, resourceVersion: '9', relist: true, initial: true } });
    expect(batches).toHaveLength(1);
    const id = (last().received[2] as ClientMessage & { type: 'call' }).id;
    last().send({ type: 'reply', id, ok: true, result: { revision: 9 } });
    await expect(later).resolves.toEqual({ revision: 9 });
  });

  it('an error event is a dead worker: it is terminated and replaced', async () => {
    const { client, workers, states } = setup();
    workers[0].ready();
    await client.ready;
    workers[0].fail('Uncaught TypeError: boom');
    expect(workers[0].terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(states.at(-1)).toMatchObject({ phase: WorkerPhase.Restarting, reason: 'it failed: Uncaught TypeError: boom' });
  });

  it('a worker that never says ready is replaced after the boot timeout', () => {
    const { workers, advance } = setup();
    advance(19_000);
    expect(workers).toHaveLength(1);
    advance(3000);
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
  });

  it('gives up after too many restarts in a short time: calls fail at once, no new worker starts', async () => {
    const { client, workers, states } = setup({ maxRestarts: 2 });
    workers[0].ready();
    await client.ready;
    workers[0].fail('a');
    workers[1].fail('b');
    expect(workers).toHaveLength(3);
    workers[2].fail('c');
    expect(workers).toHaveLength(3);
    expect(states.at(-1)?.phase).toBe(WorkerPhase.Failed);
    await expect(client.call('cluster/info')).rejects.toMatchObject({ status: { code: 503, message: expect.stringContaining('could not be restarted') } });
  });

  it('a worker that serves again (ready twice) gets the subscriptions again; calls it had are failed', async () => {
    const { client, workers } = setup();
    client.watch(watchReq, () => {});
    workers[0].ready();
    await client.ready;
    const call = client.call('api/discovery');
    workers[0].ready();
    await expect(call).rejects.toMatchObject({ status: { code: 503 } });
    expect(workers[0].received.map((m) => m.type)).toEqual(['watch/start', 'call', 'watch/start']);
    expect(workers).toHaveLength(1);
  });

  it('passes the storage status from the heartbeat to the health', async () => {
    const { client, workers, states, advance } = setup();
    workers[0].ready();
    await client.ready;
    advance(1000);
    workers[0].answerHeartbeats({ alarm: 'nospace', message: 'full' });
    expect(states.at(-1)?.storage).toEqual({ alarm: 'nospace', message: 'full' });
  });
});

describe('WorkerSupervisor heartbeat after a re-serve', () => {
  it('asks again when a heartbeat went to an earlier server, and keeps reporting the storage status', async () => {
    const { client, workers, states, advance } = setup();
    workers[0].ready();
    await client.ready;
    advance(1000); // heartbeat to the first server, never answered: it re-serves
    workers[0].ready();
    advance(1000);
    workers[0].answerHeartbeats({ alarm: 'nospace', message: 'full' });
    expect(states.at(-1)?.storage).toEqual({ alarm: 'nospace', message: 'full' });
    expect(workers).toHaveLength(1);
  });
});

describe('WorkerSupervisor without replay', () => {
  it('leaves re-synchronisation to the port above: a new worker gets no subscription twice', async () => {
    const workers: FakeWorker[] = [];
    const supervisor = new WorkerSupervisor({
      createWorker: () => {
        const w = new FakeWorker();
        workers.push(w);
        return w;
      },
      timers: { now: () => 0, setInterval: () => 0, clearInterval: () => {} },
      replay: false,
    });
    const client = createProtocolClient(supervisor, { scheduleAck: (fn) => fn() });
    client.watch(watchReq, () => {});
    workers[0].ready();
    await client.ready;
    workers[0].fail('boom');
    workers[1].ready();
    expect(workers[1].received).toEqual([]);
    supervisor.dispose();
  });
});
