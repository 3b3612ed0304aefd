import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

// 30 ConfigMaps nobody uses, one a pod reads its environment from, and a pod that mounts nothing else.
const configMaps = Array.from({ length: 30 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-${i}\ndata:\n  index: "${i}"\n`);
const pod = `apiVersion: v1
kind: Pod
metadata:
  name: reader
spec:
  containers:
  - name: c
    image: busybox:1.36
    command: ['sh', '-c', 'sleep 3600']
    envFrom:
    - configMapRef:
        name: settings-0
`;

test('a namespace\'s many unused ConfigMaps are one group node; the one a pod uses stays a node with its edge; Expand and Group, and the group survives a reload', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  await app.apply([...configMaps, pod].join('---\n'));
  await expect(app.applyResults).toContainText('pod/reader created');

  const graph = await app.showObjectsGraph();
  // The namespace's own kube-root-ca.crt (if published) joins the 29 unused ones.
  const group = graph.getByRole('button', { name: /^ConfigMaps in default, \d+ not used by any pod$/ });
  await expect(group).toBeVisible();
  const count = Number(/, (\d+) not used/.exec((await group.getAttribute('aria-label'))!)![1]);
  expect(count).toBeGreaterThanOrEqual(29);
  expect(count).toBeLessThanOrEqual(30);
  await expect(graph.getByRole('button', { name: /^ConfigMap settings-\d+/ })).toHaveCount(1);
  await expect(graph.getByRole('button', { name: /^ConfigMap settings-0\b/ })).toBeVisible();
  await expect(graph.getByRole('img', { name: 'Edge: Pod reader uses ConfigMap settings-0', exact: true })).toBeAttached();
  await page.screenshot({ path: test.info().outputPath('objects-grouped.png') });

  // Expand: every one of them is a node; the toolbar offers to group them again.
  await graph.getByRole('button', { name: `Show the ${count} ConfigMaps in default one by one` }).click();
  await expect(graph.getByRole('button', { name: /^ConfigMap settings-\d+/ })).toHaveCount(30);
  await expect(group).toHaveCount(0);
  await page.getByRole('button', { name: 'Group the ConfigMaps in default' }).click();
  await expect(group).toBeVisible();
  await expect(graph.getByRole('button', { name: /^ConfigMap settings-\d+/ })).toHaveCount(1);

  // Opening the group shows the Objects table, where each is a row.
  await group.click();
  await expect(page.getByRole('group', { name: 'Objects display' }).getByRole('button', { name: 'Table', pressed: true })).toBeVisible();
  await expect(page.getByRole('table')).toContainText('settings-29');

  // After a reload the graph is the same: one group, the used ConfigMap and its edge.
  await app.reload();
  const again = await app.showObjectsGraph();
  await expect(again.getByRole('button', { name: `ConfigMaps in default, ${count} not used by any pod`, exact: true })).toBeVisible();
  await expect(again.getByRole('img', { name: 'Edge: Pod reader uses ConfigMap settings-0', exact: true })).toBeAttached();
  expect(app.errors).toEqual([]);
});
