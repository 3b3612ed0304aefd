import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import { nameLine, omitManagedFields, printObjects, printerFor } from './print';
import { sortObjects } from './sort';

const deploy = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', managedFields: [{ manager: 'kubectl' }] },
  spec: { replicas: 2 },
} as unknown as KubeObject;
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p & q' }, spec: {} } as KubeObject;

function print(objects: KubeObject[], output: string, extra: Record<string, unknown> = {}): string[] {
  const lines: string[] = [];
  printObjects({ stdout: (l) => lines.push(l), stderr: () => {} }, objects, { output, ...extra });
  return lines;
}

describe('printObjects', () => {
  it('-o name: kind[.group]/name, with the operation when a command reports one', () => {
    expect(print([deploy, pod], 'name')).toEqual(['deployment.apps/web', 'pod/p & q']);
    expect(print([deploy], 'name', { operation: 'created' })).toEqual(['deployment.apps/web created']);
    expect(nameLine(pod)).toBe('pod/p & q');
  });

  it('-o yaml and -o json drop managedFields unless asked to keep them; YAML documents are separated', () => {
    expect(print([deploy, pod], 'yaml')).toEqual([
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      '  namespace: default',
      'spec:',
      '  replicas: 2',
      '---',
      'apiVersion: v1',
      'kind: Pod',
      'metadata:',
      '  name: p & q',
      'spec: {}',
    ]);
    expect(print([deploy], 'yaml', { showManagedFields: true })).toContain('  managedFields:');
    // Go's encoder: 4-space indent, sorted keys, HTML characters escaped.
    expect(print([pod], 'json')).toEqual(['{', '    "apiVersion": "v1",', '    "kind": "Pod",', '    "metadata": {', '        "name": "p \\u0026 q"', '    },', '    "spec": {}', '}']);
    expect(omitManagedFields({ apiVersion: 'v1', kind: 'List', metadata: {}, items: [deploy] } as unknown as KubeObject)).toEqual({
      apiVersion: 'v1',
      kind: 'List',
      metadata: {},
      items: [{ ...deploy, metadata: { name: 'web', namespace: 'default' } }],
    });
  });

  it('several objects as one List, as kubectl get prints them', () => {
    expect(print([pod], 'jsonpath={.kind} {.items[0].metadata.name}', { asList: true })).toEqual(['List p & q']);
    expect(print([deploy, pod], 'custom-columns=KIND:.kind,NAME:.metadata.name', { asList: true })).toEqual(['KIND         NAME', 'Deployment   web', 'Pod          p & q']);
  });

  it("kubectl's errors for unknown formats and missing templates", () => {
    expect(() => printerFor({ output: 'foo' })).toThrow(
      'unable to match a printer suitable for the output format "foo", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml',
    );
    expect(() => printerFor({ output: 'jsonpath' })).toThrow('template format specified but no template given');
    expect(() => printerFor({ output: 'custom-columns=NAME' })).toThrow('unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>');
    expect(() => printerFor({ output: 'jsonpath={.items[' })).toThrow('error parsing jsonpath {.items[, unterminated array');
    expect(printerFor({ output: 'wide' })).toBeUndefined();
  });

  it('reports a jsonpath that fails on the object as kubectl does', () => {
    expect(() => print([pod], 'jsonpath={.spec[0]}')).toThrow(/^error executing jsonpath "\{\.spec\[0\]\}": Error executing template: map\[string\]interface \{\} is not array or slice\. Printing more information/);
  });
});

describe('sortObjects (--sort-by)', () => {
  const item = (name: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, ...extra }) as unknown as KubeObject;

  it('orders by the field; quantities as quantities; objects without the field first', () => {
    const items = [item('b', { spec: { m: '1Gi' } }), item('a', { spec: { m: '100Mi' } }), item('c')];
    expect(sortObjects(items, '.metadata.name').map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(sortObjects(items, '{.spec.m}').map((o) => o.metadata.name)).toEqual(['c', 'a', 'b']);
  });

  it('fails when no object has the field', () => {
    expect(() => sortObjects([item('a')], '.spec.nothing')).toThrow('couldn\'t find any field with path "{.spec.nothing}" in the list of objects');
  });
});
