// Service account identities, as k8s.io/apiserver/pkg/authentication/serviceaccount/util.go spells them.

export const ServiceAccountUsernamePrefix = 'system:serviceaccount:';
export const AllServiceAccountsGroup = 'system:serviceaccounts';
export const ServiceAccountGroupPrefix = 'system:serviceaccounts:';

/** The well-known groups of apiserver/pkg/authentication/user/user.go. */
export const SystemGroup = {
  Privileged: 'system:masters',
  AllAuthenticated: 'system:authenticated',
  AllUnauthenticated: 'system:unauthenticated',
} as const;

export const AnonymousUser = 'system:anonymous';

/** "system:serviceaccount:<namespace>:<name>" */
export function makeServiceAccountUsername(namespace: string, name: string): string {
  return `${ServiceAccountUsernamePrefix}${namespace}:${name}`;
}

/** The groups every token of a service account in the namespace carries. */
export function makeServiceAccountGroupNames(namespace: string): string[] {
  return [AllServiceAccountsGroup, `${ServiceAccountGroupPrefix}${namespace}`];
}

/** Splits a service account username into namespace and name; undefined when it is not one. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(ServiceAccountUsernamePrefix)) return undefined;
  const rest = username.slice(ServiceAccountUsernamePrefix.length);
  const parts = rest.split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/** serviceaccount.MatchesUsername: a cheap comparison without building the string. */
export function matchesServiceAccountUsername(namespace: string, name: string, username: string): boolean {
  const prefix = ServiceAccountUsernamePrefix;
  if (!username.startsWith(prefix)) return false;
  if (username.length !== prefix.length + namespace.length + 1 + name.length) return false;
  return username.startsWith(namespace, prefix.length) && username[prefix.length + namespace.length] === ':' && username.endsWith(name);
}
