// Storage trouble (issue 9, item 5; api-semantics F12, F13): a full disk makes the cluster read-only with a banner
// and etcd's error, and it recovers once there is room; the database cleared under a live page is reported without
// a crash loop; the whole cluster can be exported to a file and imported back through the API server.
// The full disk is a QuotaExceededError thrown by the worker's IndexedDB puts (worker-hooks.ts's disk-full switch):
// CDP Storage.overrideQuotaForOrigin is accepted but not enforced in Playwright's (incognito) contexts.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';
import { call, configMap, installWorkerHooks, listConfigMaps } from './worker-hooks';

test.beforeEach(async ({ context }, testInfo) => {
  if (!testInfo.titlePath.includes('a full disk')) await context.addInitScript(installWorkerHooks);
});

/** Text that does not compress (IndexedDB compresses large values): a seeded xorshift over base-36 digits. */
function noise(seed: number, length: number): string {
  let x = (seed + 1) * 2654435761;
  let out = '';
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += ((x >>> 0) % 36).toString(36);
  }
  return out;
}

const workerCount = (page: import('@playwright/test').Page) => page.evaluate(() => (window as unknown as { __workers: Worker[] }).__workers.length);

test('export the cluster to a file, reset, and import it back: the objects come back through the API server', async ({ page }) => {
  const app = await new Playground(page).goto();
  for (const name of ['exported-1', 'exported-2']) expect((await call(page, 'api/request', configMap(name))).ok).toBe(true);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export cluster' }).click();
  const file = await (await download).path();
  expect((await download).suggestedFilename()).toBe('kubeplay-cluster.yaml');
  const text = await readFile(file, 'utf8');
  expect(text).toMatch(/^kind: List$/m);
  expect(text).toContain('name: exported-1');
  expect(text).not.toContain('uid:');
  await expect(
    app.status.filter({
      hasText: /^Exported \d+ objects? to kubeplay-cluster\.yaml\.$/,
    }),
  ).toBeVisible();

  page.once('dialog', (d) => d.accept());
  await page.getByRole('button', { name: 'Reset cluster' }).click();
  await expect
    .poll(async () => (await listConfigMaps(page)).items.has('exported-1'), {
      timeout: 60_000,
    })
    .toBe(false);

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import cluster…' }).click();
  await (await chooser).setFiles(file);
  await expect(app.status.filter({ hasText: /^Imported \d+ objects?\.$/ })).toBeVisible({ timeout: 60_000 });
  await expect(app.row({ kind: 'ConfigMap', name: 'exported-2', namespace: 'default' })).toBeVisible({ timeout: 60_000 });
  const { items } = await listConfigMaps(page);
  expect(items.has('exported-1')).toBe(true);
});

test.describe('a full disk', () => {
  // The disk-full switch runs the cluster worker from a blob: URL, which the page's CSP (rightly) forbids.
  test.use({ bypassCSP: true });
  test.beforeEach(async ({ context }) => {
    await context.addInitScript(installWorkerHooks, { diskFullSwitch: true });
  });

  test("the write fails with etcd's NOSPACE error, the cluster goes read-only with a banner, and recovers once there is room", async ({ page }) => {
    const app = await new Playground(page).goto();
    expect((await call(page, 'api/request', configMap('before-full'))).ok).toBe(true);
    const setDiskFull = (full: boolean) => page.evaluate((f) => (window as unknown as { __setDiskFull(f: boolean): void }).__setDiskFull(f), full);
    const saved: string[] = [];
    for (let i = 0; i < 3; i++) {
      const name = `big-${i}`;
      expect(
        (
          await call(page, 'api/request', {
            verb: 'create',
            group: '',
            version: 'v1',
            resource: 'configmaps',
            namespace: 'default',
            body: {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              metadata: { name },
              data: { blob: noise(i, 50_000) },
            },
          })
        ).ok,
      ).toBe(true);
      saved.push(name);
    }
    await setDiskFull(true);

    const refused = (await call(page, 'api/request', configMap(`big-${saved.length}`))).status;
    expect(refused).toMatchObject({
      code: 500,
      message: 'etcdserver: mvcc: database space exceeded',
    });
    await expect(
      page.getByRole('alert', {
        name: 'Storage full: the cluster is read-only',
      }),
    ).toBeVisible({ timeout: 60_000 });

    // Read-only: creates are refused with the same error; what was acknowledged is all there; the refused write is not.
    await expect
      .poll(async () => (await call(page, 'api/request', configMap('while-full'))).status?.message, { timeout: 60_000 })
      .toBe('etcdserver: mvcc: database space exceeded');
    const { items } = await listConfigMaps(page);
    for (const name of ['before-full', ...saved]) expect(items.has(name)).toBe(true);
    expect(items.has(`big-${saved.length}`)).toBe(false);
    expect(items.has('while-full')).toBe(false);
    expect(await workerCount(page)).toBe(1); // no restart loop: the same worker reopened its cluster

    // Room again: retry saving, the banner goes and writes work.
    await setDiskFull(false);
    await page.getByRole('button', { name: 'Retry saving' }).click();
    await expect(
      page.getByRole('alert', {
        name: 'Storage full: the cluster is read-only',
      }),
    ).toHaveCount(0, { timeout: 60_000 });
    expect((await call(page, 'api/request', configMap('after-full'))).ok).toBe(true);
    await expect(app.row({ kind: 'ConfigMap', name: 'after-full', namespace: 'default' })).toBeVisible({ timeout: 60_000 });
  });
});

test('the database cleared under a live page is reported, without a crash loop', async ({ page, context }) => {
  await new Playground(page).goto();
  expect((await call(page, 'api/request', configMap('before-clear'))).ok).toBe(true);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', {
    origin: new URL(page.url()).origin,
    storageTypes: 'indexeddb',
  });
  await expect(page.getByRole('alert', { name: 'The cluster storage was cleared' })).toBeVisible({ timeout: 60_000 });
  // The cluster keeps running in memory: reads work, and the worker was not restarted.
  const { items } = await listConfigMaps(page);
  expect(items.has('before-clear')).toBe(true);
  expect(await workerCount(page)).toBe(1);
});
