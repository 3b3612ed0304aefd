import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { Playground } from './models/playground';

const shared = { kind: 'ConfigMap', name: 'shared', namespace: 'default' };
const later = { kind: 'ConfigMap', name: 'later', namespace: 'default' };
/** The cluster workers a page runs (Monaco's editor and YAML workers are not counted). */
const clusterWorkers = (page: Page) => page.workers().filter((w) => /\/assets\/worker-[^/]*\.js$/.test(w.url())).length;
const manifest = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  k: v\n`;

test('one tab runs the control plane, another follows it live and takes over when it closes', async ({ context }) => {
  const a = await new Playground(await context.newPage()).goto();
  await expect(a.page.getByRole('note', { name: 'Control plane runs in this tab' })).toBeAttached();
  const b = await new Playground(await context.newPage()).goto();
  await expect(b.page.getByRole('status', { name: 'Control plane runs in another tab' })).toBeVisible();
  // Exactly one control plane: the follower runs no cluster worker.
  expect(clusterWorkers(a.page)).toBe(1);
  expect(clusterWorkers(b.page)).toBe(0);

  // Applied in the follower, through the leader: both tabs show it, at the same resourceVersion.
  await b.apply(manifest('shared'));
  await expect(b.applyResults).toHaveText('configmap/shared created');
  await expect(b.row(shared)).toBeVisible();
  await expect(a.row(shared)).toBeVisible();
  const resourceVersion = await b.cell(shared, 'Resource version');
  expect(await a.cell(shared, 'Resource version')).toBe(resourceVersion);

  // The leader goes away: B takes over within about a second and the revision continues from the last commit.
  await a.page.close();
  await expect(b.page.getByRole('note', { name: 'Control plane runs in this tab' })).toBeAttached({ timeout: 1_500 });
  await expect(b.page.getByRole('status', { name: 'Control plane runs in another tab' })).toHaveCount(0);
  await expect.poll(() => clusterWorkers(b.page)).toBe(1);
  await expect(b.row(shared)).toBeVisible();
  await expect.poll(() => b.cell(shared, 'Resource version')).toBe(resourceVersion);
  await b.apply(manifest('later'));
  await expect(b.applyResults).toHaveText('configmap/later created');
  await expect(b.row(later)).toBeVisible();
  expect(Number(await b.cell(later, 'Resource version'))).toBeGreaterThan(Number(resourceVersion));
  expect(b.errors).toEqual([]);
});

test('an old tab gives the database up to a newer version and asks for a reload', async ({ context }) => {
  const a = await new Playground(await context.newPage()).goto();
  await a.apply(manifest('shared'));
  await expect(a.applyResults).toHaveText('configmap/shared created');
  const b = await context.newPage();
  await b.goto('/');
  // A newer app version opens the database at a higher schema version: the old tab must let go.
  const opened = await b.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const probe = indexedDB.open('kubeplay');
        probe.onsuccess = () => {
          const version = probe.result.version;
          probe.result.close();
          const req = indexedDB.open('kubeplay', version + 1);
          req.onsuccess = () => {
            req.result.close();
            resolve(`opened ${version + 1}`);
          };
          req.onerror = () => resolve(`failed: ${req.error?.message}`);
          req.onblocked = () => setTimeout(() => resolve('blocked'), 3_000);
        };
      }),
  );
  expect(opened).toMatch(/^opened \d+$/);
  await expect(a.page.getByRole('alert', { name: /newer version of kubeplay opened in another tab/ })).toBeVisible();
  await expect(a.page.getByRole('button', { name: 'Reload tab' })).toBeVisible();
});
