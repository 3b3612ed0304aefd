// cluster/settings and cluster/configure through the page's protocol client, over a real headless cluster.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryPersistence } from '../control-plane/store/persistence/memory-persistence';
import { ProtocolError } from '../shared/protocol/client';
import type { ClusterSettingsView } from '../shared/protocol/introspection';
import { createHeadlessCluster, type HeadlessCluster } from './headless';

const open: HeadlessCluster[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

async function headless(options: Parameters<typeof createHeadlessCluster>[0] = {}): Promise<HeadlessCluster> {
  const h = await createHeadlessCluster({ nodes: 0, ...options });
  open.push(h);
  return h;
}

function values(view: ClusterSettingsView): Record<string, number> {
  return Object.fromEntries(view.settings.map((s) => [s.key, s.value]));
}

async function refused(promise: Promise<unknown>): Promise<ProtocolError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ProtocolError)) throw new Error(`expected a ProtocolError, got ${String(err)}`);
  return err;
}

describe('cluster/settings and cluster/configure', () => {
  it('reads the settings with their defaults, flags and bounds', async () => {
    const { client } = await headless();
    const view = await client.call('cluster/settings');
    expect(values(view)).toEqual({ nodeMonitorGracePeriodSeconds: 40, defaultTolerationSeconds: 300, imagePullSeconds: 0, nodeStatusUpdateFrequencySeconds: 10 });
    const grace = view.settings.find((s) => s.key === 'nodeMonitorGracePeriodSeconds')!;
    expect(grace).toMatchObject({ defaultValue: 40, kubernetesDefault: true, min: 5, max: 3600, flag: 'kube-controller-manager --node-monitor-grace-period' });
    expect(view.settings.find((s) => s.key === 'imagePullSeconds')!.kubernetesDefault).toBe(false);
  });

  it('applies a change to the cluster at once and answers with the new view', async () => {
    const { client, cluster } = await headless();
    const view = await client.call('cluster/configure', { nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30 });
    expect(values(view)).toMatchObject({ nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 30, imagePullSeconds: 0 });
    expect(cluster.settings.nodeMonitorGracePeriodMs).toBe(10_000);
    expect(values(await client.call('cluster/settings'))).toEqual(values(view));
  });

  it('refuses out-of-range, mistyped and unknown settings with 400 BadRequest, changing nothing', async () => {
    const { client, cluster } = await headless();
    const err = await refused(client.call('cluster/configure', { nodeMonitorGracePeriodSeconds: 10, defaultTolerationSeconds: 100_000 }));
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toBe('invalid cluster settings: defaultTolerationSeconds: Invalid value: 100000: must be between 0 and 86400, inclusive');
    expect(err.status.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: 100000: must be between 0 and 86400, inclusive', field: 'defaultTolerationSeconds' },
    ]);
    expect(cluster.settings.get().nodeMonitorGracePeriodSeconds).toBe(40);

    const typed = await refused(client.call('cluster/configure', { imagePullSeconds: 'fast' as unknown as number }));
    expect(typed.message).toBe('invalid cluster settings: imagePullSeconds: Invalid value: "fast": must be a number of seconds');
    const unknown = await refused(client.call('cluster/configure', { leaseDurationSeconds: 10 } as never));
    expect(unknown.code).toBe(400);
    expect(unknown.message).toMatch(/^invalid cluster settings: leaseDurationSeconds: Unsupported value: "leaseDurationSeconds"/);
    expect(values(await client.call('cluster/settings')).imagePullSeconds).toBe(0);
  });

  it('answers only once the change is durable, so a reload keeps it', async () => {
    const persistence = new MemoryPersistence();
    const first = await headless({ persistence });
    await first.client.call('cluster/configure', { imagePullSeconds: 1, nodeStatusUpdateFrequencySeconds: 5 });
    // Durable before any close or flush of the cluster.
    expect((await persistence.load())?.meta?.settings).toMatchObject({ imagePullSeconds: 1, nodeStatusUpdateFrequencySeconds: 5 });
    open.splice(open.indexOf(first), 1);
    await first.close();
    const second = await headless({ persistence });
    expect(values(await second.client.call('cluster/settings'))).toMatchObject({ imagePullSeconds: 1, nodeStatusUpdateFrequencySeconds: 5 });
  });
});
