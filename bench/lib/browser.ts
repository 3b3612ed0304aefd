// Benchmarks 4 and 5 run in Chromium against a production build served by `vite preview`. This starts both:
// Debian's chromium (or Playwright's, through scripts/find-chromium.mjs) and a preview server of BENCH_DIST
// (default: a fresh `vite build` into a temporary folder) on BENCH_PORT (default 4320, not the e2e tests' 4173).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { HOW_TO_GET_CHROMIUM, findChromium } from '../../scripts/find-chromium.mjs';

export interface BrowserBench {
  browser: Browser;
  baseURL: string;
  dist: string;
  close(): Promise<void>;
}

/** The same flags as the e2e tests: no background traffic that would land in the timings. */
const chromiumArgs = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

function buildDist(): string {
  const given = process.env.BENCH_DIST;
  if (given && existsSync(join(given, 'index.html'))) return given;
  const dist = given ?? mkdtempSync(join(tmpdir(), 'kubeplay-bench-dist-'));
  const r = spawnSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status})`);
  return dist;
}

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`vite preview exited ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`vite preview did not answer at ${url}`);
}

export async function startBrowserBench(): Promise<BrowserBench> {
  const executablePath = findChromium() as string | undefined;
  if (!executablePath) throw new Error(HOW_TO_GET_CHROMIUM as string);
  const dist = buildDist();
  const port = Number(process.env.BENCH_PORT ?? 4320);
  const baseURL = `http://127.0.0.1:${port}`;
  const server = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', dist], {
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const stopServer = () => {
    try {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  try {
    await waitForServer(baseURL, server);
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    const browser = await chromium.launch({ executablePath, args: [...chromiumArgs, ...(isRoot ? ['--no-sandbox'] : [])] });
    return {
      browser,
      baseURL,
      dist,
      async close() {
        await browser.close();
        stopServer();
      },
    };
  } catch (err) {
    stopServer();
    throw err;
  }
}
