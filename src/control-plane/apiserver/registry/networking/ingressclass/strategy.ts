// IngressClass strategy (pkg/registry/networking/ingressclass/strategy.go): a domain-prefixed controller name that
// never changes, generation on spec change.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isDNS1123Subdomain } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { invalidEach, isObj, str, validateImmutableField } from '../../generic/util';

const maxControllerLen = 250;

/** IsDomainPrefixedPath. */
export function validateDomainPrefixedPath(value: string, path: string): FieldError[] {
  if (!value) return [fieldErr.required(path, '')];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [fieldErr.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  const errs = invalidEach(path, host, isDNS1123Subdomain(host));
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest)) {
    errs.push(fieldErr.invalid(path, rest, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  }
  return errs;
}

function validateIngressClassSpec(ic: KubeObject): FieldError[] {
  const spec = isObj(ic.spec) ? ic.spec : {};
  const controller = str(spec.controller);
  const errs: FieldError[] = [];
  if (controller.length > maxControllerLen) errs.push(fieldErr.tooLong('spec.controller', maxControllerLen));
  errs.push(...validateDomainPrefixedPath(controller, 'spec.controller'));
  if (isObj(spec.parameters)) {
    const params = spec.parameters;
    if (!str(params.kind)) errs.push(fieldErr.required('spec.parameters.kind', 'kind is required'));
    if (!str(params.name)) errs.push(fieldErr.required('spec.parameters.name', 'name is required'));
    const scope = params.scope;
    if (scope !== undefined && scope !== 'Cluster' && scope !== 'Namespace') errs.push(fieldErr.notSupported('spec.parameters.scope', scope, ['Cluster', 'Namespace']));
    if (scope === 'Namespace' && !str(params.namespace)) errs.push(fieldErr.required('spec.parameters.namespace', '`parameters.scope` is set to "Namespace"'));
  }
  return errs;
}

export function ingressClassStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    generationChanged: specChanged,
    validateSpec: validateIngressClassSpec,
    validateUpdate: (ic, old) => validateImmutableField(isObj(ic.spec) ? ic.spec.controller : '', isObj(old.spec) ? old.spec.controller : '', 'spec.controller'),
  });
}
