import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';
import { samples } from '../src/ui/features/editor/samples';

// The gallery's nginx Deployment: the text a person pastes (or loads) into the editor.
const nginx = samples.find((s) => s.id === 'nginx-deployment')!.manifest;

test('the Objects graph draws Deployment → ReplicaSet → 3 Pods reaching 3/3, across namespaces, and the Nodes view shows the 3 Running pods', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  await app.setSpeed(50);
  await app.apply(nginx);
  await expect(app.applyResults).toHaveText('deployment.apps/nginx created');

  const graph = await app.showObjectsGraph();
  await expect(graph).toHaveAccessibleName('Object graph of namespace default');
  await expect(graph.getByRole('button', { name: /^Deployment nginx, \d\/3$/ })).toBeVisible();
  await expect(graph.getByRole('button', { name: 'Deployment nginx, 3/3', exact: true })).toBeVisible({ timeout: 60_000 });
  const replicaSet = graph.getByRole('button', { name: /^ReplicaSet nginx-[a-z0-9]+, 3\/3$/ });
  await expect(replicaSet).toBeVisible();
  const rs = /^ReplicaSet (\S+),/.exec((await replicaSet.getAttribute('aria-label'))!)![1];
  // The edges say who owns whom.
  await expect(graph.getByRole('img', { name: `Edge: Deployment nginx owns ReplicaSet ${rs}`, exact: true })).toBeAttached();
  const pods = graph.getByRole('button', { name: new RegExp(`^Pod ${rs}-[a-z0-9]+, Running$`) });
  await expect(pods).toHaveCount(3);
  await expect(graph.getByRole('img', { name: new RegExp(`^Edge: ReplicaSet ${rs} owns Pod ${rs}-`) })).toHaveCount(3);
  await expect(graph.getByRole('img', { name: new RegExp(`^Edge: Pod ${rs}-[a-z0-9]+ runs on Node node-\\d$`) })).toHaveCount(3);
  await page.screenshot({ path: test.info().outputPath('objects-graph.png') });

  // A pod's node opens it in the inspector.
  const podName = /^Pod (\S+),/.exec((await pods.first().getAttribute('aria-label'))!)![1];
  await pods.first().click();
  await expect(page.getByRole('complementary', { name: 'Inspector' }).getByLabel(`YAML of pod/${podName}`)).toContainText('kind: Pod');

  // Another namespace has none of it; "All namespaces" has everything, named with its namespace.
  const system = await app.showGraphNamespace('kube-system');
  await expect(system.getByRole('button', { name: /^Node node-1, Ready/ })).toBeVisible();
  await expect(system.getByRole('button', { name: /^(Deployment|ReplicaSet|Pod) / })).toHaveCount(0);
  const all = await app.showGraphNamespace('All namespaces');
  await expect(all.getByRole('button', { name: 'Deployment default/nginx, 3/3', exact: true })).toBeVisible();
  await expect(all.getByRole('button', { name: new RegExp(`^Pod default/${rs}-[a-z0-9]+, Running$`) })).toHaveCount(3);
  await page.screenshot({ path: test.info().outputPath('objects-all-namespaces.png') });
  const back = await app.showGraphNamespace('default');
  await expect(back.getByRole('button', { name: 'Deployment nginx, 3/3', exact: true })).toBeVisible();

  // The Nodes view: the same three pods as Running chips, each a button that opens its pod.
  await app.showView('Nodes');
  const chips = app.podChips(new RegExp(`^Pod default/${rs}-[a-z0-9]+: Running$`));
  await expect(chips).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Pod chip colours' })).toContainText('Running, ready');
  await page.screenshot({ path: test.info().outputPath('nodes-chips.png') });
  const chipPod = /^Pod default\/(\S+):/.exec((await chips.last().getAttribute('aria-label'))!)![1];
  await chips.last().click();
  await expect(page.getByRole('complementary', { name: 'Inspector' }).getByLabel(`YAML of pod/${chipPod}`)).toContainText(`name: ${chipPod}`);
  expect(app.errors).toEqual([]);
});

test('scaling down and up again: a pod goes and a new one comes, and the nodes that stay do not move', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  await app.setSpeed(50);
  await app.apply(nginx);
  await expect(app.applyResults).toHaveText('deployment.apps/nginx created');
  const graph = await app.showObjectsGraph();
  await expect(graph.getByRole('button', { name: 'Deployment nginx, 3/3', exact: true })).toBeVisible({ timeout: 60_000 });
  const pods = graph.getByRole('button', { name: /^Pod nginx-\S+, Running$/ });
  await expect(pods).toHaveCount(3);
  const names = async () => (await pods.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!))).map((l) => /^Pod (\S+),/.exec(l)![1]);
  // Where React Flow draws a node (its transform), by the node's button.
  const place = (name: RegExp) => graph.locator('.react-flow__node').filter({ has: page.getByRole('button', { name }) }).evaluate((el) => el.style.transform);
  const podPlace = (pod: string) => place(new RegExp(`^Pod ${pod},`));
  const first = await names();
  const before = Object.fromEntries(await Promise.all(first.map(async (p) => [p, await podPlace(p)] as const)));
  const deployment = await place(/^Deployment nginx,/);

  await app.apply(nginx.replace('replicas: 3', 'replicas: 2'));
  await expect(app.applyResults).toHaveText('deployment.apps/nginx configured');
  await expect(graph.getByRole('button', { name: 'Deployment nginx, 2/2', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(pods).toHaveCount(2, { timeout: 60_000 });
  const kept = await names();
  for (const p of kept) expect(await podPlace(p)).toBe(before[p]);

  await app.apply(nginx);
  await expect(graph.getByRole('button', { name: 'Deployment nginx, 3/3', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(pods).toHaveCount(3);
  for (const p of kept) expect(await podPlace(p)).toBe(before[p]);
  expect(await place(/^Deployment nginx,/)).toBe(deployment);
  const added = (await names()).find((p) => !first.includes(p))!;
  expect(added).toBeDefined();
  await page.screenshot({ path: test.info().outputPath('objects-after-scaling.png') });
  expect(app.errors).toEqual([]);
});
