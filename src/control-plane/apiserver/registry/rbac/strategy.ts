// RBAC strategies (pkg/registry/rbac/*, pkg/apis/rbac/validation): path-segment names, policy rules with verbs,
// bindings with a supported roleRef that never changes, and well-formed subjects.
import { fieldErr, type FieldError } from '../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../shared/api/resources';
import type { KubeObject, LabelSelector } from '../../../../shared/api/types';
import { validatePathSegmentName, validateServiceAccountName } from '../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../types';
import { validateLabelSelector } from '../generic/metav1';
import { defineStrategy } from '../generic/strategy';
import { type Obj, arrAt, ensureObj, invalidEach, isObj, objItems, semanticEqual, setDefaultString, str } from '../generic/util';
import { trySelector } from '../generic/workload';

export const RBACGroup = 'rbac.authorization.k8s.io';

/** ValidatePolicyRule. */
export function validatePolicyRule(rule: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (arrAt(rule, 'verbs').length === 0) errs.push(fieldErr.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = arrAt(rule, 'nonResourceURLs');
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldErr.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (arrAt(rule, 'apiGroups').length || arrAt(rule, 'resources').length || arrAt(rule, 'resourceNames').length) {
      errs.push(fieldErr.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (arrAt(rule, 'apiGroups').length === 0) errs.push(fieldErr.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (arrAt(rule, 'resources').length === 0) errs.push(fieldErr.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  return objItems(obj, 'rules').flatMap((r, i) => validatePolicyRule(r, namespaced, `rules[${i}]`));
}

function validateAggregationRule(role: KubeObject): FieldError[] {
  if (!isObj(role.aggregationRule)) return [];
  const selectors = objItems(role.aggregationRule, 'clusterRoleSelectors');
  const errs: FieldError[] = [];
  if (selectors.length === 0) {
    errs.push(fieldErr.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  }
  selectors.forEach((s, i) => {
    const p = `aggregationRule.clusterRoleSelectors[${i}]`;
    errs.push(...validateLabelSelector(s as LabelSelector, {}, p));
    if (!trySelector(s as LabelSelector)) errs.push(fieldErr.invalid(p, s, 'invalid label selector.'));
  });
  return errs;
}

/** ValidateRoleBindingSubject. */
export function validateSubject(subject: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject.name);
  if (!name) errs.push(fieldErr.required(`${path}.name`, ''));
  const apiGroup = str(subject.apiGroup);
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name) errs.push(...invalidEach(`${path}.name`, name, validateServiceAccountName(name, false)));
      if (apiGroup) errs.push(fieldErr.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !str(subject.namespace)) errs.push(fieldErr.required(`${path}.namespace`, ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBACGroup) errs.push(fieldErr.notSupported(`${path}.apiGroup`, apiGroup, [RBACGroup]));
      break;
    default:
      errs.push(fieldErr.notSupported(`${path}.kind`, subject.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(binding: KubeObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const roleRef = isObj(binding.roleRef) ? binding.roleRef : {};
  if (roleRef.apiGroup !== RBACGroup) errs.push(fieldErr.notSupported('roleRef.apiGroup', roleRef.apiGroup ?? '', [RBACGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(str(roleRef.kind))) errs.push(fieldErr.notSupported('roleRef.kind', roleRef.kind ?? '', kinds));
  const name = str(roleRef.name);
  if (!name) errs.push(fieldErr.required('roleRef.name', ''));
  else errs.push(...invalidEach('roleRef.name', name, validatePathSegmentName(name, false)));
  objItems(binding, 'subjects').forEach((s, i) => errs.push(...validateSubject(s, namespaced, `subjects[${i}]`)));
  return errs;
}

/** SetDefaults_RoleBinding / ClusterRoleBinding / Subject: the RBAC group where it is implied. */
export function defaultBinding(binding: KubeObject): void {
  setDefaultString(ensureObj(binding as Obj, 'roleRef'), 'apiGroup', RBACGroup);
  for (const s of objItems(binding, 'subjects')) {
    if (s.apiGroup) continue;
    if (s.kind === 'ServiceAccount') s.apiGroup = '';
    else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBACGroup;
  }
}

export function roleStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    nameFn: validatePathSegmentName,
    metaRules: 'generic',
    validateSpec: (role) => [...validateRules(role, rt.namespaced), ...(rt.namespaced ? [] : validateAggregationRule(role))],
  });
}

export function roleBindingStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    nameFn: validatePathSegmentName,
    metaRules: 'generic',
    applyDefaults: defaultBinding,
    validateSpec: (b) => validateBinding(b, rt.namespaced),
    validateUpdate: (b, old) => (semanticEqual(b.roleRef, old.roleRef) ? [] : [fieldErr.invalid('roleRef', b.roleRef, 'cannot change roleRef')]),
  });
}
