import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

const deployment = { kind: 'Deployment', name: 'php-apache', namespace: 'default' };

test('the HorizontalPodAutoscaler sample: raising the Load in the inspector makes the HPA add replicas', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  const app = await new Playground(page).goto();
  await expect(app.editor).toBeAttached();
  await app.setSpeed(50);
  await page.getByRole('combobox', { name: 'Samples' }).selectOption({ label: 'HorizontalPodAutoscaler' });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(app.applyResults).toContainText('horizontalpodautoscaler.autoscaling/php-apache created');
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('1/1', { timeout: 60_000 });

  // The HPA measures the idle pod: a percent or so of its 200m request.
  const { output } = await app.openConsole();
  await expect(async () => {
    await app.kubectl('kubectl get hpa php-apache');
    await expect(output).toContainText(/php-apache\s+Deployment\/php-apache\s+cpu: [0-4]%\/50%\s+1\s+10\s+1\s/, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });

  // Raise the load from the Deployment's inspector.
  await page.getByRole('button', { name: 'Inspect deployment/php-apache in default', exact: true }).click();
  const inspector = app.inspector;
  await expect(inspector.getByRole('heading', { name: 'Deployment/php-apache' })).toBeVisible();
  await expect(inspector.getByRole('slider', { name: 'Load' })).toBeVisible();
  await inspector.getByRole('spinbutton', { name: 'Load (millicores)' }).fill('1500');
  await inspector.getByRole('button', { name: 'Set load' }).click();
  await expect(inspector.getByText('current: 1500m')).toBeVisible();

  // The HPA scales the Deployment up (first to 4: the scale-up rate), and keeps going.
  await expect(async () => {
    const status = await app.cell(deployment, 'Status');
    const [, desired] = /^\d+\/(\d+)$/.exec(status) ?? [];
    expect(Number(desired)).toBeGreaterThanOrEqual(4);
  }).toPass({ timeout: 45_000 });
  await app.kubectl('kubectl describe hpa php-apache');
  await expect(output).toContainText(/SuccessfulRescale\s+.*New size: 4; reason: cpu resource utilization \(percentage of request\) above target/);
  expect(app.errors).toEqual([]);
});
