// Benchmark 4 (persistence), in Chromium on the production build, through the page's cluster worker (the page
// exposes no hook, so the calls go over the worker protocol beside the page's own client; see browser/page-probe):
//   - write throughput: N ConfigMaps in 'api/apply' calls of 500 (the worker's limit) sent at once, whose replies comes only once every revision is
//     durable in IndexedDB: objects per second end to end (API pipeline + write-behind; the simulation paused so
//     only the apply writes). It bounds the IndexedDB rate from below: the write-behind is not timed on its own;
//   - reload: the page is reloaded over those N objects (plus the booted cluster); time from navigation until
//     three nodes are Ready, the editor is usable and all N ConfigMaps reached the page.
import type { Page } from 'playwright-core';
import type { ProbeState } from './browser/page-probe';
import { installProbe } from './browser/page-probe';
import { startBrowserBench } from './lib/browser';
import { waitUsable } from './page';

export interface PersistenceResult {
  objects: number;
  applyWallMs: number;
  objectsPerSecond: number;
  reloadUsableMs: number;
  reloadConfigMapsMs: number;
  reloadNodesReadyMs: number;
  reloadEditorUsableMs: number;
  durableRevision?: number;
}

const PREFIX = 'bench-cm-';

/** The worker's apply takes at most 500 documents per manifest. */
const CHUNK = 500;

function configMaps(from: number, to: number): string {
  const docs: string[] = [];
  for (let i = from; i < to; i++) docs.push(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${PREFIX}${i}\ndata:\n  index: "${i}"\n  payload: "${'x'.repeat(64)}"\n`);
  return docs.join('---\n');
}

const probeCall = (page: Page, method: string, params?: unknown): Promise<unknown> =>
  page.evaluate(([m, p]) => (window as unknown as { __benchProbe: { call(m: string, p?: unknown): Promise<unknown> } }).__benchProbe.call(m as string, p), [method, params] as const);

export async function runPersistenceCase(objects: number): Promise<PersistenceResult> {
  const bench = await startBrowserBench();
  try {
    const context = await bench.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
    await page.addInitScript({ content: `var __name = (f) => f; (${installProbe.toString()})(${JSON.stringify({ countBytes: false, configMapPrefix: PREFIX })});` });
    await page.goto(bench.baseURL);
    await waitUsable(page);
    // Paused: only the apply's own writes go to IndexedDB while it is timed.
    await probeCall(page, 'sim/control', { action: 'pause' });
    const manifests: string[] = [];
    for (let i = 0; i < objects; i += CHUNK) manifests.push(configMaps(i, Math.min(objects, i + CHUNK)));
    const start = Date.now();
    const results = (await Promise.all(manifests.map((manifest) => probeCall(page, 'api/apply', { manifest })))) as { outcomes: { ok: boolean }[] }[];
    const applyWallMs = Date.now() - start;
    const result = { outcomes: results.flatMap((r) => r.outcomes).filter((o) => o.ok) as unknown[] };
    if (result.outcomes.length !== objects) throw new Error(`apply answered ${result.outcomes.length} outcomes for ${objects} objects: ${JSON.stringify(result.outcomes[0]).slice(0, 300)}`);
    await probeCall(page, 'cluster/flush');
    const info = (await probeCall(page, 'cluster/info')) as { durableRevision?: number };

    await page.reload();
    await page.waitForFunction(
      (n) => {
        const s = (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state;
        if (s.configMaps >= n && s.configMapsAt === undefined) s.configMapsAt = performance.now();
        return s.nodesReadyAt !== undefined && s.editorUsableAt !== undefined && s.configMapsAt !== undefined;
      },
      objects,
      { timeout: 120_000, polling: 20 },
    );
    const s = await page.evaluate(() => (window as unknown as { __benchProbe: { state: ProbeState } }).__benchProbe.state);
    await context.close();
    return {
      objects,
      applyWallMs,
      objectsPerSecond: objects / (applyWallMs / 1000),
      reloadUsableMs: Math.max(s.nodesReadyAt!, s.editorUsableAt!, s.configMapsAt!),
      reloadConfigMapsMs: s.configMapsAt!,
      reloadNodesReadyMs: s.nodesReadyAt!,
      reloadEditorUsableMs: s.editorUsableAt!,
      durableRevision: info.durableRevision,
    };
  } finally {
    await bench.close();
  }
}
