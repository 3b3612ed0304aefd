import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HOW_TO_GET_CHROMIUM, findChromium } from './find-chromium.mjs';

describe('findChromium', () => {
  it('returns the first existing system path', () => {
    // process.execPath certainly exists; it stands in for a browser binary.
    expect(findChromium({ systemPaths: ['/nonexistent/chromium', process.execPath], playwright: false, env: {} })).toBe(process.execPath);
  });

  it('prefers CHROMIUM_PATH when it exists', () => {
    expect(findChromium({ systemPaths: [], playwright: false, env: { CHROMIUM_PATH: process.execPath } })).toBe(process.execPath);
  });

  it('finds nothing when no candidate exists', () => {
    expect(findChromium({ systemPaths: ['/nonexistent/chromium'], playwright: false, env: { CHROMIUM_PATH: '/nonexistent/x' } })).toBeUndefined();
  });

  it('says in one line how to get a browser', () => {
    expect(HOW_TO_GET_CHROMIUM).toBe(
      "No Chromium found: install Debian's chromium (apt-get install -y chromium) or run npx playwright install chromium",
    );
    expect(HOW_TO_GET_CHROMIUM).not.toContain('\n');
  });

  it('prints the path it found when run as a script', () => {
    const found = findChromium();
    if (found === undefined) {
      expect(() => execFileSync(process.execPath, ['scripts/find-chromium.mjs'], { encoding: 'utf8' })).toThrow();
    } else {
      expect(execFileSync(process.execPath, ['scripts/find-chromium.mjs'], { encoding: 'utf8' }).trim()).toBe(found);
    }
  });
});
