// The authorization.k8s.io/v1 review resources (pkg/registry/authorization in kube-apiserver): create-only,
// never stored. A SelfSubjectAccessReview asks the authorizer about the requesting user (after impersonation —
// `kubectl auth can-i --as jane`), a SubjectAccessReview about the user in its spec, a LocalSubjectAccessReview
// about that user in the review's own namespace, and a SelfSubjectRulesReview lists the requesting user's rules
// in a namespace (`kubectl auth can-i --list`). The answer is the object with its status, code 201.
import { SystemGroup } from '../authentication/serviceaccount';
import { newBadRequest, newInvalid, newMethodNotAllowed } from '../../../shared/api/status';
import { fieldErr, type FieldError } from '../../../shared/api/field-errors';
import type { PolicyRule } from '../rbac/policy';
import { Decision, Verb, type ApiRequest, type ApiResponse, type AuthorizationAttributes, type UserInfo } from '../types';
import { aggregateMessages } from '../rbac/rule-resolver';
import type { RequestContext } from '../pipeline/context';

export const authorizationGroup = 'authorization.k8s.io';

const reviewKinds: Readonly<Record<string, string>> = {
  selfsubjectaccessreviews: 'SelfSubjectAccessReview',
  subjectaccessreviews: 'SubjectAccessReview',
  localsubjectaccessreviews: 'LocalSubjectAccessReview',
  selfsubjectrulesreviews: 'SelfSubjectRulesReview',
};

/** Whether a request addresses one of the review resources (which the resource registry does not hold). */
export function isAccessReview(req: Pick<ApiRequest, 'group' | 'version' | 'resource'>): boolean {
  return req.group === authorizationGroup && req.version === 'v1' && Object.hasOwn(reviewKinds, req.resource);
}

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

interface ReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
  namespace?: string;
}

/** Runs after authentication, impersonation and authorization of the create itself. */
export function accessReviewHandler(ctx: RequestContext): ApiResponse {
  const req = ctx.req;
  const kind = reviewKinds[req.resource];
  if (req.verb !== Verb.Create) throw newMethodNotAllowed({ group: authorizationGroup, resource: req.resource }, req.verb);
  const body = (req.body ?? {}) as { metadata?: Record<string, unknown>; spec?: ReviewSpec };
  if (typeof body !== 'object' || Array.isArray(body)) throw newBadRequest(`${kind} in version "v1" cannot be handled as a ${kind}: expected an object`);
  const spec: ReviewSpec = body.spec ?? {};
  const gk = { group: authorizationGroup, kind };
  const metadata = { ...(body.metadata ?? {}), creationTimestamp: null } as Record<string, unknown>;
  const respond = (status: Record<string, unknown>): ApiResponse => ({
    code: 201,
    body: { kind, apiVersion: `${authorizationGroup}/v1`, metadata, spec, status },
  });

  if (kind === 'SelfSubjectRulesReview') {
    const namespace = spec.namespace ?? '';
    return respond(rulesReviewStatus(ctx, ctx.user, namespace));
  }

  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid('spec.resourceAttributes', spec.nonResourceAttributes ?? null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  let user = ctx.user;
  if (kind === 'SubjectAccessReview' || kind === 'LocalSubjectAccessReview') {
    if (!spec.user && !(spec.groups ?? []).length) errs.push(fieldErr.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
    user = { username: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
  }
  if (kind === 'LocalSubjectAccessReview') {
    const ns = req.namespace ?? '';
    if (spec.nonResourceAttributes) errs.push(fieldErr.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'disallowed on this kind of request'));
    if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== ns) {
      errs.push(fieldErr.invalid('spec.resourceAttributes.namespace', spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
    }
  }
  if (errs.length > 0) throw newInvalid(gk, String(metadata.name ?? ''), errs);

  const attrs: AuthorizationAttributes = spec.resourceAttributes
    ? withoutEmpty({
        user,
        verb: spec.resourceAttributes.verb ?? '',
        group: spec.resourceAttributes.group ?? '',
        resource: spec.resourceAttributes.resource ?? '',
        subresource: spec.resourceAttributes.subresource,
        namespace: spec.resourceAttributes.namespace,
        name: spec.resourceAttributes.name,
      })
    : { user, verb: spec.nonResourceAttributes?.verb ?? '', path: spec.nonResourceAttributes?.path ?? '' };
  const result = ctx.server.authorizer.authorize(attrs);
  const status: Record<string, unknown> = { allowed: result.decision === Decision.Allow };
  if (result.decision === Decision.Deny) status.denied = true;
  if (result.reason) status.reason = result.reason;
  return respond(status);
}

function withoutEmpty(attrs: AuthorizationAttributes): AuthorizationAttributes {
  const out = { ...attrs } as Record<string, unknown>;
  for (const k of ['subresource', 'namespace', 'name'] as const) if (!out[k]) delete out[k];
  return out as unknown as AuthorizationAttributes;
}

/** What SelfSubjectRulesReview's status needs of the authorizer (RBACAuthorizer has it). */
interface RulesAuthorizer {
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] };
}

function hasRules(a: unknown): a is RulesAuthorizer {
  return typeof (a as { rulesFor?: unknown }).rulesFor === 'function';
}

/**
 * The union authorizer's RulesFor: the privileged-group authorizer's everything for system:masters first, then
 * RBAC's rules, split into resourceRules and nonResourceRules.
 */
function rulesReviewStatus(ctx: RequestContext, user: UserInfo, namespace: string): Record<string, unknown> {
  const resourceRules: Record<string, unknown>[] = [];
  const nonResourceRules: Record<string, unknown>[] = [];
  if (user.groups.includes(SystemGroup.Privileged)) {
    resourceRules.push({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
    nonResourceRules.push({ verbs: ['*'], nonResourceURLs: ['*'] });
  }
  let errors: string[] = [];
  if (hasRules(ctx.server.authorizer)) {
    const found = ctx.server.authorizer.rulesFor(user, namespace);
    errors = found.errors;
    for (const r of found.rules) {
      if ((r.resources ?? []).length > 0) {
        const rr: Record<string, unknown> = { verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources };
        if (r.resourceNames?.length) rr.resourceNames = r.resourceNames;
        resourceRules.push(rr);
      }
      if ((r.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
    }
  }
  const status: Record<string, unknown> = { resourceRules, nonResourceRules, incomplete: false };
  if (errors.length > 0) status.evaluationError = aggregateMessages(errors);
  return status;
}
