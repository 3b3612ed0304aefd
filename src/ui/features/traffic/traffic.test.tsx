// The Send traffic panel with a fake client: what it sends, what it keeps, and how it shows a response (text in a
// <pre>, never HTML), curl's error and the hops; the URL prefills; and the graph route of a 'net.request' event.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { TrafficParams, TrafficResult } from '../../../shared/protocol/network';
import type { TraceEvent } from '../../../shared/protocol/trace';
import { appStore } from '../../state/store';
import { ClientContext } from '../../worker-client/context';
import type { ObjectGraphNode } from '../objects/object-graph';
import { TrafficPanel } from './TrafficPanel';
import { OutsideTheCluster, sendTraffic, summarizeResults, trafficParams, trafficUi } from './traffic-state';
import { trafficDefaults } from './traffic-target';
import { netTraces, routeOnGraph } from './traffic-trace';

const welcome: TrafficResult = {
  ok: true,
  status: 200,
  body: '<!DOCTYPE html>\n<html><head><title>Welcome to nginx!</title></head><body><script>alert(1)</script></body></html>',
  hops: [
    { kind: 'dns', detail: 'web.default.svc.cluster.local → 10.96.0.12', ok: true },
    { kind: 'service', detail: 'kube-proxy chose 10.244.1.5:80 (web-7d4b9-abcde)', ok: true, object: { kind: 'Service', namespace: 'default', name: 'web' } },
    { kind: 'pod', detail: 'nginx answered 200', ok: true, object: { kind: 'Pod', namespace: 'default', name: 'web-7d4b9-abcde' } },
  ],
  durationMs: 2,
};
const dropped: TrafficResult = {
  ok: false,
  error: 'curl: (28) Connection timed out after 10000 milliseconds',
  hops: [
    { kind: 'service', detail: 'kube-proxy chose 10.244.2.6:80 (web-7d4b9-fghij)', ok: true, object: { kind: 'Service', namespace: 'default', name: 'web' } },
    { kind: 'networkpolicy', detail: 'Dropped by default/web-allow-client', ok: false, object: { kind: 'Pod', namespace: 'default', name: 'web-7d4b9-fghij' } },
  ],
  durationMs: 10_000,
};

function fakeClient(answers: (TrafficResult | Error)[]) {
  const sent: TrafficParams[] = [];
  const call = vi.fn(async (method: string, params: TrafficParams) => {
    if (method !== 'net/request') throw new Error(`unexpected ${method}`);
    sent.push(params);
    const a = answers[Math.min(sent.length - 1, answers.length - 1)];
    if (a instanceof Error) throw a;
    return a;
  });
  return { client: { call } as unknown as Parameters<typeof sendTraffic>[0], sent };
}

const service: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: { ports: [{ port: 8080 }] } };

afterEach(() => {
  vi.restoreAllMocks();
  trafficUi.setState({ open: false, target: undefined, from: OutsideTheCluster, url: 'http://', host: '', sending: false, results: [], error: undefined });
});

describe('trafficDefaults', () => {
  it('prefills the Service DNS name and port, an Ingress address, path and host, a Pod IP and port', () => {
    expect(trafficDefaults(service)).toEqual({ url: 'http://web.shop.svc.cluster.local:8080/', host: '' });
    const ingress: KubeObject = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'shop', namespace: 'default' },
      spec: { rules: [{ host: 'foo.bar.com', http: { paths: [{ path: '/bar' }] } }] },
      status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } },
    };
    expect(trafficDefaults(ingress)).toEqual({ url: 'http://192.0.2.10/bar', host: 'foo.bar.com' });
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ ports: [{ containerPort: 8080 }] }] }, status: { podIP: '10.244.1.9' } };
    expect(trafficDefaults(pod).url).toBe('http://10.244.1.9:8080/');
  });
});

describe('sendTraffic', () => {
  it('sends from outside or from a pod with the URL and Host header, and keeps every answer of Send 10', async () => {
    trafficUi.getState().openFor(service);
    trafficUi.getState().set({ from: 'default/client', host: ' foo.bar.com ' });
    const { client, sent } = fakeClient([welcome, welcome, dropped]);
    await sendTraffic(client, 10);
    expect(sent).toHaveLength(10);
    expect(sent[0]).toEqual({ from: { pod: { namespace: 'default', name: 'client' } }, url: 'http://web.shop.svc.cluster.local:8080/', host: 'foo.bar.com' });
    const s = trafficUi.getState();
    expect(s.results).toHaveLength(10);
    expect(s.sending).toBe(false);
    expect(summarizeResults(s.results)).toBe('10 requests: 2 × 200, 8 failed');
    expect(trafficParams({ from: OutsideTheCluster, url: 'http://x/', host: '' })).toEqual({ from: { outside: true }, url: 'http://x/' });
  });

  it('shows why the worker could not send', async () => {
    trafficUi.getState().openFor(service);
    const { client } = fakeClient([new Error('net/request is not available yet')]);
    await sendTraffic(client, 1);
    expect(trafficUi.getState()).toMatchObject({ error: 'net/request is not available yet', results: [], sending: false });
    expect(render(client)).toContain('<p role="alert" class="failed">net/request is not available yet</p>');
  });
});

function render(client: unknown): string {
  vi.spyOn(appStore, 'getInitialState').mockImplementation(() => appStore.getState());
  vi.spyOn(trafficUi, 'getInitialState').mockImplementation(() => trafficUi.getState());
  return renderToString(createElement(ClientContext.Provider, { value: client as never }, createElement(TrafficPanel))).replaceAll('<!-- -->', '');
}

describe('TrafficPanel', () => {
  it('renders nothing until opened', () => {
    expect(render(fakeClient([]).client)).toBe('');
  });

  it('has named controls and shows the body as escaped text in a <pre>, with the hops', async () => {
    trafficUi.getState().openFor(service);
    const { client } = fakeClient([welcome]);
    await sendTraffic(client, 1);
    const html = render(client);
    expect(html).toContain('role="dialog" aria-modal="false" aria-label="Send traffic"');
    expect(html).toContain('Send traffic to Service shop/web</h3>');
    expect(html).toMatch(/<label>From <select[^>]*><option value="outside" selected="">Outside the cluster<\/option>/);
    expect(html).toContain('value="http://web.shop.svc.cluster.local:8080/"');
    expect(html).toMatch(/<button type="submit">Send<\/button>/);
    expect(html).toMatch(/<button type="button"[^>]*>Send 10<\/button>/);
    expect(html).toContain('>Close send traffic</button>');
    expect(html).toContain('<div role="region" aria-label="Traffic result" class="traffic-result">');
    expect(html).toMatch(/<p role="status" class="ok">HTTP 200 <span class="muted">\(2 ms\)<\/span><\/p>/);
    expect(html).toContain('<pre aria-label="Response body" class="traffic-body">&lt;!DOCTYPE html&gt;\n&lt;html&gt;&lt;head&gt;&lt;title&gt;Welcome to nginx!&lt;/title&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('<ol aria-label="Hops" class="traffic-hops">');
    expect(html).toContain('kube-proxy chose 10.244.1.5:80 (web-7d4b9-abcde)');
  });

  it('shows curl’s error and marks the hop where the request stopped', async () => {
    trafficUi.getState().openFor(service);
    const { client } = fakeClient([dropped]);
    await sendTraffic(client, 1);
    const html = render(client);
    expect(html).toContain('No response');
    expect(html).toContain('<pre class="traffic-error">curl: (28) Connection timed out after 10000 milliseconds</pre>');
    expect(html).toMatch(/<li class="failed" data-kind="networkpolicy">.*Dropped by default\/web-allow-client.*\(stopped here\)/);
  });

  it('Send 10 says which pods answered', async () => {
    trafficUi.getState().openFor(service);
    const other = { ...welcome, hops: [welcome.hops[0], welcome.hops[1], { ...welcome.hops[2], object: { kind: 'Pod', namespace: 'default', name: 'web-7d4b9-zzzzz' } }] };
    const { client } = fakeClient([welcome, other, welcome]);
    await sendTraffic(client, 3);
    expect(render(client)).toContain('3 requests: 3 × 200 — answered by web-7d4b9-abcde (2), web-7d4b9-zzzzz (1)');
  });
});

describe('net.request trace events on the graph', () => {
  const nodes: ObjectGraphNode[] = [
    { id: '/services|default/web', type: 'object', kind: 'Service', name: 'web', namespace: 'default', column: 1 },
    { id: '/pods|default/web-7d4b9-abcde', type: 'object', kind: 'Pod', name: 'web-7d4b9-abcde', namespace: 'default', column: 2 },
    { id: 'pods-of:apps/replicasets|default/web-7d4b9', type: 'pods', kind: 'Pod', name: 'pods of web-7d4b9', namespace: 'default', column: 2, owner: { id: 'x', uid: 'u', kind: 'ReplicaSet', name: 'web-7d4b9' } },
  ];
  const event = (seq: number, result: TrafficResult): TraceEvent => ({ seq, time: 1, kind: 'net.request', component: 'kube-proxy', data: { from: { outside: true }, url: 'http://web/', ...result } });

  it('routes Service → Pod, and a dropped request ends red on the pod group', () => {
    const traces = netTraces([event(7, welcome), { seq: 8, time: 1, kind: 'api.request', component: 'apiserver', data: {} }, event(9, dropped)]);
    expect(traces.map((t) => t.seq)).toEqual([7, 9]);
    expect(routeOnGraph(traces[0], nodes)).toEqual({ nodeIds: ['/services|default/web', '/pods|default/web-7d4b9-abcde'], failed: false, label: 'Request http://web/ → 200' });
    expect(routeOnGraph(traces[1], nodes)).toEqual({ nodeIds: ['/services|default/web', 'pods-of:apps/replicasets|default/web-7d4b9'], failed: true, label: 'Request http://web/ → stopped' });
    expect(routeOnGraph({ seq: 1, url: '', ok: false, hops: [welcome.hops[0]] }, nodes)).toBeUndefined();
  });
});
