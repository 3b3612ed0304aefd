// ServiceAccount (plugin/pkg/admission/serviceaccount/admission.go): pods run as a service account ("default"
// unless named), which must exist; unless automounting is off, every container mounts the projected
// kube-api-access-<5 chars> volume (token, cluster CA, namespace) at /var/run/secrets/kubernetes.io/serviceaccount.
import type { KubeObject } from '../../../shared/api/types';
import { createRng } from '../../sim/rng';
import type {
  AdmissionAttributes,
  AdmissionContext,
  AdmissionOperation,
  MutatingAdmissionPlugin,
  ValidatingAdmissionPlugin,
} from '../types';
import { AdmissionOperation as Op } from '../types';
import { admissionForbidden } from './errors';
import { deepFreeze } from '../../../shared/lib/deep-freeze';

export const ServiceAccountPluginName = 'ServiceAccount';

export const DefaultServiceAccountName = 'default';
export const ServiceAccountVolumeName = 'kube-api-access';
export const DefaultAPITokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
export const EnforceMountableSecretsAnnotation = 'kubernetes.io/enforce-mountable-secrets';
export const MirrorPodAnnotationKey = 'kubernetes.io/config.mirror';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: one hour and seven seconds. */
export const WarnOnlyBoundTokenExpirationSeconds = 3607;

/** utilrand's alphabet: no vowels (no words), no 0/1/3 (look like letters). */
const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

const serviceAccountsGR = Object.freeze({ group: '', resource: 'serviceaccounts' });

interface Container {
  name: string;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  env?: { name: string; valueFrom?: { secretKeyRef?: { name?: string } } }[];
  envFrom?: { secretRef?: { name?: string } }[];
}

interface PodSpec {
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  containers?: Container[];
  initContainers?: Container[];
  volumes?: { name: string; secret?: { secretName?: string }; projected?: { sources?: { serviceAccountToken?: unknown }[] } }[];
  imagePullSecrets?: { name?: string }[];
}

interface ServiceAccountObject extends KubeObject {
  automountServiceAccountToken?: boolean;
  secrets?: { name?: string }[];
  imagePullSecrets?: { name?: string }[];
}

/**
 * TokenVolumeSource: the projected sources every kube-api-access volume has. The same for every pod, so every
 * pod's volume holds this one frozen value (stored objects are frozen; the store takes frozen parts as they are)
 * instead of its own 14 objects.
 */
const tokenProjection: Record<string, unknown> = deepFreeze({
  defaultMode: 420,
  sources: [
    { serviceAccountToken: { expirationSeconds: WarnOnlyBoundTokenExpirationSeconds, path: 'token' } },
    { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
  ],
});

export function tokenVolumeSource(): Record<string, unknown> {
  return tokenProjection;
}

function isPodRequest(attrs: AdmissionAttributes): boolean {
  return attrs.resourceType.group === '' && attrs.resourceType.resource === 'pods' && !!attrs.object;
}

function parseBool(v: string | undefined): boolean {
  return v === '1' || v === 't' || v === 'T' || v === 'true' || v === 'TRUE' || v === 'True';
}

export class ServiceAccountAdmission implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  readonly name = ServiceAccountPluginName;
  private readonly rng: () => number;

  /** rng draws the volume name suffix; the admission context's rng wins when it has one. */
  constructor(rng?: () => number) {
    if (rng) this.rng = rng;
    else {
      const fallback = createRng(0x5a);
      this.rng = () => fallback.next();
    }
  }

  handles(op: AdmissionOperation): boolean {
    return op === Op.Create || op === Op.Update;
  }

  admit(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    if (!isPodRequest(attrs) || attrs.subresource || attrs.operation !== Op.Create) return;
    const pod = attrs.object as KubeObject;
    if (pod.metadata.annotations?.[MirrorPodAnnotationKey] !== undefined) {
      this.validate(attrs, ctx);
      return;
    }
    const spec = (pod.spec ?? (pod.spec = {})) as PodSpec;
    // v1 → internal conversion fills serviceAccountName from the deprecated serviceAccount field.
    if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
    if (!spec.serviceAccountName) spec.serviceAccountName = DefaultServiceAccountName;
    spec.serviceAccount = spec.serviceAccountName;

    const sa = this.getServiceAccount(attrs, ctx, spec.serviceAccountName);
    const automount = spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true;
    if (automount) this.mountServiceAccountToken(spec, ctx);
    if ((spec.imagePullSecrets ?? []).length === 0 && (sa.imagePullSecrets ?? []).length > 0) {
      spec.imagePullSecrets = (sa.imagePullSecrets ?? []).map((s) => ({ name: s.name }));
    }
    this.validate(attrs, ctx);
  }

  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    if (!isPodRequest(attrs) || attrs.subresource || attrs.operation !== Op.Create) return;
    const pod = attrs.object as KubeObject;
    const spec = (pod.spec ?? {}) as PodSpec;
    if (pod.metadata.annotations?.[MirrorPodAnnotationKey] !== undefined) {
      if (spec.serviceAccountName) throw admissionForbidden(attrs, 'a mirror pod may not reference service accounts');
      if (referencesSecrets(spec)) throw admissionForbidden(attrs, 'a mirror pod may not reference secrets');
      for (const v of spec.volumes ?? []) {
        if ((v.projected?.sources ?? []).some((s) => s.serviceAccountToken)) {
          throw admissionForbidden(attrs, 'a mirror pod may not use ServiceAccountToken volume projections');
        }
      }
      return;
    }
    if (!spec.serviceAccountName) {
      throw admissionForbidden(attrs, `no service account specified for pod ${attrs.namespace}/${pod.metadata.name ?? ''}`);
    }
    const sa = this.getServiceAccount(attrs, ctx, spec.serviceAccountName);
    if (parseBool(sa.metadata.annotations?.[EnforceMountableSecretsAnnotation])) {
      const msg = limitSecretReferences(sa, spec);
      if (msg) throw admissionForbidden(attrs, msg);
    }
  }

  private getServiceAccount(attrs: AdmissionAttributes, ctx: AdmissionContext, name: string): ServiceAccountObject {
    const sa = ctx.reader.get(serviceAccountsGR, attrs.namespace, name);
    if (!sa) {
      // The real plugin retries the default account for a moment (its controller may lag); here reads are current.
      throw admissionForbidden(attrs, `error looking up service account ${attrs.namespace}/${name}: serviceaccount "${name}" not found`);
    }
    return sa as ServiceAccountObject;
  }

  private mountServiceAccountToken(spec: PodSpec, ctx: AdmissionContext): void {
    let volumeName = '';
    let hasTokenVolume = false;
    for (const v of spec.volumes ?? []) {
      if (v.name.startsWith(`${ServiceAccountVolumeName}-`)) {
        volumeName = v.name;
        hasTokenVolume = true;
        break;
      }
    }
    if (!volumeName) volumeName = `${ServiceAccountVolumeName}-${this.randomSuffix(ctx)}`;
    const mount = { name: volumeName, readOnly: true, mountPath: DefaultAPITokenMountPath };
    let needsTokenVolume = false;
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      // A container that already mounts something at the path keeps it.
      if ((c.volumeMounts ?? []).some((m) => m.mountPath === DefaultAPITokenMountPath)) continue;
      c.volumeMounts = [...(c.volumeMounts ?? []), { ...mount }];
      needsTokenVolume = true;
    }
    if (!hasTokenVolume && needsTokenVolume) {
      spec.volumes = [...(spec.volumes ?? []), { name: volumeName, projected: tokenVolumeSource() }];
    }
  }

  private randomSuffix(ctx: AdmissionContext): string {
    const fromContext = (ctx as AdmissionContext & { rng?: { next(): number } }).rng;
    const next = fromContext ? () => fromContext.next() : this.rng;
    let out = '';
    for (let i = 0; i < 5; i++) out += nameAlphabet[Math.floor(next() * nameAlphabet.length)];
    return out;
  }
}

function referencesSecrets(spec: PodSpec): boolean {
  if ((spec.imagePullSecrets ?? []).length > 0) return true;
  for (const v of spec.volumes ?? []) if (v.secret) return true;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    if ((c.env ?? []).some((e) => e.valueFrom?.secretKeyRef)) return true;
    if ((c.envFrom ?? []).some((e) => e.secretRef)) return true;
  }
  return false;
}

function limitSecretReferences(sa: ServiceAccountObject, spec: PodSpec): string | undefined {
  const mountable = new Set((sa.secrets ?? []).map((s) => s.name));
  const saName = sa.metadata.name ?? '';
  for (const v of spec.volumes ?? []) {
    if (!v.secret) continue;
    const name = v.secret.secretName ?? '';
    if (!mountable.has(name)) return `volume with secret.secretName="${name}" is not allowed because service account ${saName} does not reference that secret`;
  }
  const check = (containers: Container[] | undefined, label: string): string | undefined => {
    for (const c of containers ?? []) {
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref && !mountable.has(ref.name)) {
          return `${label} ${c.name} with envVar ${e.name} referencing secret.secretName="${ref.name ?? ''}" is not allowed because service account ${saName} does not reference that secret`;
        }
      }
      for (const e of c.envFrom ?? []) {
        if (e.secretRef && !mountable.has(e.secretRef.name)) {
          return `${label} ${c.name} with envFrom referencing secret.secretName="${e.secretRef.name ?? ''}" is not allowed because service account ${saName} does not reference that secret`;
        }
      }
    }
    return undefined;
  };
  const fromContainers = check(spec.initContainers, 'init container') ?? check(spec.containers, 'container');
  if (fromContainers) return fromContainers;
  const pullSecrets = new Set((sa.imagePullSecrets ?? []).map((s) => s.name));
  const refs = spec.imagePullSecrets ?? [];
  for (let i = 0; i < refs.length; i++) {
    if (!pullSecrets.has(refs[i].name)) {
      return `imagePullSecrets[${i}].name="${refs[i].name ?? ''}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}
