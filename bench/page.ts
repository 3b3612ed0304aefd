// Benchmark 5 (page), in Chromium on the production build:
//   a. navigation → three nodes delivered Ready to the page and the editor usable (Apply enabled, Monaco's textbox);
//   b. JavaScript fetched before first contentful paint (gzip; the cluster worker's script excluded: it runs off
//      the main thread), beside the static module graph of index.html;
//   c. a Deployment of P replicas rolled out at 10x (speed set with the page's Speed control, the manifest applied
//      through the worker protocol, 7 default nodes added so 1,100 pod slots exist): long tasks, script time per
//      frame (CDP Performance.getMetrics ScriptDuration over frames seen by requestAnimationFrame; long animation
//      frames' scripts), and worker → UI bytes per frame, measured in a second fresh page because counting bytes
//      (JSON.stringify of each message) costs main-thread time itself.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { installProbe, type ProbeState } from './browser/page-probe';
import { readTrace, taskCpuFigures, type TaskCpuFigures } from './browser/trace-summary';
import { startBrowserBench } from './lib/browser';

export interface PageResult {
  replicas: number;
  nodesReadyMs: number;
  editorUsableMs: number;
  usableMs: number;
  fcpMs: number;
  firstPaintScripts: { url: string; gzipBytes: number }[];
  firstPaintGzipBytes: number;
  entryGraph: { url: string; gzipBytes: number }[];
  entryGraphGzipBytes: number;
  rollout: RolloutFigures;
  bytes: { bigFrames: ProbeState['bigFrames']; framesOver100KB: number; maxFrameBytes: number; p99FrameBytes: number; totalBytes: number; frames: number; messages: number; wallMs: number };
}

export interface RolloutFigures {
  wallMs: number;
  frames: number;
  meanFrameMs: number;
  maxFrameGapMs: number;
  scriptMsPerFrame: number;
  taskMsPerFrame: number;
  longTasks: number;
  maxLongTaskMs: number;
  longFrames: number;
  /** The main thread's tasks from a Chrome trace of the rollout, by wall and by CPU (thread) time. */
  taskCpu: TaskCpuFigures;
  maxLongFrameScriptMs: number;
  worstFrames: { duration: number; scriptMs: number; scripts: string[] }[];
}

const PREFIX = 'bench-cm-';
const EXTRA_NODES = 7;

function gzipOf(dist: string, url: string): number {
  const path = new URL(url).pathname;
  return gzipSync(readFileSync(join(dist, path))).length;
}

/** index.html's entry script and module preloads (what the browser must fetch before running the page). */
function entryGraph(dist: string, baseURL: string): { url: string; gzipBytes: number }[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/<(?:script[^>]*type="module"[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+)"/g)].map((m) => new URL(m[1], baseURL).href);
  return urls.map((url) => ({ url, gzipBytes: gzipOf(dist, url) }));
}

export async function openProbed(browser: Browser, baseURL: string, countBytes: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
  // As source text: tsx's keepNames wraps named functions in __name(), which the page lacks.
  await page.addInitScript({ content: `var __name = (f) => f; (${installProbe.toString()})(${JSON.stringify({ countBytes, configMapPrefix: PREFIX, rolloutPodPrefix: 'bench-rollout-' })});` });
  await page.goto(baseURL);
  return page;
}

const probeState = (page: Page): Promise<ProbeState> => page.evaluate(() => (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state);
/** A protocol call beside the page's; fails after 60 s (a worker restarted under it never answers). */
const probeCall = (page: Page, method: string, params?: unknown): Promise<unknown> =>
  Promise.race([
    page.evaluate(([m, p]) => (window as unknown as { __benchProbe: { call(m: string, p?: unknown): Promise<unknown> } }).__benchProbe.call(m as string, p), [method, params] as const),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${method}: no answer from the worker in 60 s`)), 60_000).unref()),
  ]);

export async function waitUsable(page: Page, timeoutMs = 60_000): Promise<ProbeState> {
  await page.waitForFunction(() => {
    const s = (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state;
    return s.nodesReadyAt !== undefined && s.editorUsableAt !== undefined;
  }, undefined, { timeout: timeoutMs, polling: 50 });
  return probeState(page);
}

function deployment(replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: bench-rollout
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: bench-rollout }
  template:
    metadata:
      labels: { app: bench-rollout }
    spec:
      containers:
      - name: pause
        image: registry.k8s.io/pause:3.10
`;
}

/** Adds nodes, sets 10x with the page's control, applies the Deployment and waits until all replicas are available. */
export async function rollout(page: Page, replicas: number, during: () => Promise<void> = async () => {}): Promise<number> {
  for (let i = 0; i < EXTRA_NODES; i++) await probeCall(page, 'sim/fault', { kind: 'add-node' });
  await page.getByRole('region', { name: 'Simulation' }).getByLabel('Speed').selectOption('10');
  await page.waitForFunction(() => {
    const s = (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state;
    return s.readyNodes.length >= 3 + 7;
  }, undefined, { timeout: 60_000, polling: 100 });
  await page.evaluate(() => {
    const p = (window as unknown as { __benchProbe: { state: ProbeState; setScan(on: boolean): void } }).__benchProbe;
    p.setScan(false);
    p.state.recording = true;
  });
  await during();
  const start = Date.now();
  await probeCall(page, 'api/apply', { manifest: deployment(replicas) });
  const deadline = start + 300_000;
  let lastNote = start;
  for (;;) {
    const res = (await probeCall(page, 'api/request', { verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', name: 'bench-rollout' })) as {
      body: { status?: { availableReplicas?: number; updatedReplicas?: number } };
    };
    const st = res.body.status ?? {};
    if (st.availableReplicas === replicas && st.updatedReplicas === replicas) break;
    if (Date.now() > deadline) throw new Error(`rollout not complete after 300 s: ${JSON.stringify(st)}`);
    if (Date.now() - lastNote > 15_000) {
      lastNote = Date.now();
      process.stderr.write(`  rollout ${Math.round((lastNote - start) / 1000)} s: ${st.availableReplicas ?? 0}/${replicas} available\n`);
    }
    await page.waitForTimeout(250);
  }
  // The engine can finish before the page has absorbed the rollout (the worker → UI budget spreads the backlog
  // over frames): keep recording until every pod has reached the page Ready, so that work is measured too.
  await page.waitForFunction((n) => (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state.rolloutPodsReady >= n, replicas, {
    timeout: Math.max(1, deadline - Date.now()),
    polling: 250,
  });
  const wallMs = Date.now() - start;
  await page.evaluate(() => ((window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state.recording = false));
  return wallMs;
}

export async function runPageCase(replicas: number): Promise<PageResult> {
  const bench = await startBrowserBench();
  try {
    // a + b + c (timing): a fresh profile, as a first visit.
    const page = await openProbed(bench.browser, bench.baseURL, false);
    const usable = await waitUsable(page);
    const paint = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => /\.js(\?|$)/.test(r.name) && r.startTime < fcp)
        .map((r) => ({ url: r.name, initiator: r.initiatorType }));
      return { fcp, scripts };
    });
    const firstPaintScripts = paint.scripts.filter((s) => !/\/worker-[^/]*\.js$/.test(s.url)).map((s) => ({ url: s.url, gzipBytes: gzipOf(bench.dist, s.url) }));
    const graph = entryGraph(bench.dist, bench.baseURL);

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metric = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      const get = (n: string) => metrics.find((m) => m.name === n)?.value ?? 0;
      return { script: get('ScriptDuration') * 1000, task: get('TaskDuration') * 1000 };
    };
    // BENCH_PAGE_PROFILE=<dir>: a CPU profile of the page's main thread over the rollout (page-rollout.cpuprofile,
    // for bench/profile-summary.ts or DevTools) and a Chrome trace (page-rollout.trace.json, for
    // bench/browser/trace-summary.ts: tasks, layouts and who forced them, paints); both cost main-thread time.
    // Without it, a trace of the 'toplevel' category only (each task's wall and CPU time, little overhead): on a
    // loaded machine most of a long task's wall time is the thread waiting for a core, which its CPU time shows.
    const profileDir = process.env.BENCH_PAGE_PROFILE;
    const traceDir = profileDir ?? mkdtempSync(join(tmpdir(), 'kubeplay-page-trace-'));
    const tracePath = join(traceDir, 'page-rollout.trace.json');
    let before = { script: 0, task: 0 };
    const wallMs = await rollout(page, replicas, async () => {
      let categories = ['toplevel'];
      if (profileDir) {
        mkdirSync(profileDir, { recursive: true });
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
        await cdp.send('Profiler.start');
        categories = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline.stack', 'blink.user_timing', 'v8'];
      }
      await bench.browser.startTracing(page, { path: tracePath, categories });
      before = await metric();
    });
    const after = await metric();
    await bench.browser.stopTracing();
    const taskCpu = taskCpuFigures(readTrace(tracePath));
    if (!profileDir) rmSync(traceDir, { recursive: true, force: true });
    if (profileDir) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(profileDir, 'page-rollout.cpuprofile'), JSON.stringify(profile));
    }
    const s = await probeState(page);
    const frames = s.frames.length;
    const worst = [...s.longFrames].sort((a, b) => b.duration - a.duration).slice(0, 3);
    const rolloutFigures: RolloutFigures = {
      wallMs,
      frames,
      meanFrameMs: s.frames.reduce((a, f) => a + f.t, 0) / Math.max(1, frames),
      maxFrameGapMs: Math.max(0, ...s.frames.map((f) => f.t)),
      scriptMsPerFrame: (after.script - before.script) / Math.max(1, frames),
      taskMsPerFrame: (after.task - before.task) / Math.max(1, frames),
      longTasks: s.longTasks.length,
      maxLongTaskMs: Math.max(0, ...s.longTasks.map((t) => t.duration)),
      longFrames: s.longFrames.length,
      taskCpu,
      maxLongFrameScriptMs: Math.max(0, ...s.longFrames.map((f) => f.scriptMs)),
      worstFrames: worst.map((f) => ({ duration: Math.round(f.duration), scriptMs: Math.round(f.scriptMs), scripts: f.scripts.slice(0, 6) })),
    };
    await page.context().close();

    // c (bytes): the same rollout in another fresh profile, every worker message measured (BENCH_PAGE_NO_BYTES=1
    // skips it, e.g. while profiling the timing pass: the bytes figures are then zero).
    let s2: ProbeState = { ...s, frames: [], bigFrames: [] };
    let bytesWall = 0;
    if (!process.env.BENCH_PAGE_NO_BYTES) {
      const page2 = await openProbed(bench.browser, bench.baseURL, true);
      await waitUsable(page2);
      bytesWall = await rollout(page2, replicas);
      s2 = await probeState(page2);
      await page2.context().close();
    }
    const sizes = s2.frames.map((f) => f.bytes).sort((a, b) => a - b);

    return {
      replicas,
      nodesReadyMs: usable.nodesReadyAt!,
      editorUsableMs: usable.editorUsableAt!,
      usableMs: Math.max(usable.nodesReadyAt!, usable.editorUsableAt!),
      fcpMs: paint.fcp,
      firstPaintScripts,
      firstPaintGzipBytes: firstPaintScripts.reduce((a, s) => a + s.gzipBytes, 0),
      entryGraph: graph,
      entryGraphGzipBytes: graph.reduce((a, s) => a + s.gzipBytes, 0),
      rollout: rolloutFigures,
      bytes: {
        bigFrames: s2.bigFrames,
        framesOver100KB: sizes.filter((b) => b > 100_000).length,
        maxFrameBytes: sizes[sizes.length - 1] ?? 0,
        p99FrameBytes: sizes[Math.floor(sizes.length * 0.99)] ?? 0,
        totalBytes: sizes.reduce((a, b) => a + b, 0),
        frames: sizes.length,
        messages: s2.frames.reduce((a, f) => a + f.messages, 0),
        wallMs: bytesWall,
      },
    };
  } finally {
    await bench.close();
  }
}
