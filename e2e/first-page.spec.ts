import { expect, test } from '@playwright/test';
import { FirstPage } from './models/first-page';

const demo = { kind: 'ConfigMap', name: 'demo', namespace: 'default' };

test('shows the cluster: the default namespaces and a running simulated clock', async ({ page }) => {
  const app = await new FirstPage(page).goto();
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    await expect(app.row({ kind: 'Namespace', name })).toBeVisible();
  }
  await expect(app.simulatedTime).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  const before = await app.simulatedTime.getAttribute('datetime');
  await expect.poll(() => app.simulatedTime.getAttribute('datetime')).not.toBe(before);
  expect(app.errors).toEqual([]);
});

test('a ConfigMap created through the form survives a reload with the same uid and resourceVersion, then is deleted', async ({ page }) => {
  const app = await new FirstPage(page).goto();
  await app.createConfigMap('demo', 'greeting', 'hello');
  // The reply comes only once the write is durable in IndexedDB.
  await expect(app.status).toHaveText('configmap/demo created');
  await expect(app.row(demo)).toBeVisible();

  const uid = await app.cell(demo, 'UID');
  const resourceVersion = await app.cell(demo, 'Resource version');
  expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(resourceVersion).toMatch(/^[1-9]\d*$/);

  await app.reload();
  await expect(app.row(demo)).toBeVisible();
  expect(await app.cell(demo, 'UID')).toBe(uid);
  expect(await app.cell(demo, 'Resource version')).toBe(resourceVersion);

  await app.delete(demo);
  await expect(app.status).toHaveText('configmap "demo" deleted');
  await expect(app.row(demo)).toHaveCount(0);
});

test('shows the API status message when a request is refused, and applies manifests', async ({ page }) => {
  const app = await new FirstPage(page).goto();
  await app.createConfigMap('twice', 'a', '1');
  await expect(app.status).toHaveText('configmap/twice created');
  await app.createConfigMap('twice', 'a', '1');
  await expect(app.alert).toContainText('configmaps "twice" already exists');

  await app.apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n');
  await expect(app.status).toHaveText('configmap/from-yaml created\nnamespace/team-a created');
  await expect(app.row({ kind: 'ConfigMap', name: 'from-yaml', namespace: 'default' })).toBeVisible();
  await expect(app.row({ kind: 'Namespace', name: 'team-a' })).toBeVisible();
});

test('Reset cluster wipes what was created, also after a reload, and keeps the default namespaces', async ({ page }) => {
  const app = await new FirstPage(page).goto();
  await app.createConfigMap('doomed', 'k', 'v');
  await expect(app.status).toHaveText('configmap/doomed created');
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
