import { describe, expect, it } from 'vitest';
import { fieldErrorToString } from '../../../../shared/api/field-errors';
import type { KubeObject } from '../../../../shared/api/types';
import { create, invalidMessage, update } from '../test-harness';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta';
import { nameIsDNSSubdomain } from '../../../../shared/lib/validation';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function cm(metadata: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: {} };
}

function metaErrors(m: Record<string, unknown>, requiresNamespace = true): string[] {
  return validateObjectMeta(m, requiresNamespace, nameIsDNSSubdomain).map((e) => fieldErrorToString(e));
}

describe('ValidateObjectMeta through the strategies', () => {
  it('requires a name (B8)', () => {
    expect(invalidMessage(() => create('', 'configmaps', cm({})))).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  it('checks the name format per kind (B8, B9)', () => {
    expect(invalidMessage(() => create('', 'pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'My_Pod' }, spec: { containers: [{ name: 'a', image: 'x' }] } }))).toBe(
      `Pod "My_Pod" is invalid: metadata.name: Invalid value: "My_Pod": ${subdomainMsg}`,
    );
    expect(invalidMessage(() => create('', 'services', { apiVersion: 'v1', kind: 'Service', metadata: { name: '1web' }, spec: { ports: [{ port: 80 }] } }))).toBe(
      `Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    );
    expect(invalidMessage(() => create('', 'namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a.b' } }))).toBe(
      'Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": must not contain dots',
    );
    // RBAC names only need to be path segments.
    const role = create('rbac.authorization.k8s.io', 'clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:Reader' }, rules: [] });
    expect(role.metadata.name).toBe('system:Reader');
    expect(invalidMessage(() => create('', 'configmaps', cm({ name: 'x'.repeat(254) })))).toContain('metadata.name: Invalid value: "xxxx');
    expect(invalidMessage(() => create('', 'configmaps', cm({ name: 'x'.repeat(254) })))).toContain(': must be no more than 253 characters');
  });

  it('requires a namespace for namespaced kinds and forbids one for cluster-scoped kinds', () => {
    expect(metaErrors({ name: 'a' })).toEqual(['metadata.namespace: Required value']);
    expect(metaErrors({ name: 'a', namespace: 'Bad' })[0]).toMatch(/^metadata.namespace: Invalid value: "Bad": a lowercase RFC 1123 label/);
    expect(metaErrors({ name: 'a', namespace: 'x' }, false)).toEqual(['metadata.namespace: Forbidden: not allowed on this type']);
  });

  it('validates labels with the exact texts (B10)', () => {
    expect(invalidMessage(() => create('', 'configmaps', cm({ name: 'c', labels: { app: 'bad value!' } })))).toBe(
      `ConfigMap "c" is invalid: metadata.labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    );
    const labels = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    expect(invalidMessage(() => create('', 'configmaps', cm({ name: 'c', labels })))).toBe(
      `ConfigMap "c" is invalid: metadata.labels: Invalid value: "__proto__": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  });

  it('limits the total annotation size to 256 KiB (B29)', () => {
    const ok = create('', 'configmaps', cm({ name: 'c', annotations: { a: 'x'.repeat(262143) } }));
    expect(ok.metadata.annotations?.a).toHaveLength(262143);
    expect(invalidMessage(() => create('', 'configmaps', cm({ name: 'c', annotations: { a: 'x'.repeat(262144) } })))).toBe(
      'ConfigMap "c" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes',
    );
    // Keys are checked lower-cased.
    expect(create('', 'configmaps', cm({ name: 'c', annotations: { 'Example.com/Key': 'v' } })).metadata.name).toBe('c');
  });

  it('validates ownerReferences and allows one controller (B27)', () => {
    const ref = (name: string, controller?: boolean) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: `u-${name}`, controller });
    expect(invalidMessage(() => create('', 'configmaps', cm({ name: 'c', ownerReferences: [ref('a', true), ref('b', true)] })))).toBe(
      'ConfigMap "c" is invalid: metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"u-a","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"u-b","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
    );
    expect(metaErrors({ name: 'c', namespace: 'd', ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] })).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    ]);
    expect(metaErrors({ name: 'c', namespace: 'd', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] })[0]).toBe(
      'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
    );
  });

  it('validates finalizers (B28)', () => {
    expect(invalidMessage(() => create('', 'configmaps', cm({ name: 'c', finalizers: ['orphan', 'foregroundDeletion'] })))).toBe(
      'ConfigMap "c" is invalid: metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    );
    expect(invalidMessage(() => create('', 'configmaps', cm({ name: 'c', finalizers: ['custom'] })))).toBe(
      'ConfigMap "c" is invalid: metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    );
    expect(create('', 'configmaps', cm({ name: 'c', finalizers: ['example.com/hold', 'kubernetes'] })).metadata.finalizers).toEqual(['example.com/hold', 'kubernetes']);
  });

  it('validates generateName as a prefix', () => {
    expect(metaErrors({ generateName: 'web-', name: 'web-x7k2q', namespace: 'd' })).toEqual([]);
    expect(metaErrors({ generateName: 'Web-', name: 'web-x', namespace: 'd' })[0]).toBe(`metadata.generateName: Invalid value: "Web-": ${subdomainMsg}`);
  });
});

describe('ValidateObjectMetaUpdate', () => {
  const stored = create('', 'configmaps', cm({ name: 'c', finalizers: ['example.com/hold'] }));

  it('keeps identity fields immutable', () => {
    const errs = validateObjectMetaUpdate({ ...stored.metadata, name: 'd', namespace: 'other', uid: 'x' }, stored.metadata).map((e) => fieldErrorToString(e));
    expect(errs).toEqual([
      'metadata.name: Invalid value: "d": field is immutable',
      'metadata.namespace: Invalid value: "other": field is immutable',
      'metadata.uid: Invalid value: "x": field is immutable',
    ]);
  });

  it('requires a resourceVersion and forbids decrementing generation', () => {
    const errs = validateObjectMetaUpdate({ ...stored.metadata, resourceVersion: '', generation: 1 }, { ...stored.metadata, generation: 2 }).map((e) =>
      fieldErrorToString(e),
    );
    expect(errs).toEqual(['metadata.resourceVersion: Invalid value: "": must be specified for an update', 'metadata.generation: Invalid value: 1: must not be decremented']);
  });

  it('forbids new finalizers on an object being deleted (B28)', () => {
    const deleting = { ...stored, metadata: { ...stored.metadata, deletionTimestamp: '2026-01-01T00:00:10Z', deletionGracePeriodSeconds: 0 } };
    const next = { ...deleting, metadata: { ...deleting.metadata, finalizers: ['example.com/hold', 'x.io/new', 'a.io/b'] } };
    expect(invalidMessage(() => update('', 'configmaps', next, deleting))).toBe(
      'ConfigMap "c" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a.io/b", "x.io/new"}',
    );
  });

  it('restores system fields an update may not change', () => {
    const next = update('', 'configmaps', { ...stored, metadata: { ...stored.metadata, uid: undefined, creationTimestamp: '1999-01-01T00:00:00Z' } }, stored);
    expect(next.metadata.uid).toBe(stored.metadata.uid);
    expect(next.metadata.creationTimestamp).toBe(stored.metadata.creationTimestamp);
  });
});
