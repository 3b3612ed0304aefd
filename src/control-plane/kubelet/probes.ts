// Probe evaluation (pkg/kubelet/prober): exec probes run their command inside the simulated container (so a file
// the container's script removed makes `cat` fail); httpGet, tcpSocket and grpc probes succeed on a port the
// container serves — a declared containerPort, or the image's own port while its server runs — and fail with
// the texts Go's net/http and net give otherwise.
import type { Container, Probe } from 'kubernetes-types/core/v1';
import { filesAt, runExecCommand, type ProgramContext, type ProgramRun } from './program';

export const ProbeType = { Liveness: 'Liveness', Readiness: 'Readiness', Startup: 'Startup' } as const;
export type ProbeType = (typeof ProbeType)[keyof typeof ProbeType];

export interface ProbeTarget {
  container: Container;
  run: ProgramRun;
  ctx: ProgramContext;
  /** Ports the image's server listens on. */
  imagePorts: number[];
  podIP: string;
  /** Offset since the container started. */
  elapsedMs: number;
}

export interface ProbeResult {
  success: boolean;
  /** What the kubelet reports after "<Type> probe failed: ". */
  output: string;
}

/** Probe defaults (SetDefaults_Probe). */
export function probeTimings(p: Probe): { initialDelayMs: number; periodMs: number; failureThreshold: number; successThreshold: number } {
  return {
    initialDelayMs: (p.initialDelaySeconds ?? 0) * 1000,
    periodMs: Math.max(1, p.periodSeconds ?? 10) * 1000,
    failureThreshold: Math.max(1, p.failureThreshold ?? 3),
    successThreshold: Math.max(1, p.successThreshold ?? 1),
  };
}

/** A named or numeric port resolved against the container's ports (-1 when the name is unknown). */
export function resolvePort(port: number | string | undefined, container: Container): number {
  if (typeof port === 'number') return port;
  if (port === undefined) return -1;
  if (/^\d+$/.test(port)) return Number(port);
  return container.ports?.find((p) => p.name === port)?.containerPort ?? -1;
}

export function servedPorts(target: Pick<ProbeTarget, 'container' | 'run' | 'imagePorts'>): Set<number> {
  const ports = new Set<number>();
  for (const p of target.container.ports ?? []) ports.add(p.containerPort);
  if (target.run.serves) for (const p of target.imagePorts) ports.add(p);
  return ports;
}

export function runProbe(probe: Probe, target: ProbeTarget): ProbeResult {
  if (probe.exec) {
    const res = runExecCommand(probe.exec.command ?? [], target.ctx, filesAt(target.run, target.elapsedMs));
    if (res.code === 0) return { success: true, output: res.output };
    return { success: false, output: res.output || `command ${JSON.stringify((probe.exec.command ?? []).join(' '))} exited with ${res.code}` };
  }
  const served = servedPorts(target);
  if (probe.httpGet) {
    const port = resolvePort(probe.httpGet.port as number | string, target.container);
    const host = probe.httpGet.host || target.podIP;
    const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
    const path = probe.httpGet.path ?? '/';
    const url = `${scheme}://${host}:${port}${path.startsWith('/') ? path : `/${path}`}`;
    if (port < 0) return { success: false, output: `unable to find port for ${JSON.stringify(String(probe.httpGet.port))}` };
    if (served.has(port)) return { success: true, output: '' };
    return { success: false, output: `Get ${JSON.stringify(url)}: dial tcp ${host}:${port}: connect: connection refused` };
  }
  if (probe.tcpSocket) {
    const port = resolvePort(probe.tcpSocket.port as number | string, target.container);
    const host = probe.tcpSocket.host || target.podIP;
    if (served.has(port)) return { success: true, output: '' };
    return { success: false, output: `dial tcp ${host}:${port}: connect: connection refused` };
  }
  if (probe.grpc) {
    if (served.has(probe.grpc.port)) return { success: true, output: '' };
    return { success: false, output: `timeout: failed to connect service "${target.podIP}:${probe.grpc.port}" within ${probe.timeoutSeconds ?? 1}s: context deadline exceeded` };
  }
  return { success: true, output: '' };
}
