// The limits table over a 'cluster/limits' answer, and the figures' formatting.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { formatBytes, usageText, type PlaygroundLimitsView } from './limits-view';
import { PlaygroundLimitsTable } from './PlaygroundLimitsSection';

/** What 'cluster/limits' answers for a cluster holding `objects` objects (src/worker/limits.test.ts checks the worker builds this). */
function workerView(objects: number): PlaygroundLimitsView {
  return {
    limits: [
      { key: 'maxObjects', label: 'objects', unit: 'objects', limit: 50_000, defaultLimit: 50_000, used: objects, description: 'Objects stored.' },
      { key: 'maxStoredBytes', label: 'stored bytes', unit: 'bytes', limit: 256 * 1024 * 1024, defaultLimit: 256 * 1024 * 1024, used: objects * 120, description: 'Bytes stored.' },
      { key: 'maxReplicasPerWorkload', label: 'replicas per workload', unit: 'replicas', limit: 5_000, defaultLimit: 5_000, description: 'Replicas.' },
      { key: 'maxEventsPerMinute', label: 'events per minute', unit: 'events per minute', limit: 12_000, defaultLimit: 12_000, used: 0, description: 'Events.' },
    ],
  };
}

describe('Playground limits in the Settings dialog', () => {
  it('lists every limit with used / limit and a meter, in a table named Playground limits', () => {
    const html = renderToString(createElement(PlaygroundLimitsTable, { view: workerView(3) })).replaceAll('<!-- -->', '');
    expect(html).toMatch(/<table class="limits-table" aria-labelledby="([^"]+)"><caption id="\1">Playground limits<\/caption>/);
    expect(html).toContain('<th scope="row">objects</th><td>3 / 50,000<meter class="limit-meter" aria-label="objects used"');
    expect(html).toMatch(/<th scope="row">stored bytes<\/th><td>\d+ bytes \/ 256 MiB/);
    expect(html).toContain('<th scope="row">replicas per workload</th><td>at most 5,000</td>');
    expect(html).toContain('<th scope="row">events per minute</th><td>0 / 12,000');
    expect(html).not.toContain('limit-near');
  });

  it('marks a limit at 90 % or more', () => {
    const view = workerView(0);
    view.limits[0] = { ...view.limits[0], used: 45_000 };
    expect(renderToString(createElement(PlaygroundLimitsTable, { view }))).toContain('<tr class="limit-near"><th scope="row">objects</th>');
  });

  it('writes bytes in binary units and unlimited caps as such', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(256 * 1024 * 1024)).toBe('256 MiB');
    expect(usageText({ key: 'maxObjects', label: 'objects', unit: 'objects', limit: Number.MAX_SAFE_INTEGER, defaultLimit: 50_000, used: 1200, description: '' })).toBe('1,200 / unlimited');
  });
});
