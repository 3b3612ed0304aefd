import { describe, expect, it } from 'vitest';
import { ResourceRegistry } from '../../../shared/api/resources';
import type { KubectlCatalog } from '../../../shared/protocol/methods';
import { complete, resolveType, type CompletionSource } from './completion';

const catalog: KubectlCatalog = {
  commands: [
    { path: ['create'], aliases: [], short: '', runnable: true, flags: [{ name: 'filename', shorthand: 'f', type: 'stringSlice' }] },
    { path: ['create', 'deployment'], aliases: ['deploy'], short: '', runnable: true, flags: [{ name: 'image', type: 'stringSlice' }] },
    { path: ['create', 'namespace'], aliases: ['ns'], short: '', runnable: true, flags: [] },
    { path: ['get'], aliases: [], short: '', runnable: true, flags: [
      { name: 'all-namespaces', shorthand: 'A', type: 'bool' },
      { name: 'output', shorthand: 'o', type: 'string' },
      { name: 'watch', shorthand: 'w', type: 'bool' },
    ] },
    { path: ['logs'], aliases: [], short: '', runnable: true, flags: [{ name: 'follow', shorthand: 'f', type: 'bool' }] },
    { path: ['rollout'], aliases: [], short: '', runnable: false, flags: [] },
    { path: ['rollout', 'status'], aliases: [], short: '', runnable: true, flags: [] },
    { path: ['rollout', 'restart'], aliases: [], short: '', runnable: true, flags: [] },
    { path: ['version'], aliases: [], short: '', runnable: true, flags: [] },
  ],
  globalFlags: [
    { name: 'namespace', shorthand: 'n', type: 'string' },
    { name: 'as', type: 'string' },
  ],
};

const objects: Record<string, string[]> = {
  '/pods': ['default/web-1', 'default/web-2', 'default/api-1', 'kube-system/coredns-1'],
  'apps/deployments': ['default/web', 'kube-system/coredns'],
  '/namespaces': ['default', 'kube-system', 'demo'],
  '/nodes': ['node-1', 'node-2'],
};

const source: CompletionSource = {
  catalog,
  resources: new ResourceRegistry().all(),
  namespace: 'default',
  objectNames(rt, namespace) {
    return (objects[`${rt.group}/${rt.resource}`] ?? [])
      .filter((key) => namespace === undefined || key.startsWith(`${namespace}/`))
      .map((key) => key.slice(key.indexOf('/') + 1));
  },
};

const tab = (text: string) => complete(text, source);

describe('console completion', () => {
  it('completes the program name and commands', () => {
    expect(tab('kub')).toEqual({ text: 'kubectl ', candidates: [] });
    expect(tab('kubectl ge')).toEqual({ text: 'kubectl get ', candidates: [] });
    expect(tab('kubectl ro')).toEqual({ text: 'kubectl rollout ', candidates: [] });
    expect(tab('kubectl rollout st')).toEqual({ text: 'kubectl rollout status ', candidates: [] });
    expect(tab('kubectl rollout re')).toEqual({ text: 'kubectl rollout restart ', candidates: [] });
    expect(tab('kubectl create de')).toEqual({ text: 'kubectl create deployment ', candidates: [] });
    expect(tab('get').text).toBe('get ');
  });

  it('lists the candidates when several match, completing their common prefix', () => {
    expect(tab('kubectl ')).toEqual({ text: 'kubectl ', candidates: ['create', 'get', 'logs', 'rollout', 'version'] });
  });

  it('completes kinds, then names of the kind in the namespace in effect', () => {
    expect(tab('kubectl get deploy')).toEqual({ text: 'kubectl get deployments ', candidates: [] });
    expect(tab('kubectl get pods w')).toEqual({ text: 'kubectl get pods web-', candidates: ['web-1', 'web-2'] });
    expect(tab('kubectl get po ')).toEqual({ text: 'kubectl get po ', candidates: ['api-1', 'web-1', 'web-2'] });
    expect(tab('kubectl -n kube-system get pods c')).toEqual({ text: 'kubectl -n kube-system get pods coredns-1 ', candidates: [] });
    expect(tab('kubectl get deploy -A c').text).toBe('kubectl get deploy -A coredns ');
    expect(tab('kubectl rollout status deployment/w')).toEqual({ text: 'kubectl rollout status deployment/web ', candidates: [] });
    expect(tab('kubectl logs a').text).toBe('kubectl logs api-1 ');
  });

  it('completes flags, and the values of -n and -o', () => {
    expect(tab('kubectl get pods --all')).toEqual({ text: 'kubectl get pods --all-namespaces ', candidates: [] });
    expect(tab('kubectl get pods --names')).toEqual({ text: 'kubectl get pods --namespace=', candidates: [] });
    expect(tab('kubectl get pods -n d')).toEqual({ text: 'kubectl get pods -n de', candidates: ['default', 'demo'] });
    expect(tab('kubectl get pods --namespace=ku').text).toBe('kubectl get pods --namespace=kube-system ');
    expect(tab('kubectl get pods -o y').text).toBe('kubectl get pods -o yaml ');
    expect(tab('kubectl get pods -o json')).toEqual({ text: 'kubectl get pods -o json', candidates: ['json', 'jsonpath='] });
  });

  it('offers nothing where nothing fits', () => {
    expect(tab('kubectl version x')).toEqual({ text: 'kubectl version x', candidates: [] });
    expect(tab('kubectl get nosuchkind x')).toEqual({ text: 'kubectl get nosuchkind x', candidates: [] });
  });

  it('resolves kinds by plural, singular, short name and group', () => {
    expect(resolveType(source.resources, 'po')?.resource).toBe('pods');
    expect(resolveType(source.resources, 'Deployment')?.group).toBe('apps');
    expect(resolveType(source.resources, 'deployments.apps')?.resource).toBe('deployments');
    expect(resolveType(source.resources, 'events')?.group).toBe('');
  });
});
