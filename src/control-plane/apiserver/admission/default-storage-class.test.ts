import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { defaultStorageClass } from './default-storage-class';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';

const pvcs = { group: '', resource: 'persistentvolumeclaims' };
const sc = (name: string, created: string, isDefault: boolean): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {} },
  provisioner: 'example.com/disk',
});
const pvc = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { namespace: 'default', name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});

describe('DefaultStorageClass', () => {
  it('gives a claim without a class the default class, the newest when several are default', () => {
    const reader = new FakeReader([
      sc('standard', '2026-01-01T00:00:00Z', true),
      sc('fast', '2026-01-02T00:00:00Z', true),
      sc('slow', '2026-01-03T00:00:00Z', false),
    ]);
    const claim = pvc({});
    defaultStorageClass.admit(admissionAttrs(pvcs, claim), fakeAdmissionContext(reader).ctx);
    expect((claim.spec as { storageClassName?: string }).storageClassName).toBe('fast');
  });

  it('leaves an explicit class, even "", alone, and does nothing without a default', () => {
    const reader = new FakeReader([sc('standard', '2026-01-01T00:00:00Z', true)]);
    const { ctx } = fakeAdmissionContext(reader);
    const empty = pvc({ storageClassName: '' });
    defaultStorageClass.admit(admissionAttrs(pvcs, empty), ctx);
    expect((empty.spec as { storageClassName?: string }).storageClassName).toBe('');
    const none = pvc({});
    defaultStorageClass.admit(admissionAttrs(pvcs, none), fakeAdmissionContext(new FakeReader([sc('x', '2026-01-01T00:00:00Z', false)])).ctx);
    expect((none.spec as { storageClassName?: string }).storageClassName).toBeUndefined();
  });
});
