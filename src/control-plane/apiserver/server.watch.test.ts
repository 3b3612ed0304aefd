import { describe, expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import { PatchType } from './types';
import { configMap, newTestServer, pod } from './handlers/test-harness';

const labelled = (name: string, app: string, namespace = 'default'): KubeObject => configMap(name, namespace, { metadata: { labels: { app } } });

describe('list', () => {
  it('filters by label and field selectors, per namespace or across all', () => {
    const t = newTestServer();
    t.create(labelled('a', 'web'));
    t.create(labelled('b', 'db'));
    t.create(labelled('c', 'web', 'kube-system'));
    const names = (opts: object, ns?: string) => t.list('v1', 'ConfigMap', ns, opts).items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`);
    expect(names({ labelSelector: 'app=web' }, 'default')).toEqual(['default/a']);
    expect(names({ labelSelector: 'app=web' })).toEqual(['default/a', 'kube-system/c']);
    expect(names({ labelSelector: 'app in (web,db),app!=db' })).toEqual(['default/a', 'kube-system/c']);
    expect(names({ fieldSelector: 'metadata.name=b' })).toEqual(['default/b']);
    expect(names({ fieldSelector: 'metadata.namespace!=default' })).toEqual(['kube-system/c']);
    const list = t.list('v1', 'ConfigMap', 'default');
    expect(list).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: String(t.store.revision) } });
    expect(list.items[0]).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
  });

  it("filters pods by their selectable fields, each requirement read on its own", () => {
    const t = newTestServer();
    t.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
    t.create(pod('a', 'default', { nodeName: 'node-1' }));
    t.create(pod('b', 'default', { nodeName: 'node-2' }));
    t.create(pod('c', 'default'));
    const names = (fieldSelector: string) => t.list('v1', 'Pod', 'default', { fieldSelector }).items.map((i) => i.metadata.name);
    expect(names('spec.nodeName=node-1')).toEqual(['a']);
    expect(names('spec.nodeName!=node-1')).toEqual(['b', 'c']);
    expect(names('spec.nodeName=')).toEqual(['c']);
    expect(names('spec.nodeName!=,metadata.name!=b')).toEqual(['a']);
    expect(names('status.phase=Pending,spec.nodeName==node-2')).toEqual(['b']);
    expect(names('status.phase!=Pending')).toEqual([]);
  });

  it('refuses unsupported field selectors and bad label selectors with 400', () => {
    const t = newTestServer();
    expect(t.failure(() => t.list('v1', 'ConfigMap', 'default', { fieldSelector: 'spec.foo=x' }))).toMatchObject({
      code: 400,
      message: 'field label not supported: spec.foo',
    });
    expect(t.failure(() => t.list('v1', 'ConfigMap', 'default', { labelSelector: 'app in (a,b' })).code).toBe(400);
  });

  it('pages with limit and an opaque continue token, consistently at one revision', () => {
    const t = newTestServer();
    for (const n of ['a', 'b', 'c', 'd', 'e']) t.create(configMap(n));
    const first = t.list('v1', 'ConfigMap', 'default', { limit: 2 });
    expect(first.items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
    expect(first.metadata.remainingItemCount).toBe(3);
    t.create(configMap('bb'));
    const second = t.list('v1', 'ConfigMap', 'default', { limit: 2, continue: first.metadata.continue });
    expect(second.items.map((i) => i.metadata.name)).toEqual(['c', 'd']);
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const third = t.list('v1', 'ConfigMap', 'default', { limit: 2, continue: second.metadata.continue });
    expect(third.items.map((i) => i.metadata.name)).toEqual(['e']);
    expect(third.metadata.continue).toBeUndefined();
  });

  it('serves resourceVersionMatch=Exact from history and refuses future versions', () => {
    const t = newTestServer();
    const a = t.create(configMap('a'));
    t.create(configMap('b'));
    const exact = t.list('v1', 'ConfigMap', 'default', { resourceVersion: a.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
    expect(exact.items.map((i) => i.metadata.name)).toEqual(['a']);
    expect(exact.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    const future = t.failure(() => t.list('v1', 'ConfigMap', 'default', { resourceVersion: '999999' }));
    expect(future).toMatchObject({ code: 504, message: `Timeout: Too large resource version: 999999, current: ${t.store.revision}` });
  });
});

describe('watch', () => {
  it('sends the current state as ADDED when resourceVersion is unset, then changes in one batch per revision', () => {
    const t = newTestServer();
    t.create(configMap('a'));
    const batches: WatchEvent[][] = [];
    t.server.watch({ verb: 'watch', ...t.target('v1', 'ConfigMap', 'default') }, (events) => batches.push(events));
    expect(batches).toHaveLength(0);
    t.clock.runUntilIdle();
    expect(batches.map((b) => b.map((e) => `${e.type} ${e.object.metadata.name}`))).toEqual([['ADDED a']]);
    const b = t.create(configMap('b'));
    t.clock.runUntilIdle();
    expect(batches[1]).toEqual([{ type: 'ADDED', object: b }]);
  });

  it('starts strictly after the given resourceVersion', () => {
    const t = newTestServer();
    const a = t.create(configMap('a'));
    t.create(configMap('b'));
    const events: WatchEvent[] = [];
    t.watch('v1', 'ConfigMap', 'default', { resourceVersion: a.metadata.resourceVersion }, events);
    t.clock.runUntilIdle();
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED b']);
  });

  it('turns selector transitions into ADDED and DELETED', () => {
    const t = newTestServer();
    const cm = t.create(labelled('x', 'web'));
    const events: WatchEvent[] = [];
    t.watch('v1', 'ConfigMap', 'default', { labelSelector: 'app=web', resourceVersion: cm.metadata.resourceVersion }, events);
    t.patch('v1', 'ConfigMap', 'default', 'x', PatchType.MergePatch, { metadata: { labels: { app: 'db' } } });
    t.patch('v1', 'ConfigMap', 'default', 'x', PatchType.MergePatch, { data: { k: 'v' } });
    const back = t.patch('v1', 'ConfigMap', 'default', 'x', PatchType.MergePatch, { metadata: { labels: { app: 'web' } } });
    t.clock.runUntilIdle();
    expect(events.map((e) => e.type)).toEqual(['DELETED', 'ADDED']);
    expect(events[0].object.metadata.labels).toEqual({ app: 'web' });
    expect(Number(events[0].object.metadata.resourceVersion)).toBeGreaterThan(Number(cm.metadata.resourceVersion));
    expect(events[1].object).toEqual(back);
  });

  it('sends one ERROR event with 410 for a compacted resourceVersion, and refuses a future one with 504', () => {
    const t = newTestServer();
    const a = t.create(configMap('a'));
    t.create(configMap('b'));
    t.store.compact(t.store.revision);
    const events: WatchEvent[] = [];
    t.watch('v1', 'ConfigMap', 'default', { resourceVersion: a.metadata.resourceVersion }, events);
    t.clock.runUntilIdle();
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('ERROR');
    expect(events[0].object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired', message: `too old resource version: ${a.metadata.resourceVersion} (${t.store.compactRevision})` });
    const future = t.failure(() => t.watch('v1', 'ConfigMap', 'default', { resourceVersion: String(t.store.revision + 10) }, []));
    expect(future.code).toBe(504);
  });

  it('ends the initial state with an initial-events-end bookmark and sends bookmarks on demand', () => {
    const t = newTestServer();
    t.create(configMap('a'));
    const events: WatchEvent[] = [];
    const w = t.server.watch(
      { verb: 'watch', ...t.target('v1', 'ConfigMap', 'default'), options: { sendInitialEvents: true, allowWatchBookmarks: true, resourceVersionMatch: 'NotOlderThan' } },
      (e) => events.push(...e),
    );
    t.clock.runUntilIdle();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(events[1].object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { resourceVersion: String(t.store.revision), annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    t.create(configMap('b'));
    w.requestBookmark();
    t.clock.runUntilIdle();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK', 'ADDED', 'BOOKMARK']);
    expect(events[3].object.metadata.resourceVersion).toBe(String(t.store.revision));
    w.stop();
    t.create(configMap('c'));
    t.clock.runUntilIdle();
    expect(events).toHaveLength(4);
  });
});
