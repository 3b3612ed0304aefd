// The many-tabs plumbing without a browser: a fake cluster worker (a protocol server that answers every call with
// who asked and what, and lists one object per watch), fake BroadcastChannels, and the page's real protocol client.
import { describe, expect, it } from 'vitest';
import { createProtocolClient, ProtocolError } from '../../shared/protocol/client';
import type { ProtocolClient } from '../../shared/protocol/client';
import type { ClientMessage, PortLike, WatchBatch, WorkerMessage } from '../../shared/protocol/messages';
import { createPortPair } from '../../shared/protocol/port';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { createLeaderPort } from './leader-port';
import type { LeaderPort } from './leader-port';
import { createTabMux } from './tab-mux';
import type { ChannelLike } from './tab-relay';
import { connectToLeader, serveFollowers, watchLeader } from './tab-relay';

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const ack = (fn: () => void) => setTimeout(fn, 0);

/** A fake worker named `name`: it records what it received and answers like a cluster would, in shape. */
function fakeWorker(name: string, { ready = true } = {}) {
  const [page, worker] = createPortPair();
  const received: ClientMessage[] = [];
  const watches = new Set<number>();
  const post = (m: WorkerMessage) => worker.postMessage(m);
  worker.addEventListener('message', ({ data }) => {
    const msg = data as ClientMessage;
    received.push(msg);
    if (msg.type === 'call') {
      if (msg.method === 'kubectl/run') post({ type: 'kubectl/output', id: (msg.params as { id: string }).id, stream: 'stdout', text: `ran on ${name}` });
      post({ type: 'reply', id: msg.id, ok: true, result: { worker: name, method: msg.method, params: msg.params ?? null } });
    } else if (msg.type === 'watch/start') {
      watches.add(msg.id);
      const key = `${msg.request.resource}/${name}`;
      // Numbered from 1 per subscription, as serve.ts does.
      const batch: WatchBatch = { diff: { added: { [key]: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: key } } }, updated: {}, removed: {} }, resourceVersion: '1', relist: true, initial: true, seq: 1 };
      post({ type: 'watch/batch', id: msg.id, batch });
    } else if (msg.type === 'watch/stop') {
      watches.delete(msg.id);
    } else if (msg.type === 'trace/start') {
      post({ type: 'trace/batch', batch: { events: [], dropped: 1, droppedByKind: {} } });
    }
  });
  const greet = () => post({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
  if (ready) greet();
  return { port: page as PortLike, received, watches, greet, post };
}

/** BroadcastChannels of one origin: a message goes to every other channel of the same name, asynchronously. */
function channelHub() {
  const channels = new Set<{ listeners: Set<(e: { data: unknown }) => void> }>();
  return {
    open(): ChannelLike & { close(): void } {
      const me = { listeners: new Set<(e: { data: unknown }) => void>() };
      channels.add(me);
      return {
        postMessage(message) {
          const data = structuredClone(message);
          for (const other of channels) {
            if (other === me) continue;
            setTimeout(() => {
              for (const l of [...other.listeners]) l({ data });
            }, 0);
          }
        },
        addEventListener: (_t, l) => me.listeners.add(l),
        removeEventListener: (_t, l) => me.listeners.delete(l),
        close: () => channels.delete(me),
      };
    },
  };
}

function watchNames(client: ProtocolClient, resource: string): string[][] {
  const seen: string[][] = [];
  client.watch({ verb: 'watch', group: '', version: 'v1', resource }, (b) => seen.push(Object.keys(b.diff.added)));
  return seen;
}

describe('tab mux (the leader page over its worker)', () => {
  it('routes replies, watch batches and kubectl output to the tab that asked, though their ids collide', async () => {
    const worker = fakeWorker('w1');
    const mux = createTabMux(worker.port);
    const got: Record<string, WorkerMessage[]> = { a: [], b: [] };
    const a = mux.connect('a', (m) => got.a.push(m));
    const b = mux.connect('b', (m) => got.b.push(m));
    await settle();
    a.post({ type: 'call', id: 1, method: 'sim/state', params: undefined });
    b.post({ type: 'call', id: 1, method: 'api/discovery', params: undefined });
    a.post({ type: 'watch/start', id: 1, request: { verb: 'watch', group: '', version: 'v1', resource: 'pods' } });
    b.post({ type: 'watch/start', id: 1, request: { verb: 'watch', group: '', version: 'v1', resource: 'configmaps' } });
    b.post({ type: 'call', id: 2, method: 'kubectl/run', params: { id: 'run-1', line: 'kubectl get pods' } as never });
    await settle();
    await settle();
    const replies = (tab: string) => got[tab].filter((m) => m.type === 'reply').map((m) => [m.id, (m as { result: { method: string } }).result.method]);
    expect(replies('a')).toEqual([[1, 'sim/state']]);
    expect(replies('b')).toEqual([
      [1, 'api/discovery'],
      [2, 'kubectl/run'],
    ]);
    const batches = (tab: string) => got[tab].filter((m) => m.type === 'watch/batch').map((m) => [m.id, Object.keys((m as { batch: WatchBatch }).batch.diff.added)]);
    expect(batches('a')).toEqual([[1, ['pods/w1']]]);
    expect(batches('b')).toEqual([[1, ['configmaps/w1']]]);
    expect(got.b.filter((m) => m.type === 'kubectl/output')).toEqual([{ type: 'kubectl/output', id: 'run-1', stream: 'stdout', text: 'ran on w1' }]);
    expect(got.a.some((m) => m.type === 'kubectl/output')).toBe(false);
    // The worker saw distinct ids.
    const starts = worker.received.filter((m) => m.type === 'watch/start').map((m) => m.id);
    expect(new Set(starts).size).toBe(2);

    // A tab that goes away takes its watches with it; the other's stay.
    b.close();
    await settle();
    expect(worker.watches.size).toBe(1);
    a.post({ type: 'watch/stop', id: 1 });
    await settle();
    expect(worker.watches.size).toBe(0);
  });

  it('buffers what tabs send until the worker is ready, then greets every tab', async () => {
    const worker = fakeWorker('w1', { ready: false });
    const mux = createTabMux(worker.port);
    const got: WorkerMessage[] = [];
    const a = mux.connect('a', (m) => got.push(m));
    a.post({ type: 'call', id: 7, method: 'sim/state', params: undefined });
    await settle();
    expect(worker.received).toEqual([]);
    worker.greet();
    await settle();
    await settle();
    expect(got.map((m) => m.type)).toEqual(['ready', 'reply']);
  });

  it('starts the trace channel while any tab wants it, and passes one ack per batch', async () => {
    const worker = fakeWorker('w1');
    const mux = createTabMux(worker.port);
    const a = mux.connect('a', () => {});
    const b = mux.connect('b', () => {});
    await settle();
    a.post({ type: 'trace/start' });
    b.post({ type: 'trace/start' });
    await settle();
    a.post({ type: 'trace/ack' });
    b.post({ type: 'trace/ack' });
    a.post({ type: 'trace/stop' });
    await settle();
    expect(worker.received.map((m) => m.type)).toEqual(['trace/start', 'trace/ack']);
    b.close();
    await settle();
    expect(worker.received.map((m) => m.type)).toEqual(['trace/start', 'trace/ack', 'trace/stop']);
  });
});

describe('relay between tabs', () => {
  async function setup() {
    const hub = channelHub();
    const worker = fakeWorker('leader-worker');
    const mux = createTabMux(worker.port);
    const leaderPort = createLeaderPort();
    const leaderClient = createProtocolClient(leaderPort, { scheduleAck: ack });
    leaderPort.attach((deliver) => mux.connect('A', deliver));
    const serving = serveFollowers(hub.open(), 'A', mux);
    const follower = (tab: string) => {
      const channel = hub.open();
      const port = createLeaderPort();
      const client = createProtocolClient(port, { scheduleAck: ack });
      let leader: string | undefined;
      const stop = watchLeader(channel, (announced) => {
        if (announced === leader) return;
        leader = announced;
        port.attach((deliver) => connectToLeader(channel, tab, announced, `${tab}-${announced}`, deliver));
      });
      return { port, client, channel, stop };
    };
    return { hub, worker, mux, leaderClient, serving, follower };
  }

  it("a follower's calls and watches reach the leader's worker and come back to it alone", async () => {
    const { worker, leaderClient, follower } = await setup();
    const b = follower('B');
    const c = follower('C');
    await b.client.ready;
    await c.client.ready;
    const result = await b.client.call('sim/state');
    expect(result).toMatchObject({ worker: 'leader-worker', method: 'sim/state' });
    const bSeen = watchNames(b.client, 'configmaps');
    const cSeen = watchNames(c.client, 'pods');
    const aSeen = watchNames(leaderClient, 'nodes');
    for (let i = 0; i < 10 && (bSeen.length === 0 || cSeen.length === 0 || aSeen.length === 0); i++) await settle();
    expect(bSeen).toEqual([['configmaps/leader-worker']]);
    expect(cSeen).toEqual([['pods/leader-worker']]);
    expect(aSeen).toEqual([['nodes/leader-worker']]);
    expect(worker.watches.size).toBe(3);

    // C leaves: its watch ends in the worker.
    c.port.detach('closing');
    for (let i = 0; i < 5 && worker.watches.size > 2; i++) await settle();
    expect(worker.watches.size).toBe(2);
  });

  it("a follower's acks of one frame reach the worker as one message, in the worker's subscription ids", async () => {
    const { hub, worker } = await setup();
    const channel = hub.open();
    const port = createLeaderPort();
    const frames: (() => void)[] = [];
    const client = createProtocolClient(port, { scheduleAck: (fn) => frames.push(fn) });
    port.attach((deliver) => connectToLeader(channel, 'B', 'A', 'B-A', deliver));
    await client.ready;
    const seen: string[] = [];
    client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'configmaps' }, () => seen.push('configmaps'));
    client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'pods' }, () => seen.push('pods'));
    client.onTrace(() => seen.push('trace'));
    for (let i = 0; i < 10 && seen.length < 3; i++) await settle();
    expect(seen.sort()).toEqual(['configmaps', 'pods', 'trace']);
    for (const f of frames.splice(0)) f();
    for (let i = 0; i < 10 && !worker.received.some((m) => m.type === 'watch/acks'); i++) await settle();
    const ids = worker.received.filter((m) => m.type === 'watch/start').map((m) => (m as { id: number }).id);
    const acks = worker.received.filter((m) => m.type === 'watch/ack' || m.type === 'watch/acks' || m.type === 'trace/ack');
    expect(acks).toHaveLength(1);
    expect(acks[0]).toMatchObject({ type: 'watch/acks', trace: true });
    expect((acks[0] as { acks: { id: number; seq?: number }[] }).acks.sort((x, y) => x.id - y.id)).toEqual(ids.sort((x, y) => x - y).map((id) => ({ id, seq: 1 })));
  });

  it('when another tab takes over, a follower fails its unanswered calls with 503 and relists every watch there', async () => {
    const { hub, follower, serving, mux } = await setup();
    const b = follower('B');
    await b.client.ready;
    const seen: WatchBatch[] = [];
    b.client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'configmaps' }, (batch) => seen.push(batch));
    for (let i = 0; i < 5 && seen.length === 0; i++) await settle();
    expect(Object.keys(seen[0].diff.added)).toEqual(['configmaps/leader-worker']);

    // The leader's page goes away without a word (its worker stops answering); a call is on its way.
    serving.stop();
    mux.close();
    const lost = b.client.call('sim/state');
    await settle();

    // Tab D becomes the leader over a new worker and announces itself.
    const worker2 = fakeWorker('worker-2');
    const mux2 = createTabMux(worker2.port);
    serveFollowers(hub.open(), 'D', mux2);
    const err = await lost.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(503);
    for (let i = 0; i < 10 && seen.length < 2; i++) await settle();
    // The client sees one subscription: the new control plane's first batch (its seq 1) continues at 2.
    expect(seen.map((s) => s.seq)).toEqual([1, 2]);
    expect(seen[1]).toMatchObject({ relist: true });
    expect(Object.keys(seen[1].diff.added)).toEqual(['configmaps/worker-2']);
    // Its ack goes back in the new control plane's numbering.
    for (let i = 0; i < 5 && !worker2.received.some((m) => m.type === 'watch/ack'); i++) await settle();
    expect(worker2.received.filter((m) => m.type === 'watch/ack').map((m) => (m as { seq?: number }).seq)).toEqual([1]);
    await expect(b.client.call('sim/state')).resolves.toMatchObject({ worker: 'worker-2' });
  });

  it('ignores messages of an older session of the same tab', async () => {
    const hub = channelHub();
    const got: WorkerMessage[] = [];
    const channel = hub.open();
    const leaderSide = hub.open();
    connectToLeader(channel, 'B', 'A', 's2', (m) => got.push(m));
    leaderSide.postMessage({ kind: 'down', from: 'A', to: 'B', session: 's1', message: { type: 'ready', protocolVersion: PROTOCOL_VERSION } });
    leaderSide.postMessage({ kind: 'down', from: 'A', to: 'C', session: 's2', message: { type: 'ready', protocolVersion: PROTOCOL_VERSION } });
    leaderSide.postMessage({ kind: 'down', from: 'A', to: 'B', session: 's2', message: { type: 'ready', protocolVersion: PROTOCOL_VERSION } });
    await settle();
    expect(got).toHaveLength(1);
  });
});

describe('leader port', () => {
  it('a hidden page stops its watches and trace at the worker, and relists when it is shown again; calls still go', async () => {
    const worker = fakeWorker('w1');
    const mux = createTabMux(worker.port);
    const port = createLeaderPort();
    const client = createProtocolClient(port, { scheduleAck: ack });
    port.attach((deliver) => mux.connect('a', deliver));
    await client.ready;
    const seen: WatchBatch[] = [];
    client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'pods' }, (b) => seen.push(b));
    const traces: number[] = [];
    client.onTrace((b) => traces.push(b.dropped));
    for (let i = 0; i < 5 && seen.length === 0; i++) await settle();
    expect(worker.watches.size).toBe(1);

    port.pause();
    await settle();
    expect(worker.watches.size).toBe(0);
    expect(worker.received.filter((m) => m.type === 'trace/stop')).toHaveLength(1);
    await expect(client.call('sim/state')).resolves.toMatchObject({ method: 'sim/state' });

    port.resume();
    for (let i = 0; i < 5 && seen.length < 2; i++) await settle();
    expect(worker.watches.size).toBe(1);
    expect(seen[1]).toMatchObject({ relist: true });
    expect(worker.received.filter((m) => m.type === 'trace/start')).toHaveLength(2);
  });


  it('passes only acks of batches the current control plane sent', async () => {
    const worker = fakeWorker('w1');
    const mux = createTabMux(worker.port);
    const port: LeaderPort = createLeaderPort();
    const sent: ClientMessage[] = [];
    port.addEventListener('message', () => {});
    port.attach((deliver) => {
      const ep = mux.connect('a', deliver);
      return { post: (m) => (sent.push(m), ep.post(m)), close: ep.close };
    });
    await settle();
    port.postMessage({ type: 'watch/ack', id: 1 } satisfies ClientMessage);
    port.postMessage({ type: 'watch/start', id: 1, request: { verb: 'watch', group: '', version: 'v1', resource: 'pods' } } satisfies ClientMessage);
    await settle();
    await settle();
    port.postMessage({ type: 'watch/ack', id: 1 } satisfies ClientMessage);
    port.postMessage({ type: 'watch/ack', id: 1 } satisfies ClientMessage);
    expect(sent.map((m) => m.type)).toEqual(['watch/start', 'watch/ack']);
  });
});
