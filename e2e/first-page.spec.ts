import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

const demo = { kind: 'ConfigMap', name: 'demo', namespace: 'default' };
const demoManifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  greeting: hello\n';

test('shows the playground: the default namespaces, the three nodes and a running simulated clock', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    await expect(app.row({ kind: 'Namespace', name })).toBeVisible();
  }
  await expect(app.rowsNamed('Node', '')).toHaveCount(3);
  await expect(app.simulatedTime).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  const before = await app.simulatedTime.getAttribute('datetime');
  await expect.poll(() => app.simulatedTime.getAttribute('datetime')).not.toBe(before);
  for (const name of ['Control plane', 'Objects', 'Nodes']) await expect(page.getByRole('tab', { name })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Inspector' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Timeline' })).toBeVisible();
  await expect(app.editor).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('playground.png') });
  expect(app.errors).toEqual([]);
});

test('a ConfigMap applied from the editor survives a reload with the same uid and resourceVersion, then is deleted', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.apply(demoManifest);
  // The reply comes only once the write is durable in IndexedDB.
  await expect(app.applyResults).toHaveText('configmap/demo created');
  await expect(app.row(demo)).toBeVisible();

  const uid = await app.cell(demo, 'UID');
  const resourceVersion = await app.cell(demo, 'Resource version');
  expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(resourceVersion).toMatch(/^[1-9]\d*$/);

  await app.reload();
  await expect(app.row(demo)).toBeVisible();
  expect(await app.cell(demo, 'UID')).toBe(uid);
  expect(await app.cell(demo, 'Resource version')).toBe(resourceVersion);
  // The editor's buffer survived the reload too.
  await expect(app.editor).toBeAttached();
  await expect(page.getByText('greeting: hello')).toBeVisible();

  await app.delete(demo);
  await expect(app.status).toHaveText('configmap "demo" deleted');
  await expect(app.row(demo)).toHaveCount(0);
});

test('the inspector shows the live YAML of the object clicked in the objects table', async ({ page }) => {
  const app = await new Playground(page).goto();
  await page.getByRole('button', { name: 'Inspect namespace/kube-system', exact: true }).click();
  const yaml = page.getByRole('complementary', { name: 'Inspector' }).getByLabel('YAML of namespace/kube-system');
  await expect(yaml).toContainText('kind: Namespace');
  await expect(yaml).toContainText('name: kube-system');
});

test('Reset cluster wipes what was created, also after a reload, and keeps the default namespaces', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: doomed\ndata:\n  k: v\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n');
  await expect(app.applyResults).toHaveText('configmap/doomed creatednamespace/team-a created');
  await expect(app.row({ kind: 'ConfigMap', name: 'doomed', namespace: 'default' })).toBeVisible();

  await app.resetCluster();
  await expect(app.status).toHaveText('The cluster was reset.');
  await expect(app.row({ kind: 'ConfigMap', name: 'doomed', namespace: 'default' })).toHaveCount(0);
  await expect(app.row({ kind: 'Namespace', name: 'default' })).toBeVisible();

  await app.reload();
  await expect(app.row({ kind: 'Namespace', name: 'kube-system' })).toBeVisible();
  await expect(app.row({ kind: 'ConfigMap', name: 'doomed', namespace: 'default' })).toHaveCount(0);
  expect(app.errors).toEqual([]);
});
