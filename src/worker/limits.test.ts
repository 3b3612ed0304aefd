// cluster/limits' handler over a real store, its usage and the PlaygroundLimits plugin's event window.
import { describe, expect, it } from 'vitest';
import { StatusError } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';
import { LivePlaygroundLimits } from '../control-plane/config/live-playground-limits';
import { StoreUsage, storedSize } from '../control-plane/config/store-usage';
import { VirtualClock } from '../control-plane/sim/virtual-clock';
import { MvccStore } from '../control-plane/store/mvcc-store';
import { readPlaygroundLimits } from './limits';

function cluster() {
  const clock = new VirtualClock();
  let usage: StoreUsage | undefined;
  const store = new MvccStore({ clock, onCommit: (b) => usage?.observe(b) });
  usage = new StoreUsage(store);
  const limits = new LivePlaygroundLimits({ maxObjects: 100 }, usage);
  return { clock, store, limits };
}

describe('cluster/limits', () => {
  it('shows each limit with the current objects, bytes and events of the last minute, as plain JSON', () => {
    const c = cluster();
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { k: 'v' } };
    c.store.txn([], [{ type: 'put', key: '/registry/core/configmaps/default/a', value: cm }]);
    c.limits.events.record(c.clock.now());
    const view = readPlaygroundLimits(c);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    const byKey = Object.fromEntries(view.limits.map((l) => [l.key, l]));
    expect(byKey.maxObjects).toMatchObject({ label: 'objects', limit: 100, defaultLimit: 50_000, used: 1 });
    expect(byKey.maxStoredBytes).toMatchObject({ label: 'stored bytes', used: storedSize('/registry/core/configmaps/default/a', cm) });
    expect(byKey.maxEventsPerMinute).toMatchObject({ used: 1, limit: 12_000 });
    expect(byKey.maxReplicasPerWorkload.used).toBeUndefined();
    c.clock.advance(61_000);
    expect(readPlaygroundLimits(c).limits.find((l) => l.key === 'maxEventsPerMinute')!.used).toBe(0);
  });

  it('refuses with a 400 on a cluster without limits', () => {
    expect(() => readPlaygroundLimits({ clock: new VirtualClock() })).toThrow(StatusError);
    expect(() => readPlaygroundLimits({ clock: new VirtualClock() })).toThrow('this cluster has no playground limits');
  });
});
