// Renders the Nodes view (server-side, no DOM) over the objects a real headless cluster holds, and checks the
// accessible names tests and assistive tech rely on.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { objectKey } from '../../../shared/protocol/diff';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
import { appStore } from '../../state/store';
import { ClientContext } from '../../worker-client/context';
import { formatCpu, nodeAllocatable } from './node-model';
import { NodesView } from './NodesView';

let h: HeadlessCluster | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

function load(resource: string, items: KubeObject[]) {
  const added = Object.fromEntries(items.map((o) => [objectKey(o), o]));
  appStore.getState().applyBatch(`/${resource}`, { diff: { added, updated: {}, removed: {} }, resourceVersion: '1', relist: true });
}

describe('NodesView', () => {
  it('renders a region per node with its pods, bars and named buttons, and trays unscheduled pods', async () => {
    h = await createHeadlessCluster({ seed: 3 });
    const { cluster } = h;
    cluster.runUntil(() => cluster.client.nodes.list().items.length === 3 && cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1, 10_000);
    const requests = { cpu: '250m', memory: '64Mi' };
    cluster.client.pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests } }] } });
    // Asks for more cpu than any node has, so it stays Pending with no nodeName.
    cluster.client.pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'huge', namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '1000' } } }] },
    });
    cluster.runUntil(() => Boolean((cluster.client.pods.get('web', { namespace: 'default' }).spec as { nodeName?: string }).nodeName), 10_000);

    const nodes = cluster.client.nodes.list().items;
    const pods = cluster.client.pods.list({ namespace: 'default' }).items;
    load('nodes', nodes);
    load('pods', pods);
    const web = pods.find((p) => p.metadata.name === 'web')!;
    const host = (web.spec as { nodeName: string }).nodeName;

    // Server rendering reads the store's server snapshot (its initial state); point it at the loaded state.
    vi.spyOn(appStore, 'getInitialState').mockImplementation(() => appStore.getState());
    const html = renderToString(createElement(ClientContext.Provider, { value: h.client }, createElement(NodesView)));
    for (const n of nodes) {
      const name = n.metadata.name!;
      expect(html).toContain(`aria-label="Node ${name}"`);
      for (const action of ['Kill', 'Restart', 'Partition', 'Cordon', 'Drain', 'Remove']) expect(html).toContain(`aria-label="${action} ${name}"`);
      expect(html).toContain(`aria-label="cpu requested on ${name}"`);
    }
    expect(html).toContain('aria-label="Add node"');
    expect(html).toContain('aria-label="Pod default/web: ');
    expect(html).toContain('aria-label="Pod default/huge: Pending"');

    // The host's cpu bar: the web pod's 250m of what the node offers.
    const hostNode = nodes.find((n) => n.metadata.name === host)!;
    const cardStart = html.indexOf(`aria-label="Node ${host}"`);
    const card = html.slice(cardStart, html.indexOf('</section>', cardStart));
    expect(card).toContain(`250m of ${formatCpu(nodeAllocatable(hostNode).cpuMillis)}`);
    expect(card).toContain('aria-label="Pod default/web: ');
    expect(card).not.toContain('default/huge');

    const trayStart = html.indexOf('aria-label="Unscheduled pods"');
    expect(html.slice(trayStart)).toContain('default/huge');
  });

  it('shows a killed node turn NotReady with Unknown conditions and the unreachable taints, its pods still there', async () => {
    h = await createHeadlessCluster({ seed: 5 });
    const { cluster } = h;
    cluster.runUntil(() => cluster.client.nodes.list().items.length === 3 && cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1, 10_000);
    cluster.client.pods.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '500m' } } }] },
    });
    cluster.runUntil(() => cluster.client.pods.get('web', { namespace: 'default' }).status?.phase === 'Running', 60_000);
    const host = cluster.client.pods.get('web', { namespace: 'default' }).spec!.nodeName!;

    const render = () => {
      load('nodes', cluster.client.nodes.list().items as KubeObject[]);
      load('pods', cluster.client.pods.list({ namespace: 'default' }).items as KubeObject[]);
      vi.spyOn(appStore, 'getInitialState').mockImplementation(() => appStore.getState());
      const html = renderToString(createElement(ClientContext.Provider, { value: h!.client }, createElement(NodesView)));
      const start = html.indexOf(`aria-label="Node ${host}"`);
      return html.slice(start, html.indexOf('</section>', start));
    };

    const healthy = render();
    expect(healthy).toContain('aria-label="Status Ready"');
    expect(healthy).not.toContain('node.kubernetes.io/unreachable');
    // The chip is a button named after its pod; the bar counts its request.
    expect(healthy).toMatch(/<button type="button" class="pod-chip" data-state="Running" title="Pod default\/web: Running" aria-label="Pod default\/web: Running"/);
    expect(healthy).toContain('500m of ');

    cluster.nodes.kill(host);
    // Past node-monitor-grace-period the node lifecycle controller gives up on the kubelet.
    cluster.runUntil(() => (cluster.client.nodes.get(host).spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute'), 120_000);
    const killed = render();
    expect(killed).toContain('aria-label="Status NotReady"');
    expect(killed).toContain('Ready=Unknown (NodeStatusUnknown)');
    expect(killed).toContain('node.kubernetes.io/unreachable:NoSchedule');
    expect(killed).toContain('node.kubernetes.io/unreachable:NoExecute');
    expect(killed).toContain('aria-label="Pod default/web: ');
    expect(killed).toContain('500m of ');
  });

  it('has a legend of the chip colours', async () => {
    h = await createHeadlessCluster({ seed: 3 });
    vi.spyOn(appStore, 'getInitialState').mockImplementation(() => appStore.getState());
    const html = renderToString(createElement(ClientContext.Provider, { value: h.client }, createElement(NodesView)));
    const legend = html.slice(html.indexOf('aria-label="Pod chip colours"'));
    for (const state of ['Running', 'NotReady', 'Pending', 'CrashLoopBackOff', 'ImagePullBackOff', 'Succeeded', 'Failed', 'Terminating']) {
      expect(legend).toContain(`data-state="${state}"`);
    }
  });
});
