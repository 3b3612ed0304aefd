// admission.NewForbidden (apiserver/pkg/admission/errors.go): the 403 a plugin answers with, naming the object
// by its name, else its generateName (names are generated later), else "Unknown".
import { type StatusError, isStatusError, newForbidden } from '../../../shared/api/status';
import type { AdmissionAttributes } from '../types';

export function admissionObjectName(attrs: AdmissionAttributes): string {
  const obj = attrs.object;
  if (!obj) return 'Unknown';
  return obj.metadata.name || obj.metadata.generateName || 'Unknown';
}

export function admissionForbidden(attrs: AdmissionAttributes, message: string): StatusError {
  return newForbidden({ group: attrs.resourceType.group, resource: attrs.resourceType.resource }, admissionObjectName(attrs), message);
}

/** admission.NewForbidden does not wrap an error that already is a Forbidden. */
export function asAdmissionForbidden(attrs: AdmissionAttributes, err: unknown): StatusError {
  if (isStatusError(err, 'Forbidden')) return err;
  return admissionForbidden(attrs, err instanceof Error ? err.message : String(err));
}
