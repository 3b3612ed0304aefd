// Renders the Objects graph (server-side, no DOM) over what a real headless cluster holds after a Deployment
// rolled out, and checks the accessible names of its nodes and edges, the pod group and the namespace filter.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { objectKey } from '../../../shared/protocol/diff';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
import { appStore } from '../../state/store';
import { ObjectGraphChunk, ObjectsView } from './ObjectsView';
import { AllNamespaces } from './object-graph';
import { objectsViewStore } from './objects-view-state';

let h: HeadlessCluster | undefined;
// The graph is a chunk of its own: in, it renders synchronously (as on the page once preloaded).
beforeAll(() => ObjectGraphChunk.preload());
afterEach(async () => {
  vi.restoreAllMocks();
  objectsViewStore.setState({ namespace: 'default', expanded: new Set() });
  await h?.close();
  h = undefined;
});

function load(resourceKey: string, items: KubeObject[]) {
  const added = Object.fromEntries(items.map((o) => [objectKey(o), o]));
  appStore.getState().applyBatch(resourceKey, { diff: { added, updated: {}, removed: {} }, resourceVersion: '1', relist: true });
}

function render(): string {
  // Server rendering reads the store's server snapshot (its initial state); point it at the loaded state.
  vi.spyOn(appStore, 'getInitialState').mockImplementation(() => appStore.getState());
  vi.spyOn(objectsViewStore, 'getInitialState').mockImplementation(() => objectsViewStore.getState());
  return renderToString(createElement(ObjectsView));
}

async function rolledOut(replicas: number) {
  h = await createHeadlessCluster({ seed: 9 });
  const { cluster } = h;
  cluster.runUntil(() => cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1, 10_000);
  cluster.client.deployments.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] } } },
  });
  cluster.runUntil(() => cluster.client.deployments.get('nginx', { namespace: 'default' }).status?.readyReplicas === replicas, 120_000);
  load('apps/deployments', cluster.client.deployments.list().items as KubeObject[]);
  load('apps/replicasets', cluster.client.replicaSets.list().items as KubeObject[]);
  load('/pods', cluster.client.pods.list().items as KubeObject[]);
  load('/nodes', cluster.client.nodes.list().items as KubeObject[]);
  load('/namespaces', cluster.client.namespaces.list().items as KubeObject[]);
  return cluster;
}

describe('ObjectGraphView', () => {
  it('shows Deployment → ReplicaSet → 3 Pods → Nodes as named buttons and edges, with the Deployment at 3/3', async () => {
    const cluster = await rolledOut(3);
    const rs = cluster.client.replicaSets.list().items[0].metadata.name!;
    const pods = cluster.client.pods.list().items.map((p) => p.metadata.name!);
    const html = render();
    expect(html).toContain('aria-label="Object graph of namespace default"');
    expect(html).toContain('aria-label="Deployment nginx, 3/3"');
    expect(html).toContain(`aria-label="ReplicaSet ${rs}, 3/3"`);
    expect(html).toContain(`aria-label="Edge: Deployment nginx owns ReplicaSet ${rs}"`);
    for (const pod of pods) {
      expect(html).toContain(`aria-label="Pod ${pod}, Running"`);
      expect(html).toContain(`aria-label="Edge: ReplicaSet ${rs} owns Pod ${pod}"`);
      const node = cluster.client.pods.get(pod, { namespace: 'default' }).spec!.nodeName!;
      expect(html).toContain(`aria-label="Edge: Pod ${pod} runs on Node ${node}"`);
    }
    expect(html).toContain('<option value="*">All namespaces</option>');
    expect(html).toContain('Tidy layout');
  });

  it('names objects with their namespace under "All namespaces"', async () => {
    await rolledOut(1);
    objectsViewStore.setState({ namespace: AllNamespaces });
    const html = render();
    expect(html).toContain('aria-label="Object graph of all namespaces"');
    expect(html).toContain('aria-label="Deployment default/nginx, 1/1"');
    expect(html).toContain('aria-label="Node node-1, Ready"');
  });

  it('shows the pods of a big ReplicaSet as one group with counts by state, and one by one when expanded', async () => {
    const cluster = await rolledOut(25);
    const rs = cluster.client.replicaSets.list().items[0];
    const html = render();
    expect(html).toContain(`aria-label="Pods of ReplicaSet ${rs.metadata.name}, 25 pods: 25 Running"`);
    expect(html).toContain(`aria-label="Show the 25 pods of ReplicaSet ${rs.metadata.name} one by one"`);
    expect(html.match(/aria-label="Pod nginx-/g)).toBeNull();

    objectsViewStore.getState().toggleExpanded(`apps/replicasets|default/${rs.metadata.name}`);
    const expanded = render();
    expect(expanded.match(/aria-label="Pod nginx-[^"]*, Running"/g)).toHaveLength(25);
    expect(expanded).toContain(`aria-label="Group the pods of ReplicaSet ${rs.metadata.name}"`);
  });
});
