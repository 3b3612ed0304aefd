// The network tools a container runs — curl, busybox wget, nslookup — over the simulated data plane, with the
// output formats of the real programs (curl 8, busybox 1.36; busybox ≤ 1.28's older nslookup). Which image
// ships which tool follows the real images: busybox and alpine have wget and nslookup but no curl, nginx has
// curl, curlimages/curl has curl (and busybox's applets), debian/ubuntu have none.
import type { TrafficResult } from '../../shared/protocol/network';
import type { ImageReference } from '../kubelet/images';
import { clusterDnsIP, type DnsAnswer } from './dns';

/** A pod's view of the network, given to its programs (kubelet ProgramContext.network). */
export interface PodNetwork {
  request(req: { url: string; method?: string; host?: string }): TrafficResult;
  lookup(name: string): DnsAnswer;
}

export interface ToolOutput {
  stdout: string[];
  stderr: string[];
  code: number;
  durationMs: number;
}

export const networkTools = new Set(['curl', 'wget', 'nslookup']);

const busyboxLike = /(^|\/)(busybox|alpine)$/;
const fullDistros = /\/(python|node|golang|ruby|perl|php|openjdk|buildpack-deps|gcc|rust|maven|gradle)$/;

/** Whether the image has the tool on its PATH. Unknown images are assumed to ship curl and wget. */
export function imageHasTool(ref: ImageReference, tool: string): boolean {
  const repo = ref.repository;
  const tag = ref.tag ?? '';
  const slim = /slim/.test(tag);
  const alpine = /alpine/.test(tag);
  if (/nicolaka\/netshoot$|\/dnsutils$|jessie-dnsutils$|\/agnhost$/.test(repo)) return true;
  if (/curlimages\/curl$/.test(repo)) return true;
  if (busyboxLike.test(repo)) return tool !== 'curl';
  if (/\/(nginx|nginx-slim)$/.test(repo)) return tool === 'curl' || alpine;
  if (/\/(ubuntu|debian|httpd|redis|mysql|postgres|memcached|mongo|hello-world)$/.test(repo)) return alpine && tool !== 'curl';
  if (fullDistros.test(repo)) return alpine ? tool !== 'curl' : !slim && tool !== 'nslookup';
  if (repo.startsWith('docker.io/library/') || repo.startsWith('registry.k8s.io/')) return alpine && tool !== 'curl';
  return tool !== 'nslookup';
}

const reasons: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified', 400: 'Bad Request',
  401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Not Allowed', 500: 'Internal Server Error', 502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable', 504: 'Gateway Time-out',
};

export function reasonPhrase(status: number): string {
  return reasons[status] ?? '';
}

function lines(body: string): string[] {
  const out = body.replace(/\r\n/g, '\n').split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** curl [-s] [-S] [-v] [-I] [-i] [-f] [-o file] [-X M] [-H 'Host: …'] [-m N] [--connect-timeout N] url */
export function curl(args: string[], net: PodNetwork): ToolOutput {
  let silent = false;
  let showErr = false;
  let verbose = false;
  let head = false;
  let include = false;
  let fail = false;
  let method: string | undefined;
  let host: string | undefined;
  let maxMs: number | undefined;
  let output: string | undefined;
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '-H' || a === '--header') {
      const h = args[++i] ?? '';
      const m = /^host:\s*(.*)$/i.exec(h);
      if (m) host = m[1].trim();
    } else if (a === '-X' || a === '--request') method = args[++i];
    else if (a === '-m' || a === '--max-time' || a === '--connect-timeout') maxMs = Number(args[++i]) * 1000;
    else if (a === '-o' || a === '--output') output = args[++i];
    else if (a === '--silent') silent = true;
    else if (a === '--verbose') verbose = true;
    else if (a === '--head') head = true;
    else if (a === '--include') include = true;
    else if (a === '--fail') fail = true;
    else if (/^-[a-zA-Z]+$/.test(a)) {
      for (const f of a.slice(1)) {
        if (f === 's') silent = true;
        else if (f === 'S') showErr = true;
        else if (f === 'v') verbose = true;
        else if (f === 'I') head = true;
        else if (f === 'i') include = true;
        else if (f === 'f') fail = true;
      }
    } else if (!a.startsWith('-')) url ??= a;
  }
  if (!url) return { stdout: [], stderr: ["curl: try 'curl --help' or 'curl --manual' for more information"], code: 2, durationMs: 0 };
  const res = net.request({ url, method: head ? 'HEAD' : method, host });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const target = /^[a-z]+:\/\//i.test(url) ? url : `http://${url}`;
  const hostPart = target.replace(/^[a-z]+:\/\//i, '').split(/[/?#]/)[0];
  const hostName = hostPart.replace(/:\d+$/, '');
  const path = target.replace(/^[a-z]+:\/\/[^/?#]+/i, '') || '/';
  const port = /:(\d+)$/.exec(hostPart)?.[1] ?? (target.startsWith('https') ? '443' : '80');
  if (maxMs !== undefined && res.durationMs > maxMs) {
    if (!silent || showErr) stderr.push(`curl: (28) Connection timed out after ${maxMs + 1} milliseconds`);
    return { stdout, stderr, code: 28, durationMs: maxMs };
  }
  if (verbose) {
    const dns = res.hops.find((h) => h.kind === 'dns');
    const ip = dns?.ok ? (/→ (\S+?)(,|$)/.exec(dns.detail)?.[1] ?? hostName) : hostName;
    if (res.ok || !res.error?.includes('(6)')) stderr.push(`*   Trying ${ip}:${port}...`);
    if (res.ok) {
      stderr.push(`* Connected to ${hostName} (${ip}) port ${port}`);
      stderr.push(`> ${head ? 'HEAD' : (method ?? 'GET')} ${path} HTTP/1.1`, `> Host: ${host ?? hostPart}`, '> User-Agent: curl/8.14.1', '> Accept: */*', '> ');
      stderr.push(`< HTTP/1.1 ${res.status} ${reasonPhrase(res.status!)}`);
      for (const [k, v] of Object.entries(res.headers ?? {})) stderr.push(`< ${k}: ${v}`);
      stderr.push('< ');
    }
  }
  if (!res.ok) {
    if (!silent || showErr) stderr.push(res.error ?? 'curl: (7) Failed to connect');
    const code = Number(/\((\d+)\)/.exec(res.error ?? '')?.[1] ?? 7);
    return { stdout, stderr, code, durationMs: res.durationMs };
  }
  if (fail && res.status! >= 400) {
    if (!silent || showErr) stderr.push(`curl: (22) The requested URL returned error: ${res.status}`);
    return { stdout, stderr, code: 22, durationMs: res.durationMs };
  }
  if (head || include) {
    stdout.push(`HTTP/1.1 ${res.status} ${reasonPhrase(res.status!)}`);
    for (const [k, v] of Object.entries(res.headers ?? {})) stdout.push(`${k}: ${v}`);
    stdout.push('');
  }
  if (!head && output === undefined) stdout.push(...lines(res.body ?? ''));
  if (verbose) stderr.push(`* Connection #0 to host ${hostName} left intact`);
  return { stdout, stderr, code: 0, durationMs: res.durationMs };
}

/** busybox wget [-q] [-O file|-] [-T sec] [--spider] [--header 'Host: …'] url */
export function wget(args: string[], net: PodNetwork): ToolOutput & { saved?: { path: string; lines: string[] } } {
  let quiet = false;
  let out: string | undefined;
  let timeoutMs: number | undefined;
  let spider = false;
  let host: string | undefined;
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const combined = /^-([a-zA-Z]*)O(.*)$/.exec(a);
    if (combined && !a.startsWith('--')) {
      if (combined[1].includes('q')) quiet = true;
      out = combined[2] !== '' ? combined[2] : args[++i];
    } else if (a === '-T') timeoutMs = Number(args[++i]) * 1000;
    else if (a.startsWith('--timeout=')) timeoutMs = Number(a.slice(10)) * 1000;
    else if (a === '--spider') spider = true;
    else if (a === '--header') {
      const m = /^host:\s*(.*)$/i.exec(args[++i] ?? '');
      if (m) host = m[1].trim();
    } else if (a === '-q' || a === '--quiet') quiet = true;
    else if (/^-[a-zA-Z]+$/.test(a)) {
      if (a.includes('q')) quiet = true;
    } else if (!a.startsWith('-')) url ??= a;
  }
  if (!url) return { stdout: [], stderr: ['BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.', '', 'Usage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]', '\t[--post-data STR | --post-file FILE] [-Y on/off]', '\t[-P DIR] [-U AGENT] [-T SEC] URL...'], code: 1, durationMs: 0 };
  const res = net.request({ url, method: spider ? 'HEAD' : 'GET', host });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const target = /^[a-z]+:\/\//i.test(url) ? url : `http://${url}`;
  const hostPart = target.replace(/^[a-z]+:\/\//i, '').split(/[/?#]/)[0];
  const hostName = hostPart.replace(/:\d+$/, '');
  const port = /:(\d+)$/.exec(hostPart)?.[1] ?? '80';
  const dns = res.hops.find((h) => h.kind === 'dns');
  const ip = dns?.ok ? (/→ (\S+?)(,|$)/.exec(dns.detail)?.[1] ?? hostName) : hostName;
  if (res.error?.includes('(6)')) return { stdout, stderr: [`wget: bad address '${hostName}'`], code: 1, durationMs: res.durationMs };
  if (!quiet) stderr.push(`Connecting to ${hostPart} (${ip}:${port})`);
  if (timeoutMs !== undefined && res.durationMs > timeoutMs) return { stdout, stderr: [...stderr, 'wget: download timed out'], code: 1, durationMs: timeoutMs };
  if (!res.ok) {
    const why = res.error?.includes('(52)') ? 'error getting response: Connection reset by peer' : res.error?.includes('(28)') ? 'download timed out' : `can't connect to remote host (${ip}): Connection refused`;
    return { stdout, stderr: [...stderr, `wget: ${why}`], code: 1, durationMs: res.durationMs };
  }
  if (res.status! >= 400) return { stdout, stderr: [...stderr, `wget: server returned error: HTTP/1.1 ${res.status} ${reasonPhrase(res.status!)}`], code: 1, durationMs: res.durationMs };
  if (spider) {
    if (!quiet) stderr.push('remote file exists');
    return { stdout, stderr, code: 0, durationMs: res.durationMs };
  }
  const body = res.body ?? '';
  const size = new TextEncoder().encode(body).length;
  const toStdout = out === '-';
  const file = toStdout ? undefined : (out ?? (target.replace(/^[a-z]+:\/\/[^/?#]+/i, '').split('?')[0].split('/').pop() || 'index.html'));
  if (toStdout) {
    if (!quiet) stderr.push('writing to stdout');
    stdout.push(...lines(body));
    if (!quiet) stderr.push(`-                    100% |********************************|   ${size}  0:00:00 ETA`, 'written to stdout');
  } else if (!quiet) {
    stderr.push(`saving to '${file}'`, `${file!.padEnd(20)} 100% |********************************|   ${size}  0:00:00 ETA`, `'${file}' saved`);
  }
  return { stdout, stderr, code: 0, durationMs: res.durationMs, ...(file ? { saved: { path: file, lines: lines(body) } } : {}) };
}

/** busybox nslookup name: the 1.36 format, or the ≤ 1.28 one the Kubernetes DNS-debugging docs show. */
export function nslookup(args: string[], net: PodNetwork, oldFormat: boolean): ToolOutput {
  const name = args.find((a) => !a.startsWith('-'));
  if (!name) return { stdout: [], stderr: ['BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.', '', 'Usage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]'], code: 1, durationMs: 0 };
  const answer = net.lookup(name);
  if (oldFormat) {
    const stdout = [`Server:    ${clusterDnsIP}`, `Address 1: ${clusterDnsIP} kube-dns.kube-system.svc.cluster.local`, ''];
    if (!answer.found) return { stdout, stderr: [`nslookup: can't resolve '${name}'`], code: 1, durationMs: 2 };
    stdout.push(`Name:      ${name}`);
    answer.addresses.forEach((ip, i) => stdout.push(`Address ${i + 1}: ${ip}${answer.ptr[ip] ? ` ${answer.ptr[ip]}` : ''}`));
    return { stdout, stderr: [], code: 0, durationMs: 2 };
  }
  const stdout = [`Server:\t\t${clusterDnsIP}`, `Address:\t${clusterDnsIP}:53`, ''];
  if (!answer.found) {
    stdout.push(`** server can't find ${answer.tried[answer.tried.length - 1] ?? name}: NXDOMAIN`, '');
    return { stdout, stderr: [], code: 1, durationMs: 2 };
  }
  if (answer.cname) stdout.push(`${answer.fqdn}\tcanonical name = ${answer.cname}`);
  for (const ip of answer.addresses) stdout.push(`Name:\t${answer.cname ?? answer.fqdn}`, `Address: ${ip}`);
  stdout.push('');
  return { stdout, stderr: [], code: 0, durationMs: 2 };
}

/** busybox ≤ 1.28 prints nslookup's older format (the Kubernetes docs' busybox:1.28). */
export function isOldBusyboxNslookup(ref: ImageReference): boolean {
  const m = /^1\.(\d+)/.exec(ref.tag ?? '');
  return /busybox$/.test(ref.repository) && !!m && Number(m[1]) <= 28;
}
