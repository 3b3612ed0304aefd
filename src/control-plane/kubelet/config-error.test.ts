import { afterEach, describe, expect, it } from 'vitest';
import { kubeletTestBed, type KubeletTestBed } from './testing';

describe('kubelet: CreateContainerConfigError', () => {
  let bed: KubeletTestBed;
  afterEach(() => bed.close());

  it('records the Failed event at every attempt, 10 s apart, and starts once the Secret exists', async () => {
    bed = await kubeletTestBed();
    bed.run({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'db' },
      spec: {
        containers: [
          {
            name: 'mysql',
            image: 'mysql:8.0',
            env: [{ name: 'MYSQL_ROOT_PASSWORD', valueFrom: { secretKeyRef: { name: 'mysql-pass', key: 'password' } } }],
          },
        ],
      },
    });
    bed.cluster.runUntil(() => bed.pod('db')?.status?.containerStatuses?.[0].state?.waiting?.reason === 'CreateContainerConfigError', 60_000);
    const firstAt = bed.cluster.clock.now();
    bed.cluster.advance(60_000);
    const failed = bed.events('db').filter((e) => e.reason === 'Failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ type: 'Warning', message: 'Error: secret "mysql-pass" not found' });
    // The first attempt and one every 10 s for a minute.
    expect(failed[0].count).toBe(7);
    expect(Date.parse(failed[0].lastTimestamp!) - Date.parse(failed[0].firstTimestamp!)).toBe(60_000);
    expect(bed.cluster.clock.now() - firstAt).toBe(60_000);

    bed.cluster.client.secrets.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'mysql-pass', namespace: 'default' }, stringData: { password: 'pw' } });
    bed.cluster.runUntil(() => bed.pod('db')?.status?.phase === 'Running', 15_000);
    expect(bed.pod('db')?.status?.containerStatuses?.[0].state?.running).toBeDefined();
    expect(bed.events('db').find((e) => e.reason === 'Failed')?.count).toBe(7);
  });
});
