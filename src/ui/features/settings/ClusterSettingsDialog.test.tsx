// Renders the settings form (server-side, no DOM) over the view a real headless cluster serves, and checks the
// labels, hints and inline errors the e2e spec and assistive tech rely on.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createHeadlessCluster, type HeadlessCluster } from '../../../worker/headless';
import { ClusterSettingsButton, SettingsForm, type SettingsFormProps } from './ClusterSettingsDialog';
import { valuesOf } from './settings-form';

let h: HeadlessCluster | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const noop = () => {};

async function render(extra: Partial<SettingsFormProps> = {}): Promise<string> {
  h = await createHeadlessCluster({ nodes: 0 });
  const view = await h.client.call('cluster/settings');
  const props: SettingsFormProps = { view, values: valuesOf(view), errors: {}, onChange: noop, onDemo: noop, onDefaults: noop, onApply: noop, onClose: noop, ...extra };
  // (React marks text boundaries with empty comments; they are not part of the text.)
  return renderToString(createElement(SettingsForm, props)).replaceAll('<!-- -->', '');
}

describe('Cluster settings dialog', () => {
  it('has one labelled number input per setting with its default and flag', async () => {
    const html = await render();
    for (const [key, label, value] of [
      ['nodeMonitorGracePeriodSeconds', 'Node monitor grace period', '40'],
      ['defaultTolerationSeconds', 'Default toleration seconds', '300'],
      ['imagePullSeconds', 'Image pull time', '0'],
      ['nodeStatusUpdateFrequencySeconds', 'Node status update frequency', '10'],
    ]) {
      expect(html).toContain(`<label for="setting-${key}">${label} <span class="muted">(seconds)</span></label>`);
      expect(html).toMatch(new RegExp(`<input id="setting-${key}" type="number"[^>]* value="${value}"`));
    }
    expect(html).toContain('Kubernetes default: 40 s');
    expect(html).toContain('Simulator default: 0 s (by image size)');
    expect(html).toContain('kube-controller-manager --node-monitor-grace-period');
    for (const button of ['Demo timings', 'Restore defaults', 'Apply settings', 'Close']) expect(html).toMatch(new RegExp(`<button[^>]*>${button}</button>`));
    expect(html).not.toContain('role="alert"');
  });

  it('shows errors inline, on the input they are about', async () => {
    const html = await render({ errors: { defaultTolerationSeconds: 'Invalid value: -1: must be between 0 and 86400, inclusive' }, error: 'something else' });
    expect(html).toMatch(/<input id="setting-defaultTolerationSeconds"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*setting-defaultTolerationSeconds-error"/);
    expect(html).toContain('<p id="setting-defaultTolerationSeconds-error" class="setting-error" role="alert">Invalid value: -1: must be between 0 and 86400, inclusive</p>');
    expect(html).not.toMatch(/<input id="setting-nodeMonitorGracePeriodSeconds"[^>]*aria-invalid/);
    expect(html).toContain('role="alert">something else</p>');
  });

  it('the top bar button names the dialog it opens', () => {
    expect(renderToString(createElement(ClusterSettingsButton))).toBe('<button type="button" aria-haspopup="dialog" aria-expanded="false">Cluster settings</button>');
  });
});
