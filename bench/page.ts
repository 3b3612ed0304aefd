// Benchmark 5 (page), in Chromium on the production build:
//   a. navigation → three nodes delivered Ready to the page and the editor usable (Apply enabled, Monaco's textbox);
//   b. JavaScript fetched before first contentful paint (gzip; the cluster worker's script excluded: it runs off
//      the main thread), beside the static module graph of index.html;
//   c. a Deployment of P replicas rolled out at 10x (speed set with the page's Speed control, the manifest applied
//      through the worker protocol, 7 default nodes added so 1,100 pod slots exist): long tasks, script time per
//      frame (CDP Performance.getMetrics ScriptDuration over frames seen by requestAnimationFrame; long animation
//      frames' scripts), and worker → UI bytes per frame, measured in a second fresh page because counting bytes
//      (JSON.stringify of each message) costs main-thread time itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { installProbe, type ProbeState } from './browser/page-probe';
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

async function openProbed(browser: Browser, baseURL: string, countBytes: boolean): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
  // As source text: tsx's keepNames wraps named functions in __name(), which the page lacks.
  await page.addInitScript({ content: `var __name = (f) => f; (${installProbe.toString()})(${JSON.stringify({ countBytes, configMapPrefix: PREFIX })});` });
  await page.goto(baseURL);
  return page;
}

const probeState = (page: Page): Promise<ProbeState> => page.evaluate(() => (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state);
const probeCall = (page: Page, method: string, params?: unknown): Promise<unknown> =>
  page.evaluate(([m, p]) => (window as unknown as { __benchProbe: { call(m: string, p?: unknown): Promise<unknown> } }).__benchProbe.call(m as string, p), [method, params] as const);

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
async function rollout(page: Page, replicas: number, during: () => Promise<void> = async () => {}): Promise<number> {
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
  for (;;) {
    const res = (await probeCall(page, 'api/request', { verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', name: 'bench-rollout' })) as {
      body: { status?: { availableReplicas?: number; updatedReplicas?: number } };
    };
    const st = res.body.status ?? {};
    if (st.availableReplicas === replicas && st.updatedReplicas === replicas) break;
    if (Date.now() > deadline) throw new Error(`rollout not complete after 300 s: ${JSON.stringify(st)}`);
    await page.waitForTimeout(250);
  }
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
    let before = { script: 0, task: 0 };
    const wallMs = await rollout(page, replicas, async () => {
      before = await metric();
    });
    const after = await metric();
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
      maxLongFrameScriptMs: Math.max(0, ...s.longFrames.map((f) => f.scriptMs)),
      worstFrames: worst.map((f) => ({ duration: Math.round(f.duration), scriptMs: Math.round(f.scriptMs), scripts: f.scripts.slice(0, 6) })),
    };
    await page.context().close();

    // c (bytes): the same rollout in another fresh profile, every worker message measured.
    const page2 = await openProbed(bench.browser, bench.baseURL, true);
    await waitUsable(page2);
    const bytesWall = await rollout(page2, replicas);
    const s2 = await probeState(page2);
    const sizes = s2.frames.map((f) => f.bytes).sort((a, b) => a - b);
    await page2.context().close();

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
