// 'sim/fault', 'sim/faults' and 'kubectl/node' through the very protocol client the page uses (JSON copies).
import { afterEach, describe, expect, it } from 'vitest';
import { TraceKind } from '../shared/protocol/trace';
import { ProtocolError } from '../shared/protocol/client';
import { createCluster } from '../control-plane/cluster';
import { createProtocolClient } from '../shared/protocol/client';
import { createPortPair } from '../shared/protocol/port';
import type { HeadlessCluster } from './headless';
import { createHeadlessCluster } from './headless';
import { serveProtocol } from './serve';

let h: HeadlessCluster | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function boot(): Promise<HeadlessCluster> {
  const headless = await createHeadlessCluster({ seed: 5 });
  const { cluster } = headless;
  cluster.runUntil(() => cluster.client.nodes.list().items.length === 3 && cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1, 10_000);
  return headless;
}

async function rejection(p: Promise<unknown>): Promise<ProtocolError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ProtocolError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('sim/fault', () => {
  it('injects faults and answers with the faults in effect', async () => {
    h = await boot();
    const killed = await h.client.call('sim/fault', { kind: 'kill-node', node: 'node-2' });
    expect(killed.state.nodes).toContainEqual({ name: 'node-2', running: false, reachable: true });
    expect(h.cluster.nodes.get('node-2')!.isRunning).toBe(false);
    await h.client.call('sim/fault', { kind: 'partition-node', node: 'node-3', on: true });
    const stopped = await h.client.call('sim/fault', { kind: 'stop-apiserver' });
    expect(stopped.state.apiServer).toBe('stopped');
    const added = await h.client.call('sim/fault', { kind: 'add-node', node: { cpu: '2', memory: '4Gi' } });
    expect(added.node).toBe('node-4');
    await h.client.call('sim/fault', { kind: 'restart-controller-manager' });
    await h.client.call('sim/fault', { kind: 'restart-scheduler' });
    expect(await h.client.call('sim/faults')).toEqual({
      apiServer: 'stopped',
      controllerManager: 'running',
      scheduler: 'running',
      nodes: [
        { name: 'node-1', running: true, reachable: true },
        { name: 'node-2', running: false, reachable: true },
        { name: 'node-3', running: true, reachable: false },
        { name: 'node-4', running: true, reachable: true },
      ],
    });
    const traced = h.cluster.trace.recent().filter((e) => e.kind === TraceKind.Custom && e.component === 'faults');
    expect(traced.map((e) => e.data.fault)).toEqual(['kill-node', 'partition-node', 'stop-apiserver', 'add-node', 'restart-controller-manager', 'restart-scheduler']);
  });

  it('refuses unknown nodes and faults with an API status', async () => {
    h = await boot();
    const missing = await rejection(h.client.call('sim/fault', { kind: 'kill-node', node: 'node-7' }));
    expect(missing.status).toMatchObject({ reason: 'NotFound', code: 404, message: 'nodes "node-7" not found' });
    const unknown = await rejection(h.client.call('sim/fault', { kind: 'flood' } as never));
    expect(unknown.status).toMatchObject({ reason: 'BadRequest', message: 'unknown fault "flood"' });
  });
});

describe('kubectl/node', () => {
  it('cordons and uncordons as the current user', async () => {
    h = await boot();
    expect(await h.client.call('kubectl/node', { command: 'cordon', node: 'node-1' })).toEqual({ exitCode: 0, lines: [{ stream: 'stdout', text: 'node/node-1 cordoned' }] });
    expect(h.cluster.client.nodes.get('node-1').spec?.unschedulable).toBe(true);
    expect((await h.client.call('kubectl/node', { command: 'uncordon', node: 'node-1' })).lines[0].text).toBe('node/node-1 uncordoned');
  });

  it('drain replies when the drain finishes, as virtual time runs', async () => {
    h = await boot();
    const { cluster } = h;
    cluster.client.pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare', namespace: 'default' },
      spec: { nodeName: 'node-3', containers: [{ name: 'c', image: 'nginx:1.27' }] },
    });
    cluster.runUntil(() => cluster.client.pods.get('bare', { namespace: 'default' }).status?.phase === 'Running', 60_000);
    let reply: Awaited<ReturnType<typeof h.client.call<'kubectl/node'>>> | undefined;
    const pending = h.client.call('kubectl/node', { command: 'drain', node: 'node-3', flags: { force: true, gracePeriodSeconds: 5 } }).then((r) => (reply = r));
    for (let i = 0; i < 100 && !reply; i++) {
      cluster.advance(1000);
      await new Promise((r) => setTimeout(r, 0));
    }
    await pending;
    expect(reply!.exitCode).toBe(0);
    expect(reply!.lines.map((l) => l.text)).toEqual([
      'node/node-3 cordoned',
      'Warning: deleting Pods that declare no controller: default/bare',
      'evicting pod default/bare',
      'pod/bare evicted',
      'node/node-3 drained',
    ]);
    expect(reply!.lines[1].stream).toBe('stderr');
  });

  it('fails like kubectl while the API server is stopped', async () => {
    h = await boot();
    await h.client.call('sim/fault', { kind: 'stop-apiserver' });
    expect(await h.client.call('kubectl/node', { command: 'drain', node: 'node-1' })).toEqual({
      exitCode: 1,
      lines: [{ stream: 'stderr', text: 'The connection to the server 10.96.0.1:443 was refused - did you specify the right host or port?' }],
    });
  });

  it('a reset ends a drain that waits for ever (a pod on a dead node) with exit code 130', async () => {
    const first = await createCluster({ seed: 5 });
    first.runUntil(() => first.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1 && first.client.nodes.list().items.length === 3, 10_000);
    const second = await createCluster({ seed: 6 });
    const [uiPort, workerPort] = createPortPair();
    const server = serveProtocol(first, workerPort, { afterRequest: (c) => c.clock.runDeferred(), reset: async () => ({ cluster: second }) });
    const client = createProtocolClient(uiPort);
    await client.ready;
    try {
      first.client.pods.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'stuck', namespace: 'default' },
        spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx:1.27' }] },
      });
      first.runUntil(() => first.client.pods.get('stuck', { namespace: 'default' }).status?.phase === 'Running', 60_000);
      await client.call('sim/fault', { kind: 'kill-node', node: 'node-1' });
      const pending = client.call('kubectl/node', { command: 'drain', node: 'node-1', flags: { force: true } });
      first.advance(60_000);
      await client.call('cluster/reset');
      const output = await pending;
      expect(output.exitCode).toBe(130);
      expect(output.lines.map((l) => l.text)).toEqual(['node/node-1 cordoned', 'Warning: deleting Pods that declare no controller: default/stuck', 'evicting pod default/stuck']);
    } finally {
      server.close();
      client.close();
      await first.close();
      await second.close();
    }
  });
});

describe('requests from the page during an API server outage', () => {
  it('are refused like kubectl requests while the API server is stopped, and served again after', async () => {
    const h = await createHeadlessCluster({ nodes: 0 });
    const list = { verb: 'list', group: '', version: 'v1', resource: 'namespaces' } as const;
    await h.client.call('sim/fault', { kind: 'stop-apiserver' });
    await expect(h.client.call('api/request', list)).rejects.toMatchObject({ status: { message: 'dial tcp 10.96.0.1:443: connect: connection refused' } });
    await h.client.call('sim/fault', { kind: 'start-apiserver' });
    const res = await h.client.call('api/request', list);
    expect((res.body as { items: unknown[] }).items.length).toBe(4);
    await h.close();
  });
});
