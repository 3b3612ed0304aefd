// End-to-end tests run against the production build served by `vite preview` (npm test builds first), in the
// Chromium scripts/find-chromium.mjs finds: Debian's /usr/bin/chromium, else Playwright's own.
import { defineConfig, devices } from '@playwright/test';
import { HOW_TO_GET_CHROMIUM, findChromium } from './scripts/find-chromium.mjs';

const executablePath = findChromium();
if (!executablePath) throw new Error(HOW_TO_GET_CHROMIUM);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
// Overridable so several builds can be tested side by side (E2E_DIST: a `vite build --outDir` elsewhere).
const port = Number(process.env.E2E_PORT ?? 4173);
const dist = process.env.E2E_DIST;
const results = process.env.E2E_RESULTS ?? 'test-results';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Generous: a timeout only bounds a hang. CI machines have slow stretches (one ran these tests 5–10× slower than
  // here for minutes), and a test must not fail for being slow.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  outputDir: `${results}/playwright-artifacts`,
  reporter: [['list'], ['json', { outputFile: `${results}/playwright.json` }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath,
          args: [
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
            ...(isRoot ? ['--no-sandbox'] : []),
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort${dist ? ` --outDir ${dist}` : ''}`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
