// What a running container answers on a port: which ports its process listens on, and the HTTP response the
// image's server gives (nginx's welcome page, httpd's "It works!", an echo server's text, hello-app's greeting…).
import { imageVersion } from '../kubelet/images';
import type { ContainerProcess } from '../kubelet/pod-worker';

export interface HttpResponse {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: string;
}

/** A server that answers on the port but does not speak HTTP (redis, mysql…): curl gets an empty reply. */
export type PortAnswer = { http: HttpResponse } | { notHttp: true };

const nginxWelcome = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

/** The error page nginx generates (ngx_http_special_response.c). */
export function nginxErrorPage(status: number, reason: string, server = 'nginx'): string {
  return `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>${server}</center>\r\n</body>\r\n</html>\r\n`;
}

const nonHttp = new Set([
  'docker.io/library/redis', 'docker.io/library/mysql', 'docker.io/library/postgres', 'docker.io/library/memcached', 'docker.io/library/mongo',
  'docker.io/library/mariadb', 'docker.io/library/cassandra', 'docker.io/library/zookeeper', 'registry.k8s.io/kubernetes-zookeeper',
]);

function argValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    for (const prefix of [`-${name}=`, `--${name}=`]) if (a.startsWith(prefix)) return a.slice(prefix.length);
    if ((a === `-${name}` || a === `--${name}`) && i + 1 < argv.length) return argv[i + 1];
  }
  return undefined;
}

function repoName(proc: ContainerProcess): string {
  return proc.ctx.image.repository;
}

/** Whether the process has settled into serving (its start-up is over) at time now. */
export function isServing(proc: ContainerProcess, now: number): boolean {
  if (!proc.run.serves) return false;
  const end = proc.run.end;
  return end.type !== 'forever' || now - proc.startedAt >= end.at;
}

/**
 * The TCP ports the container's process listens on: the image server's own ports (nginx 80 whatever the
 * containerPort says), the port an echo server's flags name, else the ports the container declares; an
 * unknown server that declares none is taken to listen on any port.
 */
export function listeningPorts(proc: ContainerProcess): number[] | 'any' {
  const argv = proc.ctx.argv ?? [];
  const repo = repoName(proc);
  if (repo.endsWith('/http-echo')) {
    const listen = argValue(argv, 'listen');
    return [listen ? Number(listen.replace(/^.*:/, '')) : 5678];
  }
  if (repo.endsWith('/agnhost')) {
    if (argv.includes('serve-hostname')) return [Number(argValue(argv, 'port') ?? 9376)];
    if (argv.includes('netexec')) return [Number(argValue(argv, 'http-port') ?? 8080)];
  }
  const py = argv.findIndex((a) => a === 'http.server');
  if (py >= 0) return [Number(argv[py + 1] ?? 8000) || 8000];
  if (proc.ctx.image.ports.length > 0) return proc.ctx.image.ports;
  const declared = (proc.spec.ports ?? []).filter((p) => (p.protocol ?? 'TCP') === 'TCP').map((p) => p.containerPort);
  return declared.length > 0 ? declared : 'any';
}

export function listensOn(proc: ContainerProcess, port: number, now: number): boolean {
  if (!isServing(proc, now)) return false;
  const ports = listeningPorts(proc);
  return ports === 'any' || ports.includes(port);
}

function html(status: number, reason: string, body: string, server: string | undefined, contentType = 'text/html'): HttpResponse {
  const headers: Record<string, string> = {};
  if (server) headers.Server = server;
  headers['Content-Type'] = contentType;
  headers['Content-Length'] = String(new TextEncoder().encode(body).length);
  return { status, reason, headers, body };
}

const text = (body: string) => html(200, 'OK', body, undefined, 'text/plain; charset=utf-8');

/** What the container's server answers to method path on its port. */
export function serverResponse(proc: ContainerProcess, req: { method: string; path: string; podName: string; now: number }): PortAnswer {
  const repo = repoName(proc);
  const argv = proc.ctx.argv ?? [];
  const version = imageVersion(proc.ctx.ref, proc.ctx.image);
  const path = req.path.split('?')[0] || '/';
  if (nonHttp.has(repo)) return { notHttp: true };
  if (repo.endsWith('/nginx') || repo.endsWith('/nginx-slim')) {
    const server = `nginx/${version}`;
    if (path === '/' || path === '/index.html') return { http: html(200, 'OK', nginxWelcome, server) };
    if (path === '/50x.html') return { http: html(200, 'OK', '<!DOCTYPE html>\n<html>\n<head>\n<title>Error</title>\n</head>\n<body>\n<h1>An error occurred.</h1>\n</body>\n</html>\n', server) };
    return { http: html(404, 'Not Found', nginxErrorPage(404, 'Not Found', server), server) };
  }
  if (repo === 'docker.io/library/httpd') {
    const server = `Apache/${version} (Unix)`;
    if (path === '/' || path === '/index.html') return { http: html(200, 'OK', '<html><body><h1>It works!</h1></body></html>\n', server) };
    return {
      http: html(404, 'Not Found', `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n`, server, 'text/html; charset=iso-8859-1'),
    };
  }
  if (repo.endsWith('/http-echo')) {
    const body = `${argValue(argv, 'text') ?? ''}\n`;
    const res = text(body);
    res.headers = { 'X-App-Name': 'http-echo', 'X-App-Version': '1.0.0', ...res.headers };
    return { http: res };
  }
  if (repo.endsWith('/agnhost')) {
    if (argv.includes('netexec')) {
      if (path === '/hostname') return { http: text(req.podName) };
      if (path === '/clientip') return { http: text('') };
      return { http: text(`NOW: ${new Date(req.now).toISOString().replace('T', ' ').replace('Z', '.000000000 +0000 UTC')}`) };
    }
    return { http: text(req.podName) };
  }
  if (repo.endsWith('/hello-app')) {
    const v = /^\d+\.\d+$/.test(proc.ctx.ref.tag ?? '') ? `${proc.ctx.ref.tag}.0` : '1.0.0';
    return { http: text(`Hello, world!\nVersion: ${v}\nHostname: ${req.podName}\n`) };
  }
  if (repo.endsWith('/hpa-example')) return { http: html(200, 'OK', 'OK!', `Apache/2.4.10 (Debian)`) };
  if (repo.endsWith('/kubernetes-bootcamp')) return { http: text(`Hello Kubernetes bootcamp! | Running on: ${req.podName} | v=1\n`) };
  if (argv.includes('http.server')) {
    const body = `<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Directory listing for /</title>\n</head>\n<body>\n<h1>Directory listing for /</h1>\n<hr>\n<ul>\n</ul>\n<hr>\n</body>\n</html>\n`;
    return { http: html(200, 'OK', body, 'SimpleHTTP/0.6 Python/3.12.11', 'text/html; charset=utf-8') };
  }
  return { http: text(`Hello from ${req.podName}\n`) };
}
