import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

test('kubectl in the console: version, create a namespace the views then show, history and completion', async ({ page }) => {
  const app = await new Playground(page).goto();
  const { prompt, output } = await app.openConsole();

  await app.kubectl('kubectl version');
  await expect(output).toContainText('Client Version: v1.32.0');
  await expect(output).toContainText('Kustomize Version: v5.5.0');
  await expect(output).toContainText('Server Version: v1.32.0');

  await app.kubectl('kubectl create namespace demo');
  await expect(output).toContainText('namespace/demo created');
  // An ordinary API request as the user: the cluster changed, and the views show it.
  await app.showView('Objects');
  await app.showObjectsTable();
  await expect(app.row({ kind: 'Namespace', name: 'demo' })).toBeVisible();
  await app.kubectl('kubectl get namespace demo');
  await expect(output).toContainText(/NAME\s+STATUS\s+AGE\s*demo\s+Active/);

  // A failure shows kubectl's error and the exit status.
  await app.kubectl('kubectl get pods nope');
  await expect(output).toContainText('Error from server (NotFound): pods "nope" not found');
  await expect(output).toContainText('exit status 1');

  // ↑ recalls the previous lines; ↓ comes back to the empty prompt.
  await prompt.click();
  await prompt.press('ArrowUp');
  await expect(prompt).toHaveValue('kubectl get pods nope');
  await prompt.press('ArrowUp');
  await expect(prompt).toHaveValue('kubectl get namespace demo');
  await prompt.press('ArrowDown');
  await prompt.press('ArrowDown');
  await expect(prompt).toHaveValue('');

  // Tab completes the command, then a namespace's name (from the objects the page shows).
  await prompt.fill('kubectl ge');
  await prompt.press('Tab');
  await expect(prompt).toHaveValue('kubectl get ');
  await prompt.pressSequentially('ns dem');
  await prompt.press('Tab');
  await expect(prompt).toHaveValue('kubectl get ns demo ');
  // Several candidates: their common prefix, and the list printed as bash does.
  await prompt.fill('kubectl get ns kube-');
  await prompt.press('Tab');
  await expect(output).toContainText('kube-node-lease  kube-public  kube-system');

  expect(app.errors).toEqual([]);
});

test('the history survives a reload; an unknown command prints kubectl\'s suggestion; clear empties the output', async ({ page }) => {
  const app = await new Playground(page).goto();
  const { output } = await app.openConsole();
  await app.kubectl('kubectl gett pods');
  await expect(output).toContainText('error: unknown command "gett" for "kubectl"');
  await expect(output).toContainText('Did you mean this?');
  await app.reload();
  const again = await app.openConsole();
  await again.prompt.press('ArrowUp');
  await expect(again.prompt).toHaveValue('kubectl gett pods');
  await again.prompt.fill('clear');
  await again.prompt.press('Enter');
  await expect(again.output).not.toContainText('gett');
  expect(app.errors).toEqual([]);
});

test('Ctrl+C stops a watch: kubectl get namespaces -w streams, then ends with exit status 130', async ({ page }) => {
  const app = await new Playground(page).goto();
  const { prompt, output } = await app.openConsole();
  await app.kubectl('kubectl get namespaces -w');
  await expect(output).toContainText('kube-system');
  await expect(prompt).toHaveAttribute('placeholder', /is running/);
  // Changes stream in while it runs: create a namespace from the editor.
  await app.apply('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: watched\n');
  await expect(output).toContainText('watched');
  await prompt.focus();
  await prompt.press('Control+C');
  await expect(output).toContainText('^C');
  await expect(output).toContainText('exit status 130');
  await expect(prompt).toHaveAttribute('placeholder', /^kubectl … \(namespace default\)$/);
  expect(app.errors).toEqual([]);
});
