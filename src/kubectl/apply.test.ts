import { describe, expect, it } from 'vitest';
import { builtinSchemaHints } from '../control-plane/apiserver/patch/list-types';
import type { JsonObject } from '../control-plane/apiserver/patch/json-value';
import type { KubeObject } from '../shared/api/types';
import { goJsonEncode, lastAppliedConfigAnnotation, modifiedConfiguration, threeWayMergePatch, withLastApplied } from './apply';

const cm = (data: Record<string, string>, annotations?: Record<string, string>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo', namespace: 'default', ...(annotations ? { annotations } : {}) }, data }) as KubeObject;

describe('modifiedConfiguration (util.GetModifiedConfiguration)', () => {
  it('encodes as Go does: sorted keys, HTML-escaped strings, big integers exact, a trailing newline, without the annotation', () => {
    const obj = cm({ z: '<a&b>', a: '1' }, { [lastAppliedConfigAnnotation]: 'old', note: 'x' });
    expect(modifiedConfiguration(obj)).toBe(
      '{"apiVersion":"v1","data":{"a":"1","z":"\\u003ca\\u0026b\\u003e"},"kind":"ConfigMap","metadata":{"annotations":{"note":"x"},"name":"demo","namespace":"default"}}\n',
    );
    expect(goJsonEncode({ n: 9007199254740993n })).toBe('{"n":9007199254740993}');
  });

  it('withLastApplied adds the annotation holding the configuration without itself', () => {
    const annotated = withLastApplied(cm({ a: '1' }));
    expect(annotated.metadata.annotations?.[lastAppliedConfigAnnotation]).toBe(modifiedConfiguration(cm({ a: '1' })));
    // Re-encoding an object whose only annotation was the last-applied one leaves an empty map, as kubectl does.
    expect(modifiedConfiguration(annotated)).toContain('"metadata":{"annotations":{},"name":"demo"');
  });
});

describe('threeWayMergePatch', () => {
  const hints = builtinSchemaHints('Deployment');
  const deployment = (containers: JsonObject[]): JsonObject => ({ spec: { template: { spec: { containers } } } });

  it('is empty when modified matches current, whatever the server added', () => {
    const modified = { metadata: { labels: { app: 'a' } }, spec: { replicas: 2 } };
    const current = { metadata: { labels: { app: 'a', extra: 'b' }, uid: 'u' }, spec: { replicas: 2, paused: false } };
    expect(threeWayMergePatch(modified, modified, current, hints)).toEqual({});
  });

  it('sets changes and additions, and nulls what the last configuration had and the new one drops', () => {
    const original = { metadata: { labels: { app: 'a', tier: 'web' } }, spec: { replicas: 2 } };
    const modified = { metadata: { labels: { app: 'a', team: 't' } }, spec: { replicas: 3 } };
    const current = { metadata: { labels: { app: 'a', tier: 'web', owner: 'ops' } }, spec: { replicas: 2 } };
    expect(threeWayMergePatch(original, modified, current, hints)).toEqual({ metadata: { labels: { team: 't', tier: null } }, spec: { replicas: 3 } });
  });

  it('patches containers by name with $setElementOrder and deletes removed ones with $patch: delete', () => {
    const original = deployment([{ name: 'a', image: 'x:1' }, { name: 'b', image: 'y:1' }]);
    const modified = deployment([{ name: 'a', image: 'x:2' }]);
    const current = deployment([{ name: 'a', image: 'x:1', imagePullPolicy: 'IfNotPresent' }, { name: 'b', image: 'y:1' }]);
    expect(threeWayMergePatch(original, modified, current, hints)).toEqual({
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'a' }],
            containers: [{ name: 'a', image: 'x:2' }, { name: 'b', $patch: 'delete' }],
          },
        },
      },
    });
  });

  it('replaces other lists whole, and every list without hints (JSON merge patch)', () => {
    const original = deployment([{ name: 'a', args: ['1', '2'] }]);
    const modified = deployment([{ name: 'a', args: ['1'] }]);
    expect(threeWayMergePatch(original, modified, original, hints)).toEqual({
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'a', args: ['1'] }] } } },
    });
    expect(threeWayMergePatch(original, modified, original, undefined)).toEqual({ spec: { template: { spec: { containers: [{ name: 'a', args: ['1'] }] } } } });
  });
});
