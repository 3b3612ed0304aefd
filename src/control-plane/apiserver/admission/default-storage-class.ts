// DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault/admission.go): a claim created
// without a class gets the default one (annotation storageclass.kubernetes.io/is-default-class: "true"; the
// newest wins when several are marked, then the first by name).
import type { KubeObject } from '../../../shared/api/types';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation, MutatingAdmissionPlugin } from '../types';
import { AdmissionOperation as Op } from '../types';

export const DefaultStorageClassPluginName = 'DefaultStorageClass';

export const IsDefaultStorageClassAnnotation = 'storageclass.kubernetes.io/is-default-class';
export const BetaIsDefaultStorageClassAnnotation = 'storageclass.beta.kubernetes.io/is-default-class';
export const BetaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

const storageClassesGR = Object.freeze({ group: 'storage.k8s.io', resource: 'storageclasses' });

export function isDefaultStorageClass(sc: KubeObject): boolean {
  const a = sc.metadata.annotations ?? {};
  return a[IsDefaultStorageClassAnnotation] === 'true' || a[BetaIsDefaultStorageClassAnnotation] === 'true';
}

/** util.GetDefaultClass: newest creationTimestamp first, then name ascending. */
export function getDefaultStorageClass(classes: readonly KubeObject[]): KubeObject | undefined {
  const defaults = classes.filter(isDefaultStorageClass);
  const time = (o: KubeObject) => (o.metadata.creationTimestamp ? Date.parse(String(o.metadata.creationTimestamp)) : 0);
  defaults.sort((a, b) => {
    const d = time(b) - time(a);
    if (d !== 0) return d;
    const x = a.metadata.name ?? '';
    const y = b.metadata.name ?? '';
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return defaults[0];
}

export const defaultStorageClass: MutatingAdmissionPlugin = {
  name: DefaultStorageClassPluginName,
  handles(op: AdmissionOperation): boolean {
    return op === Op.Create;
  },
  admit(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    if (attrs.resourceType.group !== '' || attrs.resourceType.resource !== 'persistentvolumeclaims' || attrs.subresource) return;
    const pvc = attrs.object;
    if (!pvc) return;
    const spec = (pvc.spec ?? (pvc.spec = {})) as { storageClassName?: string | null };
    // An explicit class, even "", or the beta annotation means the user chose.
    if (spec.storageClassName !== undefined && spec.storageClassName !== null) return;
    if (pvc.metadata.annotations?.[BetaStorageClassAnnotation] !== undefined) return;
    const def = getDefaultStorageClass(ctx.reader.list(storageClassesGR));
    if (!def) return;
    spec.storageClassName = def.metadata.name;
  },
};
