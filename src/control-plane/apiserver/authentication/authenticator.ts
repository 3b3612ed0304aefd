// Authentication and impersonation: who a request acts as.
// The playground has no credentials: the request carries the user it claims (or the current user of the
// session), and the authenticator decorates it as the real one would (AuthenticatedGroupAdder, the service
// account token authenticator's groups). Impersonation follows apiserver/pkg/endpoints/filters/impersonation.go.
import { newBadRequest } from '../../../shared/api/status';
import { forbiddenError } from '../rbac/forbidden';
import type { ApiRequest, AuthorizationAttributes, Authorizer, UserInfo } from '../types';
import { Decision } from '../types';
import {
  AnonymousUser,
  SystemGroup,
  makeServiceAccountGroupNames,
  splitServiceAccountUsername,
} from './serviceaccount';

/**
 * The user a request acts as before impersonation: the request's own user, else the session's current user
 * (defaultAdminUser unless the UI switched). Adds `system:authenticated` like the AuthenticatedGroupAdder
 * (never to system:anonymous, never twice), and the service account groups a token would carry.
 */
export function authenticate(req: ApiRequest, currentUser: UserInfo): UserInfo {
  const claimed = req.user ?? currentUser;
  const groups = [...claimed.groups];
  const sa = splitServiceAccountUsername(claimed.username);
  if (sa) {
    for (const g of makeServiceAccountGroupNames(sa.namespace)) if (!groups.includes(g)) groups.push(g);
  }
  if (claimed.username === AnonymousUser) {
    if (!groups.includes(SystemGroup.AllUnauthenticated)) groups.push(SystemGroup.AllUnauthenticated);
  } else if (!groups.includes(SystemGroup.AllAuthenticated) && !groups.includes(SystemGroup.AllUnauthenticated)) {
    groups.push(SystemGroup.AllAuthenticated);
  }
  const out: UserInfo = { username: claimed.username, groups };
  if (claimed.uid !== undefined) out.uid = claimed.uid;
  if (claimed.extra !== undefined) out.extra = claimed.extra;
  return out;
}

/**
 * The authorization checks impersonation needs, in the order the filter makes them: the user (or the service
 * account, for `system:serviceaccount:<ns>:<name>`), then each group. Empty when the request impersonates nobody.
 */
export function impersonationChecks(req: ApiRequest, user: UserInfo): AuthorizationAttributes[] {
  const imp = req.impersonate;
  if (!imp) return [];
  const checks: AuthorizationAttributes[] = [];
  const sa = splitServiceAccountUsername(imp.username);
  if (sa) {
    checks.push({ user, verb: 'impersonate', group: '', resource: 'serviceaccounts', namespace: sa.namespace, name: sa.name });
  } else {
    checks.push({ user, verb: 'impersonate', group: '', resource: 'users', name: imp.username });
  }
  for (const g of imp.groups ?? []) {
    checks.push({ user, verb: 'impersonate', group: '', resource: 'groups', name: g });
  }
  return checks;
}

/**
 * The user a request acts as after impersonation (undefined when it impersonates nobody): the named user with
 * the requested groups (a service account without groups gets its fixed groups), plus system:authenticated for
 * anyone but system:anonymous unless system:authenticated/system:unauthenticated was asked for.
 */
export function impersonatedUser(req: ApiRequest): UserInfo | undefined {
  const imp = req.impersonate;
  if (!imp) return undefined;
  if (!imp.username) {
    // impersonation.go: groups without a user are a bad request.
    throw newBadRequest(`requested ${JSON.stringify(imp.groups ?? [])} without impersonating a user`);
  }
  const groupsSpecified = (imp.groups ?? []).length > 0;
  let groups = [...(imp.groups ?? [])];
  const sa = splitServiceAccountUsername(imp.username);
  if (sa && !groupsSpecified) groups = makeServiceAccountGroupNames(sa.namespace);
  if (imp.username !== AnonymousUser) {
    if (!groups.includes(SystemGroup.AllAuthenticated) && !groups.includes(SystemGroup.AllUnauthenticated)) {
      groups.push(SystemGroup.AllAuthenticated);
    }
  } else if (!groups.includes(SystemGroup.AllUnauthenticated)) {
    groups.push(SystemGroup.AllUnauthenticated);
  }
  return { username: imp.username, groups };
}

/**
 * Runs the impersonation checks for `user` and returns the user the request then acts as. Throws the 403 the
 * filter writes for the first refused check, e.g. `users "bob" is forbidden: User "alice" cannot impersonate
 * resource "users" in API group "" at the cluster scope`.
 */
export function applyImpersonation(req: ApiRequest, user: UserInfo, authorizer: Authorizer): UserInfo {
  const target = impersonatedUser(req);
  if (!target) return user;
  for (const check of impersonationChecks(req, user)) {
    const result = authorizer.authorize(check);
    if (result.decision !== Decision.Allow) throw forbiddenError(check, result.reason);
  }
  return target;
}
