import { describe, expect, it } from 'vitest';
import { isStatusError } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { AdmissionOperation } from '../types';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';
import { namespaceLifecycle } from './namespace-lifecycle';

const ns = (name: string, phase = 'Active'): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } });
const cm = (namespace: string, name = 'c'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name } });
const cms = { group: '', resource: 'configmaps' };

function statusOf(fn: () => void) {
  try {
    fn();
  } catch (e) {
    if (isStatusError(e)) return e.status;
    throw e;
  }
  return undefined;
}

describe('NamespaceLifecycle', () => {
  const reader = new FakeReader([ns('default'), ns('dev'), ns('doomed', 'Terminating')]);
  const { ctx } = fakeAdmissionContext(reader);

  it('admits objects into active namespaces', () => {
    expect(statusOf(() => namespaceLifecycle.admit(admissionAttrs(cms, cm('dev')), ctx))).toBeUndefined();
  });

  it('answers NotFound for a missing namespace', () => {
    expect(statusOf(() => namespaceLifecycle.admit(admissionAttrs(cms, cm('nope')), ctx))).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "nope" not found',
      details: { name: 'nope', kind: 'namespaces' },
    });
  });

  it('refuses new content in a terminating namespace with the NamespaceTerminating cause', () => {
    expect(statusOf(() => namespaceLifecycle.admit(admissionAttrs(cms, cm('doomed', 'app')), ctx))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "app" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      reason: 'Forbidden',
      details: {
        name: 'app',
        group: '',
        kind: 'configmaps',
        causes: [{ reason: 'NamespaceTerminating', message: 'namespace doomed is being terminated', field: 'metadata.namespace' }],
      },
      code: 403,
    });
    // Updates and deletes in a terminating namespace go through (finalizers must be removable).
    const update = admissionAttrs(cms, cm('doomed', 'app'), { oldObject: cm('doomed', 'app') });
    expect(statusOf(() => namespaceLifecycle.admit(update, ctx))).toBeUndefined();
    const del = admissionAttrs(cms, undefined, { operation: AdmissionOperation.Delete, namespace: 'doomed', name: 'app' });
    expect(statusOf(() => namespaceLifecycle.admit(del, ctx))).toBeUndefined();
  });

  it('names generated objects by their generateName', () => {
    const obj: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'doomed', generateName: 'app-' } };
    expect(statusOf(() => namespaceLifecycle.admit(admissionAttrs(cms, obj), ctx))?.message).toMatch(/^configmaps "app-" is forbidden: /);
  });

  it('never lets default, kube-system or kube-public be deleted', () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const del = admissionAttrs({ group: '', resource: 'namespaces' }, undefined, { operation: AdmissionOperation.Delete, name });
      expect(statusOf(() => namespaceLifecycle.admit(del, ctx))).toMatchObject({
        code: 403,
        message: `namespaces "${name}" is forbidden: this namespace may not be deleted`,
      });
    }
    const del = admissionAttrs({ group: '', resource: 'namespaces' }, undefined, { operation: AdmissionOperation.Delete, name: 'dev' });
    expect(statusOf(() => namespaceLifecycle.admit(del, ctx))).toBeUndefined();
  });

  it('ignores cluster-scoped objects', () => {
    const sc: KubeObject = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' } };
    expect(statusOf(() => namespaceLifecycle.admit(admissionAttrs({ group: 'storage.k8s.io', resource: 'storageclasses' }, sc), ctx))).toBeUndefined();
  });
});
