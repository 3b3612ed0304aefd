import { describe, expect, it } from 'vitest';
import { builtinResourceTypes } from '../resources';
import { allDefinitions, definition, definitionNameForKind, resolveRef, schemaForKind, schemaKinds, type JSONSchemaDefinition } from './index';

const prop = (def: string, field: string): JSONSchemaDefinition => {
  const p = definition(def)?.properties?.[field];
  if (!p) throw new Error(`${def}.${field} missing`);
  return p;
};

describe('generated Kubernetes schemas', () => {
  it('names definitions like the OpenAPI document and records the Go struct name', () => {
    const spec = definition('io.k8s.api.apps.v1.DeploymentSpec');
    expect(spec?.type).toBe('object');
    expect(spec?.['x-go-name']).toBe('DeploymentSpec');
    expect(spec?.description).toMatch(/^DeploymentSpec is the specification/);
    expect(spec?.required).toEqual(['selector', 'template']);
    expect(definition('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')?.['x-go-name']).toBe('ObjectMeta');
    expect(definition('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition')).toBeDefined();
    expect(definition('toString')).toBeUndefined();
  });

  it('keeps every field description from the JSDoc', () => {
    expect(prop('io.k8s.api.apps.v1.DeploymentSpec', 'replicas').description).toMatch(/^Number of desired pods/);
    expect(prop('io.k8s.api.core.v1.Container', 'image').description).toMatch(/Container image name/);
  });

  it('types integers as Kubernetes declares them', () => {
    expect(prop('io.k8s.api.apps.v1.DeploymentSpec', 'replicas')).toMatchObject({ type: 'integer', format: 'int32' });
    expect(prop('io.k8s.api.core.v1.PodSpec', 'activeDeadlineSeconds')).toMatchObject({ type: 'integer', format: 'int64' });
    expect(prop('io.k8s.api.core.v1.PodSpec', 'terminationGracePeriodSeconds')).toMatchObject({ format: 'int64' });
    expect(prop('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'generation')).toMatchObject({ format: 'int64' });
    expect(prop('io.k8s.api.apps.v1.ControllerRevision', 'revision')).toMatchObject({ format: 'int64' });
    expect(prop('io.k8s.api.core.v1.PodSecurityContext', 'runAsUser')).toMatchObject({ format: 'int64' });
    expect(prop('io.k8s.api.core.v1.PodSecurityContext', 'supplementalGroups')).toMatchObject({ type: 'array', items: { format: 'int64' } });
    expect(prop('io.k8s.api.core.v1.Probe', 'timeoutSeconds')).toMatchObject({ format: 'int32' });
    expect(prop('io.k8s.api.autoscaling.v2.ResourceMetricSource', 'target').$ref).toBe('#/definitions/io.k8s.api.autoscaling.v2.MetricTarget');
    expect(prop('io.k8s.api.autoscaling.v2.MetricTarget', 'averageUtilization')).toMatchObject({ format: 'int32' });
    expect(prop('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps', 'maximum')).toMatchObject({ type: 'number', format: 'double' });
  });

  it('describes maps, arrays, enums and references', () => {
    expect(prop('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'labels')).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
    expect(prop('io.k8s.api.core.v1.PodSpec', 'containers')).toMatchObject({ type: 'array', items: { $ref: '#/definitions/io.k8s.api.core.v1.Container' } });
    expect(prop('io.k8s.api.apps.v1.Deployment', 'apiVersion').enum).toEqual(['apps/v1']);
    expect(prop('io.k8s.api.apps.v1.Deployment', 'kind').enum).toEqual(['Deployment']);
    expect(prop('io.k8s.api.core.v1.Secret', 'data').additionalProperties).toEqual({ type: 'string', format: 'byte' });
    expect(prop('io.k8s.api.core.v1.ContainerPort', 'protocol')['x-go-type']).toBe('v1.Protocol');
    expect(prop('io.k8s.api.apps.v1.DaemonSet', 'status').readOnly).toBe(true); // where the API docs say Read-only
  });

  it('marks IntOrString, Quantity, Time and free-form JSON', () => {
    expect(prop('io.k8s.api.apps.v1.RollingUpdateDeployment', 'maxSurge').$ref).toBe('#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString');
    expect(definition('io.k8s.apimachinery.pkg.util.intstr.IntOrString')?.['x-kubernetes-int-or-string']).toBe(true);
    const quantity = definition('io.k8s.apimachinery.pkg.api.resource.Quantity');
    expect(quantity?.['x-kubernetes-quantity']).toBe(true);
    expect(quantity?.anyOf?.map((s) => s.type)).toEqual(['string', 'number']);
    expect(resolveRef(prop('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'creationTimestamp'))).toMatchObject({ type: 'string', format: 'date-time' });
    expect(definition('io.k8s.apimachinery.pkg.runtime.RawExtension')?.['x-kubernetes-preserve-unknown-fields']).toBe(true);
    expect(definition('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON')?.['x-kubernetes-preserve-unknown-fields']).toBe(true);
  });

  it('adds what kubernetes-types cannot spell: structural-schema extensions, and v1.31/v1.32 fields', () => {
    const props = definition('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps')?.properties ?? {};
    expect(props['x-kubernetes-preserve-unknown-fields']?.type).toBe('boolean');
    expect(props['x-kubernetes-int-or-string']?.type).toBe('boolean');
    expect(props['x-kubernetes-validations']?.items?.$ref).toContain('ValidationRule');
    expect(prop('io.k8s.api.core.v1.PodSecurityContext', 'supplementalGroupsPolicy').type).toBe('string');
    expect(prop('io.k8s.api.core.v1.Volume', 'image').$ref).toBe('#/definitions/io.k8s.api.core.v1.ImageVolumeSource');
  });

  it('indexes top-level kinds by group/version/kind, with x-kubernetes-group-version-kind', () => {
    expect(definitionNameForKind({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe('io.k8s.api.apps.v1.Deployment');
    expect(schemaForKind({ group: '', version: 'v1', kind: 'Pod' })?.['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(definitionNameForKind({ group: 'events.k8s.io', version: 'v1', kind: 'Event' })).toBe('io.k8s.api.events.v1.Event');
    expect(definitionNameForKind({ group: '', version: 'v1', kind: 'Event' })).toBe('io.k8s.api.core.v1.Event');
    expect(schemaForKind({ group: 'apps', version: 'v1beta1', kind: 'Deployment' })).toBeUndefined();
    expect(schemaKinds().some((k) => k.kind === 'PodList')).toBe(true);
    for (const rt of builtinResourceTypes) {
      expect(schemaForKind(rt), `${rt.group}/${rt.version} ${rt.kind}`).toBeDefined();
    }
  });

  it('has no dangling references', () => {
    const text = JSON.stringify(allDefinitions());
    const refs = [...text.matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(500);
    for (const r of new Set(refs)) expect(definition(r), r).toBeDefined();
  });
});
