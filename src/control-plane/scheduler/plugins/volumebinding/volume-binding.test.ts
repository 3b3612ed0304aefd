import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import { CycleState } from '../../framework/cycle-state';
import type { Handle } from '../../framework/handle';
import { makePod, podInfoOf } from '../../testing';
import { VolumeBinding } from './volume-binding';

function lister<T extends { metadata?: { name?: string; namespace?: string } }>(items: T[]) {
  return { get: (ns: string | undefined, name: string) => items.find((i) => i.metadata?.name === name && (i.metadata?.namespace ?? undefined) === ns) };
}

function plugin(pvcs: PersistentVolumeClaim[], classes: StorageClass[] = []): VolumeBinding {
  return new VolumeBinding({ persistentVolumeClaimLister: lister(pvcs), storageClassLister: lister(classes) } as unknown as Handle);
}

const podWithClaim = (claim: string) => {
  const pod = makePod('db');
  pod.spec!.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: claim } }];
  return podInfoOf(pod);
};

const claim = (name: string, spec: PersistentVolumeClaim['spec'] = {}, extra: Partial<PersistentVolumeClaim['metadata']> = {}): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'default', ...extra },
  spec,
});

describe('VolumeBinding PreFilter', () => {
  it('lets pods without claims and pods with bound claims through', () => {
    expect(plugin([]).preFilter(new CycleState(), podInfoOf(makePod('web')))).toEqual({});
    expect(plugin([claim('data', { volumeName: 'pv-1' })]).preFilter(new CycleState(), podWithClaim('data'))).toEqual({});
  });

  it('refuses a missing claim and a claim being deleted, for good', () => {
    expect(plugin([]).preFilter(new CycleState(), podWithClaim('task-pv-claim')).status).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['persistentvolumeclaim "task-pv-claim" not found'],
    });
    expect(plugin([claim('data', {}, { deletionTimestamp: '2026-01-01T00:00:00Z' })]).preFilter(new CycleState(), podWithClaim('data')).status?.reasons).toEqual([
      'persistentvolumeclaim "data" is being deleted',
    ]);
  });

  it('refuses unbound claims with immediate binding, but lets WaitForFirstConsumer claims wait for the node', () => {
    expect(plugin([claim('data')]).preFilter(new CycleState(), podWithClaim('data')).status?.reasons).toEqual(['pod has unbound immediate PersistentVolumeClaims']);
    const lazy: StorageClass = { metadata: { name: 'local' }, provisioner: 'x', volumeBindingMode: 'WaitForFirstConsumer' };
    expect(plugin([claim('data', { storageClassName: 'local' })], [lazy]).preFilter(new CycleState(), podWithClaim('data'))).toEqual({});
  });
});
