// The authorizer chain of a kubeadm API server as far as users see it: the privileged-group authorizer
// (system:masters may do anything) and then RBAC (plugin/pkg/auth/authorizer/rbac/rbac.go).
import { SystemGroup } from '../authentication/serviceaccount';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, ObjectReader, UserInfo } from '../types';
import { Decision } from '../types';
import { type PolicyRule, ruleAllows } from './policy';
import { RuleResolver, type RuleResolverOptions, aggregateMessages } from './rule-resolver';

export class RBACAuthorizer implements Authorizer {
  readonly resolver: RuleResolver;

  constructor(reader: ObjectReader, options: RuleResolverOptions = {}) {
    this.resolver = new RuleResolver(reader, options);
  }

  authorize(attrs: AuthorizationAttributes): AuthorizationResult {
    // authorizerfactory.NewPrivilegedGroups runs before RBAC and allows without a reason.
    if (attrs.user.groups.includes(SystemGroup.Privileged)) return { decision: Decision.Allow, reason: '' };

    let reason = '';
    let allowed = false;
    const errors: string[] = [];
    this.resolver.visitRulesFor(attrs.user, attrs.namespace ?? '', (source, rule, err) => {
      if (rule && ruleAllows(attrs, rule)) {
        allowed = true;
        reason = `RBAC: allowed by ${source}`;
        return false;
      }
      if (err) errors.push(err);
      return true;
    });
    if (allowed) return { decision: Decision.Allow, reason };
    // RBAC never denies outright: "no opinion" ends in a 403 once every authorizer has passed.
    return { decision: Decision.NoOpinion, reason: errors.length > 0 ? `RBAC: ${aggregateMessages(errors)}` : '' };
  }

  /** SelfSubjectRulesReview's view: the rules that apply to the user in the namespace ("" = cluster-wide only). */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    return this.resolver.rulesFor(user, namespace);
  }
}

/** `kubectl auth can-i`: yes/no with the authorizer's reason (a SelfSubjectAccessReview answered in process). */
export function canI(
  authorizer: Authorizer,
  user: UserInfo,
  attrs: Omit<AuthorizationAttributes, 'user'>,
): { allowed: boolean; reason: string } {
  const result = authorizer.authorize({ ...attrs, user });
  return { allowed: result.decision === Decision.Allow, reason: result.reason };
}

/**
 * `kubectl auth can-i --list`: the RBAC rules for the user in the namespace, as SelfSubjectRulesReview's status
 * holds them. RBAC never reports `incomplete`; a binding that points at a missing role shows in evaluationError.
 */
export function rulesFor(
  authorizer: RBACAuthorizer,
  user: UserInfo,
  namespace: string,
): { resourceRules: PolicyRule[]; nonResourceRules: PolicyRule[]; incomplete: boolean; evaluationError: string } {
  const { rules, errors } = authorizer.rulesFor(user, namespace);
  const resourceRules: PolicyRule[] = [];
  const nonResourceRules: PolicyRule[] = [];
  for (const r of rules) {
    if ((r.resources ?? []).length > 0) {
      const rr: PolicyRule = { verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [] };
      if (r.resourceNames?.length) rr.resourceNames = r.resourceNames;
      resourceRules.push(rr);
    }
    if ((r.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs });
  }
  return { resourceRules, nonResourceRules, incomplete: false, evaluationError: aggregateMessages(errors) };
}
