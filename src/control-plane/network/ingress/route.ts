// CONTRACT (lead): how the simulated ingress controller routes one request (host + path) to a backend.
// The owner replaces the body; the signature is what the traffic simulation calls.
//
// The rules follow the Ingress API (networking.k8s.io/v1 docs, "Examples" table) as ingress-nginx applies them:
//   host:  an exact rule host beats a wildcard `*.foo.com` (which covers exactly one more label), which beats
//          the rules without a host; the chosen host is final, as an nginx server_name is.
//   path:  the longest matching path wins; at equal length Exact beats Prefix. Prefix matches element-wise
//          (`/foo` matches `/foo`, `/foo/`, `/foo/bar`, not `/foobar`; a trailing slash is ignored);
//          ImplementationSpecific is a Prefix (ingress-nginx without the regex annotation).
//   else:  a defaultBackend (one of the Ingresses behind that host first, then the oldest with one); else 404.
// Across Ingresses, rules for the same host merge and the oldest Ingress wins a tie, as ingress-nginx sorts them.
import type { Ingress, IngressBackend } from 'kubernetes-types/networking/v1';

export interface IngressRoute {
  ingress: Ingress;
  /** The rule's host ('' for a rule without host, or for the defaultBackend). */
  host: string;
  /** The matched path ('' for the defaultBackend). */
  path: string;
  backend: IngressBackend;
}

interface Candidate {
  ingress: Ingress;
  host: string;
  path: string;
  exact: boolean;
  backend: IngressBackend;
}

/** "Host: Foo.com:8080" → "foo.com". */
function normalizeHost(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h; // an IPv6 literal never matches a DNS rule host
  const colon = h.indexOf(':');
  return colon >= 0 ? h.slice(0, colon) : h;
}

/** The request path without query or fragment, always absolute. */
function normalizePath(path: string): string {
  const p = path.split(/[?#]/)[0] ?? '';
  return p.startsWith('/') ? p : `/${p}`;
}

/** `*.foo.com` matches `bar.foo.com`, never `foo.com` nor `baz.bar.foo.com`. */
export function wildcardHostMatches(ruleHost: string, host: string): boolean {
  if (!ruleHost.startsWith('*.')) return false;
  const suffix = ruleHost.slice(1);
  if (!host.endsWith(suffix)) return false;
  const label = host.slice(0, host.length - suffix.length);
  return label.length > 0 && !label.includes('.');
}

const elements = (p: string): string[] => p.split('/').filter((e) => e !== '');

/** Prefix matching by path element: every element of the rule's path equals the request's, in order. */
export function prefixMatches(rulePath: string, requestPath: string): boolean {
  const rule = elements(rulePath);
  const req = elements(requestPath);
  if (rule.length > req.length) return false;
  return rule.every((e, i) => e === req[i]);
}

/** The rule's length for "longest match": its path elements (a trailing slash adds nothing). */
const matchLength = (rulePath: string): number => elements(rulePath).join('/').length;

function creationOrder(a: Ingress, b: Ingress): number {
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ka = `${a.metadata?.namespace ?? ''}/${a.metadata?.name ?? ''}`;
  const kb = `${b.metadata?.namespace ?? ''}/${b.metadata?.name ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function candidates(ingresses: readonly Ingress[]): Candidate[] {
  const out: Candidate[] = [];
  for (const ingress of ingresses) {
    for (const rule of ingress.spec?.rules ?? []) {
      const host = (rule.host ?? '').toLowerCase();
      for (const p of rule.http?.paths ?? []) {
        const exact = p.pathType === 'Exact';
        out.push({ ingress, host, path: p.path || (exact ? '' : '/'), exact, backend: p.backend });
      }
    }
  }
  return out;
}

/** Which host group serves the request: exact, else the wildcard, else the rules without host. */
function chooseHost(all: readonly Candidate[], host: string): string | undefined {
  if (host && all.some((c) => c.host === host)) return host;
  const wildcard = all.find((c) => wildcardHostMatches(c.host, host));
  if (wildcard) return wildcard.host;
  if (all.some((c) => c.host === '')) return '';
  return undefined;
}

/**
 * Among the Ingresses the controller serves (its class), the backend for a request, following the Ingress API's
 * matching rules (exact host before wildcard, Exact before Prefix, longest prefix by path element); undefined → 404.
 */
export function routeIngress(ingresses: readonly Ingress[], request: { host: string; path: string }): IngressRoute | undefined {
  const ordered = [...ingresses].sort(creationOrder);
  const all = candidates(ordered);
  const host = normalizeHost(request.host);
  const path = normalizePath(request.path);
  const chosen = chooseHost(all, host);

  let best: Candidate | undefined;
  if (chosen !== undefined) {
    for (const c of all) {
      if (c.host !== chosen) continue;
      const matches = c.exact ? c.path === path : prefixMatches(c.path, path);
      if (!matches) continue;
      if (!best) {
        best = c;
        continue;
      }
      const d = matchLength(c.path) - matchLength(best.path);
      // Longer wins; at equal length Exact beats Prefix; else the earlier (older Ingress) stays.
      if (d > 0 || (d === 0 && c.exact && !best.exact)) best = c;
    }
  }
  if (best) return { ingress: best.ingress, host: best.host, path: best.path, backend: best.backend };

  const withDefault = ordered.filter((i) => i.spec?.defaultBackend);
  const ownDefault =
    chosen !== undefined ? withDefault.find((i) => (i.spec?.rules ?? []).some((r) => (r.host ?? '').toLowerCase() === chosen)) : undefined;
  const fallback = ownDefault ?? withDefault[0];
  if (fallback?.spec?.defaultBackend) return { ingress: fallback, host: '', path: '', backend: fallback.spec.defaultBackend };
  return undefined;
}
