// ControllerRevision strategy (pkg/registry/apps/controllerrevision/strategy.go): data is required and, like the
// revision number's meaning, never changes after create.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { defineStrategy } from '../../generic/strategy';
import { validateImmutableField, validateNonnegativeField } from '../../generic/util';

function validateControllerRevision(cr: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(fieldErr.required('data', 'data is mandatory'));
  errs.push(...validateNonnegativeField(cr.revision, 'revision'));
  return errs;
}

export function controllerRevisionStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    validateSpec: validateControllerRevision,
    validateUpdate: (cr, old) => validateImmutableField(cr.data, old.data, 'data'),
  });
}
