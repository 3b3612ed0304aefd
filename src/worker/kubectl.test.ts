// 'kubectl/run', 'kubectl/cancel' and 'kubectl/edited' through the very protocol client the page uses.
import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../control-plane/cluster';
import type { CommandSpec } from '../kubectl/cli/command';
import { versionCommand } from '../kubectl/cmd/version';
import { createProtocolClient, type KubectlEvent, type ProtocolClient } from '../shared/protocol/client';
import type { KubeconfigState } from '../shared/protocol/methods';
import { createPortPair } from '../shared/protocol/port';
import { serveProtocol, type ProtocolServer } from './serve';

const ticker: CommandSpec = {
  path: ['tick'],
  use: 'tick',
  short: 'Prints a line a second until Ctrl+C',
  flags: [],
  run: (env, _args, _flags, io) =>
    new Promise((resolve) => {
      let n = 0;
      io.stdout('NAME   READY');
      io.stdout('web    0/1');
      const tick = (): void => {
        io.stdout(`web    ${++n}/1`);
        timer = env.clock.setTimer(1000, tick);
      };
      let timer = env.clock.setTimer(1000, tick);
      env.signal.onCancel(() => {
        env.clock.clearTimer(timer);
        resolve(130);
      });
    }),
};

const editConfigMap: CommandSpec = {
  path: ['edit'],
  use: 'edit (RESOURCE/NAME | -f FILENAME)',
  short: 'Edit a resource on the server',
  flags: [],
  async run(env, args, _flags, io) {
    const name = args[0];
    const live = env.client.configMaps.get(name, { namespace: env.namespace });
    const edited = await env.openEditor!(`data:\n  color: ${live.data?.color}\n`, `configmaps/${name}`);
    if (edited === undefined) {
      io.stdout('Edit cancelled, no changes made.');
      return 0;
    }
    const color = /color: (\S+)/.exec(edited)![1];
    env.client.configMaps.update({ ...live, data: { color } });
    io.stdout(`configmap/${name} edited`);
    return 0;
  },
};

const useNamespace: CommandSpec = {
  path: ['ns'],
  use: 'ns NAME',
  short: 'Sets the namespace of the current context',
  flags: [],
  run(env, args, _flags, io) {
    env.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: args[0] } });
    env.setKubeconfig({ ...env.kubeconfig, contexts: env.kubeconfig.contexts.map((c) => ({ ...c, namespace: args[0] })) });
    io.stdout(`namespace/${args[0]} created`);
    io.stderr('Warning: switched');
    io.stdout(`Context "${env.kubeconfig.currentContext}" modified.`);
    return 0;
  },
};

const kubeconfig: KubeconfigState = { currentContext: 'kubeplay', contexts: [{ name: 'kubeplay', cluster: 'kubeplay', user: 'admin' }] };

let cluster: Cluster;
let client: ProtocolClient;
let server: ProtocolServer<Cluster>;
let events: KubectlEvent[];

async function boot(): Promise<void> {
  cluster = await createCluster({ seed: 4, controllers: false, scheduler: false, nodes: 0 });
  const [uiPort, workerPort] = createPortPair();
  server = serveProtocol(cluster, workerPort, { afterRequest: (c) => c.clock.runDeferred(), kubectlCommands: [versionCommand, ticker, editConfigMap, useNamespace] });
  client = createProtocolClient(uiPort);
  await client.ready;
  events = [];
  client.onKubectl((e) => events.push(e));
}

afterEach(async () => {
  server?.close();
  client?.close();
  await cluster?.close();
});

const macrotask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('kubectl/run', () => {
  it('runs a line and streams its output before replying', async () => {
    await boot();
    const result = await client.call('kubectl/run', { id: 'r1', line: 'kubectl version', kubeconfig });
    expect(result).toEqual({ exitCode: 0, kubeconfig });
    expect(events).toEqual([{ type: 'kubectl/output', id: 'r1', stream: 'stdout', text: 'Client Version: v1.32.0\nKustomize Version: v5.5.0\nServer Version: v1.32.0' }]);
  });

  it('reports usage errors on stderr with exit code 1', async () => {
    await boot();
    expect(await client.call('kubectl/run', { id: 'r2', line: 'kubectl version --bogus', kubeconfig })).toEqual({ exitCode: 1, kubeconfig });
    expect(events.map((e) => e.type === 'kubectl/output' && [e.stream, e.text])).toEqual([['stderr', "error: unknown flag: --bogus\nSee 'kubectl version --help' for usage."]]);
  });

  it('keeps stdout and stderr in the order printed, returns the kubeconfig the command set, and writes through the API server', async () => {
    await boot();
    const result = await client.call('kubectl/run', { id: 'r3', line: 'kubectl ns team-a', kubeconfig });
    expect(result.kubeconfig.contexts[0].namespace).toBe('team-a');
    expect(events.map((e) => e.type === 'kubectl/output' && [e.stream, e.text])).toEqual([
      ['stdout', 'namespace/team-a created'],
      ['stderr', 'Warning: switched'],
      ['stdout', 'Context "kubeplay" modified.'],
    ]);
    expect(cluster.client.namespaces.get('team-a').metadata.name).toBe('team-a');
  });

  it('goes through the API server endpoint: refused while it is stopped', async () => {
    await boot();
    cluster.endpoint.stop();
    expect((await client.call('kubectl/run', { id: 'r4', line: 'kubectl ns team-b', kubeconfig })).exitCode).toBe(1);
    expect(events).toEqual([
      { type: 'kubectl/output', id: 'r4', stream: 'stderr', text: 'The connection to the server 10.96.0.1:443 was refused - did you specify the right host or port?' },
    ]);
  });

  it('streams a long-running command as virtual time passes, until kubectl/cancel (Ctrl+C)', async () => {
    await boot();
    let reply: { exitCode: number } | undefined;
    const pending = client.call('kubectl/run', { id: 'w', line: 'kubectl tick', kubeconfig }).then((r) => (reply = r));
    await macrotask();
    expect(events.map((e) => e.type === 'kubectl/output' && e.text)).toEqual(['NAME   READY\nweb    0/1']);
    for (let i = 0; i < 3; i++) {
      cluster.advance(1000);
      await macrotask();
    }
    expect(reply).toBeUndefined();
    expect(events.map((e) => e.type === 'kubectl/output' && e.text)).toEqual(['NAME   READY\nweb    0/1', 'web    1/1', 'web    2/1', 'web    3/1']);
    await client.call('kubectl/cancel', { id: 'w' });
    await pending;
    expect(reply).toEqual({ exitCode: 130, kubeconfig });
    cluster.advance(5000);
    await macrotask();
    expect(events).toHaveLength(4);
    // The id is free again, and cancelling a finished run is harmless.
    await client.call('kubectl/cancel', { id: 'w' });
  });

  it('refuses a second run with the same id while the first runs', async () => {
    await boot();
    const first = client.call('kubectl/run', { id: 'dup', line: 'kubectl tick', kubeconfig });
    await macrotask();
    await expect(client.call('kubectl/run', { id: 'dup', line: 'kubectl version', kubeconfig })).rejects.toMatchObject({ status: { code: 400 } });
    await client.call('kubectl/cancel', { id: 'dup' });
    expect((await first).exitCode).toBe(130);
  });
});

describe('kubectl edit round trip', () => {
  async function withConfigMap(): Promise<void> {
    await boot();
    cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'paint', namespace: 'default' }, data: { color: 'red' } });
  }

  it("posts kubectl/edit, and the page's kubectl/edited resumes the command with the new text", async () => {
    await withConfigMap();
    const pending = client.call('kubectl/run', { id: 'e1', line: 'kubectl edit paint', kubeconfig });
    await macrotask();
    expect(events).toEqual([{ type: 'kubectl/edit', id: 'e1', yaml: 'data:\n  color: red\n', title: 'configmaps/paint' }]);
    await client.call('kubectl/edited', { id: 'e1', yaml: 'data:\n  color: blue\n' });
    expect((await pending).exitCode).toBe(0);
    expect(events[1]).toEqual({ type: 'kubectl/output', id: 'e1', stream: 'stdout', text: 'configmap/paint edited' });
    expect(cluster.client.configMaps.get('paint', { namespace: 'default' }).data).toEqual({ color: 'blue' });
  });

  it('null (the editor closed) and Ctrl+C both leave the object alone', async () => {
    await withConfigMap();
    const closedEditor = client.call('kubectl/run', { id: 'e2', line: 'kubectl edit paint', kubeconfig });
    await macrotask();
    await client.call('kubectl/edited', { id: 'e2', yaml: null });
    expect((await closedEditor).exitCode).toBe(0);
    const interrupted = client.call('kubectl/run', { id: 'e3', line: 'kubectl edit paint', kubeconfig });
    await macrotask();
    await client.call('kubectl/cancel', { id: 'e3' });
    expect((await interrupted).exitCode).toBe(130);
    expect(events.filter((e) => e.type === 'kubectl/output').map((e) => e.type === 'kubectl/output' && e.text)).toEqual([
      'Edit cancelled, no changes made.',
      'Edit cancelled, no changes made.',
    ]);
    expect(cluster.client.configMaps.get('paint', { namespace: 'default' }).data).toEqual({ color: 'red' });
    await expect(client.call('kubectl/edited', { id: 'e3', yaml: 'x' })).rejects.toMatchObject({ status: { code: 400 } });
  });
});

describe('kubectl/catalog', () => {
  it('lists the command paths with aliases and flags, and the global flags', async () => {
    await boot();
    const catalog = await client.call('kubectl/catalog');
    expect(catalog.commands.map((c) => c.path.join(' '))).toEqual(['version', 'tick', 'edit', 'ns']);
    expect(catalog.commands[0]).toEqual({
      path: ['version'],
      aliases: [],
      short: 'Print the client and server version information',
      runnable: true,
      flags: [
        { name: 'client', type: 'bool' },
        { name: 'output', shorthand: 'o', type: 'string' },
      ],
    });
    expect(catalog.globalFlags).toContainEqual({ name: 'namespace', shorthand: 'n', type: 'string' });
  });
});
