import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { kubeletTestBed, type KubeletTestBed } from './testing';
import { nextMountRetryMs, volumeSetUpFailures, type VolumeSourceLookup } from './volumes';

const store: Record<string, string[]> = { 'configmap/default/cfg': ['redis-config'], 'secret/default/creds': ['password'] };
const lookup: VolumeSourceLookup = (kind, ns, name) => store[`${kind}/${ns}/${name}`];

function podWith(volumes: NonNullable<Pod['spec']>['volumes']): Pod {
  return { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }], volumes } };
}

describe('volumeSetUpFailures', () => {
  it('needs the configMap/secret of a volume, and the keys its items name', () => {
    expect(
      volumeSetUpFailures(
        podWith([
          { name: 'ok', configMap: { name: 'cfg', items: [{ key: 'redis-config', path: 'redis.conf' }] } },
          { name: 'missing', configMap: { name: 'nope' } },
          { name: 'key', configMap: { name: 'cfg', items: [{ key: 'other', path: 'x' }] } },
          { name: 'secret', secret: { secretName: 'absent' } },
          { name: 'secret-key', secret: { secretName: 'creds', items: [{ key: 'user', path: 'u' }] } },
          { name: 'scratch', emptyDir: {} },
        ]),
        lookup,
      ),
    ).toEqual([
      { volume: 'missing', message: 'configmap "nope" not found' },
      { volume: 'key', message: 'configmap references non-existent config key: other' },
      { volume: 'secret', message: 'secret "absent" not found' },
      { volume: 'secret-key', message: 'references non-existent secret key: user' },
    ]);
  });

  it('lets optional sources be absent and reports an unreachable API server', () => {
    expect(
      volumeSetUpFailures(
        podWith([
          { name: 'a', configMap: { name: 'nope', optional: true } },
          { name: 'b', secret: { secretName: 'creds', optional: true, items: [{ key: 'user', path: 'u' }] } },
        ]),
        lookup,
      ),
    ).toEqual([]);
    expect(volumeSetUpFailures(podWith([{ name: 'a', secret: { secretName: 's' } }]), () => ({ error: 'boom' }))).toEqual([{ volume: 'a', message: 'boom' }]);
  });

  it('retries on the operation executor back-off', () => {
    const delays = [0];
    for (let i = 0; i < 10; i++) delays.push(nextMountRetryMs(delays.at(-1)!));
    expect(delays.slice(1)).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 122_000, 122_000]);
  });
});

describe('kubelet: a pod whose configMap volume is missing', () => {
  let bed: KubeletTestBed;
  afterEach(() => bed.close());

  it('stays ContainerCreating with FailedMount events, and starts once the ConfigMap exists', async () => {
    bed = await kubeletTestBed();
    bed.run({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'redis' },
      spec: {
        containers: [{ name: 'redis', image: 'redis:5', volumeMounts: [{ name: 'config', mountPath: '/usr/local/etc/redis' }] }],
        volumes: [{ name: 'config', configMap: { name: 'example-redis-config', items: [{ key: 'redis-config', path: 'redis.conf' }] } }],
      },
    });
    bed.cluster.advance(60_000);
    const pod = bed.pod('redis')!;
    expect(pod.status?.phase).toBe('Pending');
    expect(pod.status?.containerStatuses?.[0].state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(pod.status?.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status).toBe('False');
    expect(pod.status?.podIP).toBeUndefined();
    const failed = bed.events('redis').filter((e) => e.reason === 'FailedMount');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ type: 'Warning', message: 'MountVolume.SetUp failed for volume "config" : configmap "example-redis-config" not found' });
    // Retried at 0, 0.5, 1.5, 3.5, 7.5, 15.5, 31.5 s within the minute.
    expect(failed[0].count).toBe(7);
    expect(bed.events('redis').some((e) => e.reason === 'Pulling' || e.reason === 'Started')).toBe(false);

    // A ConfigMap without the key the volume's items name: still failing, with the key error.
    bed.cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'example-redis-config', namespace: 'default' }, data: { other: 'x' } });
    bed.cluster.advance(70_000);
    expect(bed.events('redis').map((e) => e.message)).toContain('MountVolume.SetUp failed for volume "config" : configmap references non-existent config key: redis-config');
    expect(bed.pod('redis')?.status?.phase).toBe('Pending');

    bed.cluster.client.configMaps.patch('example-redis-config', 'application/merge-patch+json', { data: { 'redis-config': 'maxmemory 2mb' } }, { namespace: 'default' });
    // The next retry (at most 2m2s later) mounts it.
    bed.cluster.runUntil(() => bed.pod('redis')?.status?.phase === 'Running', 130_000);
    expect(bed.pod('redis')?.status?.containerStatuses?.[0].ready).toBe(true);
  });
});
