// The 403 an unauthorized request gets: responsewriters.Forbidden in
// apiserver/pkg/endpoints/handlers/responsewriters/errors.go, wrapped in apierrors.NewForbidden.
import { type Status, StatusError, StatusReason, newForbidden } from '../../../shared/api/status';
import type { AuthorizationAttributes } from '../types';

// The server HTML-escapes the message it builds (not the authorizer's reason), so user-chosen names
// cannot smuggle markup into clients that render errors as HTML.
const sanitizeRe = /[&<>]/g;
const sanitizeMap: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
function sanitize(s: string): string {
  return s.replace(sanitizeRe, (c) => sanitizeMap[c]);
}

/** Go's %q for the plain strings that appear here (names, verbs, paths). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

export function isResourceRequest(attrs: AuthorizationAttributes): boolean {
  return attrs.path === undefined;
}

/**
 * `User "alice" cannot list resource "pods" in API group "" in the namespace "default"`, `… at the cluster
 * scope`, or for non-resource requests `User "alice" cannot get path "/healthz"`. Unescaped.
 */
export function forbiddenMessage(attrs: AuthorizationAttributes): string {
  const username = attrs.user.username;
  if (!isResourceRequest(attrs)) {
    return `User ${goQuote(username)} cannot ${attrs.verb} path ${goQuote(attrs.path ?? '')}`;
  }
  let resource = attrs.resource ?? '';
  if (attrs.subresource) resource = `${resource}/${attrs.subresource}`;
  const group = attrs.group ?? '';
  if (attrs.namespace) {
    return `User ${goQuote(username)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(group)} in the namespace ${goQuote(attrs.namespace)}`;
  }
  return `User ${goQuote(username)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(group)} at the cluster scope`;
}

/**
 * The full 403 Status: `pods is forbidden: User "alice" cannot list …`, with `: <reason>` appended when the
 * authorizer gave one (RBAC does when a binding points at a missing role).
 */
export function forbiddenError(attrs: AuthorizationAttributes, reason = ''): StatusError {
  const msg = sanitize(forbiddenMessage(attrs));
  const errMsg = reason ? `${msg}: ${reason}` : msg;
  if (!isResourceRequest(attrs)) {
    // apierrors.NewForbidden with an empty GroupResource: "forbidden: <err>".
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `forbidden: ${errMsg}`,
      reason: StatusReason.Forbidden,
      details: {},
      code: 403,
    };
    return new StatusError(status);
  }
  return newForbidden({ group: attrs.group ?? '', resource: attrs.resource ?? '' }, attrs.name ?? '', errMsg);
}
