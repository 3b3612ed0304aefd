// Crash safety (issue 9, item 3; api-semantics F5): writes run in a loop; then the worker is terminated mid-write
// (the page lives on: it must say so and restart the worker from IndexedDB) or the whole page crashes (a new page
// reopens the cluster). Either way every acknowledged write is there with the same uid and resourceVersion, no
// object is newer than the store's revision, the revision continues, and the page's watches resume.
import type { Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';
import { call, configMap, installWorkerHooks, listConfigMaps } from './worker-hooks';

interface Acked {
  name: string;
  uid: string;
  resourceVersion: string;
}

/** Starts `writers` loops creating ConfigMaps one after another; every acknowledged create is reported to acked. */
// Each writer stops after perWriter creates: on a slow machine the kill can come late, and beyond 200 rows the
// objects table renders only the rows in view, so the rows this test looks for would not all be in the page.
async function startWriting(page: Page, acked: Acked[], prefix: string, writers = 3, perWriter = 30): Promise<void> {
  await page.exposeFunction('__acked', (name: string, uid: string, resourceVersion: string) => acked.push({ name, uid, resourceVersion }));
  await page.evaluate(
    ([prefix, writers, perWriter]) => {
      const w = window as unknown as { __call(m: string, p: unknown): Promise<{ ok: boolean; result?: { body?: { metadata: { uid: string; resourceVersion: string } } } }>; __acked(n: string, u: string, rv: string): void };
      for (let k = 0; k < (writers as number); k++) {
        void (async () => {
          for (let i = 0; i < (perWriter as number); i++) {
            const name = `${prefix}-${k}-${i}`;
            const reply = await w.__call('api/request', {
              verb: 'create', group: '', version: 'v1', resource: 'configmaps', namespace: 'default',
              body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { payload: 'x'.repeat(512) } },
            });
            if (!reply.ok) return; // the worker is gone: nothing more is acknowledged
            const meta = reply.result!.body!.metadata;
            w.__acked(name, meta.uid, meta.resourceVersion);
          }
        })();
      }
    },
    [prefix, writers, perWriter] as const,
  );
}

async function expectAllAcknowledgedPresent(page: Page, acked: Acked[]): Promise<number> {
  const { revision, items } = await listConfigMaps(page);
  let maxRv = 0;
  for (const o of items.values()) maxRv = Math.max(maxRv, Number(o.resourceVersion));
  expect(maxRv).toBeLessThanOrEqual(revision);
  const missing = acked.filter((a) => items.get(a.name)?.uid !== a.uid || items.get(a.name)?.resourceVersion !== a.resourceVersion);
  expect(missing).toEqual([]);
  return revision;
}

test.beforeEach(async ({ context }) => {
  // On the context: the page a crash test opens afterwards gets the hooks too.
  await context.addInitScript(installWorkerHooks);
});

test('a worker terminated mid-write: the page says so, restarts it from the saved state, loses no acknowledged write, and its watches resume', async ({ page }) => {
  const app = await new Playground(page).goto();
  const acked: Acked[] = [];
  await startWriting(page, acked, 'before-kill');
  await expect.poll(() => acked.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(30);

  await page.evaluate(() => (window as unknown as { __workers: Worker[] }).__workers[0].terminate());
  const snapshot = [...acked];
  const lastSeenRv = Math.max(...snapshot.map((a) => Number(a.resourceVersion)));

  // The page notices (no heartbeat answer), says so, and restarts the worker from IndexedDB.
  await expect(page.getByRole('alert', { name: /The cluster stopped unexpectedly/ })).toBeVisible({ timeout: 40_000 });
  await expect(page.getByRole('alert', { name: 'The cluster stopped unexpectedly and was restarted from the saved state' })).toBeVisible({ timeout: 40_000 });
  expect(await page.evaluate(() => (window as unknown as { __workers: Worker[] }).__workers.length)).toBe(2);
  expect(acked).toEqual(snapshot); // the dead worker acknowledged nothing more

  const revision = await expectAllAcknowledgedPresent(page, acked);
  expect(revision).toBeGreaterThanOrEqual(lastSeenRv);

  // The page's mirror was relisted from the restored cluster, and its watches are live on the new worker.
  const oneBefore = snapshot[snapshot.length - 1];
  await expect(app.row({ kind: 'ConfigMap', name: oneBefore.name, namespace: 'default' })).toBeVisible({ timeout: 60_000 });
  const after = await call(page, 'api/request', configMap('after-restart'));
  expect(after.ok).toBe(true);
  expect(Number(after.result!.body!.metadata!.resourceVersion)).toBeGreaterThan(revision);
  await expect(app.row({ kind: 'ConfigMap', name: 'after-restart', namespace: 'default' })).toBeVisible({ timeout: 60_000 });

  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('alert', { name: /stopped unexpectedly/ })).toHaveCount(0);
});

test('a page crash mid-write: a new page reopens the cluster with every acknowledged write, and the revision continues', async ({ page, context }) => {
  await new Playground(page).goto();
  const acked: Acked[] = [];
  await startWriting(page, acked, 'before-crash');
  await expect.poll(() => acked.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(30);

  const cdp = await context.newCDPSession(page);
  const crashed = new Promise<void>((resolve) => page.once('crash', () => resolve()));
  cdp.send('Page.crash').catch(() => {}); // never answers: the renderer is gone
  await crashed;
  const snapshot = [...acked];
  const lastSeenRv = Math.max(...snapshot.map((a) => Number(a.resourceVersion)));

  const reopened = await context.newPage();
  const app = await new Playground(reopened).goto();
  const revision = await expectAllAcknowledgedPresent(reopened, snapshot);
  expect(revision).toBeGreaterThanOrEqual(lastSeenRv);
  await expect(app.row({ kind: 'ConfigMap', name: snapshot[0].name, namespace: 'default' })).toBeVisible({ timeout: 60_000 });
  const after = await call(reopened, 'api/request', configMap('after-crash'));
  expect(after.ok).toBe(true);
  expect(Number(after.result!.body!.metadata!.resourceVersion)).toBeGreaterThan(revision);
  await expect(app.row({ kind: 'ConfigMap', name: 'after-crash', namespace: 'default' })).toBeVisible({ timeout: 60_000 });
  // A crash is not a worker death the new page saw: no banner.
  await expect(reopened.getByRole('alert', { name: /stopped unexpectedly/ })).toHaveCount(0);
});
