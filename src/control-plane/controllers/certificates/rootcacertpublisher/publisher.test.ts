import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/api/types';
import { Client } from '../../../client/client';
import { clusterRootCA } from '../../../config/cluster-ca';
import { SharedInformerFactory } from '../../../informers/factory';
import { VirtualClock } from '../../../sim/virtual-clock';
import { FakeApiServer } from '../../../testing/fake-apiserver';
import { TraceBus } from '../../../trace/trace-bus';
import { bootCluster } from '../../../scenarios/harness';
import { Description, DescriptionAnnotation, Publisher, RootCACertConfigMapName } from './publisher';

function ns(name: string, phase = 'Active'): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } };
}

function setup(initialNamespaces: string[] = []) {
  const clock = new VirtualClock({ startTime: 0 });
  const trace = new TraceBus({ clock });
  const server = new FakeApiServer({ clock });
  const client = new Client(server);
  for (const n of initialNamespaces) client.namespaces.create(ns(n));
  const informers = new SharedInformerFactory({ client, clock, trace });
  const publisher = new Publisher({ client, informers, clock, trace });
  informers.start();
  informers.waitForCacheSync(clock);
  publisher.controller.run();
  const published = () =>
    client.configMaps
      .list()
      .items.filter((cm) => cm.metadata.name === RootCACertConfigMapName)
      .map((cm) => cm.metadata.namespace)
      .sort();
  const get = (namespace: string) => client.configMaps.get(RootCACertConfigMapName, { namespace });
  return { clock, client, publisher, published, get };
}

describe('root CA certificate publisher', () => {
  it('publishes kube-root-ca.crt with the CA and its description in existing and new namespaces', () => {
    const { clock, client, published, get } = setup(['default', 'kube-system']);
    clock.runUntilIdle();
    expect(published()).toEqual(['default', 'kube-system']);
    client.namespaces.create(ns('team-a'));
    clock.runUntilIdle();
    expect(published()).toEqual(['default', 'kube-system', 'team-a']);
    const cm = get('team-a');
    expect(cm.data).toEqual({ 'ca.crt': clusterRootCA });
    expect(cm.metadata.annotations).toEqual({ [DescriptionAnnotation]: Description });
    expect(clusterRootCA).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/);
  });

  it('puts the data and the description back after an edit, keeping other annotations', () => {
    const { clock, client, get } = setup(['default']);
    clock.runUntilIdle();
    const cm = get('default');
    client.configMaps.update({ ...cm, metadata: { ...cm.metadata, annotations: { team: 'a' } }, data: { 'ca.crt': 'tampered', extra: 'x' } });
    clock.runUntilIdle();
    const after = get('default');
    expect(after.data).toEqual({ 'ca.crt': clusterRootCA });
    expect(after.metadata.annotations).toEqual({ team: 'a', [DescriptionAnnotation]: Description });
    expect(after.metadata.uid).toBe(cm.metadata.uid);
  });

  it('leaves an up-to-date ConfigMap alone', () => {
    const { clock, get } = setup(['default']);
    clock.runUntilIdle();
    const rv = get('default').metadata.resourceVersion;
    clock.advance(60_000);
    clock.runUntilIdle();
    expect(get('default').metadata.resourceVersion).toBe(rv);
  });

  it('recreates the ConfigMap when it is deleted', () => {
    const { clock, client, get } = setup(['default']);
    clock.runUntilIdle();
    const before = get('default').metadata.uid;
    client.configMaps.delete(RootCACertConfigMapName, { namespace: 'default' });
    clock.runUntilIdle();
    const after = get('default');
    expect(after.metadata.uid).not.toBe(before);
    expect(after.data).toEqual({ 'ca.crt': clusterRootCA });
  });

  it('in a cluster: a deleted namespace takes its kube-root-ca.crt along, and the publisher does not bring it back', async () => {
    const tc = await bootCluster();
    try {
      tc.apply(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }));
      tc.runUntil(() => tc.get('configmap', 'team-a', RootCACertConfigMapName) !== undefined, 10_000, 'published');
      tc.delete('namespace', undefined, 'team-a');
      tc.runUntil(() => tc.get('namespace', '', 'team-a') === undefined, 60_000, 'namespace gone');
      tc.advance(30_000);
      expect(tc.list('configmaps', 'team-a')).toEqual([]);
    } finally {
      tc.close();
    }
  });
});
