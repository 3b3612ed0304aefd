import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { WatchBatch } from '../../shared/protocol/messages';
import type { EventRow } from './selectors';
import { selectEventRows } from './selectors';
import { createAppStore } from './store';

function event(name: string, second: number, count = 1, uid = `uid-${name}`): KubeObject {
  const time = `2026-01-01T00:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}Z`;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: 'default', uid, resourceVersion: String(second), creationTimestamp: time },
    type: 'Normal',
    reason: 'Scheduled',
    message: `about ${name}`,
    count,
    lastTimestamp: time,
    involvedObject: { kind: 'Pod', namespace: 'default', name },
  } as KubeObject;
}

function batch(partial: Partial<WatchBatch['diff']>, rv: string, relist = false): WatchBatch {
  const b: WatchBatch = { diff: { added: {}, updated: {}, removed: {}, ...partial }, resourceVersion: rv };
  if (relist) b.relist = true;
  return b;
}

/** What a full rebuild gives: every Event of the map, by time then key. */
function expected(objects: ReadonlyMap<string, KubeObject>): string[] {
  return [...objects]
    .map(([key, e]) => ({ key, time: (e as unknown as { lastTimestamp: string }).lastTimestamp }))
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => `${r.key}@${r.time.slice(14, 19)}`);
}
const shown = (rows: EventRow[]) => rows.map((r) => `${r.id}@${r.time.slice(14, 19)}`);

describe('objects slice: change of each published map', () => {
  it('names the keys an update touched and the map it replaced; a relist breaks the line', () => {
    const store = createAppStore();
    store.getState().applyBatch('/events', batch({ added: { 'default/a': event('a', 1) } }, '1', true));
    const first = store.getState().resources['/events'];
    store.getState().applyBatches([
      { resourceKey: '/events', batch: batch({ added: { 'default/b': event('b', 2) } }, '2') },
      { resourceKey: '/events', batch: batch({ updated: { 'default/a': event('a', 3, 2) }, removed: { 'default/b': event('b', 3) } }, '3') },
    ]);
    const second = store.getState().resources['/events'];
    expect(second.change?.baseGeneration).toBe(first.change?.generation);
    expect([...(second.change?.touched ?? [])].sort()).toEqual(['default/a', 'default/b']);
    store.getState().applyBatch('/events', batch({ added: { 'default/c': event('c', 4) } }, '4', true));
    const third = store.getState().resources['/events'];
    expect(third.change?.baseGeneration).not.toBe(second.change?.generation);
    expect(third.change?.generation).not.toBe(second.change?.generation);
  });
});

describe('selectEventRows across batches', () => {
  it('patched row lists equal a full sort through adds, out-of-order updates, removals and relists', () => {
    const store = createAppStore();
    const { applyBatch } = store.getState();
    const added: Record<string, KubeObject> = {};
    for (let i = 0; i < 50; i++) added[`default/e${i}`] = event(`e${i}`, (i * 7) % 40);
    applyBatch('/events', batch({ added }, '1', true));
    const first = selectEventRows(store.getState());
    expect(shown(first)).toEqual(expected(store.getState().resources['/events'].objects));
    const steps: WatchBatch[] = [
      batch({ added: { 'default/n1': event('n1', 50), 'default/n2': event('n2', 45) } }, '2'),
      batch({ updated: { 'default/e3': event('e3', 55, 2), 'default/e10': event('e10', 0, 3) } }, '3'),
      batch({ removed: { 'default/e4': event('e4', 0), 'default/n2': event('n2', 45) } }, '4'),
      batch({ added: { 'default/e4': event('e4', 12, 1, 'other-uid') }, updated: { 'default/e5': event('e5', 35, 4) } }, '5'),
    ];
    let previous = first;
    for (const step of steps) {
      applyBatch('/events', step);
      const rows = selectEventRows(store.getState());
      expect(rows).not.toBe(previous);
      expect(shown(rows)).toEqual(expected(store.getState().resources['/events'].objects));
      previous = rows;
    }
    // An Event that did not change keeps its row.
    const e20 = previous.find((r) => r.id === 'default/e20');
    expect(first.find((r) => r.id === 'default/e20')).toBe(e20);
    // Nothing changed: the same list.
    store.getState().setSim({ time: 1, paused: false, speed: 1, realtime: true });
    expect(selectEventRows(store.getState())).toBe(previous);
    // A relist replaces everything.
    applyBatch('/events', batch({ added: { 'default/z': event('z', 5) } }, '9', true));
    expect(shown(selectEventRows(store.getState()))).toEqual(['default/z@00:05']);
  });

  it('rebuilds when the map it derived from is not the one the new map replaced', () => {
    const a = createAppStore();
    const b = createAppStore();
    a.getState().applyBatch('/events', batch({ added: { 'default/x': event('x', 1) } }, '1', true));
    b.getState().applyBatch('/events', batch({ added: { 'default/y': event('y', 2) } }, '1', true));
    expect(shown(selectEventRows(a.getState()))).toEqual(['default/x@00:01']);
    b.getState().applyBatch('/events', batch({ added: { 'default/w': event('w', 3) } }, '2'));
    expect(shown(selectEventRows(b.getState()))).toEqual(['default/y@00:02', 'default/w@00:03']);
  });
});
