// Benchmark 4 (persistence), in Chromium on the production build, through the page's cluster worker (the page
// exposes no hook, so the calls go over the worker protocol beside the page's own client; see browser/page-probe).
// The simulation is paused in both write phases, so only the benchmark's own writes go to IndexedDB:
//   - write-behind: N ConfigMap creates as N 'api/request' calls sent at once (pipelined, as the page's client
//     sends them), each answered only once its revision is durable in IndexedDB. The figure is the rate of durable
//     replies, first send to last durable reply, under the writes the worker's API server really makes (one
//     revision per create; the write-behind groups whatever is queued into one transaction per cycle). The API
//     pipeline runs on the same worker thread, so this bounds the write-behind's own rate from below. Also: the
//     rate between the 10th and 90th percentile replies. In its own context, so it starts from an empty database.
//     (Chromium delivers a transaction's events to the worker behind the messages already queued there, so the
//     replies of a burst come once the worker has taken in the whole burst.)
//   - end to end: N ConfigMaps in 'api/apply' calls of 500 (the worker's limit) sent at once, whose replies come
//     only once every revision is durable: objects per second through YAML parsing, kubectl's GET-then-create
//     and the API pipeline, plus the write-behind;
//   - reload: the page is reloaded over those N objects (plus the booted cluster); time from navigation until
//     three nodes are Ready, the editor is usable and all N ConfigMaps reached the page (BENCH_PERSISTENCE_RELOAD=0
//     leaves it out). A reload slower than RELOAD_TIMEOUT_MS is reported as that wait, flagged reloadTimedOut.
// BENCH_PERSISTENCE_PROFILE=<dir>: CPU profiles of the cluster worker over each write phase
// (persistence-requests.cpuprofile, persistence-apply.cpuprofile; for bench/profile-summary.ts or DevTools).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { ProbeState } from './browser/page-probe';
import { installProbe } from './browser/page-probe';
import { readTrace, taskCpuFigures } from './browser/trace-summary';
import { startBrowserBench } from './lib/browser';
import { waitUsable } from './page';

export interface PersistenceResult {
  objects: number;
  /** Pipelined api/request creates: first send → last durable reply. */
  requestWallMs: number;
  /** Durable object writes per second under pipelined creates (the write-behind's sustained rate). */
  requestWritesPerSecond: number;
  /** The same between the 10th and 90th percentile replies (the steady state, without start-up and tail). */
  requestSteadyWritesPerSecond: number;
  /** ms from the first send to the first, 10th, 50th, 90th percentile and last durable reply. */
  requestReplyMs: { first: number; p10: number; p50: number; p90: number; last: number };
  /**
   * CPU time of the cluster worker's thread over the creates (a trace's 'toplevel' tasks, thread time): on a loaded
   * machine the wall-clock rate mostly measures waiting for a core; this is the fair before/after figure.
   */
  requestWorkerCpuMs: number;
  /** api/apply end to end. */
  applyWallMs: number;
  objectsPerSecond: number;
  /** CPU time of the cluster worker's thread over the apply. */
  applyWorkerCpuMs: number;
  reloadUsableMs: number;
  reloadConfigMapsMs: number;
  reloadNodesReadyMs: number;
  reloadEditorUsableMs: number;
  /**
   * Where the reload's time went: navigation → the cluster worker ready (state restored from IndexedDB, cluster
   * started), → the first of the N ConfigMaps delivered, → the last; in how many watch batches they came, and the
   * page's long tasks (over 50 ms) from navigation until all were in (count, longest).
   */
  reloadParts?: { workerReadyMs: number; firstConfigMapMs: number; configMapBatches: number; longTasks: number; maxLongTaskMs: number; workerCpuMs: number; pageCpuMs: number; longestTaskCpuMs: number; tasksOver50Cpu: number };
  durableRevision?: number;
  /** The reload did not finish within RELOAD_TIMEOUT_MS: the reload figures are that wait (lower bounds). */
  reloadTimedOut?: boolean;
  /** How many of the N ConfigMaps had reached the page when it timed out. */
  reloadConfigMapsSeen?: number;
}

const RELOAD_TIMEOUT_MS = 120_000;

const PREFIX = 'bench-cm-';
const REQUEST_PREFIX = 'bench-rq-';

/** The worker's apply takes at most 500 documents per manifest. */
const CHUNK = 500;

const PAYLOAD = 'x'.repeat(64);

function configMaps(from: number, to: number): string {
  const docs: string[] = [];
  for (let i = from; i < to; i++) docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${PREFIX}${i}\ndata:\n  index: "${i}"\n  payload: "${PAYLOAD}"\n`);
  return docs.join('---\n');
}

type Probe = { call(m: string, p?: unknown): Promise<unknown>; state: ProbeState };

const probeCall = (page: Page, method: string, params?: unknown): Promise<unknown> =>
  page.evaluate(([m, p]) => (window as unknown as { __benchProbe: Probe }).__benchProbe.call(m as string, p), [method, params] as const);

async function openPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
  await page.addInitScript({ content: `var __name = (f) => f; (${installProbe.toString()})(${JSON.stringify({ countBytes: false, configMapPrefix: PREFIX, recordLoad: true })});` });
  await page.goto(baseURL);
  await waitUsable(page);
  return page;
}

/**
 * A CPU profile of the page's cluster worker (a dedicated worker: Playwright gives no CDP session for it, so the
 * browser session attaches to its target and speaks to it through Target.sendMessageToTarget).
 */
async function workerProfiler(browser: Browser): Promise<{ start(): Promise<void>; stop(path: string): Promise<void> }> {
  const cdp: CDPSession = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  // The cluster worker's chunk is assets/worker-<hash>.js (Monaco's workers are named after their language).
  const target = targetInfos.filter((t) => t.type === 'worker' && /\/worker-[^/]*\.js$/.test(t.url)).pop();
  if (!target) throw new Error(`no cluster worker to profile among ${targetInfos.map((t) => `${t.type} ${t.url}`).join(', ')}`);
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    if (e.sessionId !== sessionId) return;
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result);
  });
  const send = (method: string, params: object = {}): Promise<unknown> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
  return {
    async start() {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 500 });
      await send('Profiler.start');
    },
    async stop(path) {
      const { profile } = (await send('Profiler.stop')) as { profile: unknown };
      writeFileSync(path, JSON.stringify(profile));
    },
  };
}

/** Thread CPU time (ms) of the busiest dedicated worker in a 'toplevel' trace: the cluster worker. */
function workerCpuMs(tracePath: string): number {
  const events = readTrace(tracePath) as { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }[];
  const workers = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'DedicatedWorker thread').map((e) => `${e.pid}/${e.tid}`));
  const cpu = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || (e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask')) continue;
    const thread = `${e.pid}/${e.tid}`;
    if (workers.has(thread)) cpu.set(thread, (cpu.get(thread) ?? 0) + (e.tdur ?? e.dur ?? 0));
  }
  return Math.max(0, ...cpu.values()) / 1000;
}

/** Thread CPU time (ms) of the page's main thread (the busiest CrRendererMain) in a trace. */
function mainThreadCpuMs(tracePath: string): number {
  const events = readTrace(tracePath) as { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }[];
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}/${e.tid}`));
  const cpu = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || (e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask')) continue;
    const thread = `${e.pid}/${e.tid}`;
    if (mains.has(thread)) cpu.set(thread, (cpu.get(thread) ?? 0) + (e.tdur ?? e.dur ?? 0));
  }
  return Math.max(0, ...cpu.values()) / 1000;
}

/** Runs a phase inside a light Chrome trace and returns its result with the cluster worker's CPU time. */
async function withWorkerCpu<T>(browser: Browser, page: Page, phase: () => Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kubeplay-persistence-trace-'));
  const path = join(dir, 'trace.json');
  try {
    await browser.startTracing(page, { path, categories: ['toplevel'] });
    const result = await phase();
    await browser.stopTracing();
    return { result, cpuMs: workerCpuMs(path) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runPersistenceCase(objects: number): Promise<PersistenceResult> {
  const bench = await startBrowserBench();
  const profileDir = process.env.BENCH_PERSISTENCE_PROFILE;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  try {
    // 1. The write-behind under pipelined creates, in a fresh context (an empty database).
    const first = await openPage(bench.browser, bench.baseURL);
    await probeCall(first, 'sim/control', { action: 'pause' });
    const profiler1 = profileDir ? await workerProfiler(bench.browser) : undefined;
    await profiler1?.start();
    const { result: requests, cpuMs: requestWorkerCpuMs } = await withWorkerCpu(bench.browser, first, () => first.evaluate(
      async ([n, prefix, payload]) => {
        const probe = (window as unknown as { __benchProbe: Probe }).__benchProbe;
        const replies: number[] = [];
        let failed = 0;
        let firstError: string | undefined;
        const t0 = performance.now();
        const calls: Promise<void>[] = [];
        for (let i = 0; i < (n as number); i++) {
          const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}${i}` }, data: { index: String(i), payload } };
          calls.push(
            probe.call('api/request', { verb: 'create', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', body }).then(
              () => void replies.push(performance.now() - t0),
              (e: unknown) => {
                failed++;
                firstError ??= String(e);
              },
            ),
          );
        }
        await Promise.all(calls);
        return { replies, failed, firstError };
      },
      [objects, REQUEST_PREFIX, PAYLOAD] as const,
    ));
    if (profiler1) await profiler1.stop(join(profileDir!, 'persistence-requests.cpuprofile'));
    if (requests.failed > 0) throw new Error(`${requests.failed} of ${objects} creates failed: ${requests.firstError}`);
    const replies = requests.replies.sort((a, b) => a - b);
    const requestWallMs = replies[replies.length - 1];
    const p10 = Math.floor(objects * 0.1);
    const p90 = Math.floor(objects * 0.9);
    const steadyMs = replies[p90] - replies[p10];
    await first.context().close();

    // 2. End to end through api/apply, then 3. the reload, in a second fresh context.
    const page = await openPage(bench.browser, bench.baseURL);
    // Paused: only the apply's own writes go to IndexedDB while it is timed.
    await probeCall(page, 'sim/control', { action: 'pause' });
    const manifests: string[] = [];
    for (let i = 0; i < objects; i += CHUNK) manifests.push(configMaps(i, Math.min(objects, i + CHUNK)));
    const profiler2 = profileDir ? await workerProfiler(bench.browser) : undefined;
    await profiler2?.start();
    let applyWallMs = 0;
    const { result: results, cpuMs: applyWorkerCpuMs } = await withWorkerCpu(bench.browser, page, async () => {
      const start = Date.now();
      const replies = (await Promise.all(manifests.map((manifest) => probeCall(page, 'api/apply', { manifest })))) as { outcomes: { ok: boolean }[] }[];
      applyWallMs = Date.now() - start;
      return replies;
    });
    if (profiler2) await profiler2.stop(join(profileDir!, 'persistence-apply.cpuprofile'));
    const result = { outcomes: results.flatMap((r) => r.outcomes).filter((o) => o.ok) as unknown[] };
    if (result.outcomes.length !== objects) throw new Error(`apply answered ${result.outcomes.length} outcomes for ${objects} objects: ${JSON.stringify(result.outcomes[0]).slice(0, 300)}`);
    await probeCall(page, 'cluster/flush');
    const info = (await probeCall(page, 'cluster/info')) as { durableRevision?: number };

    // BENCH_PERSISTENCE_RELOAD=0 leaves the reload out (for iterating on the write figures; the default measures it).
    let reload: ProbeState | undefined;
    let reloadTimedOut = false;
    let reloadCpu: { workerMs: number; pageMs: number; longestTaskCpuMs: number; over50Cpu: number } | undefined;
    if (process.env.BENCH_PERSISTENCE_RELOAD !== '0') {
      // A trace of the reload: the cluster worker's and the page's CPU time until all ConfigMaps are in; with
      // BENCH_PERSISTENCE_PROFILE also the page's CPU profile and a full timeline (reload.cpuprofile and
      // reload.trace.json, for bench/browser/task-profile.ts <dir> <dist> N M reload).
      const traceDir = profileDir ?? mkdtempSync(join(tmpdir(), 'kubeplay-reload-trace-'));
      const tracePath = join(traceDir, 'reload.trace.json');
      const cdp = profileDir ? await page.context().newCDPSession(page) : undefined;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
        await cdp.send('Profiler.start');
      }
      await bench.browser.startTracing(page, { path: tracePath, categories: profileDir ? ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline.stack', 'v8'] : ['toplevel'] });
      await page.reload();
      try {
        await page.waitForFunction(
          (n) => {
            const s = (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state;
            if (s.configMaps >= n && s.configMapsAt === undefined) s.configMapsAt = performance.now();
            return s.nodesReadyAt !== undefined && s.editorUsableAt !== undefined && s.configMapsAt !== undefined;
          },
          objects,
          { timeout: RELOAD_TIMEOUT_MS, polling: 20 },
        );
      } catch (err) {
        // Still counted: a reload slower than the wait is reported as the wait (a lower bound, a miss), not lost.
        if (!(err instanceof Error && err.name === 'TimeoutError')) throw err;
        reloadTimedOut = true;
      }
      await bench.browser.stopTracing();
      const tasks = taskCpuFigures(readTrace(tracePath));
      reloadCpu = { workerMs: workerCpuMs(tracePath), pageMs: mainThreadCpuMs(tracePath), longestTaskCpuMs: tasks.longestCpuMs, over50Cpu: tasks.over50Cpu };
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(join(traceDir, 'reload.cpuprofile'), JSON.stringify(profile));
      } else rmSync(traceDir, { recursive: true, force: true });
      reload = await page.evaluate(() => (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state);
    }
    const s = reload;
    const at = (t: number | undefined) => (t === undefined ? (s ? RELOAD_TIMEOUT_MS : NaN) : t);
    await page.context().close();
    return {
      objects,
      requestWallMs,
      requestWritesPerSecond: objects / (requestWallMs / 1000),
      requestSteadyWritesPerSecond: (p90 - p10) / (steadyMs / 1000),
      requestWorkerCpuMs,
      requestReplyMs: { first: replies[0], p10: replies[p10], p50: replies[Math.floor(objects * 0.5)], p90: replies[p90], last: requestWallMs },
      applyWallMs,
      objectsPerSecond: objects / (applyWallMs / 1000),
      applyWorkerCpuMs,
      reloadUsableMs: Math.max(at(s?.nodesReadyAt), at(s?.editorUsableAt), at(s?.configMapsAt)),
      reloadConfigMapsMs: at(s?.configMapsAt),
      reloadNodesReadyMs: at(s?.nodesReadyAt),
      reloadEditorUsableMs: at(s?.editorUsableAt),
      ...(s
        ? {
            reloadParts: {
              workerReadyMs: at(s.workerReadyAt),
              firstConfigMapMs: at(s.firstConfigMapAt),
              configMapBatches: s.configMapBatches,
              longTasks: s.longTasks.filter((t) => t.start < at(s.configMapsAt)).length,
              maxLongTaskMs: Math.max(0, ...s.longTasks.filter((t) => t.start < at(s.configMapsAt)).map((t) => t.duration)),
              workerCpuMs: reloadCpu?.workerMs ?? NaN,
              pageCpuMs: reloadCpu?.pageMs ?? NaN,
              longestTaskCpuMs: reloadCpu?.longestTaskCpuMs ?? NaN,
              tasksOver50Cpu: reloadCpu?.over50Cpu ?? NaN,
            },
          }
        : {}),
      ...(reloadTimedOut ? { reloadTimedOut, reloadConfigMapsSeen: s?.configMaps } : {}),
      durableRevision: info.durableRevision,
    };
  } finally {
    await bench.close();
  }
}
