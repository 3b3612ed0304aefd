// pkg/apis/core/validation ValidateObjectMeta / ValidateObjectMetaUpdate: the apimachinery checks plus the rule that
// a finalizer without a "/" must be one of Kubernetes' own ("kubernetes", "orphan", "foregroundDeletion").
// Every built-in kind validates its metadata this way; custom resources use the apimachinery checks alone.
import { fieldErr, type FieldError } from '../../../../shared/api/field-errors';
import type { ObjectMeta } from '../../../../shared/api/types';
import type { ValidateNameFunc } from '../../../../shared/lib/validation';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta';

const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** validateKubeFinalizerName. */
export function validateKubeFinalizerName(name: string, path: string): FieldError[] {
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    return [fieldErr.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

function finalizerErrors(meta: ObjectMeta | undefined, path: string): FieldError[] {
  return (meta?.finalizers ?? []).flatMap((f, i) => validateKubeFinalizerName(f, `${path}.finalizers[${i}]`));
}

export function validateKubeObjectMeta(meta: ObjectMeta | undefined, requiresNamespace: boolean, nameFn: ValidateNameFunc, path = 'metadata'): FieldError[] {
  return [...validateObjectMeta(meta, requiresNamespace, nameFn, path), ...finalizerErrors(meta, path)];
}

export function validateKubeObjectMetaUpdate(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, path = 'metadata'): FieldError[] {
  return [...validateObjectMetaUpdate(newMeta, oldMeta, path), ...finalizerErrors(newMeta, path)];
}
