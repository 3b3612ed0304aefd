// ConfigMap strategy (pkg/registry/core/configmap/strategy.go): key names, the 1 MiB total, immutable ConfigMaps.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isConfigMapKey, utf8Length } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateKubeObjectMetaUpdate } from '../../generic/kubemeta';
import { defineStrategy } from '../../generic/strategy';
import { invalidEach, isObj, semanticEqual } from '../../generic/util';

/** core.MaxSecretSize: ConfigMaps and Secrets may hold at most 1 MiB of data. */
export const MaxSecretSize = 1 * 1024 * 1024;

/** Bytes a base64 string decodes to (binaryData and Secret data travel base64-encoded). */
export function base64DecodedLength(b64: string): number {
  const s = b64.replace(/\s/g, '');
  const padding = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - padding;
}

/** ValidateConfigMap (data part). */
export function validateConfigMapData(cm: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = isObj(cm.data) ? cm.data : {};
  const binary = isObj(cm.binaryData) ? cm.binaryData : {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    errs.push(...invalidEach(`data[${key}]`, key, isConfigMapKey(key)));
    if (Object.prototype.hasOwnProperty.call(binary, key)) errs.push(fieldErr.invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    total += utf8Length(typeof value === 'string' ? value : String(value));
  }
  for (const [key, value] of Object.entries(binary)) {
    errs.push(...invalidEach(`binaryData[${key}]`, key, isConfigMapKey(key)));
    total += base64DecodedLength(typeof value === 'string' ? value : '');
  }
  // Reported against the whole object: the path is empty, as in Kubernetes.
  if (total > MaxSecretSize) errs.push(fieldErr.tooLong('', MaxSecretSize));
  return errs;
}

/** Once `immutable: true` is stored, neither the flag nor the data may change. */
export function validateImmutableData(obj: KubeObject, old: KubeObject, dataFields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(fieldErr.forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of dataFields) {
    if (!semanticEqual(obj[f], old[f])) errs.push(fieldErr.forbidden(f, 'field is immutable when `immutable` is set'));
  }
  return errs;
}

export function configMapStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    validateSpec: validateConfigMapData,
    // ValidateConfigMapUpdate checks immutability before re-validating the data.
    validateUpdateFull: (cm, old) => [
      ...validateKubeObjectMetaUpdate(cm.metadata, old.metadata),
      ...validateImmutableData(cm, old, ['data', 'binaryData']),
      ...validateConfigMapData(cm),
    ],
  });
}
