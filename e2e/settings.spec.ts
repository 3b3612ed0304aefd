import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

const inputs = {
  grace: /^Node monitor grace period/,
  toleration: /^Default toleration seconds/,
  pull: /^Image pull time/,
  status: /^Node status update frequency/,
};

test('cluster settings: real defaults marked, errors inline, Demo timings applied and kept across a reload', async ({ page }) => {
  const app = await new Playground(page).goto();
  let dialog = await app.openSettings();
  const field = (name: RegExp) => dialog.getByRole('spinbutton', { name });

  await expect(field(inputs.grace)).toHaveValue('40');
  await expect(field(inputs.toleration)).toHaveValue('300');
  await expect(field(inputs.pull)).toHaveValue('0');
  await expect(field(inputs.status)).toHaveValue('10');
  await expect(dialog.getByText('Kubernetes default: 40 s')).toBeVisible();
  await expect(dialog.getByText('Kubernetes default: 300 s')).toBeVisible();
  await expect(dialog.getByText('Simulator default: 0 s (by image size)')).toBeVisible();
  await expect(dialog.getByText('new pods only')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('settings.png') });

  // The worker refuses an out-of-range value; the error sits on its input and nothing changes.
  await field(inputs.grace).fill('2');
  await dialog.getByRole('button', { name: 'Apply settings' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Invalid value: 2: must be between 5 and 3600, inclusive');
  await expect(field(inputs.grace)).toHaveAttribute('aria-invalid', 'true');

  await dialog.getByRole('button', { name: 'Demo timings' }).click();
  await expect(field(inputs.grace)).toHaveValue('10');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Apply settings' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Settings applied.');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();

  await app.reload();
  dialog = await app.openSettings();
  await expect(field(inputs.grace)).toHaveValue('10');
  await expect(field(inputs.toleration)).toHaveValue('30');
  await expect(field(inputs.pull)).toHaveValue('1');
  await expect(field(inputs.status)).toHaveValue('5');

  // Restore defaults fills the real defaults back in; Escape closes without applying them.
  await dialog.getByRole('button', { name: 'Restore defaults' }).click();
  await expect(field(inputs.toleration)).toHaveValue('300');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  dialog = await app.openSettings();
  await expect(field(inputs.toleration)).toHaveValue('30');
  expect(app.errors).toEqual([]);
});
