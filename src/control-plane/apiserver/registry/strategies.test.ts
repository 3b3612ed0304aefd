import { describe, expect, it } from 'vitest';
import { builtinResourceTypes } from '../../../shared/api/resources';
import type { KubeObject } from '../../../shared/api/types';
import { VirtualClock } from '../../sim/virtual-clock';
import { beforeCreate } from './generic/rest';
import { strategyFor } from './strategies';
import { contextFor, create, invalidMessage, resourceType } from './test-harness';

describe('strategyFor', () => {
  it('gives every built-in a strategy matching its scope and subresources', () => {
    for (const rt of builtinResourceTypes) {
      const s = strategyFor(rt);
      expect(s.namespaceScoped, rt.resource).toBe(rt.namespaced);
      expect(s.status !== undefined, `${rt.resource} status`).toBe(rt.subresources.status);
      expect(s.scale !== undefined, `${rt.resource} scale`).toBe(rt.subresources.scale);
      expect(strategyFor(rt)).toBe(s);
    }
  });

  it('allows unconditional updates except where Kubernetes does not', () => {
    const conditional = builtinResourceTypes.filter((rt) => !strategyFor(rt).allowUnconditionalUpdate).map((rt) => `${rt.group}/${rt.resource}`);
    expect(conditional.sort()).toEqual(['apiextensions.k8s.io/customresourcedefinitions', 'coordination.k8s.io/leases', 'storage.k8s.io/volumeattachments']);
  });

  it('falls back to the generic strategy (ObjectMeta only) for kinds without rules', () => {
    const sa = create('', 'serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder' } });
    expect(sa.metadata.namespace).toBe('default');
    expect(invalidMessage(() => create('', 'serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'Builder' } }))).toMatch(
      /^ServiceAccount "Builder" is invalid: metadata.name: Invalid value: "Builder"/,
    );
    expect(strategyFor(resourceType('', 'serviceaccounts')).defaultGracePeriodSeconds(sa)).toBe(0);
  });
});

describe('beforeCreate', () => {
  it("reports the strategy's errors alone, not again from the common ObjectMeta check", () => {
    const rt = resourceType('', 'configmaps');
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', labels: { a: 'b c' } } };
    const message = invalidMessage(() => beforeCreate(strategyFor(rt), structuredClone(cm), contextFor(rt, new VirtualClock())));
    expect(message.startsWith('ConfigMap "c" is invalid: metadata.labels: Invalid value: "b c": ')).toBe(true);
    expect(message.match(/metadata.labels/g)).toHaveLength(1);
  });

  it('rejects path-segment-unsafe names for kinds without a DNS name rule', () => {
    const rt = resourceType('', 'events');
    const ev: KubeObject = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'a/b', namespace: 'default' }, involvedObject: { namespace: 'default' } };
    expect(invalidMessage(() => beforeCreate(strategyFor(rt), structuredClone(ev), contextFor(rt, new VirtualClock())))).toBe(
      'Event "a/b" is invalid: metadata.name: Invalid value: "a/b": may not contain \'/\'',
    );
  });
});
