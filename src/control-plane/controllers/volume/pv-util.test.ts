import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { findBestMatchForClaim } from './pv-util';

const volume = (name: string, storage: string, extra: Partial<NonNullable<PersistentVolume['spec']>> = {}, phase = 'Available'): PersistentVolume => ({
  metadata: { name },
  spec: { storageClassName: 'manual', capacity: { storage }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/mnt/${name}` }, ...extra },
  status: { phase },
});

const claim = (storage: string, extra: Partial<NonNullable<PersistentVolumeClaim['spec']>> = {}): PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'default', uid: 'u1' },
  spec: { storageClassName: 'manual', accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...extra },
});

describe('findBestMatchForClaim', () => {
  it('takes the smallest volume of the class whose capacity and access modes cover the claim', () => {
    const vols = [volume('10g', '10Gi'), volume('2g', '2Gi'), volume('1500m', '1500Mi'), volume('1g', '1Gi'), volume('other', '2Gi', { storageClassName: 'slow' })];
    expect(findBestMatchForClaim(claim('1500Mi'), vols, false)?.metadata?.name).toBe('1500m');
    expect(findBestMatchForClaim(claim('3Gi'), vols, false)?.metadata?.name).toBe('10g');
    expect(findBestMatchForClaim(claim('11Gi'), vols, false)).toBeUndefined();
    expect(findBestMatchForClaim(claim('1Gi', { accessModes: ['ReadWriteMany'] }), vols, false)).toBeUndefined();
  });

  it('skips volumes bound elsewhere, Released or being deleted; a volume pre-bound to the claim wins even with delayed binding', () => {
    const taken = volume('taken', '1Gi', { claimRef: { namespace: 'default', name: 'other' } });
    const released = volume('released', '1Gi', {}, 'Released');
    const deleting = { ...volume('deleting', '1Gi'), metadata: { name: 'deleting', deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect(findBestMatchForClaim(claim('1Gi'), [taken, released, deleting], false)).toBeUndefined();
    const mine = volume('mine', '5Gi', { claimRef: { namespace: 'default', name: 'data' } });
    const free = volume('free', '1Gi');
    expect(findBestMatchForClaim(claim('1Gi'), [free, mine], true)?.metadata?.name).toBe('mine');
    expect(findBestMatchForClaim(claim('1Gi'), [free], true)).toBeUndefined();
    expect(findBestMatchForClaim(claim('1Gi'), [free], false)?.metadata?.name).toBe('free');
  });
});
