import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { defaultIngressClass } from './default-ingress-class';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';

const ingresses = { group: 'networking.k8s.io', resource: 'ingresses' };
const ic = (name: string, created: string, isDefault: boolean): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'ingressclass.kubernetes.io/is-default-class': 'true' } : {} },
  spec: { controller: 'k8s.io/ingress-nginx' },
});
const ing = (spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { namespace: 'default', name: 'web', ...(annotations ? { annotations } : {}) },
  spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
});
const className = (o: KubeObject) => (o.spec as { ingressClassName?: string }).ingressClassName;

describe('DefaultIngressClass', () => {
  it('gives an Ingress without a class the default class, the newest when several are default', () => {
    const reader = new FakeReader([ic('nginx', '2026-01-01T00:00:00Z', true), ic('traefik', '2026-01-02T00:00:00Z', true), ic('other', '2026-01-03T00:00:00Z', false)]);
    const obj = ing({});
    defaultIngressClass.admit(admissionAttrs(ingresses, obj), fakeAdmissionContext(reader).ctx);
    expect(className(obj)).toBe('traefik');
  });

  it('leaves an explicit class or the deprecated annotation alone, and does nothing without a default', () => {
    const { ctx } = fakeAdmissionContext(new FakeReader([ic('nginx', '2026-01-01T00:00:00Z', true)]));
    const explicit = ing({ ingressClassName: 'other' });
    defaultIngressClass.admit(admissionAttrs(ingresses, explicit), ctx);
    expect(className(explicit)).toBe('other');
    const annotated = ing({}, { 'kubernetes.io/ingress.class': 'haproxy' });
    defaultIngressClass.admit(admissionAttrs(ingresses, annotated), ctx);
    expect(className(annotated)).toBeUndefined();
    const none = ing({});
    defaultIngressClass.admit(admissionAttrs(ingresses, none), fakeAdmissionContext(new FakeReader([ic('x', '2026-01-01T00:00:00Z', false)])).ctx);
    expect(className(none)).toBeUndefined();
  });
});
