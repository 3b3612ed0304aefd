// sim/load and sim/loads through the page's protocol client, over a real headless cluster.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryPersistence } from '../control-plane/store/persistence/memory-persistence';
import { ProtocolError } from '../shared/protocol/client';
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

describe('sim/load and sim/loads', () => {
  it('sets, lists and removes a workload load; the metrics-server reads it', async () => {
    const { client, cluster } = await headless();
    expect(await client.call('sim/loads')).toEqual([]);
    const web = { namespace: 'default', kind: 'Deployment', name: 'web', cpuMillicores: 750 };
    expect(await client.call('sim/load', web)).toEqual([web]);
    await client.call('sim/load', { namespace: 'team-a', kind: 'StatefulSet', name: 'db', cpuMillicores: 200.4 });
    expect(await client.call('sim/loads')).toEqual([web, { namespace: 'team-a', kind: 'StatefulSet', name: 'db', cpuMillicores: 200 }]);
    expect(cluster.loads.get('default', 'Deployment', 'web')).toBe(750);
    expect(await client.call('sim/load', { ...web, cpuMillicores: 0 })).toEqual([{ namespace: 'team-a', kind: 'StatefulSet', name: 'db', cpuMillicores: 200 }]);
  });

  it('refuses a wrong load with 400 BadRequest, changing nothing', async () => {
    const { client } = await headless();
    const err = await client.call('sim/load', { namespace: 'default', kind: 'Pod', name: 'x', cpuMillicores: -1 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(400);
    expect((err as ProtocolError).message).toBe(
      'invalid load: kind: Unsupported value: "Pod": supported values: "Deployment", "StatefulSet", "ReplicaSet", "ReplicationController", "DaemonSet", cpuMillicores: Invalid value: -1: must be between 0 and 100000, inclusive',
    );
    expect(await client.call('sim/loads')).toEqual([]);
  });

  it('answers once the load is durable, so a reload keeps it', async () => {
    const persistence = new MemoryPersistence();
    const first = await headless({ persistence });
    await first.client.call('sim/load', { namespace: 'default', kind: 'Deployment', name: 'php-apache', cpuMillicores: 1000 });
    expect((await persistence.load())?.meta?.loads).toEqual([{ namespace: 'default', kind: 'Deployment', name: 'php-apache', cpuMillicores: 1000 }]);
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = await headless({ persistence });
    expect(await second.client.call('sim/loads')).toEqual([{ namespace: 'default', kind: 'Deployment', name: 'php-apache', cpuMillicores: 1000 }]);
  });
});
