import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../shared/api/types';
import { strategyFor } from '../../strategies';
import { create, invalidMessage, podTemplate, resourceType, update } from '../../test-harness';

type Obj = Record<string, any>;

function deployment(spec: Obj, name = 'web'): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec };
}

const good = () => deployment({ selector: { matchLabels: { app: 'web' } }, template: podTemplate({ app: 'web' }) });

describe('Deployment defaults', () => {
  it('applies SetDefaults_Deployment and template PodSpec defaults', () => {
    const d = create('apps', 'deployments', good());
    const spec = d.spec as Obj;
    expect(spec.replicas).toBe(1);
    expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.progressDeadlineSeconds).toBe(600);
    expect(spec.template.spec.restartPolicy).toBe('Always');
    expect(spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    // SetDefaults_Pod does not run on templates.
    expect(spec.template.spec.enableServiceLinks).toBeUndefined();
    expect(d.metadata.generation).toBe(1);
    expect(d.status).toBeUndefined();
  });

  it('leaves a Recreate strategy without rollingUpdate', () => {
    const d = create('apps', 'deployments', { ...good(), spec: { ...(good().spec as Obj), strategy: { type: 'Recreate' } } });
    expect((d.spec as Obj).strategy).toEqual({ type: 'Recreate' });
  });
});

describe('Deployment validation', () => {
  const msg = (d: KubeObject) => invalidMessage(() => create('apps', 'deployments', d));

  it('requires the template labels to match the selector (B12)', () => {
    expect(msg(deployment({ selector: { matchLabels: { app: 'web' } }, template: podTemplate({ app: 'x' }) }))).toBe(
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`',
    );
  });

  it('requires a selector (B12)', () => {
    expect(msg(deployment({ template: podTemplate({ app: 'broken' }) }))).toBe(
      'Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"broken"}: `selector` does not match template `labels`]',
    );
    expect(msg(deployment({ selector: {}, template: podTemplate({ app: 'web' }) }))).toBe(
      'Deployment.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    );
  });

  it('rejects negative replicas (B16)', () => {
    expect(msg({ ...good(), spec: { ...(good().spec as Obj), replicas: -1 } })).toBe(
      'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
  });

  it('requires restartPolicy Always in the template', () => {
    expect(msg(deployment({ selector: { matchLabels: { app: 'web' } }, template: podTemplate({ app: 'web' }, { restartPolicy: 'Never' }) }))).toBe(
      'Deployment.apps "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    );
  });

  it('validates the rolling update parameters', () => {
    const withRU = (ru: Obj) => ({ ...good(), spec: { ...(good().spec as Obj), strategy: { type: 'RollingUpdate', rollingUpdate: ru } } });
    expect(msg(withRU({ maxSurge: 0, maxUnavailable: 0 }))).toBe(
      'Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    );
    expect(msg(withRU({ maxSurge: '0%', maxUnavailable: '150%' }))).toBe(
      'Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
    );
    expect(msg(withRU({ maxSurge: 'lots', maxUnavailable: 1 }))).toBe(
      "Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: \"lots\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    );
    expect(msg({ ...good(), spec: { ...(good().spec as Obj), strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } } })).toBe(
      "Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
  });

  it('needs progressDeadlineSeconds above minReadySeconds', () => {
    expect(msg({ ...good(), spec: { ...(good().spec as Obj), minReadySeconds: 700 } })).toBe(
      'Deployment.apps "web" is invalid: spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
    );
  });
});

describe('Deployment updates', () => {
  const stored = create('apps', 'deployments', good());
  const withSpec = (changes: Obj): KubeObject => ({ ...stored, spec: { ...(stored.spec as Obj), ...changes } });

  it('bumps generation on spec and annotation changes only', () => {
    expect(update('apps', 'deployments', withSpec({ replicas: 3 }), stored).metadata.generation).toBe(2);
    expect(update('apps', 'deployments', { ...stored, metadata: { ...stored.metadata, annotations: { note: 'x' } } }, stored).metadata.generation).toBe(2);
    expect(update('apps', 'deployments', { ...stored, metadata: { ...stored.metadata, labels: { x: 'y' } } }, stored).metadata.generation).toBe(1);
    // A client-sent generation is ignored.
    expect(update('apps', 'deployments', { ...stored, metadata: { ...stored.metadata, generation: 9 } }, stored).metadata.generation).toBe(1);
  });

  it('keeps the selector immutable (B13)', () => {
    const next = withSpec({ selector: { matchLabels: { app: 'api' } }, template: podTemplate({ app: 'api' }) });
    expect(invalidMessage(() => update('apps', 'deployments', next, stored))).toBe(
      'Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"api"}}: field is immutable',
    );
  });

  it('status writes keep spec and labels and never bump generation', () => {
    const s = update(
      'apps',
      'deployments',
      { ...stored, metadata: { ...stored.metadata, labels: { hacked: 'yes' } }, spec: { ...(stored.spec as Obj), replicas: 9 }, status: { replicas: 1, observedGeneration: 1 } },
      stored,
      'status',
    );
    expect((s.spec as Obj).replicas).toBe(1);
    expect(s.metadata.labels).toBeUndefined();
    expect(s.status).toEqual({ replicas: 1, observedGeneration: 1 });
    expect(s.metadata.generation).toBe(1);
    expect(invalidMessage(() => update('apps', 'deployments', { ...stored, status: { replicas: 1, readyReplicas: 2 } }, stored, 'status'))).toBe(
      'Deployment.apps "web" is invalid: status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    );
  });

  it('spec writes keep the stored status', () => {
    const withStatus = update('apps', 'deployments', { ...stored, status: { replicas: 1 } }, stored, 'status');
    const next = update('apps', 'deployments', { ...withStatus, status: { replicas: 50 } }, withStatus);
    expect(next.status).toEqual({ replicas: 1 });
  });

  it('describes the scale subresource', () => {
    const scale = strategyFor(resourceType('apps', 'deployments')).scale!;
    expect(scale.specReplicasPath).toBe('.spec.replicas');
    expect(scale.statusReplicasPath).toBe('.status.replicas');
    expect(scale.selector(stored)).toBe('app=web');
  });
});
