// Prints "N passed, N failed" from the Vitest and Playwright JSON reports (test-results/*.json).
// A stage that failed before producing a report (type check, build) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const exitStatus = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let reports = 0;

function read(path) {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const vitest = read('test-results/vitest.json');
if (vitest) {
  reports++;
  passed += vitest.numPassedTests ?? 0;
  failed += (vitest.numFailedTests ?? 0) + (vitest.numRuntimeErrorTestSuites ?? 0);
  console.log(`unit: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`);
}

const playwright = read('test-results/playwright.json');
if (playwright?.stats) {
  reports++;
  const s = playwright.stats;
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  console.log(`end-to-end: ${(s.expected ?? 0) + (s.flaky ?? 0)} passed, ${s.unexpected ?? 0} failed`);
}

// The command failed but no report shows a failure: a stage without a report (type check, build, browser) failed.
if (exitStatus !== 0 && failed === 0) failed = 1;
if (reports < 2 && exitStatus === 0) console.log('warning: expected both a unit and an end-to-end report');
console.log(`${passed} passed, ${failed} failed`);
