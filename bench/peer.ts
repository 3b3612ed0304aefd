// Benchmark 6: side by side with @ngrok/webernetes 0.3.5, in one Node process. Both get 3 nodes, are booted
// (untimed), then the same Deployment of R pause-image replicas is brought to all-available as fast as each can
// go. kubeplay: fast-forwarded virtual time (runUntil). webernetes: its clock is paused and advanced timer by
// timer (Clock.step to the earliest due timer), letting its promise chains settle (setImmediate) between timers;
// its own informer on deployments says when status.availableReplicas reaches R.
// Both sides get the same treatment, as a steady-state benchmark does: a small warm-up rollout, then warm-up
// rollouts of the timed size (untimed) until the side is at steady state (its last three within 10% of each
// other: the JIT has settled), then timed rollouts, each on a fresh cluster; the figure is the ratio of the
// medians. kubeplay needs about ten (its 300-pod rollout took 547 → 401 → 267 → 222 → 194 → … → 128 ms repeated,
// session 21), webernetes three (its runs are seconds long and level from the first). The first rollout of the
// timed size is reported too ("first run": mostly the JIT's first pass over the code at that size), and the
// ratio of the 3rd–5th rollouts, the figure of the method before session 21 (two warm-ups on each side).
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { bootBenchCluster, rolloutDeployment, warmUp } from './lib/kubeplay';
import { median } from './lib/report';
import { benchDeployment } from './lib/workload';

export interface PeerResult {
  replicas: number;
  /** Untimed rollouts of the timed size before the timed ones (until steady), per side, and timed rollouts. */
  kubeplayWarmUps: number;
  peerWarmUps: number;
  timedRuns: number;
  /** Medians over the timed runs. */
  kubeplayWallMs: number;
  kubeplayCpuMs: number;
  kubeplayVirtualMs: number;
  peerWallMs: number;
  peerCpuMs: number;
  peerVirtualMs: number;
  peerTimerSteps: number;
  peerVersion: string;
  /** peer wall / kubeplay wall (medians). */
  ratio: number;
  kubeplayWallRunsMs: number[];
  peerWallRunsMs: number[];
  /** The first rollout of the timed size on each side (the first warm-up), and their ratio. */
  kubeplayFirstWallMs: number;
  peerFirstWallMs: number;
  firstRatio: number;
  /** Ratio of the medians of each side's 3rd–5th rollouts of the timed size: two warm-ups, as before session 21. */
  twoWarmUpsRatio: number;
}

/** Untimed rollouts of the timed size per side: at least this many, then until steady, at most maxWarmUps. */
const minWarmUps = 3;
const maxWarmUps = 20;
/** Steady: the last three warm-ups' slowest is within this factor of their fastest. */
const steadySpread = 1.1;
/** Timed rollouts per side; the figure is their median. */
const timedRuns = 3;

/** Warm-up rollouts until steady, then the timed ones. */
async function warmThenTime<R extends { wallMs: number }>(rollout: () => Promise<R>): Promise<{ warm: R[]; timed: R[] }> {
  const warm: R[] = [];
  while (warm.length < maxWarmUps) {
    warm.push(await rollout());
    if (warm.length < minWarmUps) continue;
    const last = warm.slice(-3).map((r) => r.wallMs);
    if (Math.max(...last) <= steadySpread * Math.min(...last)) break;
  }
  const timed: R[] = [];
  for (let i = 0; i < timedRuns; i++) timed.push(await rollout());
  return { warm, timed };
}

export function parsePeerSizes(spec: string): number[] {
  return spec.split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n <= 0) throw new Error(`peer size "${s}": want replica counts, e.g. 30,100,300`);
    return n;
  });
}

/** The parts of webernetes' Clock the driver uses (tasks is private in its typings). */
interface PeerClock {
  nowMs(): number;
  step(ms: number): void;
  tasks: Map<number, { cancelled: boolean; dueAtMs: number }>;
}

interface PeerCluster {
  clock: unknown;
  init(): Promise<void>;
  pause(): void;
  close(): Promise<void>;
  informer(resource: string, cb: (type: string, obj: { metadata?: { name?: string; namespace?: string }; status?: Record<string, unknown> }) => void, options?: { namespace?: string }): unknown;
  api: { appsv1: { createNamespacedDeployment(args: { namespace: string; body: unknown }): Promise<unknown> } };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function loadPeer(): Promise<{ Cluster: new (options?: { nodes?: number }) => PeerCluster; version: string }> {
  register('./lib/extensionless-hook.mjs', import.meta.url);
  const mod = (await import('@ngrok/webernetes')) as unknown as { Cluster: new (options?: { nodes?: number }) => PeerCluster };
  // Its exports map hides package.json: read the installed one, beside the dist/index.js the import resolved.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@ngrok/webernetes')), 'utf8')) as { version: string };
  return { Cluster: mod.Cluster, version: pkg.version };
}

/** Advances the paused clock to its earliest due timer, runs everything due then, and lets promises settle. */
async function drivePeer(clock: PeerClock, done: () => boolean, maxSteps = 2_000_000): Promise<number> {
  let steps = 0;
  await settle();
  while (!done()) {
    if (++steps > maxSteps) throw new Error(`webernetes: not done after ${maxSteps} timer steps`);
    let next = Infinity;
    for (const t of clock.tasks.values()) if (!t.cancelled && t.dueAtMs < next) next = t.dueAtMs;
    clock.step(next === Infinity ? 0 : Math.max(0, next - clock.nowMs()));
    await settle();
  }
  return steps;
}

async function peerRollout(Cluster: new (options?: { nodes?: number }) => PeerCluster, replicas: number) {
  const cluster = new Cluster({ nodes: 3 });
  await cluster.init();
  cluster.pause();
  const clock = cluster.clock as PeerClock;
  const readyNodes = new Set<string>();
  const kubeSystem = new Map<string, string>();
  let available = 0;
  cluster.informer('nodes', (type, n) => {
    const ready = (n.status?.conditions as { type: string; status: string }[] | undefined)?.some((c) => c.type === 'Ready' && c.status === 'True');
    if (type !== 'delete' && ready) readyNodes.add(n.metadata?.name ?? '');
    else readyNodes.delete(n.metadata?.name ?? '');
  });
  cluster.informer('pods', (type, p) => {
    if (type === 'delete') kubeSystem.delete(p.metadata?.name ?? '');
    else kubeSystem.set(p.metadata?.name ?? '', String(p.status?.phase));
  }, { namespace: 'kube-system' });
  cluster.informer('deployments', (type, d) => {
    if (d.metadata?.name === 'bench' && type !== 'delete') available = Number(d.status?.availableReplicas ?? 0);
  }, { namespace: 'default' });
  // Boot (untimed): 3 nodes Ready and its control-plane pods Running.
  await drivePeer(clock, () => readyNodes.size === 3 && kubeSystem.size > 0 && [...kubeSystem.values()].every((ph) => ph === 'Running'));
  const v0 = clock.nowMs();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await cluster.api.appsv1.createNamespacedDeployment({ namespace: 'default', body: benchDeployment(replicas) });
  const steps = await drivePeer(clock, () => available >= replicas);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const virtualMs = clock.nowMs() - v0;
  void cluster.close().catch(() => undefined);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, virtualMs, steps };
}

export async function runPeerCase(replicas: number): Promise<PeerResult> {
  // Both warm up first (an untimed small rollout each) so neither is timed on cold module code.
  await warmUp();
  const { Cluster, version } = await loadPeer();
  await peerRollout(Cluster, 10);

  const ours = await warmThenTime(async () => {
    const cluster = await bootBenchCluster(3);
    const r = rolloutDeployment(cluster, replicas);
    await cluster.close();
    return r;
  });
  const theirs = await warmThenTime(() => peerRollout(Cluster, replicas));

  const oursTimed = ours.timed;
  const theirsTimed = theirs.timed;
  const thirdToFifth = (runs: { wallMs: number }[]) => median(runs.slice(2, 5).map((r) => r.wallMs));
  const kubeplayWallMs = median(oursTimed.map((r) => r.wallMs));
  const peerWallMs = median(theirsTimed.map((r) => r.wallMs));
  return {
    replicas,
    kubeplayWarmUps: ours.warm.length,
    peerWarmUps: theirs.warm.length,
    timedRuns,
    kubeplayWallMs,
    kubeplayCpuMs: median(oursTimed.map((r) => r.cpuMs)),
    kubeplayVirtualMs: oursTimed[0].virtualMs,
    peerWallMs,
    peerCpuMs: median(theirsTimed.map((r) => r.cpuMs)),
    peerVirtualMs: theirsTimed[0].virtualMs,
    peerTimerSteps: theirsTimed[0].steps,
    peerVersion: version,
    ratio: peerWallMs / kubeplayWallMs,
    kubeplayWallRunsMs: oursTimed.map((r) => r.wallMs),
    peerWallRunsMs: theirsTimed.map((r) => r.wallMs),
    kubeplayFirstWallMs: ours.warm[0].wallMs,
    peerFirstWallMs: theirs.warm[0].wallMs,
    firstRatio: theirs.warm[0].wallMs / ours.warm[0].wallMs,
    twoWarmUpsRatio: thirdToFifth([...theirs.warm, ...theirsTimed]) / thirdToFifth([...ours.warm, ...oursTimed]),
  };
}
