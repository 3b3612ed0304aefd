// Renders the inspector (server-side, no DOM) over the objects of a real headless cluster running nginx, and
// checks each section's content and the accessible names tests and assistive tech rely on.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../state/store';
import { ClientContext } from '../../worker-client/context';
import { Inspector } from './Inspector';
import { InspectorTab, inspectorUi } from './state';
import type { Fixture } from './headless.fixture';
import { keysNamed, nginxFixture } from './headless.fixture';

let f: Fixture;
beforeAll(async () => {
  f = await nginxFixture();
  appStore.setState({ resources: f.store.getState().resources, sim: { time: f.h.cluster.clock.now(), paused: false, speed: 1, realtime: false } });
});
afterAll(async () => {
  vi.restoreAllMocks();
  appStore.setState({ resources: {}, selected: undefined, sim: undefined });
  await f.h.close();
});
beforeEach(() => {
  inspectorUi.setState({ tab: InspectorTab.Summary, outputFor: undefined, output: [] });
});

function render(): string {
  // Server rendering reads the stores' server snapshots (their initial state); point them at the current state.
  vi.spyOn(appStore, 'getInitialState').mockImplementation(() => appStore.getState());
  vi.spyOn(inspectorUi, 'getInitialState').mockImplementation(() => inspectorUi.getState());
  return renderToString(createElement(ClientContext.Provider, { value: f.h.client }, createElement(Inspector)))
    .replaceAll('<!-- -->', '')
    .replaceAll('&quot;', '"');
}

describe('Inspector', () => {
  it('shows the Deployment’s header, its section tabs (no Scheduling) and its conditions', () => {
    appStore.getState().select({ resourceKey: 'apps/deployments', key: 'default/nginx' });
    const html = render();
    expect(html).toContain('Deployment/nginx</h3>');
    expect(html).toContain('3/3 ready');
    expect(html).toContain('role="tablist" aria-label="Inspector sections"');
    for (const tab of ['Summary', 'YAML', 'Events', 'Relations', 'Why']) expect(html).toMatch(new RegExp(`role="tab"[^>]*>${tab}</button>`));
    expect(html).not.toMatch(/role="tab"[^>]*>Scheduling</);
    expect(html).toContain('aria-label="Conditions of deployment/nginx"');
    expect(html).toMatch(/<th scope="row">Available<\/th><td>True<\/td><td>MinimumReplicasAvailable<\/td>/);
    expect(html).toMatch(/>Edit<\/button>/);
    expect(html).toMatch(/>Delete…<\/button>/);
  });

  it('lists the Deployment’s events and its ReplicaSet as a dependent', () => {
    appStore.getState().select({ resourceKey: 'apps/deployments', key: 'default/nginx' });
    inspectorUi.setState({ tab: InspectorTab.Events });
    expect(render()).toMatch(/<td>Normal<\/td><td>ScalingReplicaSet<\/td><td>30s<\/td><td>deployment-controller<\/td>/);
    inspectorUi.setState({ tab: InspectorTab.Relations });
    const html = render();
    const [rsKey] = keysNamed(f.store, 'apps/replicasets', 'nginx-');
    expect(html).toContain('Dependents (1)');
    expect(html).toContain('aria-label="ReplicaSet dependents of deployment/nginx"');
    expect(html).toContain(`ReplicaSet ${rsKey.slice('default/'.length)}`);
  });

  it('offers Scheduling for a pod, and shows its owner chain root first', () => {
    const [podKey] = keysNamed(f.store, '/pods', 'nginx-');
    appStore.getState().select({ resourceKey: '/pods', key: podKey });
    inspectorUi.setState({ tab: InspectorTab.Scheduling });
    let html = render();
    expect(html).toMatch(/role="tab" id="inspector-tab-scheduling" aria-selected="true"/);
    expect(html).toContain('Bound to <strong>node-');
    inspectorUi.setState({ tab: InspectorTab.Relations });
    html = render();
    const chain = html.slice(html.indexOf('aria-label="Owners of pod/'));
    expect(chain.indexOf('Deployment nginx')).toBeGreaterThan(0);
    expect(chain.indexOf('Deployment nginx')).toBeLessThan(chain.indexOf('ReplicaSet nginx-'));
    expect(chain.indexOf('ReplicaSet nginx-')).toBeLessThan(chain.indexOf('(this object)'));
  });

  it('keeps the last action’s output when the object is gone', () => {
    appStore.getState().select({ resourceKey: 'apps/deployments', key: 'default/gone' });
    inspectorUi.setState({ outputFor: 'apps/deployments|default/gone', output: [{ ok: true, text: 'deployment.apps "gone" deleted' }] });
    const html = render();
    expect(html).toContain('default/gone no longer exists.');
    expect(html).toMatch(/role="log" aria-label="Inspector output"[^>]*><p class="ok">deployment.apps "gone" deleted<\/p>/);
  });
});
