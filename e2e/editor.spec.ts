import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';
import { samples } from '../src/ui/features/editor/samples';

// The gallery's nginx Deployment: the text a person pastes (or loads) into the editor.
const nginx = samples.find((s) => s.id === 'nginx-deployment')!.manifest;

test('pasting the nginx Deployment and applying it rolls out 3 pods and the Deployment reaches 3/3', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.setSpeed(50);
  await app.apply(nginx);
  await expect(app.applyResults).toHaveText('deployment.apps/nginx created');
  const deployment = { kind: 'Deployment', name: 'nginx', namespace: 'default' };
  await expect(app.row(deployment)).toBeVisible();
  await expect(app.rowsNamed('Pod', 'nginx-')).toHaveCount(3);
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('3/3', { timeout: 60_000 });
  for (const pod of await app.rowsNamed('Pod', 'nginx-').all()) await expect(app.cellOf(pod, 'Status')).toHaveText('Running');
  expect(app.errors).toEqual([]);
});

test('the Objects graph shows the applied nginx Deployment, its ReplicaSet and its pods as nodes', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.setSpeed(50);
  await app.apply(nginx);
  await expect(app.applyResults).toHaveText('deployment.apps/nginx created');
  const graph = await app.showObjectsGraph();
  await expect(graph.getByLabel(/^Deployment nginx, /)).toBeVisible();
  await expect(graph.getByLabel(/^ReplicaSet nginx-/)).toBeVisible();
  await expect(graph.getByLabel(/^Deployment nginx, 3\/3$/)).toBeVisible({ timeout: 60_000 });
  await expect(graph.getByLabel(/^Pod nginx-/)).toHaveCount(3);
  // Clicking a node opens the object in the inspector, like the table's name button.
  await graph.getByLabel(/^Deployment nginx, /).click();
  await expect(page.getByRole('complementary', { name: 'Inspector' }).getByLabel('YAML of deployment/nginx')).toContainText('kind: Deployment');
  expect(app.errors).toEqual([]);
});

test('the replica: 3 typo is refused with the strict decoding message and a marker on its line, and nothing is created', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.apply(nginx.replace('  replicas: 3', '  replica: 3'));
  // api/apply is client-side kubectl apply (fieldValidation=Strict): the API server's strict decoding text.
  await expect(app.applyResults).toHaveText(
    'Error from server (BadRequest): Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"',
  );
  // The marker: Monaco draws a squiggle on the offending text and lists it in its hover.
  const squiggle = page.locator('.monaco-editor .squiggly-error').first();
  await expect(squiggle).toBeVisible();
  // … on the `replica: 3` line.
  const squiggleBox = await squiggle.boundingBox();
  const lineBox = await page.locator('.monaco-editor .view-line', { hasText: 'replica: 3' }).boundingBox();
  expect(squiggleBox && lineBox && Math.abs(squiggleBox.y + squiggleBox.height / 2 - (lineBox.y + lineBox.height / 2))).toBeLessThan(lineBox?.height ?? 0);
  await expect(app.row({ kind: 'Deployment', name: 'nginx', namespace: 'default' })).toHaveCount(0);
});

test('a YAML syntax error shows its line and column and applies nothing, not even the valid documents', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fine\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n');
  await expect(app.applyResults).toContainText(/document 2: error parsing manifest at line \d+, column \d+/);
  await expect(app.applyResults).toContainText('nothing was applied');
  await expect(app.row({ kind: 'ConfigMap', name: 'fine', namespace: 'default' })).toHaveCount(0);
});

test('the editor validates, completes and documents fields from the Kubernetes schemas', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.paste('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  replicas: "many"\n  ');
  // replicas is an integer: the YAML language server marks the string.
  await expect(page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning').first()).toBeVisible();
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.suggest-widget').getByText('minReadySeconds', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.locator('.monaco-editor .view-lines').getByText('replicas', { exact: true }).hover();
  await expect(page.locator('.monaco-hover').filter({ hasText: 'Number of desired pods' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('editor.png') });
  expect(app.errors).toEqual([]);
});

test('Ctrl+Enter applies, and a sample from the gallery replaces the buffer', async ({ page }) => {
  const app = await new Playground(page).goto();
  await expect(app.editor).toBeAttached();
  await page.getByRole('combobox', { name: 'Samples' }).selectOption({ label: 'Service for nginx' });
  await app.editor.focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(app.applyResults).toHaveText('service/nginx created');
  await expect(app.row({ kind: 'Service', name: 'nginx', namespace: 'default' })).toBeVisible();
});
