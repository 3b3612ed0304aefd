// DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass/admission.go): an Ingress created without
// spec.ingressClassName and without the deprecated kubernetes.io/ingress.class annotation gets the default
// IngressClass (annotation ingressclass.kubernetes.io/is-default-class: "true"; the newest wins when several are
// marked). No default class: the Ingress is left without one.
import type { KubeObject } from '../../../shared/api/types';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation, MutatingAdmissionPlugin } from '../types';
import { AdmissionOperation as Op } from '../types';

export const DefaultIngressClassPluginName = 'DefaultIngressClass';
export const IsDefaultIngressClassAnnotation = 'ingressclass.kubernetes.io/is-default-class';
/** The deprecated annotation that names a class instead of spec.ingressClassName. */
export const IngressClassAnnotation = 'kubernetes.io/ingress.class';

const ingressClassesGR = Object.freeze({ group: 'networking.k8s.io', resource: 'ingressclasses' });

/** The default IngressClass: among those annotated default, the newest, then the first by name. */
export function getDefaultIngressClass(classes: readonly KubeObject[]): KubeObject | undefined {
  const defaults = classes.filter((c) => c.metadata.annotations?.[IsDefaultIngressClassAnnotation] === 'true');
  const time = (o: KubeObject) => (o.metadata.creationTimestamp ? Date.parse(String(o.metadata.creationTimestamp)) : 0);
  defaults.sort((a, b) => time(b) - time(a) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  return defaults[0];
}

export const defaultIngressClass: MutatingAdmissionPlugin = {
  name: DefaultIngressClassPluginName,
  handles(op: AdmissionOperation): boolean {
    return op === Op.Create;
  },
  admit(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    if (attrs.resourceType.group !== 'networking.k8s.io' || attrs.resourceType.resource !== 'ingresses' || attrs.subresource) return;
    const ing = attrs.object;
    if (!ing) return;
    const spec = (ing.spec ?? (ing.spec = {})) as { ingressClassName?: string | null };
    if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) return;
    if (ing.metadata.annotations?.[IngressClassAnnotation] !== undefined) return;
    const def = getDefaultIngressClass(ctx.reader.list(ingressClassesGR));
    if (!def) return;
    spec.ingressClassName = def.metadata.name;
  },
};
