import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KubeObject } from '../../shared/api/types';
import { newForbidden, newInternalError } from '../../shared/api/status';
import { TraceKind } from '../../shared/protocol/trace';
import type { ApiRequest, ApiResponse } from '../apiserver/types';
import { Client } from '../client/client';
import { VirtualClock } from '../sim/virtual-clock';
import { FakeApiServer } from '../testing/fake-apiserver';
import { TraceBus } from '../trace/trace-bus';
import { SharedInformerFactory } from './factory';
import { OwnerUidIndex } from './indexer';
import { metaNamespaceKeyFunc } from './keys';
import { DeletedFinalStateUnknown, type ResourceEventHandler } from './shared-informer';

function setup(options: { historyRevisions?: number; server?: FakeApiServer; clock?: VirtualClock } = {}) {
  const clock = options.clock ?? new VirtualClock({ startTime: 0 });
  const server = options.server ?? new FakeApiServer({ clock, historyRevisions: options.historyRevisions });
  const client = new Client(server);
  const trace = new TraceBus({ clock });
  const factory = new SharedInformerFactory({ client, clock, trace });
  return { clock, server, client, trace, factory };
}

function cm(namespace: string, name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name, ...(labels ? { labels } : {}) }, data };
}

/** Handler that logs what it is told, as "add ns/a" / "update ns/a 3→4" / "delete ns/a" / "tombstone ns/a". */
function recorder() {
  const log: string[] = [];
  const rv = (o: KubeObject) => o.metadata.resourceVersion;
  const handler: ResourceEventHandler<KubeObject> = {
    onAdd: (o, initial) => log.push(`add ${metaNamespaceKeyFunc(o)}${initial ? ' (initial)' : ''}`),
    onUpdate: (a, b) => log.push(`update ${metaNamespaceKeyFunc(b)} ${rv(a)}→${rv(b)}`),
    onDelete: (o) => log.push(o instanceof DeletedFinalStateUnknown ? `tombstone ${o.key}` : `delete ${metaNamespaceKeyFunc(o)}`),
  };
  return { log, handler };
}

/** The server's objects as "key@rv" lines, for comparison with the cache. */
function serverState(client: Client): string[] {
  return client.configMaps
    .list()
    .items.map((o) => `${metaNamespaceKeyFunc(o)}@${o.metadata.resourceVersion}:${JSON.stringify(o.data)}`)
    .sort();
}

function cacheState(objs: KubeObject[]): string[] {
  return objs.map((o) => `${metaNamespaceKeyFunc(o)}@${o.metadata.resourceVersion}:${JSON.stringify(o.data)}`).sort();
}

describe('SharedInformer', () => {
  it('lists, then watches from the list resourceVersion, telling handlers of every change', () => {
    const { clock, client, factory } = setup();
    client.configMaps.create(cm('a', 'one'));
    const informer = factory.configMaps;
    const { log, handler } = recorder();
    informer.addEventHandler(handler);
    factory.start();
    expect(informer.hasSynced()).toBe(false);
    expect(factory.waitForCacheSync(clock)).toBe(true);
    expect(log).toEqual(['add a/one (initial)']);

    client.configMaps.create(cm('a', 'two'));
    const one = client.configMaps.get('one', { namespace: 'a' });
    client.configMaps.update({ ...one, data: { k: 'v' } });
    client.configMaps.delete('two', { namespace: 'a' });
    expect(log).toHaveLength(1); // nothing runs inside a write
    clock.runUntilIdle();
    expect(log).toEqual(['add a/one (initial)', 'add a/two', 'update a/one 1→3', 'delete a/two']);
    expect(cacheState(informer.lister.list())).toEqual(serverState(client));
    expect(informer.lastSyncResourceVersion).toBe('4');
    expect(informer.listCount).toBe(1);
  });

  it('applies a multi-object revision whole before any handler runs', () => {
    const { clock, server, factory } = setup();
    const informer = factory.configMaps;
    const seen: number[] = [];
    informer.addEventHandler({ onAdd: () => seen.push(informer.indexer.size) });
    factory.start();
    factory.waitForCacheSync(clock);
    server.store.txn(
      [],
      [
        { type: 'put', key: '/registry/core/configmaps/a/x', value: cm('a', 'x') },
        { type: 'put', key: '/registry/core/configmaps/a/y', value: cm('a', 'y') },
      ],
    );
    clock.runUntilIdle();
    expect(seen).toEqual([2, 2]);
  });

  it('replays the cache to a handler added after sync, on the next deferred turn', () => {
    const { clock, client, factory } = setup();
    client.configMaps.create(cm('a', 'one'));
    client.configMaps.create(cm('b', 'two'));
    factory.configMaps;
    factory.start();
    factory.waitForCacheSync(clock);
    const { log, handler } = recorder();
    const reg = factory.configMaps.addEventHandler(handler);
    expect(reg.hasSynced()).toBe(false);
    clock.runDeferred();
    expect(reg.hasSynced()).toBe(true);
    expect(log.sort()).toEqual(['add a/one (initial)', 'add b/two (initial)']);
    reg.remove();
    client.configMaps.create(cm('a', 'three'));
    clock.runUntilIdle();
    expect(log).toHaveLength(2);
  });

  it('serves listers: get, label-selected lists, per namespace and by index', () => {
    const { clock, client, factory } = setup();
    client.configMaps.create(cm('a', 'web', {}, { app: 'web', tier: 'front' }));
    client.configMaps.create(cm('a', 'db', {}, { app: 'db' }));
    client.configMaps.create(cm('b', 'web', {}, { app: 'web' }));
    client.configMaps.create({
      ...cm('b', 'child'),
      metadata: { namespace: 'b', name: 'child', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'web', uid: 'owner-1' }] },
    });
    const { lister } = factory.configMaps;
    factory.start();
    factory.waitForCacheSync(clock);
    expect(lister.get('a', 'web')?.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(lister.get('a', 'nope')).toBeUndefined();
    expect(lister.getByKey('b/web')?.metadata.namespace).toBe('b');
    expect(lister.list('app=web').map(metaNamespaceKeyFunc).sort()).toEqual(['a/web', 'b/web']);
    expect(lister.list('app in (web,db),tier!=front').map(metaNamespaceKeyFunc).sort()).toEqual(['a/db', 'b/web']);
    expect(lister.listNamespace('a').map(metaNamespaceKeyFunc).sort()).toEqual(['a/db', 'a/web']);
    expect(lister.listNamespace('a', 'app=db').map(metaNamespaceKeyFunc)).toEqual(['a/db']);
    expect(lister.byIndex(OwnerUidIndex, 'owner-1').map(metaNamespaceKeyFunc)).toEqual(['b/child']);
    expect(lister.list().length).toBe(4);
  });

  it('freezes cached objects so no controller can mutate the shared cache', () => {
    const { clock, client, factory } = setup();
    client.configMaps.create(cm('a', 'one', { k: 'v' }));
    factory.configMaps;
    factory.start();
    factory.waitForCacheSync(clock);
    const obj = factory.configMaps.lister.get('a', 'one')!;
    expect(Object.isFrozen(obj)).toBe(true);
    expect(() => {
      (obj.data as Record<string, string>).k = 'changed';
    }).toThrow(TypeError);
    const copy = structuredClone(obj);
    copy.data = { k: 'changed' };
    expect(Object.isFrozen(copy)).toBe(false);
  });

  it('relists after a 410 on re-watch and converges, telling handlers the difference', () => {
    const { clock, client, factory } = setup({ historyRevisions: 2 });
    client.configMaps.create(cm('a', 'keep'));
    client.configMaps.create(cm('a', 'change'));
    client.configMaps.create(cm('a', 'remove'));
    const informer = factory.configMaps;
    const { log, handler } = recorder();
    informer.addEventHandler(handler);
    factory.start();
    factory.waitForCacheSync(clock);
    log.length = 0;

    // The connection drops; meanwhile history moves past our resourceVersion.
    (informer as unknown as { reflector: { dropWatch(): void } }).reflector.dropWatch();
    const change = client.configMaps.get('change', { namespace: 'a' });
    client.configMaps.update({ ...change, data: { v: '2' } });
    client.configMaps.delete('remove', { namespace: 'a' });
    client.configMaps.create(cm('a', 'new'));
    client.configMaps.create(cm('b', 'new'));
    expect(client.configMaps.list().items).toHaveLength(4);

    clock.runUntilIdle();
    expect(informer.listCount).toBe(2);
    expect(cacheState(informer.lister.list())).toEqual(serverState(client));
    // List order (by key), then the vanished objects as tombstones.
    expect(log).toEqual(['update a/change 2→4', 'update a/keep 1→1', 'add a/new', 'add b/new', 'tombstone a/remove']);
    // Still watching afterwards.
    client.configMaps.create(cm('c', 'after'));
    clock.runUntilIdle();
    expect(log.at(-1)).toBe('add c/after');
  });

  it('re-watches from the last resourceVersion without relisting when history still covers it', () => {
    const { clock, client, factory } = setup();
    const informer = factory.configMaps;
    const { log, handler } = recorder();
    informer.addEventHandler(handler);
    factory.start();
    factory.waitForCacheSync(clock);
    (informer as unknown as { reflector: { dropWatch(): void } }).reflector.dropWatch();
    client.configMaps.create(cm('a', 'x'));
    clock.runUntilIdle();
    expect(log).toEqual(['add a/x']);
    expect(informer.listCount).toBe(1);
  });

  it('backs off and retries when the list fails, then syncs', () => {
    const clock = new VirtualClock({ startTime: 0 });
    let failures = 3;
    class FlakyServer extends FakeApiServer {
      override handle(req: ApiRequest): ApiResponse {
        if (req.verb === 'list' && failures-- > 0) throw newForbidden({ group: '', resource: 'configmaps' }, '', 'not yet');
        return super.handle(req);
      }
    }
    const { factory, trace } = setup({ clock, server: new FlakyServer({ clock }) });
    factory.configMaps;
    factory.start();
    expect(factory.waitForCacheSync(clock)).toBe(true);
    expect(clock.now()).toBe(800 + 1600 + 3200);
    const relists = trace.recent().filter((e) => e.kind === TraceKind.Custom && e.data.event === 'relist');
    expect(relists.map((e) => [e.data.during, e.data.code, e.data.delayMs])).toEqual([
      ['list', 403, 800],
      ['list', 403, 1600],
      ['list', 403, 3200],
    ]);
  });

  it('relists when the watch reports an ERROR event', () => {
    const { clock, client, factory, server } = setup();
    const informer = factory.configMaps;
    factory.start();
    factory.waitForCacheSync(clock);
    client.configMaps.create(cm('a', 'x'));
    clock.runUntilIdle();
    // The server ends the watch with an error (e.g. an internal error).
    server.failWatches(newInternalError('etcd is unhappy').status);
    client.configMaps.create(cm('a', 'y')); // missed by the dead watch
    clock.runUntilIdle();
    expect(informer.listCount).toBe(2);
    expect(cacheState(informer.lister.list())).toEqual(serverState(client));
    expect(informer.lister.get('a', 'y')).toBeDefined();
  });

  it('resyncs a handler with onUpdate(obj, obj) every resync period', () => {
    const { clock, client, factory } = setup();
    client.configMaps.create(cm('a', 'x'));
    const { log, handler } = recorder();
    const reg = factory.configMaps.addEventHandler(handler, { resyncPeriodMs: 30_000 });
    factory.start();
    clock.advance(65_000);
    expect(log).toEqual(['add a/x (initial)', 'update a/x 1→1', 'update a/x 1→1']);
    reg.remove();
    clock.advance(65_000);
    expect(log).toHaveLength(3);
  });

  it('traces each delivery and makes it the cause of what handlers emit', () => {
    const { clock, client, factory, trace } = setup();
    factory.configMaps.addEventHandler({ onAdd: () => trace.emit({ kind: TraceKind.Custom, component: 'test-handler', data: {} }) });
    factory.start();
    factory.waitForCacheSync(clock);
    client.configMaps.create(cm('a', 'x'));
    clock.runUntilIdle();
    const delta = trace.recent().find((e) => e.data.event === 'informer.delta' && e.data.source === 'watch')!;
    expect(delta.component).toBe('informer/configmaps');
    expect(delta.data).toMatchObject({ added: 1, updated: 0, deleted: 0, keys: ['a/x'], resourceVersion: '1' });
    const handled = trace.recent().find((e) => e.component === 'test-handler')!;
    expect(handled.cause).toBe(delta.seq);
  });

  it('keeps the cache equal to a fresh list after any sequence of writes, drops and compactions', () => {
    type Op =
      | { t: 'create'; ns: string; name: string; v: string }
      | { t: 'update'; ns: string; name: string; v: string }
      | { t: 'delete'; ns: string; name: string }
      | { t: 'drop' }
      | { t: 'compact' }
      | { t: 'settle' };
    const name = fc.constantFrom('a', 'b', 'c', 'd');
    const ns = fc.constantFrom('x', 'y');
    const value = fc.constantFrom('1', '2', '3');
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ t: fc.constant('create' as const), ns, name, v: value }),
      fc.record({ t: fc.constant('update' as const), ns, name, v: value }),
      fc.record({ t: fc.constant('delete' as const), ns, name }),
      fc.constant({ t: 'drop' as const }),
      fc.constant({ t: 'compact' as const }),
      fc.constant({ t: 'settle' as const }),
    );
    let relists = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (ops, history) => {
        const { clock, client, server, factory } = setup({ historyRevisions: history });
        const informer = factory.configMaps;
        // Handlers must see a consistent stream: replaying it reproduces the cache.
        const mirror = new Map<string, string>();
        informer.addEventHandler({
          onAdd: (o) => mirror.set(metaNamespaceKeyFunc(o), o.metadata.resourceVersion!),
          onUpdate: (_, o) => mirror.set(metaNamespaceKeyFunc(o), o.metadata.resourceVersion!),
          onDelete: (o) => mirror.delete(o instanceof DeletedFinalStateUnknown ? o.key : metaNamespaceKeyFunc(o)),
        });
        factory.start();
        const reflector = (informer as unknown as { reflector: { dropWatch(): void } }).reflector;
        for (const o of ops) {
          try {
            if (o.t === 'create') client.configMaps.create(cm(o.ns, o.name, { v: o.v }));
            else if (o.t === 'update') {
              const cur = client.configMaps.get(o.name, { namespace: o.ns });
              client.configMaps.update({ ...cur, data: { v: o.v } });
            } else if (o.t === 'delete') client.configMaps.delete(o.name, { namespace: o.ns });
            else if (o.t === 'drop') reflector.dropWatch();
            else if (o.t === 'compact') server.store.compact(server.store.revision);
            else clock.runDeferred();
          } catch (err) {
            if (!(err instanceof Error) || !/not found|already exists/.test(err.message)) throw err;
          }
        }
        clock.runUntilIdle();
        relists += informer.listCount - 1;
        const cache = cacheState(informer.lister.list());
        expect(cache).toEqual(serverState(client));
        expect([...mirror].map(([k, rv]) => `${k}@${rv}`).sort()).toEqual(cache.map((l) => l.split(':')[0]));
      }),
      {
        numRuns: 200,
        // A history that surely reaches the 410 → relist path (a drop, writes while it is down, then a compaction),
        // so the check below does not rest on what the random histories happen to contain.
        examples: [
          [
            [
              { t: 'create', ns: 'x', name: 'a', v: '1' },
              { t: 'settle' },
              { t: 'drop' },
              { t: 'create', ns: 'x', name: 'b', v: '1' },
              { t: 'create', ns: 'x', name: 'c', v: '1' },
              { t: 'compact' },
              { t: 'settle' },
            ],
            1,
          ],
        ],
      },
    );
    // The generated histories do reach the 410 → relist path, not only plain watches.
    expect(relists).toBeGreaterThan(0);
  });
});
