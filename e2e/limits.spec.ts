import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

// Issue 9, item 7: kubeplay's playground-wide caps refuse what would freeze the tab, with an API error that
// names the limit, and the Settings dialog shows the limits beside the current usage.

// Monaco arrives in its own chunk after the first paint; on a loaded machine that takes a while.
test.slow();

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.27`;

const replicasError = (n: number) =>
  `deployments.apps "web" is forbidden: exceeded playground limit: replicas per workload, requested: spec.replicas=${n}, limited: 5000`;

test('a 100,000-replica Deployment is refused with the limit named, in the editor and in the console; nothing is created', async ({ page }) => {
  const app = await new Playground(page).goto();
  await expect(app.editor).toBeAttached({ timeout: 60_000 });

  await app.apply(deployment(100_000));
  await expect(app.applyResults.getByRole('listitem')).toHaveText([new RegExp(`^Error from server \\(Forbidden\\): .*${escape(replicasError(100_000))}$`)]);
  await expect(app.row({ kind: 'Deployment', name: 'web', namespace: 'default' })).toHaveCount(0);

  // Within the limit it is created; scaling it past the limit from the console is refused the same way.
  await app.apply(deployment(1));
  await expect(app.applyResults).toHaveText('deployment.apps/web created');
  await app.kubectl('kubectl scale deployment web --replicas=6000');
  const { output } = await app.openConsole();
  await expect(output).toContainText(replicasError(6000));
  await app.kubectl('kubectl get deployment web -o jsonpath={.spec.replicas}');
  await expect(output.getByText(/^1$/)).toBeVisible();
  expect(app.errors).toEqual([]);
});

test('the Settings dialog shows every playground limit with the current usage', async ({ page }) => {
  const app = await new Playground(page).goto();
  let dialog = await app.openSettings();
  const limits = dialog.getByRole('table', { name: 'Playground limits' });
  const usage = (name: string) => limits.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell').first();

  await expect(usage('objects')).toHaveText(/^[\d,]+ \/ 50,000$/);
  await expect(usage('stored bytes')).toHaveText(/ \/ 256 MiB$/);
  await expect(usage('replicas per workload')).toHaveText('at most 5,000');
  await expect(usage('events per minute')).toHaveText(/^[\d,]+ \/ 12,000$/);
  await expect(limits.getByRole('meter', { name: 'objects used' })).toBeVisible();
  const before = Number((await usage('objects').textContent())!.split(' / ')[0].replaceAll(',', ''));
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  await app.apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one-more\ndata:\n  a: "1"');
  await expect(app.applyResults).toHaveText('configmap/one-more created');
  dialog = await app.openSettings();
  const after = Number((await dialog.getByRole('table', { name: 'Playground limits' }).getByRole('row', { name: /^objects/ }).getByRole('cell').first().textContent())!.split(' / ')[0].replaceAll(',', ''));
  expect(after).toBeGreaterThan(before);
  expect(app.errors).toEqual([]);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
