import type { StatefulSet } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import type { OwnerReference } from '../../../shared/api/types';
import {
  applyRevision,
  completeRollingUpdate,
  getParentNameAndOrdinal,
  getStatefulSetMaxUnavailable,
  identityMatches,
  inconsistentStatus,
  isClaimOwnerUpToDate,
  newRevision,
  newStatefulSetPod,
  newVersionedStatefulSetPod,
  nextRevision,
  podInOrdinalRange,
  sortByDescendingOrdinal,
  storageMatches,
  updateClaimOwnerRefForSetAndPod,
  type StatefulSetObj,
} from './stateful-set-utils';

function set(extra: Partial<StatefulSet['spec']> = {}, status: StatefulSet['status'] = { replicas: 0 }): StatefulSetObj {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 'set-uid', annotations: { team: 'a' } },
    spec: {
      serviceName: 'nginx',
      replicas: 3,
      selector: { matchLabels: { app: 'nginx' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }], volumes: [{ name: 'www', emptyDir: {} }, { name: 'cache', emptyDir: {} }] },
      },
      volumeClaimTemplates: [
        { metadata: { name: 'www', labels: { tier: 'data' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      ],
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      ...extra,
    },
    status,
  };
}

const named = (name: string): Pod => ({ metadata: { name } });

describe('ordinals and identity', () => {
  it('parses parent and ordinal from pod names', () => {
    expect(getParentNameAndOrdinal(named('web-0'))).toEqual({ parent: 'web', ordinal: 0 });
    expect(getParentNameAndOrdinal(named('my-db-12'))).toEqual({ parent: 'my-db', ordinal: 12 });
    expect(getParentNameAndOrdinal(named('web'))).toEqual({ parent: '', ordinal: -1 });
    expect(getParentNameAndOrdinal(named('web-x'))).toEqual({ parent: '', ordinal: -1 });
    expect(getParentNameAndOrdinal(named('web-99999999999'))).toEqual({ parent: 'web', ordinal: -1 });
  });

  it('honours spec.ordinals.start for the range', () => {
    const s = set({ ordinals: { start: 5 }, replicas: 2 });
    expect(podInOrdinalRange(named('web-4'), s)).toBe(false);
    expect(podInOrdinalRange(named('web-5'), s)).toBe(true);
    expect(podInOrdinalRange(named('web-6'), s)).toBe(true);
    expect(podInOrdinalRange(named('web-7'), s)).toBe(false);
  });

  it('builds a pod with name, labels, hostname, subdomain, owner and claim volumes replacing namesakes', () => {
    const pod = newStatefulSetPod(set(), 2);
    expect(pod.metadata.name).toBe('web-2');
    expect(pod.metadata.generateName).toBe('web-');
    expect(pod.metadata.namespace).toBe('default');
    expect(pod.metadata.labels).toEqual({ app: 'nginx', 'statefulset.kubernetes.io/pod-name': 'web-2', 'apps.kubernetes.io/pod-index': '2' });
    expect(pod.spec?.hostname).toBe('web-2');
    expect(pod.spec?.subdomain).toBe('nginx');
    expect(pod.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true, blockOwnerDeletion: true },
    ]);
    // The template's "www" volume is replaced by the claim; other volumes stay.
    expect(pod.spec?.volumes).toEqual([{ name: 'www', persistentVolumeClaim: { claimName: 'www-web-2' } }, { name: 'cache', emptyDir: {} }]);
    expect(identityMatches(set(), pod)).toBe(true);
    expect(storageMatches(set(), pod)).toBe(true);
    expect(identityMatches(set(), { ...pod, metadata: { ...pod.metadata, labels: { app: 'nginx' } } })).toBe(false);
    expect(storageMatches(set(), { ...pod, spec: { ...pod.spec!, volumes: [] } })).toBe(false);
  });

  it('sorts by descending ordinal', () => {
    expect(sortByDescendingOrdinal([named('web-1'), named('web-10'), named('web-2')]).map((p) => p.metadata?.name)).toEqual(['web-10', 'web-2', 'web-1']);
  });
});

describe('revisions', () => {
  it('stores the template as a $patch: replace patch and applies it back', () => {
    const s = set();
    const rev = newRevision(s, 1, 0);
    expect(rev.data).toEqual({ spec: { template: { ...s.spec!.template, $patch: 'replace' } } });
    expect(rev.metadata.labels?.app).toBe('nginx');
    expect(rev.metadata.annotations).toEqual({ team: 'a' });
    const changed = set({ template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } });
    const restored = applyRevision(changed, rev);
    expect(restored.spec?.template).toEqual(s.spec?.template);
    expect(restored.spec?.replicas).toBe(3);
    // The input is not modified.
    expect(changed.spec?.template?.spec?.containers[0]?.image).toBe('nginx:1.28');
    expect(nextRevision([])).toBe(1);
    expect(nextRevision([{ revision: 1 }, { revision: 4 }] as never)).toBe(5);
  });

  it('puts pods below the partition at the current revision, the rest at the update revision', () => {
    const current = set({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
    const update = set({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } },
    });
    const p1 = newVersionedStatefulSetPod(current, update, 'web-a', 'web-b', 1);
    const p2 = newVersionedStatefulSetPod(current, update, 'web-a', 'web-b', 2);
    expect(p1.metadata.labels?.['controller-revision-hash']).toBe('web-a');
    expect(p1.spec?.containers[0]?.image).toBe('nginx:1.27');
    expect(p2.metadata.labels?.['controller-revision-hash']).toBe('web-b');
    expect(p2.spec?.containers[0]?.image).toBe('nginx:1.28');
    // OnDelete: always the update revision.
    const onDelete = set({ updateStrategy: { type: 'OnDelete' } });
    expect(newVersionedStatefulSetPod(onDelete, update, 'web-a', 'web-b', 0).metadata.labels?.['controller-revision-hash']).toBe('web-b');
    // RollingUpdate without rollingUpdate: ordinals below status.currentReplicas stay current.
    const noRU = set({ updateStrategy: { type: 'RollingUpdate' } }, { replicas: 3, currentReplicas: 2 });
    expect(newVersionedStatefulSetPod(noRU, update, 'web-a', 'web-b', 1).metadata.labels?.['controller-revision-hash']).toBe('web-a');
    expect(newVersionedStatefulSetPod(noRU, update, 'web-a', 'web-b', 2).metadata.labels?.['controller-revision-hash']).toBe('web-b');
  });

  it('completes a rolling update once every replica is updated and ready', () => {
    const status = { replicas: 3, readyReplicas: 3, updatedReplicas: 3, currentReplicas: 1, currentRevision: 'a', updateRevision: 'b' };
    completeRollingUpdate(set(), status);
    expect(status).toMatchObject({ currentReplicas: 3, currentRevision: 'b' });
    const notReady = { replicas: 3, readyReplicas: 2, updatedReplicas: 3, currentReplicas: 1, currentRevision: 'a', updateRevision: 'b' };
    completeRollingUpdate(set(), notReady);
    expect(notReady.currentRevision).toBe('a');
    const onDelete = { replicas: 3, readyReplicas: 3, updatedReplicas: 3, currentReplicas: 0, currentRevision: 'a', updateRevision: 'b' };
    completeRollingUpdate(set({ updateStrategy: { type: 'OnDelete' } }), onDelete);
    expect(onDelete.currentRevision).toBe('a');
  });

  it('detects a status that needs writing', () => {
    const s = set({}, { replicas: 3, readyReplicas: 3, observedGeneration: 2, currentRevision: 'a', updateRevision: 'a', availableReplicas: 3 });
    expect(inconsistentStatus(s, { ...s.status!, replicas: 3 })).toBe(false);
    expect(inconsistentStatus(s, { ...s.status!, readyReplicas: 2 })).toBe(true);
    expect(inconsistentStatus(s, { ...s.status!, observedGeneration: 3 })).toBe(true);
    expect(inconsistentStatus(s, { ...s.status!, updateRevision: 'b' })).toBe(true);
  });

  it('scales maxUnavailable against replicas, rounding percentages down but never below 1', () => {
    expect(getStatefulSetMaxUnavailable(undefined, 5)).toBe(1);
    expect(getStatefulSetMaxUnavailable(2, 5)).toBe(2);
    expect(getStatefulSetMaxUnavailable('50%', 5)).toBe(2);
    expect(getStatefulSetMaxUnavailable('10%', 5)).toBe(1);
  });
});

describe('PVC retention policy ownerReferences', () => {
  const pod = (ordinal: number): Pod => ({ metadata: { name: `web-${ordinal}`, uid: `pod-${ordinal}` } });
  const claim = (refs: OwnerReference[] = []): PersistentVolumeClaim => ({
    metadata: { name: 'www-web-1', ownerReferences: refs },
  });
  const policySet = (whenDeleted: string, whenScaled: string, replicas = 3) =>
    set({ replicas, persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled } });
  const refsAfterUpdate = (s: StatefulSetObj, p: Pod, c: PersistentVolumeClaim = claim()) => {
    const copy = structuredClone(c);
    updateClaimOwnerRefForSetAndPod(copy, s, p);
    return (copy.metadata?.ownerReferences ?? []).map((r) => `${r.kind}/${r.name}/${r.controller}`);
  };

  it('Retain/Retain: no references', () => {
    expect(refsAfterUpdate(policySet('Retain', 'Retain'), pod(1))).toEqual([]);
    expect(isClaimOwnerUpToDate(claim(), policySet('Retain', 'Retain'), pod(1))).toBe(true);
  });

  it('whenDeleted Delete: the set controls the claim', () => {
    const s = policySet('Delete', 'Retain');
    expect(isClaimOwnerUpToDate(claim(), s, pod(1))).toBe(false);
    expect(refsAfterUpdate(s, pod(1))).toEqual(['StatefulSet/web/true']);
  });

  it('whenScaled Delete: the pod controls the claim only once it is scaled down', () => {
    expect(refsAfterUpdate(policySet('Retain', 'Delete', 3), pod(1))).toEqual([]);
    expect(refsAfterUpdate(policySet('Retain', 'Delete', 1), pod(1))).toEqual(['Pod/web-1/true']);
    expect(refsAfterUpdate(policySet('Delete', 'Delete', 3), pod(1))).toEqual(['StatefulSet/web/true']);
    expect(refsAfterUpdate(policySet('Delete', 'Delete', 1), pod(1))).toEqual(['Pod/web-1/true']);
    const scaled = policySet('Delete', 'Delete', 1);
    const owned = claim([{ apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: 'pod-1', controller: true, blockOwnerDeletion: true }]);
    expect(isClaimOwnerUpToDate(owned, scaled, pod(1))).toBe(true);
  });

  it('leaves claims of another controller or with stale references alone', () => {
    const s = policySet('Delete', 'Delete');
    const foreign = claim([{ apiVersion: 'v1', kind: 'Other', name: 'x', uid: 'x', controller: true }]);
    expect(isClaimOwnerUpToDate(foreign, s, pod(1))).toBe(true);
    expect(refsAfterUpdate(s, pod(1), foreign)).toEqual(['Other/x/true']);
    const stale = claim([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'old-uid', controller: true }]);
    expect(isClaimOwnerUpToDate(stale, s, pod(1))).toBe(true);
  });
});
