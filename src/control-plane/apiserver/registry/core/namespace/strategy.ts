// Namespace strategy (pkg/registry/core/namespace/strategy.go): Active phase and the "kubernetes" finalizer on
// create, the kubernetes.io/metadata.name label always equal to the name, spec and status kept on update.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isQualifiedName, nameIsDNSLabel } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateKubeFinalizerName } from '../../generic/kubemeta';
import { defineStrategy, keepOldStatus } from '../../generic/strategy';
import { type Obj, arrAt, clone, ensureObj, invalidEach, isObj, meta, str } from '../../generic/util';

export const LabelMetadataName = 'kubernetes.io/metadata.name';
export const FinalizerKubernetes = 'kubernetes';

/** Canonicalize (and SetDefaults_Namespace): the metadata-name label tracks the name. */
function setNameLabel(ns: KubeObject): void {
  const m = meta(ns);
  if (!m.name) return;
  m.labels = { ...(m.labels ?? {}), [LabelMetadataName]: m.name };
}

export function defaultNamespace(ns: KubeObject): void {
  setNameLabel(ns);
  const status = ensureObj(ns as Obj, 'status');
  if (!status.phase) status.phase = 'Active';
}

function validateNamespaceSpec(ns: KubeObject): FieldError[] {
  return arrAt(ns.spec, 'finalizers').flatMap((f) => {
    const name = String(f);
    return [...invalidEach('spec.finalizers', name, isQualifiedName(name)), ...validateKubeFinalizerName(name, 'spec.finalizers')];
  });
}

function validateNamespaceStatus(ns: KubeObject): FieldError[] {
  const phase = isObj(ns.status) ? str(ns.status.phase) : '';
  if (!ns.metadata.deletionTimestamp) {
    return phase === 'Active' ? [] : [fieldErr.invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? [] : [fieldErr.invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

export function namespaceStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    nameFn: nameIsDNSLabel,
    applyDefaults: defaultNamespace,
    prepareForCreate(ns) {
      ns.status = { phase: 'Active' };
      const spec = ensureObj(ns as Obj, 'spec');
      const finalizers = arrAt(spec, 'finalizers').map(String);
      if (!finalizers.includes(FinalizerKubernetes)) spec.finalizers = [...finalizers, FinalizerKubernetes];
      setNameLabel(ns);
    },
    prepareForUpdate(ns, old) {
      // spec.finalizers change only through the finalize subresource.
      const spec = ensureObj(ns as Obj, 'spec');
      const oldFinalizers = isObj(old.spec) ? old.spec.finalizers : undefined;
      if (oldFinalizers === undefined) delete spec.finalizers;
      else spec.finalizers = clone(oldFinalizers);
      keepOldStatus(ns, old);
      setNameLabel(ns);
    },
    validateSpec: validateNamespaceSpec,
    validateUpdate: () => [],
    status: { validate: validateNamespaceStatus },
    selectableFields: (ns) => ({ 'status.phase': isObj(ns.status) ? str(ns.status.phase) : '' }),
  });
}
