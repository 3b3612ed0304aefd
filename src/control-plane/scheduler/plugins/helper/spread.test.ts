import { describe, expect, it } from 'vitest';
import type { Pod, Service } from 'kubernetes-types/core/v1';
import type { ReplicaSet } from 'kubernetes-types/apps/v1';
import { deepFreeze } from '../../../../shared/lib/deep-freeze';
import { selectorToString } from '../../../../shared/lib/labels';
import { defaultSelector } from './spread';


function lister<T extends { metadata?: { name?: string; namespace?: string } }>(items: T[]) {
  return {
    get: (ns: string | undefined, name: string) => items.find((i) => i.metadata?.name === name && (i.metadata?.namespace ?? '') === (ns ?? '')),
    getByKey: () => undefined,
    list: () => items,
    listNamespace: (ns: string) => items.filter((i) => i.metadata?.namespace === ns),
    byIndex: () => [],
    byIndexInListOrder: () => [],
  };
}

const rs = (selector: Record<string, string>): ReplicaSet =>
  deepFreeze({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-1', namespace: 'default', uid: 'rs-uid' }, spec: { selector: { matchLabels: selector }, template: {} } });

const pod = (name: string, labels: Record<string, string>): Pod =>
  deepFreeze({
    metadata: { name, namespace: 'default', labels, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs-uid', controller: true }] },
    spec: { containers: [] },
  });

describe('defaultSelector', () => {
  it("gives the pods of one ReplicaSet its selector, and follows the ReplicaSet when it is replaced", () => {
    let sets = [rs({ app: 'web', 'pod-template-hash': '1' })];
    const handle = { serviceLister: lister<Service>([]) as never, replicaSetLister: { ...lister<ReplicaSet>([]), get: () => sets[0] } as never };
    const a = defaultSelector(pod('a', { app: 'web', 'pod-template-hash': '1' }), handle);
    const b = defaultSelector(pod('b', { app: 'web', 'pod-template-hash': '1' }), handle);
    expect(selectorToString(a)).toBe('app=web,pod-template-hash=1');
    expect(b).toBe(a);
    sets = [rs({ app: 'api' })];
    expect(selectorToString(defaultSelector(pod('c', { app: 'api' }), handle))).toBe('app=api');
  });

  it('merges the selectors of the Services selecting the pod before the controller', () => {
    const svc: Service = deepFreeze({ metadata: { name: 'web', namespace: 'default' }, spec: { selector: { tier: 'front' } } });
    const handle = { serviceLister: lister<Service>([svc]) as never, replicaSetLister: lister<ReplicaSet>([rs({ app: 'web' })]) as never };
    expect(selectorToString(defaultSelector(pod('a', { app: 'web', tier: 'front' }), handle))).toBe('tier=front,app=web');
    // A pod the Service does not select gets the controller's selector alone.
    expect(selectorToString(defaultSelector(pod('b', { app: 'web' }), handle))).toBe('app=web');
  });
});
