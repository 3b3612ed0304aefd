// Secret strategy (pkg/registry/core/secret/strategy.go): type Opaque by default, stringData folded into data,
// key names, the 1 MiB total, the keys each well-known type requires, immutable type and immutable Secrets.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isConfigMapKey } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateKubeObjectMetaUpdate } from '../../generic/kubemeta';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, invalidEach, isObj, setOwn, str, validateImmutableField } from '../../generic/util';
import { MaxSecretSize, base64DecodedLength, validateImmutableData } from '../configmap/strategy';

export const SecretType = {
  Opaque: 'Opaque',
  ServiceAccountToken: 'kubernetes.io/service-account-token',
  Dockercfg: 'kubernetes.io/dockercfg',
  DockerConfigJSON: 'kubernetes.io/dockerconfigjson',
  BasicAuth: 'kubernetes.io/basic-auth',
  SSHAuth: 'kubernetes.io/ssh-auth',
  TLS: 'kubernetes.io/tls',
  BootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

const encoder = new TextEncoder();

function base64Encode(s: string): string {
  let binary = '';
  for (const b of encoder.encode(s)) binary += String.fromCharCode(b);
  return btoa(binary);
}

function base64Decode(s: string): string {
  try {
    const bin = atob(s);
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

/** SetDefaults_Secret, plus the v1 conversion that merges stringData into data (stringData wins) and drops it. */
export function defaultSecret(secret: KubeObject): void {
  if (!secret.type) secret.type = SecretType.Opaque;
  if (isObj(secret.stringData)) {
    const data: Obj = isObj(secret.data) ? secret.data : {};
    for (const [k, v] of Object.entries(secret.stringData)) setOwn(data, k, base64Encode(typeof v === 'string' ? v : String(v)));
    secret.data = data;
    delete secret.stringData;
  }
}

function has(data: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(data, key);
}

/** ValidateSecret (data part). */
export function validateSecretData(secret: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = isObj(secret.data) ? secret.data : {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    errs.push(...invalidEach(`data[${key}]`, key, isConfigMapKey(key)));
    total += base64DecodedLength(typeof value === 'string' ? value : '');
  }
  if (total > MaxSecretSize) errs.push(fieldErr.tooLong('data', MaxSecretSize));
  switch (str(secret.type)) {
    case SecretType.ServiceAccountToken: {
      const sa = secret.metadata.annotations?.['kubernetes.io/service-account.name'];
      if (!sa) errs.push(fieldErr.required('metadata.annotations[kubernetes.io/service-account.name]', ''));
      break;
    }
    case SecretType.Dockercfg:
    case SecretType.DockerConfigJSON: {
      const key = secret.type === SecretType.Dockercfg ? '.dockercfg' : '.dockerconfigjson';
      if (!has(data, key)) {
        errs.push(fieldErr.required(`data[${key}]`, ''));
        break;
      }
      try {
        const parsed = JSON.parse(base64Decode(str(data[key])));
        if (!isObj(parsed)) throw new Error('json: cannot unmarshal into Go value of type map[string]interface {}');
      } catch (e) {
        errs.push(fieldErr.invalid(`data[${key}]`, '<secret contents redacted>', (e as Error).message));
      }
      break;
    }
    case SecretType.BasicAuth:
      if (!has(data, 'username') && !has(data, 'password')) {
        errs.push(fieldErr.required('data[username]', ''), fieldErr.required('data[password]', ''));
      }
      break;
    case SecretType.SSHAuth:
      if (!str(data['ssh-privatekey'])) errs.push(fieldErr.required('data[ssh-privatekey]', ''));
      break;
    case SecretType.TLS:
      if (!has(data, 'tls.crt')) errs.push(fieldErr.required('data[tls.crt]', ''));
      if (!has(data, 'tls.key')) errs.push(fieldErr.required('data[tls.key]', ''));
      break;
  }
  return errs;
}

export function secretStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultSecret,
    validateSpec: validateSecretData,
    validateUpdateFull: (secret, old) => [
      ...validateKubeObjectMetaUpdate(secret.metadata, old.metadata),
      ...validateImmutableField(secret.type ?? '', old.type ?? '', 'type'),
      ...validateImmutableData(secret, old, ['data']),
      ...validateSecretData(secret),
    ],
    selectableFields: (secret) => ({ type: str(secret.type) }),
  });
}
