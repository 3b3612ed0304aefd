import { describe, expect, it } from 'vitest';
import type { KubeObject, WatchEvent } from '../../../shared/api/types';
import { newTestServer, pod } from './test-harness';

// A watch whose field selector is one exact value (every kubelet's spec.nodeName=<node>) is indexed in the store:
// the API's answers must be the same as without the index.

const bind = (podName: string, node: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name: podName, namespace: 'default' },
  target: { apiVersion: 'v1', kind: 'Node', name: node },
});

const summary = (events: WatchEvent[]): string[] => events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}@${e.object.metadata?.resourceVersion}`);

describe('watch indexed by an exact field selector', () => {
  it('gives the node of a newly bound pod ADDED, the unbound watch DELETED, then DELETED on removal', () => {
    const t = newTestServer();
    t.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
    const n1: WatchEvent[] = [];
    const n2: WatchEvent[] = [];
    const unbound: WatchEvent[] = [];
    const all: WatchEvent[] = [];
    t.watch('v1', 'Pod', undefined, { fieldSelector: 'spec.nodeName=n1', resourceVersion: String(t.store.revision) }, n1);
    t.watch('v1', 'Pod', undefined, { fieldSelector: 'spec.nodeName=n2', resourceVersion: String(t.store.revision) }, n2);
    t.watch('v1', 'Pod', undefined, { fieldSelector: 'spec.nodeName=', resourceVersion: String(t.store.revision) }, unbound);
    t.watch('v1', 'Pod', undefined, { resourceVersion: String(t.store.revision) }, all);
    const created = t.create(pod('web'));
    t.server.handle({ verb: 'create', group: '', version: 'v1', resource: 'pods', subresource: 'binding', namespace: 'default', name: 'web', body: bind('web', 'n1') });
    const bound = t.get('v1', 'Pod', 'default', 'web');
    t.create(pod('db', 'default', { nodeName: 'n2' }));
    t.remove('v1', 'Pod', 'default', 'web', { gracePeriodSeconds: 0 });
    t.clock.runUntilIdle();
    const rv = (o: KubeObject): string => o.metadata.resourceVersion!;
    expect(summary(unbound)).toEqual([`ADDED web@${rv(created)}`, `DELETED web@${rv(bound)}`]);
    // n1 sees web from its binding on exactly as the unselected watch does, the first event being ADDED.
    const webAfterBinding = summary(all).filter((e) => e.includes(' web@') && Number(e.split('@')[1]) > Number(rv(bound)));
    expect(summary(n1)).toEqual([`ADDED web@${rv(bound)}`, ...webAfterBinding]);
    expect(summary(n1).at(-1)).toBe(`DELETED web@${t.store.revision}`);
    expect(summary(n2).map((s) => s.split('@')[0])).toEqual(['ADDED db']);
    expect(summary(all).slice(0, 3).map((s) => s.split('@')[0])).toEqual(['ADDED web', 'MODIFIED web', 'ADDED db']);
  });

  it('names in a requested bookmark the revisions the store skipped, and bookmarks a quiet revision after a minute', () => {
    const t = newTestServer();
    t.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
    const events: WatchEvent[] = [];
    const w = t.server.watch(
      { verb: 'watch', ...t.target('v1', 'Pod', undefined), options: { fieldSelector: 'spec.nodeName=n1', resourceVersion: String(t.store.revision), allowWatchBookmarks: true } },
      (e) => events.push(...e),
    );
    for (let i = 0; i < 5; i++) t.create(pod(`p${i}`, 'default', { nodeName: 'n2' }));
    const skipped = t.store.revision;
    w.requestBookmark();
    t.clock.runDeferred();
    expect(summary(events)).toEqual([`BOOKMARK @${skipped}`]);

    t.clock.advance(61_000);
    const late = t.create(pod('late', 'default', { nodeName: 'n2' }));
    t.create(pod('later', 'default', { nodeName: 'n2' }));
    t.clock.runDeferred();
    // The first quiet revision a minute after the last delivery earns a bookmark; the next one does not.
    expect(summary(events)).toEqual([`BOOKMARK @${skipped}`, `BOOKMARK @${late.metadata.resourceVersion}`]);
    w.stop();
  });
});
