// ReplicaSet, StatefulSet, DaemonSet and ControllerRevision rules.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/api/types';
import { strategyFor } from '../strategies';
import { create, invalidMessage, podTemplate, resourceType, update } from '../test-harness';
import { statefulSetSpecForbiddenMsg } from './statefulset/strategy';

type Obj = Record<string, any>;

const obj = (kind: string, spec: Obj, name = 'w'): KubeObject => ({ apiVersion: 'apps/v1', kind, metadata: { name }, spec });
const selected = (extra: Obj = {}) => ({ selector: { matchLabels: { app: 'w' } }, template: podTemplate({ app: 'w' }), ...extra });

describe('ReplicaSet', () => {
  it('defaults replicas, tracks generation, keeps the selector immutable', () => {
    const rs = create('apps', 'replicasets', obj('ReplicaSet', selected()));
    expect((rs.spec as Obj).replicas).toBe(1);
    expect(rs.metadata.generation).toBe(1);
    const next = { ...rs, spec: { ...(rs.spec as Obj), selector: { matchLabels: { app: 'w', v: '2' } } } };
    expect(invalidMessage(() => update('apps', 'replicasets', next, rs))).toBe(
      'ReplicaSet.apps "w" is invalid: [spec.template.metadata.labels: Invalid value: {"app":"w"}: `selector` does not match template `labels`, spec.selector: Invalid value: {"matchLabels":{"app":"w","v":"2"}}: field is immutable]',
    );
  });

  it('uses Kubernetes\' wording for an empty selector', () => {
    expect(invalidMessage(() => create('apps', 'replicasets', obj('ReplicaSet', selected({ selector: {} }))))).toBe(
      'ReplicaSet.apps "w" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    );
  });

  it('selects on status.replicas', () => {
    const rs = create('apps', 'replicasets', obj('ReplicaSet', selected()));
    expect(strategyFor(resourceType('apps', 'replicasets')).selectableFields?.({ ...rs, status: { replicas: 3 } })['status.replicas']).toBe('3');
  });
});

describe('StatefulSet', () => {
  const sts = () => obj('StatefulSet', selected({ serviceName: 'w', volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] }));

  it('applies the StatefulSet defaults, claim templates included', () => {
    const s = create('apps', 'statefulsets', sts());
    const spec = s.spec as Obj;
    expect(spec.replicas).toBe(1);
    expect(spec.podManagementPolicy).toBe('OrderedReady');
    expect(spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.persistentVolumeClaimRetentionPolicy).toEqual({ whenDeleted: 'Retain', whenScaled: 'Retain' });
    expect(spec.volumeClaimTemplates[0].spec.volumeMode).toBe('Filesystem');
    expect(spec.volumeClaimTemplates[0].status).toEqual({ phase: 'Pending' });
  });

  it('lets mounts reference claim templates', () => {
    const withMount = sts();
    (withMount.spec as Obj).template.spec.containers[0].volumeMounts = [{ name: 'data', mountPath: '/data' }];
    expect(create('apps', 'statefulsets', withMount).metadata.name).toBe('w');
  });

  it('forbids changes outside the mutable fields (B15)', () => {
    const s = create('apps', 'statefulsets', sts());
    const next = { ...s, spec: { ...(s.spec as Obj), volumeClaimTemplates: [] } };
    expect(invalidMessage(() => update('apps', 'statefulsets', next, s))).toBe(`StatefulSet.apps "w" is invalid: spec: Forbidden: ${statefulSetSpecForbiddenMsg}`);
    expect(statefulSetSpecForbiddenMsg).toBe(
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
    const scaled = update('apps', 'statefulsets', { ...s, spec: { ...(s.spec as Obj), replicas: 3 } }, s);
    expect(scaled.metadata.generation).toBe(2);
  });

  it('checks policies', () => {
    expect(invalidMessage(() => create('apps', 'statefulsets', obj('StatefulSet', selected({ podManagementPolicy: 'Fast' }))))).toBe(
      'StatefulSet.apps "w" is invalid: spec.podManagementPolicy: Invalid value: "Fast": must be \'OrderedReady\' or \'Parallel\'',
    );
    expect(invalidMessage(() => create('apps', 'statefulsets', obj('StatefulSet', selected({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } }))))).toBe(
      'StatefulSet.apps "w" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy \'RollingUpdate\'',
    );
  });
});

describe('DaemonSet', () => {
  it('defaults the update strategy and revision history', () => {
    const ds = create('apps', 'daemonsets', obj('DaemonSet', selected()));
    expect((ds.spec as Obj).updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect((ds.spec as Obj).revisionHistoryLimit).toBe(10);
    expect(ds.metadata.generation).toBe(1);
  });

  it('needs exactly one of maxUnavailable and maxSurge', () => {
    const ru = (r: Obj) => obj('DaemonSet', selected({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: r } }));
    expect(invalidMessage(() => create('apps', 'daemonsets', ru({ maxUnavailable: 0, maxSurge: 0 })))).toBe(
      'DaemonSet.apps "w" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    );
    expect(invalidMessage(() => create('apps', 'daemonsets', ru({ maxUnavailable: 1, maxSurge: 1 })))).toBe(
      'DaemonSet.apps "w" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
    );
  });

  it('keeps the selector immutable', () => {
    const ds = create('apps', 'daemonsets', obj('DaemonSet', selected()));
    const next = { ...ds, spec: { ...(ds.spec as Obj), selector: { matchLabels: { app: 'w' }, matchExpressions: [{ key: 'x', operator: 'Exists' }] } } };
    expect(invalidMessage(() => update('apps', 'daemonsets', next, ds))).toMatch(/spec.selector: Invalid value: .*: field is immutable/);
  });
});

describe('ControllerRevision', () => {
  it('requires data and keeps it immutable', () => {
    const cr = (data: unknown): KubeObject => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, data, revision: 1 });
    expect(invalidMessage(() => create('apps', 'controllerrevisions', cr(undefined)))).toBe('ControllerRevision.apps "r" is invalid: data: Required value: data is mandatory');
    const stored = create('apps', 'controllerrevisions', cr({ spec: { a: 1 } }));
    expect(invalidMessage(() => update('apps', 'controllerrevisions', { ...stored, data: { spec: { a: 2 } } }, stored))).toBe(
      'ControllerRevision.apps "r" is invalid: data: Invalid value: {"spec":{"a":2}}: field is immutable',
    );
  });
});
