#!/usr/bin/env node
// Finds a Chromium for the end-to-end tests: Debian's /usr/bin/chromium first, else Playwright's own browser
// if it was installed. Run directly it prints the path (exit 0) or one line saying how to get one (exit 1);
// playwright.config.ts imports findChromium() to launch the same browser.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const HOW_TO_GET_CHROMIUM =
  "No Chromium found: install Debian's chromium (apt-get install -y chromium) or run npx playwright install chromium";

const systemCandidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * The path of a usable Chromium executable, or undefined. CHROMIUM_PATH overrides the search; the options exist
 * for tests.
 * @param {{ systemPaths?: string[], playwright?: boolean, env?: Record<string, string | undefined> }} [options]
 * @returns {string | undefined}
 */
export function findChromium(options = {}) {
  const env = options.env ?? process.env;
  if (env.CHROMIUM_PATH && existsSync(env.CHROMIUM_PATH)) return env.CHROMIUM_PATH;
  for (const path of options.systemPaths ?? systemCandidates) if (existsSync(path)) return path;
  if (options.playwright === false) return undefined;
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require('playwright-core');
    const path = chromium.executablePath();
    if (path && existsSync(path)) return path;
  } catch {
    // playwright-core missing or its browser registry unreadable: no Playwright browser then.
  }
  return undefined;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = findChromium();
  if (path) {
    console.log(path);
    process.exit(0);
  }
  console.log(HOW_TO_GET_CHROMIUM);
  process.exit(1);
}
