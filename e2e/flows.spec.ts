// The playground's stories, as a person plays them: a node dies and the Deployment heals, an image change rolls
// out a second ReplicaSet, a reload in the middle of a rollout picks it up again, and every view renders cleanly.
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { Playground } from './models/playground';
import { samples } from '../src/ui/features/editor/samples';

const nginx = samples.find((s) => s.id === 'nginx-deployment')!.manifest;
const deployment = { kind: 'Deployment', name: 'nginx', namespace: 'default' };

/** Applies the nginx sample at ×50 and waits for 3/3. */
async function rollOut(app: Playground): Promise<void> {
  await app.setSpeed(50);
  await app.apply(nginx);
  await expect(app.applyResults).toHaveText('deployment.apps/nginx created');
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('3/3', { timeout: 60_000 });
}

/** The names of the nginx pods each node's card shows as Running. */
async function runningPodsByNode(page: Page): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const card of await page.getByRole('region', { name: /^Node node-\d+$/ }).all()) {
    const node = (await card.getAttribute('aria-label'))!.replace(/^Node /, '');
    const chips = card.getByRole('list', { name: `Pods on ${node}` }).getByLabel(/^Pod default\/nginx-.*: Running$/);
    out[node] = (await chips.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).map((l) => l.replace(/^Pod default\/|: Running$/g, ''));
  }
  return out;
}

test('at demo timings, killing the node that holds a pod: the node goes NotReady, its pod is replaced elsewhere, and the Deployment returns to 3/3', async ({ page }) => {
  const app = await new Playground(page).goto();
  // Before the pods exist: the 30 s default toleration applies to pods created from now on.
  await app.useDemoTimings();
  await rollOut(app);

  await app.showView('Nodes');
  await expect.poll(async () => Object.values(await runningPodsByNode(page)).flat().length, { timeout: 60_000 }).toBe(3);
  const before = await runningPodsByNode(page);
  const victim = Object.keys(before).find((n) => before[n].length > 0)!;
  const lost = before[victim];

  await page.getByRole('button', { name: `Kill ${victim}`, exact: true }).click();
  const card = page.getByRole('region', { name: `Node ${victim}`, exact: true });
  // node-monitor-grace-period (10 s), then the unreachable taint's tolerationSeconds (30 s): under a second at ×50.
  await expect(card.getByLabel(/^Status /)).not.toHaveAccessibleName('Status Ready', { timeout: 60_000 });
  await expect(card.getByRole('list', { name: `Taints of ${victim}` })).toContainText('node.kubernetes.io/unreachable', { timeout: 60_000 });

  await expect
    .poll(
      async () => {
        const now = await runningPodsByNode(page);
        const elsewhere = Object.entries(now).filter(([n]) => n !== victim).flatMap(([, pods]) => pods);
        return elsewhere.length === 3 && lost.every((p) => !elsewhere.includes(p));
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  await app.showView('Objects');
  await app.showObjectsTable();
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('3/3', { timeout: 60_000 });
  expect(app.errors).toEqual([]);
});

test('changing the image and applying again: a second ReplicaSet appears and the old one scales to 0', async ({ page }) => {
  const app = await new Playground(page).goto();
  await rollOut(app);
  await expect(app.rowsNamed('ReplicaSet', 'nginx-')).toHaveCount(1);
  const [oldRs] = await app.rowsNamed('ReplicaSet', 'nginx-').getByRole('cell').nth(2).allInnerTexts();

  await app.apply(nginx.replace('image: nginx:1.14.2', 'image: nginx:1.16.1'));
  await expect(app.applyResults).toHaveText('deployment.apps/nginx configured');
  await expect(app.rowsNamed('ReplicaSet', 'nginx-')).toHaveCount(2);
  await expect(app.cellOf(app.row({ kind: 'ReplicaSet', name: oldRs.trim(), namespace: 'default' }), 'Status')).toHaveText('0/0', { timeout: 60_000 });
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('3/3', { timeout: 60_000 });
  await expect(app.rowsNamed('Pod', 'nginx-')).toHaveCount(3, { timeout: 60_000 });
  expect(app.errors).toEqual([]);
});

test('reloading in the middle of a rollout: the same objects come back and the rollout continues', async ({ page }) => {
  const app = await new Playground(page).goto();
  await rollOut(app);
  // Slow the clock so the reload lands mid-rollout: a new image pull takes a few simulated seconds.
  await app.setSpeed(0.25);
  await app.apply(nginx.replace('image: nginx:1.14.2', 'image: nginx:1.16.1'));
  await expect(app.applyResults).toHaveText('deployment.apps/nginx configured');
  await expect(app.rowsNamed('ReplicaSet', 'nginx-')).toHaveCount(2);
  const uid = await app.cell(deployment, 'UID');
  const replicaSets = (await app.rowsNamed('ReplicaSet', 'nginx-').getByRole('cell').evaluateAll((cells) => cells.map((c) => c.textContent ?? ''))).join();

  await app.reload();
  await expect(app.row(deployment)).toBeVisible();
  expect(await app.cell(deployment, 'UID')).toBe(uid);
  await expect(app.rowsNamed('ReplicaSet', 'nginx-')).toHaveCount(2);
  for (const row of await app.rowsNamed('ReplicaSet', 'nginx-').all()) {
    expect(replicaSets).toContain((await app.cellOf(row, 'Name').innerText()).trim());
  }
  // The rollout goes on after the reload: every pod ends up on the new template, the old ReplicaSet at 0/0.
  await app.setSpeed(50);
  await expect
    .poll(async () => {
      const statuses = await app.rowsNamed('ReplicaSet', 'nginx-').evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[3]?.textContent ?? ''));
      return statuses.sort().join(' ');
    }, { timeout: 60_000 })
    .toBe('0/0 3/3');
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('3/3');
  expect(app.errors).toEqual([]);
});

test('each view renders without console errors, with a screenshot of each', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  await rollOut(app);
  for (const view of ['Control plane', 'Objects', 'Nodes'] as const) {
    await app.showView(view);
    if (view === 'Objects') await app.showObjectsGraph();
    await expect(page.getByRole('tabpanel', { name: view, exact: true })).toBeVisible();
    await page.waitForTimeout(500);
    await page.screenshot({ path: test.info().outputPath(`view-${view.toLowerCase().replace(' ', '-')}.png`) });
  }
  await page.getByRole('button', { name: 'Presentation mode' }).click();
  await page.screenshot({ path: test.info().outputPath('presentation-mode.png') });
  expect(app.errors).toEqual([]);
});
