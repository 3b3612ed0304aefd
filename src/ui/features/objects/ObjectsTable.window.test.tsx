// A table of 1,000 objects renders a window of rows (server-side, before any layout: the rows a tall screen
// shows plus overscan), with the whole table's size and each row's place given to assistive technology.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { ProtocolClient } from '../../../shared/protocol/client';
import { appStore } from '../../state/store';
import { ClientContext } from '../../worker-client/context';
import { ObjectsTable } from './ObjectsTable';

afterEach(() => {
  vi.restoreAllMocks();
  appStore.getState().applyBatch('/configmaps', { diff: { added: {}, updated: {}, removed: {} }, resourceVersion: '1', relist: true });
});

const cm = (i: number): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i).padStart(4, '0')}`, namespace: 'default', uid: `u-${i}`, resourceVersion: String(i + 1) } });

function render(count: number): string {
  const added = Object.fromEntries(Array.from({ length: count }, (_, i) => [`default/${cm(i).metadata.name}`, cm(i)]));
  appStore.getState().applyBatch('/configmaps', { diff: { added, updated: {}, removed: {} }, resourceVersion: String(count + 1), relist: true });
  vi.spyOn(appStore, 'getInitialState').mockImplementation(() => appStore.getState());
  return renderToString(createElement(ClientContext.Provider, { value: {} as ProtocolClient }, createElement(ObjectsTable)));
}

describe('ObjectsTable', () => {
  it('renders every row of a short table', () => {
    const html = render(50);
    expect(html).toContain('aria-rowcount="51"');
    expect(html.match(/<tr aria-rowindex="\d+"/g)).toHaveLength(51);
    expect(html).toContain('aria-label="Inspect configmap/cm-0049 in default"');
  });

  it('renders a window of a 1,000-row table, first rows first, with the whole size announced', () => {
    const html = render(1000);
    expect(html).toMatch(/<caption>1000(<!-- -->)? object(<!-- -->)?s(<!-- -->)? in the cluster/);
    expect(html).toContain('aria-rowcount="1001"');
    const rendered = html.match(/<tr aria-rowindex="(\d+)"/g)!;
    expect(rendered.length).toBeGreaterThan(40);
    expect(rendered.length).toBeLessThan(120);
    expect(html).toContain('aria-label="Inspect configmap/cm-0000 in default"');
    expect(html).toContain('aria-label="Delete configmap/cm-0000 in default"');
    expect(html).not.toContain('cm-0999');
    // A spacer below stands for the rest (not a row to assistive technology).
    expect(html).toMatch(/<tr aria-hidden="true" class="row-spacer"><td colSpan="8" style="height:\d+px">/);
  });
});
