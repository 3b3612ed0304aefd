import { describe, expect, it } from 'vitest';
import { createCluster } from '../../control-plane/cluster';
import type { CommandSpec } from './command';
import { kubectl } from './testing';

const wait: CommandSpec = {
  path: ['wait'],
  use: 'wait',
  short: 'Waits',
  flags: [{ name: 'for', type: 'duration', default: '0s', usage: '' }],
  run: (env, _args, flags, io) =>
    new Promise((resolve) => {
      const start = env.clock.now();
      env.clock.setTimer(flags.get<number>('for')!, () => {
        io.stdout(`waited ${(env.clock.now() - start) / 1000}s`);
        resolve(0);
      });
    }),
};

const watch: CommandSpec = {
  path: ['watch'],
  use: 'watch',
  short: 'Ticks until Ctrl+C',
  flags: [],
  run: (env, _args, _flags, io) =>
    new Promise((resolve) => {
      let n = 0;
      const tick = (): void => {
        io.stdout(`tick ${++n}`);
        handle = env.clock.setTimer(1000, tick);
      };
      let handle = env.clock.setTimer(1000, tick);
      env.signal.onCancel(() => {
        env.clock.clearTimer(handle);
        resolve(130);
      });
    }),
};

describe('kubectl test harness', () => {
  it('drives virtual time until a waiting command exits', async () => {
    const cluster = await createCluster({ controllers: false, scheduler: false, nodes: 0 });
    const start = cluster.clock.now();
    const r = await kubectl(cluster, 'kubectl wait --for=30s', { commands: [wait] });
    expect(r).toMatchObject({ stdout: 'waited 30s\n', exitCode: 0, cancelled: false });
    expect(cluster.clock.now() - start).toBeGreaterThanOrEqual(30_000);
    expect(cluster.clock.now() - start).toBeLessThan(31_000);
  });

  it('cancels a command still running at maxTimeMs, streaming its lines as printed', async () => {
    const cluster = await createCluster({ controllers: false, scheduler: false, nodes: 0 });
    const seen: string[] = [];
    const r = await kubectl(cluster, 'kubectl watch', { commands: [watch], maxTimeMs: 3_500, onLine: (_s, text) => seen.push(text) });
    expect(r).toMatchObject({ stdout: 'tick 1\ntick 2\ntick 3\n', exitCode: 130, cancelled: true });
    expect(seen).toEqual(['tick 1', 'tick 2', 'tick 3']);
  });

  it('keeps the kubeconfig a command sets, for the next command of the line', async () => {
    const cluster = await createCluster({ controllers: false, scheduler: false, nodes: 0 });
    const setNs: CommandSpec = {
      path: ['ns'],
      use: 'ns NAME',
      short: 'Sets the namespace',
      flags: [],
      run(env, args) {
        env.setKubeconfig({ ...env.kubeconfig, contexts: env.kubeconfig.contexts.map((c) => ({ ...c, namespace: args[0] })) });
        return 0;
      },
    };
    const show: CommandSpec = { path: ['show'], use: 'show', short: 'Shows', flags: [], run: (env, _a, _f, io) => (io.stdout(env.namespace), 0) };
    const r = await kubectl(cluster, 'kubectl ns team-a && kubectl show', { commands: [setNs, show] });
    expect(r.stdout).toBe('team-a\n');
    expect(r.kubeconfig.contexts[0].namespace).toBe('team-a');
  });
});
