import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import { ResourceRegistry } from '../shared/api/resources';
import type { KubectlEnv } from './cli/command';
import { cancelSignal } from './cli/signal';
import { buildResources, expandCategories, kindGroupString, mappingFor, missingResourceMessage, readManifests } from './resource-builder';
import { commandTestCluster, create } from './testing';

const registry = new ResourceRegistry();

describe('mappingFor (Builder.mappingFor)', () => {
  it('resolves plural, singular, short names, kinds and group-qualified forms', () => {
    for (const arg of ['deployments', 'deployment', 'deploy', 'Deployment', 'deployments.apps', 'deployments.v1.apps', 'deploy.apps']) {
      expect(mappingFor(registry, arg), arg).toMatchObject({ group: 'apps', resource: 'deployments', kind: 'Deployment' });
    }
    expect(mappingFor(registry, 'po').resource).toBe('pods');
    expect(mappingFor(registry, 'hpa.v1.autoscaling')).toMatchObject({ resource: 'horizontalpodautoscalers', version: 'v1' });
    expect(() => mappingFor(registry, 'gizmos')).toThrow('the server doesn\'t have a resource type "gizmos"');
    expect(() => mappingFor(registry, 'pods.apps')).toThrow('the server doesn\'t have a resource type "pods"');
  });

  it('names objects as the name printer does', () => {
    expect(kindGroupString(mappingFor(registry, 'deploy'))).toBe('deployment.apps');
    expect(kindGroupString(mappingFor(registry, 'svc'))).toBe('service');
  });

  it('expands the "all" category in discovery order', () => {
    expect(expandCategories(registry, 'all')).toEqual([
      'pods',
      'replicationcontrollers',
      'services',
      'daemonsets.apps',
      'deployments.apps',
      'replicasets.apps',
      'statefulsets.apps',
      'horizontalpodautoscalers.autoscaling',
      'cronjobs.batch',
      'jobs.batch',
    ]);
  });
});

describe('readManifests', () => {
  const env = { registry, stdin: 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: Secret, metadata: {name: b}}\n' };

  it('reads stdin for "-", flattening a List; the editor buffer for "editor"; refuses other paths', () => {
    expect(readManifests(env, ['-']).objects.map((o) => [o.rt.kind, o.object.metadata.name, o.source])).toEqual([
      ['ConfigMap', 'a', 'STDIN'],
      ['Secret', 'b', 'STDIN'],
    ]);
    expect(readManifests({ registry, editorBuffer: 'apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n' }, ['editor']).objects[0].source).toBe('editor');
    expect(readManifests(env, ['x.yaml']).error?.message).toBe('the path "x.yaml" does not exist');
    expect(readManifests(env, ['-', '-']).error?.message).toBe('standard input cannot be used for multiple arguments');
  });

  it('reports objects without a kind or with a kind the server does not serve', () => {
    const read = readManifests({ registry, stdin: 'apiVersion: v1\nmetadata: {name: x}\n---\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: old}\n' }, ['-']);
    expect(read.objects).toHaveLength(0);
    expect(read.errors.map((e) => (e as Error).message)).toEqual([
      'unable to decode "STDIN": Object \'Kind\' is missing in \'{"apiVersion":"v1","metadata":{"name":"x"}}\'',
      'resource mapping not found for name: "old" namespace: "" from "STDIN": no matches for kind "Ingress" in version "extensions/v1beta1"\nensure CRDs are installed first',
    ]);
  });
});

describe('buildResources', () => {
  let cluster: Cluster;
  let env: KubectlEnv;
  beforeEach(async () => {
    cluster = await commandTestCluster();
    env = {
      client: cluster.client,
      clock: cluster.clock,
      registry: cluster.registry,
      user: cluster.apiserver.currentUser,
      namespace: 'default',
      namespaceExplicit: false,
      kubeconfig: { currentContext: 'kubeplay', contexts: [] },
      setKubeconfig: () => {},
      signal: cancelSignal().signal,
    };
    for (const n of ['a', 'b']) create(cluster, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${n}, labels: {x: ${n}}}\n`);
  });
  afterEach(async () => {
    await cluster.close();
  });

  it('visits TYPE NAME…, TYPE/NAME…, TYPE1,TYPE2 NAME and selectors', () => {
    expect(buildResources(env, { args: ['cm', 'a', 'b'] }).infos.map((i) => `${i.rt.resource}/${i.namespace}/${i.name}`)).toEqual(['configmaps/default/a', 'configmaps/default/b']);
    expect(buildResources(env, { args: ['cm/a', 'ns/default'] }).infos.map((i) => `${i.rt.resource}/${i.namespace ?? ''}/${i.name}`)).toEqual(['configmaps/default/a', 'namespaces//default']);
    expect(buildResources(env, { args: ['cm,secret', 'a'] }).infos.map((i) => `${i.rt.resource}/${i.name}`)).toEqual(['configmaps/a', 'secrets/a']);
    const selected = buildResources(env, { args: ['cm'], labelSelector: 'x=b' });
    expect(selected.infos.map((i) => i.object?.metadata.name)).toEqual(['b']);
    expect(selected.targetsSingleItems).toBe(false);
  });

  it('fetches named objects with requireObject, collecting NotFound without stopping', () => {
    const r = buildResources(env, { args: ['cm', 'a', 'nope', 'b'], requireObject: true });
    expect(r.infos.map((i) => i.object?.metadata.uid !== undefined)).toEqual([true, true]);
    expect((r.errors[0] as Error).message).toBe('configmaps "nope" not found');
  });

  it('gives kubectl\'s argument errors', () => {
    const cases: [Parameters<typeof buildResources>[1], string][] = [
      [{}, missingResourceMessage],
      [{ args: ['cm'] }, 'resource(s) were provided, but no name was specified'],
      [{ args: ['cm/a/b'] }, 'arguments in resource/name form may not have more than one slash'],
      [{ args: ['cm/'] }, 'arguments in resource/name form must have a single resource and name'],
      [{ args: ['cm', 'a'], labelSelector: 'x=a' }, 'name cannot be provided when a selector is specified'],
      [{ args: ['cm', 'a'], filenames: ['-'] }, 'when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well'],
      [{ args: ['cm,secret'], labelSelector: 'x', singleResourceType: true }, 'you may only specify a single resource type'],
      [{ args: ['cm', 'a'], allNamespaces: true }, 'a resource cannot be retrieved by name across all namespaces'],
    ];
    for (const [options, message] of cases) expect(buildResources(env, options).error?.message, JSON.stringify(options)).toBe(message);
  });

  it('defaults the namespace of -f objects, and refuses another one when -n was given', () => {
    const stdin = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: other}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n';
    const plain = buildResources({ ...env, stdin }, { filenames: ['-'] });
    expect(plain.infos.map((i) => i.namespace)).toEqual(['other', 'default']);
    const enforced = buildResources({ ...env, stdin, namespace: 'team', namespaceExplicit: true }, { filenames: ['-'] });
    expect(enforced.infos.map((i) => i.object?.metadata.namespace)).toEqual(['team']);
    expect((enforced.errors[0] as Error).message).toContain('the namespace from the provided object "other" does not match the namespace "team". You must pass \'--namespace=other\' to perform this operation.');
  });
});
