// Renders the timeline (server-side, no DOM, so no scroll position yet) and checks which Event rows it puts in
// the page: a short list whole, a long one as a window of rows with a spacer standing in for the rest.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { appStore } from '../../state/store';
import { Timeline } from './Timeline';

function event(i: number): KubeObject {
  const time = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString().replace('.000', '');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `web-${i}.e`, namespace: 'default', uid: `uid-${i}`, resourceVersion: String(i + 1), creationTimestamp: time },
    type: 'Normal',
    reason: 'Scheduled',
    message: `Successfully assigned default/web-${i} to node-1`,
    lastTimestamp: time,
    involvedObject: { kind: 'Pod', namespace: 'default', name: `web-${i}` },
  } as KubeObject;
}

function load(n: number) {
  const added = Object.fromEntries(Array.from({ length: n }, (_, i) => [`default/web-${i}.e`, event(i)]));
  appStore.getState().applyBatch('/events', { diff: { added, updated: {}, removed: {} }, resourceVersion: String(n), relist: true });
  // A server render reads the store's initial state: show it the loaded one.
  vi.spyOn(appStore, 'getInitialState').mockImplementation(() => appStore.getState());
}

const dataRows = (html: string) => [...html.matchAll(/aria-label="Inspect pod\/(web-\d+)"/g)].map((m) => m[1]);
const spacers = (html: string) => [...html.matchAll(/<tr aria-hidden="true" class="row-spacer"><td [^>]*style="height:(\d+)px"/g)].map((m) => Number(m[1]));

afterEach(() => {
  vi.restoreAllMocks();
  appStore.getState().applyBatch('/events', { diff: { added: {}, updated: {}, removed: {} }, resourceVersion: '0', relist: true });
});

describe('Timeline events', () => {
  it('renders a short list whole', () => {
    load(30);
    const html = renderToString(createElement(Timeline)).replaceAll('<!-- -->', '');
    expect(html).toContain('Events (30)');
    expect(dataRows(html)).toEqual(Array.from({ length: 30 }, (_, i) => `web-${i}`));
    expect(spacers(html)).toEqual([]);
  });

  it('renders a window of the newest 200 with a spacer for the rows outside it', () => {
    load(500);
    const html = renderToString(createElement(Timeline)).replaceAll('<!-- -->', '');
    expect(html).toContain('Events (500)');
    const rows = dataRows(html);
    // Before a layout: the top of the newest 200 (web-300 on), as many rows as a tall screen plus overscan.
    expect(rows[0]).toBe('web-300');
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.length).toBeLessThan(200);
    expect(rows).toEqual(Array.from({ length: rows.length }, (_, i) => `web-${300 + i}`));
    // The rest of the 200 stand behind one spacer of their height (30 px a row before one was measured).
    expect(spacers(html)).toEqual([(200 - rows.length) * 30]);
  });
});
