import type { Ingress, IngressBackend, HTTPIngressPath } from 'kubernetes-types/networking/v1';
import { describe, expect, it } from 'vitest';
import { prefixMatches, routeIngress, wildcardHostMatches } from './route';

const svc = (name: string, port = 80): IngressBackend => ({ service: { name, port: { number: port } } });
const p = (path: string, pathType: string, backend: string): HTTPIngressPath => ({ path, pathType, backend: svc(backend) });

function ing(name: string, rules: { host?: string; paths: HTTPIngressPath[] }[], opts: { created?: string; defaultBackend?: string } = {}): Ingress {
  return {
    metadata: { name, namespace: 'default', creationTimestamp: opts.created ?? '2026-01-01T00:00:00Z' },
    spec: {
      ...(opts.defaultBackend ? { defaultBackend: svc(opts.defaultBackend) } : {}),
      rules: rules.map((r) => ({ ...(r.host ? { host: r.host } : {}), http: { paths: r.paths } })),
    },
  };
}

const to = (ingresses: Ingress[], host: string, path: string): string | undefined => routeIngress(ingresses, { host, path })?.backend.service?.name;

describe('routeIngress: paths (the Ingress docs "Examples" table)', () => {
  // Kind / path(s) / request path(s) / matches?
  const table: [string, string, string, boolean][] = [
    ['Prefix', '/', '/ (all paths)', true],
    ['Exact', '/foo', '/foo', true],
    ['Exact', '/foo', '/bar', false],
    ['Exact', '/foo', '/foo/', false],
    ['Exact', '/foo/', '/foo', false],
    ['Prefix', '/foo', '/foo', true],
    ['Prefix', '/foo', '/foo/', true],
    ['Prefix', '/foo/', '/foo', true],
    ['Prefix', '/foo/', '/foo/', true],
    ['Prefix', '/aaa/bb', '/aaa/bbb', false],
    ['Prefix', '/aaa/bbb', '/aaa/bbb', true],
    ['Prefix', '/aaa/bbb/', '/aaa/bbb', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbb/', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbb/ccc', true],
    ['Prefix', '/aaa/bbb', '/aaa/bbbxyz', false],
    ['ImplementationSpecific', '/aaa', '/aaa/x', true],
    ['ImplementationSpecific', '/aaa', '/aaaz', false],
  ];
  it.each(table)('%s %s, request %s → %s', (pathType, path, request, matches) => {
    const req = request === '/ (all paths)' ? '/anything/at/all' : request;
    expect(to([ing('a', [{ paths: [p(path, pathType, 'svc')] }])], 'x.example', req)).toBe(matches ? 'svc' : undefined);
  });

  it('prefers the longest match, then Exact over Prefix at equal length', () => {
    const paths = [p('/', 'Prefix', 'root'), p('/aaa', 'Prefix', 'aaa'), p('/aaa/bbb', 'Prefix', 'bbb'), p('/aaa/bbb', 'Exact', 'exact')];
    const i = [ing('a', [{ paths }])];
    expect(to(i, 'h', '/aaa/bbb')).toBe('exact');
    expect(to(i, 'h', '/aaa/bbb/ccc')).toBe('bbb');
    expect(to(i, 'h', '/aaa/ccc')).toBe('aaa');
    expect(to(i, 'h', '/zzz')).toBe('root');
    // Query strings do not take part in matching.
    expect(to(i, 'h', '/aaa/bbb?x=1')).toBe('exact');
  });

  it('prefixMatches is element-wise', () => {
    expect(prefixMatches('/foo/bar', '/foo/bar/baz')).toBe(true);
    expect(prefixMatches('/foo/bar', '/foo/barbaz')).toBe(false);
    expect(prefixMatches('/', '/')).toBe(true);
  });
});

describe('routeIngress: hosts', () => {
  const ingresses = [
    ing('wild', [{ host: '*.foo.com', paths: [p('/', 'Prefix', 'wildcard')] }]),
    ing('exact', [{ host: 'bar.foo.com', paths: [p('/', 'Prefix', 'exact')] }]),
    ing('any', [{ paths: [p('/', 'Prefix', 'no-host')] }]),
  ];

  it('an exact host beats a wildcard, which beats a rule without host', () => {
    expect(to(ingresses, 'bar.foo.com', '/')).toBe('exact');
    expect(to(ingresses, 'BAR.foo.com:8080', '/')).toBe('exact');
    expect(to(ingresses, 'baz.foo.com', '/')).toBe('wildcard');
    // The wildcard covers a single label only.
    expect(to(ingresses, 'baz.bar.foo.com', '/')).toBe('no-host');
    expect(to(ingresses, 'foo.com', '/')).toBe('no-host');
    expect(wildcardHostMatches('*.foo.com', 'foo.com')).toBe(false);
  });

  it('a matched host is final: a path it lacks is not looked up under other hosts', () => {
    const i = [ing('a', [{ host: 'a.com', paths: [p('/api', 'Prefix', 'api')] }, { paths: [p('/', 'Prefix', 'catch-all')] }])];
    expect(to(i, 'a.com', '/api/v1')).toBe('api');
    expect(to(i, 'a.com', '/web')).toBeUndefined();
    expect(to(i, 'b.com', '/web')).toBe('catch-all');
  });

  it('rules of one host merge across Ingresses; the oldest wins a tie', () => {
    const older = ing('older', [{ host: 'a.com', paths: [p('/x', 'Prefix', 'old-x')] }], { created: '2026-01-01T00:00:00Z' });
    const newer = ing('newer', [{ host: 'a.com', paths: [p('/x', 'Prefix', 'new-x'), p('/y', 'Prefix', 'new-y')] }], { created: '2026-01-01T00:00:05Z' });
    const route = routeIngress([newer, older], { host: 'a.com', path: '/x' });
    expect(route?.ingress.metadata?.name).toBe('older');
    expect(route?.host).toBe('a.com');
    expect(route?.path).toBe('/x');
    expect(to([newer, older], 'a.com', '/y')).toBe('new-y');
  });
});

describe('routeIngress: defaultBackend and 404', () => {
  it('sends unmatched requests to a defaultBackend, else nothing (404)', () => {
    const rules = ing('r', [{ host: 'a.com', paths: [p('/app', 'Prefix', 'app')] }]);
    expect(routeIngress([rules], { host: 'b.com', path: '/' })).toBeUndefined();
    expect(routeIngress([], { host: 'a.com', path: '/' })).toBeUndefined();

    const withDefault = ing('d', [], { defaultBackend: 'fallback', created: '2026-01-01T00:00:09Z' });
    const route = routeIngress([rules, withDefault], { host: 'b.com', path: '/' });
    expect(route).toMatchObject({ host: '', path: '', backend: svc('fallback') });
    expect(route?.ingress.metadata?.name).toBe('d');
    expect(to([rules, withDefault], 'a.com', '/app/x')).toBe('app');
  });

  it('a host without a matching path uses the defaultBackend of its own Ingress first', () => {
    const other = ing('other', [], { defaultBackend: 'other-default', created: '2026-01-01T00:00:00Z' });
    const own = ing('own', [{ host: 'a.com', paths: [p('/app', 'Exact', 'app')] }], { defaultBackend: 'own-default', created: '2026-01-01T00:00:09Z' });
    expect(to([other, own], 'a.com', '/nope')).toBe('own-default');
    expect(to([other, own], 'c.com', '/nope')).toBe('other-default');
  });
});
